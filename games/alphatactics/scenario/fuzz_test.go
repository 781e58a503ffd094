package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// FuzzLoad feeds the scenario loader arbitrary edits of the example
// scenarios: it must never panic, and it either returns a scenario or a
// positioned error list, never both or neither.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "scenarios", "*.yaml"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	rs := rules.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Load(data, "fuzz.yaml", rs)
		switch {
		case err == nil && sc == nil:
			t.Fatal("no scenario and no error")
		case err != nil && sc != nil:
			t.Fatalf("a scenario and an error: %v", err)
		case err != nil:
			var list cards.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty cards.ErrorList: %v", err)
			}
			for _, e := range list {
				if e.Pos.File != "fuzz.yaml" {
					t.Fatalf("error without the file name: %v", e)
				}
			}
		}
	})
}
