package all

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
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

// TestEmbeddedRulesets holds every registered game to game.Rulesets'
// contract: at least one, the first holding exactly the files Default
// returns, names unique and non-empty, a one-line summary, and each loading
// with the game's own loader as a ruleset of that game.
func TestEmbeddedRulesets(t *testing.T) {
	for _, g := range game.Games() {
		t.Run(g.ID(), func(t *testing.T) {
			all := game.Rulesets(g)
			if len(all) == 0 {
				t.Fatal("no embedded ruleset")
			}
			_, def := g.Default()
			if got, want := treeOf(t, all[0].Files), treeOf(t, def); !reflect.DeepEqual(got, want) {
				t.Errorf("the first ruleset %s is not the default's files: %v, want %v", all[0].Name, keys(got), keys(want))
			}
			seen := map[string]bool{}
			for _, e := range all {
				if e.Name == "" || seen[e.Name] || strings.ContainsAny(e.Name, " /\n") {
					t.Errorf("name %q empty, repeated or not one word", e.Name)
				}
				seen[e.Name] = true
				if e.Summary == "" || strings.Contains(e.Summary, "\n") {
					t.Errorf("%s: summary %q not one line", e.Name, e.Summary)
				}
				rs, err := g.Load(e.Files, ".")
				if err != nil {
					t.Errorf("%s does not load: %v", e.Name, err)
					continue
				}
				if rs.Game() != g.ID() {
					t.Errorf("%s loads as a ruleset of %q", e.Name, rs.Game())
				}
			}
		})
	}
}

func treeOf(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
