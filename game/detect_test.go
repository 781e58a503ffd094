package game

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/cards"
)

// withGames makes ids the registered games for one test, and restores the
// registry after it (TestRegistry counts what is registered).
func withGames(t *testing.T, ids ...string) {
	t.Helper()
	mu.Lock()
	saved := games
	games = map[string]Game{}
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); games = saved; mu.Unlock() })
	for _, id := range ids {
		Register(named(id))
	}
}

func TestDetect(t *testing.T) {
	withGames(t, "alphatactics", "goofspiel")
	tests := []struct {
		name, rules string // rules "" for no rules.yaml at all
		prefix      string
		want        string // the game's ID, or the error
	}{
		{"no key is alphatactics", "name: x\nversion: \"1\"\n", "", "alphatactics"},
		{"named alphatactics", "game: alphatactics\nname: x\n", "", "alphatactics"},
		{"named goofspiel", "name: x\ngame: goofspiel\n", "my", "goofspiel"},
		{"key not at the top level", "name: x\nfactions:\n  - game: goofspiel\n", "", "alphatactics"},
		{"misspelt", "name: x\ngame: goofspeil\n", "",
			`rules.yaml:2:7: unknown game "goofspeil"; did you mean "goofspiel"? (registered games: alphatactics, goofspiel)`},
		{"prefix in the position", "game: chess\n", "dir/sub/", `dir/sub/rules.yaml:1:7: unknown game "chess" (registered games: alphatactics, goofspiel)`},
		{"case differs", "game: Goofspiel\n", "", `rules.yaml:1:7: unknown game "Goofspiel"; did you mean "goofspiel"?`},
		{"a list", "game: [goofspiel]\n", "", `rules.yaml:1:7: game: expected a string, got a list (registered games: alphatactics, goofspiel)`},
		{"a number", "game: 3\n", "", `rules.yaml:1:7: game: expected a string, got`},
		{"empty", "game: \"\"\n", "", `rules.yaml:1:7: game: must not be empty`},
		{"null", "game:\n", "", `rules.yaml:1:6: game: expected a string`},
		// What the game's loader reports in its own words, as before the key.
		{"no rules.yaml", "", "", "alphatactics"},
		{"syntax error", "game: goofspiel\n  bad: [\n", "", "alphatactics"},
		{"not a mapping", "- game: goofspiel\n", "", "alphatactics"},
		{"empty file", "\n", "", "alphatactics"},
		{"too large", "game: goofspiel\n#" + strings.Repeat("x", cards.MaxFileSize), "", "alphatactics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			if tt.rules != "" {
				fsys[RulesFile] = &fstest.MapFile{Data: []byte(tt.rules)}
			}
			g, err := Detect(fsys, tt.prefix)
			if err != nil {
				var list cards.ErrorList
				if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Line == 0 {
					t.Errorf("error %v is not one positioned error", err)
				}
				if !strings.HasPrefix(err.Error(), tt.want) {
					t.Errorf("error %q, want %q", err, tt.want)
				}
				return
			}
			if g.ID() != tt.want {
				t.Errorf("game %q, want %q", g.ID(), tt.want)
			}
		})
	}
}

// Without the default game linked in, an unnamed ruleset is an error, not
// a nil game.
func TestDetectDefaultMissing(t *testing.T) {
	withGames(t, "goofspiel")
	_, err := Detect(fstest.MapFS{RulesFile: {Data: []byte("name: x\n")}}, "")
	if err == nil || !strings.Contains(err.Error(), `"alphatactics" is not linked`) {
		t.Fatalf("err = %v", err)
	}
}

// Detect never panics and answers a game or an error, whatever rules.yaml
// holds.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{"game: goofspiel\n", "game: [a]\n", "name: x\n", "- a\n", "game: &a x\nb: *a\n", "game: !!binary eA==\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		withGames(t, "alphatactics", "goofspiel")
		g, err := Detect(fstest.MapFS{RulesFile: {Data: data}}, "p")
		if (g == nil) == (err == nil) {
			t.Fatalf("Detect(%q) = %v, %v: want exactly one of a game and an error", data, g, err)
		}
	})
}
