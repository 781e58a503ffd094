package cards

import (
	"os/exec"
	"strings"
	"testing"
)

// The neutral packages import no game: Alpha Tactics lives under
// games/alphatactics and a second game must be able to use cards and
// effects without it (design game-neutral-core.md, step 3; step 11 extends
// the list to analysis, reports, printing and bots). The test counts what
// their tests import too.
func TestNeutralImportsNoGame(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the imports with")
	}
	const module = "github.com/cardlab/cardlab/"
	out, err := exec.Command(goTool, "list", "-deps", "-test", "-f", "{{.ImportPath}}", module+"cards", module+"effects").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module) {
			seen++
		}
		if strings.HasPrefix(p, module+"games/") {
			t.Errorf("a neutral package imports %s", p)
		}
	}
	if seen < 2 {
		t.Fatalf("go list named %d of the module's packages, want cards and effects at least:\n%s", seen, out)
	}
}
