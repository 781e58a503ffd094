package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// rulesetFiles are the files of a game's embedded ruleset name, by slash path.
func rulesetFiles(t *testing.T, gameID, name string) map[string][]byte {
	t.Helper()
	g, ok := game.Lookup(gameID)
	if !ok {
		t.Fatalf("game %s not registered", gameID)
	}
	for _, e := range game.Rulesets(g) {
		if e.Name != name {
			continue
		}
		out := map[string][]byte{}
		err := fs.WalkDir(e.Files, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			out[p], err = fs.ReadFile(e.Files, p)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Fatalf("game %s embeds no ruleset %s", gameID, name)
	return nil
}

// Every embedded ruleset of every game is a designer's starting point:
// init --ruleset writes exactly its files, validate accepts them and
// simulate plays them.
func TestInitRuleset(t *testing.T) {
	tests := []struct {
		game, ruleset string
		args          []string // init's flags; the game and ruleset when nil
		validate      string   // prefix of validate's stdout
	}{
		{"alphatactics", "default", nil, "ok: Star Trek Conquest – Alpha Tactics 1.2.4: 4 factions"},
		{"goofspiel", "default", nil, "ok: Goofspiel 1.0: Goofspiel, 2–4 seats"},
		{"eclipse", "eclipse-1e", nil, "ok: Eclipse, first edition (ship combat) 1.0: "},
		{"eclipse", "eclipse-2e", nil, "ok: Eclipse, second edition (ship combat) 1.0: "},
		{"spacetrace", "spacetrace-first", nil, "ok: Spacetrace first game (reconstructed) 0.1: first_game, "},
		{"spacetrace", "spacetrace-second", nil, "ok: Spacetrace second game (reconstructed) 0.1: second_game, "},
		{"spacetrace", "spacetrace-reference", nil, "ok: Spacetrace reference deck (reconstructed) 0.1: full, "},
		// A name only one game embeds picks that game without --game.
		{"spacetrace", "spacetrace-reference", []string{"--ruleset", "spacetrace-reference"}, "ok: Spacetrace reference deck (reconstructed) "},
		{"eclipse", "eclipse-2e", []string{"--ruleset", "eclipse-2e"}, "ok: Eclipse, second edition (ship combat) "},
		// "default" is the default game's when --game is not given.
		{"alphatactics", "default", []string{"--ruleset", "default"}, "ok: Star Trek Conquest – Alpha Tactics 1.2.4: "},
	}
	// The table covers every embedded ruleset of the real games, so that
	// one added later is written and played here too.
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.game+"/"+tt.ruleset] = true
	}
	for _, g := range game.Games() {
		if g.ID() == tinyID {
			continue
		}
		for _, e := range game.Rulesets(g) {
			if !covered[g.ID()+"/"+e.Name] {
				t.Errorf("no case for %s's embedded ruleset %s", g.ID(), e.Name)
			}
		}
	}
	for _, tt := range tests {
		args := tt.args
		if args == nil {
			args = []string{"--game", tt.game, "--ruleset", tt.ruleset}
		}
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "mine")
			code, stdout, stderr := cardlab(t, append(append([]string{"init"}, args...), dir)...)
			if code != 0 || stdout != "" {
				t.Fatalf("init: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			want := rulesetFiles(t, tt.game, tt.ruleset)
			got := map[string][]byte{}
			for p, data := range dirFiles(t, dir) {
				got[filepath.ToSlash(p)] = data
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("wrote %d files, want the %d of %s/%s", len(got), len(want), tt.game, tt.ruleset)
			}
			if !strings.Contains(stderr, "cardlab validate --rules "+dir) {
				t.Errorf("no next steps:\n%s", stderr)
			}
			if code, stdout, stderr := cardlab(t, "validate", "--rules", dir); code != 0 || !strings.HasPrefix(stdout, tt.validate) {
				t.Errorf("validate: exit %d\nstdout: %s\nwant prefix %q\nstderr: %s", code, stdout, tt.validate, stderr)
			}
			if code, stdout, stderr := cardlab(t, "simulate", "--rules", dir, "--games", "20"); code != 0 || !strings.Contains(stdout, "20 games") {
				t.Errorf("simulate: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			// Again: the files are there already, nothing is written.
			if code, _, stderr := cardlab(t, append(append([]string{"init"}, args...), dir)...); code != 0 || !strings.Contains(stderr, "nothing to write") {
				t.Errorf("second init: exit %d: %s", code, stderr)
			}
		})
	}
}

// An unknown --ruleset is a usage error naming the game's rulesets with a
// did-you-mean, and writes nothing; another ruleset of the same game over
// a folder holding one is refused as init refuses any file in the way.
func TestInitRulesetRefused(t *testing.T) {
	const stValid = "(valid: spacetrace-reference, spacetrace-first, spacetrace-second)"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"misspelt", []string{"--game", "spacetrace", "--ruleset", "spacetrace-refrence"},
			`invalid --ruleset for game spacetrace: unknown ruleset "spacetrace-refrence"; did you mean "spacetrace-reference"? ` + stValid},
		{"misspelt without --game", []string{"--ruleset", "spacetrace-refrence"},
			`invalid --ruleset for game spacetrace: unknown ruleset "spacetrace-refrence"; did you mean "spacetrace-reference"? ` + stValid},
		{"another game's", []string{"--game", "eclipse", "--ruleset", "spacetrace-reference"},
			`invalid --ruleset for game eclipse: unknown ruleset "spacetrace-reference" (valid: eclipse-1e, eclipse-2e); 'cardlab games' lists every game's rulesets`},
		{"unknown everywhere", []string{"--ruleset", "chess"},
			`invalid --ruleset for game alphatactics: unknown ruleset "chess" (valid: default)`},
		{"empty", []string{"--game", "eclipse", "--ruleset", ""},
			`invalid --ruleset for game eclipse: unknown ruleset "" (valid: eclipse-1e, eclipse-2e)`},
		{"the edition, not the game", []string{"--game", "eclipse", "--ruleset", "2e"},
			`unknown ruleset "2e"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "x")
			code, stdout, stderr := cardlab(t, append(append([]string{"init"}, tt.args...), out)...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "Usage:") {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant: %s", code, stdout, stderr, tt.want)
			}
			if _, err := os.Lstat(out); err == nil {
				t.Errorf("%s was created", out)
			}
		})
	}

	dir := filepath.Join(t.TempDir(), "deck")
	if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	before := dirFiles(t, dir)
	code, _, stderr := cardlab(t, "init", "--game", "spacetrace", "--ruleset", "spacetrace-first", dir)
	if code != 1 || !strings.Contains(stderr, "not overwriting existing files") || strings.Contains(stderr, "Usage:") {
		t.Errorf("another ruleset over the default: exit %d: %s", code, stderr)
	}
	if after := dirFiles(t, dir); !reflect.DeepEqual(after, before) {
		t.Error("the refused init changed the directory")
	}
}

// init --help teaches --ruleset with an example a designer can paste, and
// games --help with one of its own.
func TestInitRulesetHelp(t *testing.T) {
	for cmd, want := range map[string][]string{
		"init":  {"--ruleset NAME", "cardlab init --game spacetrace --ruleset spacetrace-first mydeck", "'cardlab games'\nlists the games and their rulesets"},
		"games": {"cardlab init --game eclipse --ruleset eclipse-2e myfleets", `"rulesets": [{"name",`},
	} {
		code, stdout, stderr := cardlab(t, cmd, "--help")
		if code != 0 {
			t.Fatalf("%s --help: exit %d: %s", cmd, code, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s --help lacks %q:\n%s", cmd, w, stdout)
			}
		}
	}
}
