package cards

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The neutral packages import no game: Alpha Tactics lives under
// games/alphatactics and a second game must be able to use cards, effects,
// game and printing without it (design game-neutral-core.md, steps 3 and 8;
// step 11 extends the list to bots, then analysis and reports). What their
// tests import counts too, except printing's and bots': printing's tests
// print Alpha Tactics' cards through the game's faces, which the PNG
// goldens fix, and bots' run the core's bots and never-peek check on every
// registered game (games/all), so for those only the package itself is
// checked. Alpha Tactics' own bots live in games/alphatactics/ai.
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
		{[]string{"printing", "bots"}, false},
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

// TestReportsImportNoGame: reports reaches a game only through analysis,
// which still runs Alpha Tactics' card values, impact, diff and ladder on
// its engine (steps 5c and 5d): reports itself imports no games/ package,
// and every one in its dependencies is one of analysis'. Once analysis is
// neutral, reports joins TestNeutralImportsNoGame's list. (Its tests use
// Alpha Tactics as their fixture, as printing's do.)
func TestReportsImportNoGame(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the imports with")
	}
	const module = "github.com/cardlab/cardlab/"
	list := func(args ...string) []string {
		out, err := exec.Command(goTool, append([]string{"list"}, args...)...).Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return strings.Fields(string(out))
	}
	own := list("-f", `{{join .Imports " "}}`, module+"reports")
	if !slices.Contains(own, module+"analysis") || !slices.Contains(own, module+"game") {
		t.Fatalf("reports' imports %v: want analysis and game among them", own)
	}
	for _, p := range own {
		if strings.HasPrefix(p, module+"games/") {
			t.Errorf("reports imports %s", p)
		}
	}
	viaAnalysis := list("-deps", "-f", "{{.ImportPath}}", module+"analysis")
	for _, p := range list("-deps", "-f", "{{.ImportPath}}", module+"reports") {
		if strings.HasPrefix(p, module+"games/") && !slices.Contains(viaAnalysis, p) {
			t.Errorf("reports depends on %s, which analysis does not bring", p)
		}
	}
}
