package all

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

var update = flag.Bool("update", false, "rewrite the playthrough goldens under testdata/golden/")

// TestGames runs the generic suite for every registered game, so a game
// added to this package is covered without a line here, and compares each
// game's playthrough with its golden (testdata/golden/playthrough-ID.golden;
// -update writes it, for a change of play made on purpose).
func TestGames(t *testing.T) {
	gs := game.Games()
	if len(gs) < 2 {
		t.Fatalf("%d games registered; alphatactics and goofspiel at least", len(gs))
	}
	for _, g := range gs {
		t.Run(g.ID(), func(t *testing.T) {
			gametest.Run(t, g)
			t.Run("Playthrough", func(t *testing.T) {
				rs, _ := g.Default()
				got := gametest.Playthrough(t, rs)
				path := filepath.Join("..", "..", "testdata", "golden", "playthrough-"+g.ID()+".golden")
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s plays differently from %s (run with -update if that is meant)", g.ID(), path)
				}
			})
		})
	}
}
