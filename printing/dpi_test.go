package printing

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestPrintRefusesDPI: a resolution outside MinDPI..MaxDPI — NaN and ±Inf
// included, which a check written as `dpi < lo || dpi > hi` let through to
// fail while drawing (issue 24) — is refused before anything is written.
func TestPrintRefusesDPI(t *testing.T) {
	for _, dpi := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), MinDPI - 1, MaxDPI + 1} {
		out := filepath.Join(t.TempDir(), "out")
		_, err := Print(Options{Ruleset: at(rules.Default()), Out: out, DPI: dpi, Formats: []string{"png"}})
		if err == nil || !strings.Contains(err.Error(), "is out of range") {
			t.Errorf("dpi %g: got %v, want out of range", dpi, err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("dpi %g: %s was created", dpi, out)
		}
	}
}
