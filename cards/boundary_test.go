package cards

import (
	"os/exec"
	"strings"
	"testing"
)

// The neutral packages import no game: Alpha Tactics lives under
// games/alphatactics and a second game must be able to use cards, effects,
// game and printing without it (design game-neutral-core.md, steps 3 and 8;
// step 11 extends the list to bots, analysis and reports). What their
// tests import counts too, except printing's, bots', analysis' and
// reports': printing's tests print Alpha Tactics' cards through the game's
// faces, which the PNG goldens fix, bots' run the core's bots and
// never-peek check on every registered game (games/all), and analysis' and
// reports' pin Alpha Tactics' results (the baselines), so for those only
// the packages themselves and what they import are checked. Alpha Tactics'
// own bots live in games/alphatactics/ai.
func TestNeutralImportsNoGame(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the imports with")
	}
	const module = "github.com/cardlab/cardlab/"
	for _, tc := range []struct {
		pkgs  []string
		tests bool
	}{
		{[]string{"cards", "effects", "game", "game/gametest"}, true},
		{[]string{"printing", "bots", "analysis", "reports"}, false},
	} {
		args := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
		if tc.tests {
			args = append(args, "-test")
		}
		for _, p := range tc.pkgs {
			args = append(args, module+p)
		}
		out, err := exec.Command(goTool, args...).Output()
		if err != nil {
			t.Fatalf("go list %v: %v", tc.pkgs, err)
		}
		seen := 0
		for _, p := range strings.Fields(string(out)) {
			if strings.HasPrefix(p, module) {
				seen++
			}
			if strings.HasPrefix(p, module+"games/") {
				t.Errorf("a neutral package of %v imports %s", tc.pkgs, p)
			}
		}
		if seen < len(tc.pkgs) {
			t.Fatalf("go list named %d of the module's packages, want %v at least:\n%s", seen, tc.pkgs, out)
		}
	}
}
