package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// tinyGame is a second registered game for the command line's tests, so
// that they do not wait for a real one: a ruleset is rules.yaml with its
// game, name, version and sides, read with the neutral cards.Reader.
type tinyGame struct{}

const tinyID = "cmdtest"

func init() { game.Register(tinyGame{}) }

func (tinyGame) ID() string   { return tinyID }
func (tinyGame) Name() string { return "Command Test" }
func (tinyGame) Vocabulary() game.Vocabulary {
	return game.Vocabulary{Side: "player", Sides: "players", Score: "points", Length: "turn"}
}
func (tinyGame) Effects() *effects.Registry          { return nil }
func (tinyGame) Schemas() (map[string][]byte, error) { return nil, nil }

var tinyDefault = fstest.MapFS{"rules.yaml": {Data: []byte("game: cmdtest\nname: Tiny\nversion: \"1\"\nsides: [north, south]\n")}}

func (g tinyGame) Default() (game.Ruleset, fs.FS) {
	rs, err := g.Load(tinyDefault, ".")
	if err != nil {
		panic(err)
	}
	return rs, tinyDefault
}

func (tinyGame) Load(fsys fs.FS, dir string) (game.Ruleset, error) {
	r := cards.NewReader(fsys, dir)
	if !r.ReadDir() || !r.Has("rules.yaml") {
		r.Errorf(cards.Pos{File: r.DirName()}, "not a ruleset: rules.yaml not found")
		return nil, r.Errs
	}
	root := r.Parse("rules.yaml", r.Data["rules.yaml"])
	if root == nil {
		return nil, r.Errs
	}
	m := r.Object("rules.yaml", root, "rules.yaml", []string{"game", "name", "version", "sides"})
	rs := &tinyRuleset{}
	if m != nil {
		m.Require("name", "version", "sides")
		rs.name, _ = m.Str("name", false)
		rs.version, _ = m.Str("version", false)
		rs.sides, _, _ = m.Strs("sides")
	}
	if len(r.Errs) > 0 {
		return nil, r.Errs
	}
	rs.hash = cards.HashFiles(r.Data)
	return rs, nil
}

type tinyRuleset struct {
	name, version, hash string
	sides               []string
}

func (*tinyRuleset) Game() string { return tinyID }
func (r *tinyRuleset) Info() game.Info {
	return game.Info{Name: r.name, Version: r.version, Hash: r.hash}
}
func (*tinyRuleset) Seats() (int, int) { return 2, 2 }
func (r *tinyRuleset) Sides() []game.Side {
	out := make([]game.Side, len(r.sides))
	for i, s := range r.sides {
		out[i] = game.Side{ID: s, Name: s}
	}
	return out
}
func (*tinyRuleset) Mirror() bool       { return true }
func (*tinyRuleset) Cards() []game.Card { return []game.Card{{ID: "one", Side: -1, Copies: 3}} }
func (*tinyRuleset) NewState([]int, uint64) (game.State, error) {
	return nil, fmt.Errorf("cmdtest: not playable")
}

func TestGames(t *testing.T) {
	code, stdout, stderr := cardlab(t, "games")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	table, sets, ok := strings.Cut(stdout, "\n\nRulesets (cardlab init --game GAME --ruleset NAME DIR; the first of each game is its default):\n")
	if !ok {
		t.Fatalf("no rulesets below the table:\n%s", stdout)
	}
	checkRulesetsTable(t, sets)
	lines := strings.Split(table, "\n")
	if f := strings.Fields(lines[0]); !reflect.DeepEqual(f, []string{"ID", "NAME", "SIDE", "SEATS", "MIRROR", "EFFECTS", "COMMANDS"}) {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 1+len(game.Games()) {
		t.Errorf("%d lines for %d games:\n%s", len(lines), len(game.Games()), stdout)
	}
	// Columns are two or more spaces apart; other games' rows may widen them.
	rows := map[string][]string{}
	for _, l := range lines[1:] {
		f := regexp.MustCompile(`\s{2,}`).Split(l, -1)
		rows[f[0]] = f
	}
	for id, want := range map[string][]string{
		rules.GameID: {rules.GameID, "Star Trek Conquest – Alpha Tactics", "faction", "2-4", "no", strconv.Itoa(len(handlers.AlphaTactics.Names())), "play,score,cards,print"},
		"goofspiel":  {"goofspiel", "Goofspiel", "player", "2-4", "yes", "0", "play,cards,print"},
		"eclipse":    {"eclipse", "Eclipse ship combat", "fleet", "2", "yes", "0", "print"},
		tinyID:       {tinyID, "Command Test", "player", "2", "yes", "0", "-"},
	} {
		if !reflect.DeepEqual(rows[id], want) {
			t.Errorf("row of %s: %q, want %q\n%s", id, rows[id], want, stdout)
		}
	}

	code, stdout, _ = cardlab(t, "games", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d", code)
	}
	var res struct{ Games []gameRow }
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	var ids []string
	for _, g := range res.Games {
		ids = append(ids, g.ID)
	}
	if !reflect.DeepEqual(ids, game.IDs()) {
		t.Errorf("--json ids %v, want %v", ids, game.IDs())
	}
	for _, g := range res.Games {
		if g.ID == rules.GameID && (g.Seats.Min != 2 || g.Seats.Max != 4 || g.Mirror || g.Sides != "factions" || g.Effects == 0 ||
			strings.Join(g.Commands, ",") != "play,score,cards,print") {
			t.Errorf("--json alphatactics: %+v", g)
		}
		if g.ID == tinyID && (g.Commands == nil || len(g.Commands) != 0) {
			t.Errorf("--json %s: commands %#v, want an empty list", tinyID, g.Commands)
		}
		var names []string
		for _, r := range g.Rulesets {
			names = append(names, r.Name)
			if r.Summary == "" {
				t.Errorf("--json %s: ruleset %s without a summary", g.ID, r.Name)
			}
		}
		want := map[string]string{"eclipse": "eclipse-1e,eclipse-2e", "spacetrace": "spacetrace-reference,spacetrace-first,spacetrace-second"}[g.ID]
		if want == "" {
			want = "default"
		}
		if strings.Join(names, ",") != want {
			t.Errorf("--json %s: rulesets %v, want %s", g.ID, names, want)
		}
	}

	if code, _, stderr := cardlab(t, "games", "x"); code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("games x: exit %d: %s", code, stderr)
	}
}

// checkRulesetsTable checks the rulesets below cardlab games' table: a
// header, then each game's rulesets, its ID on its first (the default) only.
func checkRulesetsTable(t *testing.T, sets string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(sets, "\n"), "\n")
	if f := strings.Fields(lines[0]); !reflect.DeepEqual(f, []string{"GAME", "RULESET", "SUMMARY"}) {
		t.Errorf("rulesets header %q", lines[0])
	}
	var got [][]string
	for _, l := range lines[1:] {
		got = append(got, regexp.MustCompile(`\s{2,}`).Split(l, 3))
	}
	var want [][]string
	for _, g := range game.Games() {
		for i, e := range game.Rulesets(g) {
			id := g.ID()
			if i > 0 {
				id = ""
			}
			want = append(want, []string{id, e.Name, e.Summary})
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rulesets %q\nwant %q", got, want)
	}
	for _, w := range []string{
		"\nspacetrace    spacetrace-reference  the full game: the reconstructed 40-card reference deck\n",
		"\n              spacetrace-first      the simplified first game: ",
		"\neclipse       eclipse-1e            first edition",
		"\nalphatactics  default               Star Trek Conquest – Alpha Tactics 1.2.4\n",
	} {
		if !strings.Contains("\n"+sets, w) {
			t.Errorf("rulesets lack %q:\n%s", w, sets)
		}
	}
}

// withGameKey writes the default ruleset with line put first in rules.yaml.
func withGameKey(t *testing.T, line string) string {
	t.Helper()
	dir := writeDefault(t)
	p := filepath.Join(dir, "rules.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte(line+"\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rules.yaml's game: key picks the loader: absent or alphatactics is Alpha
// Tactics, an unknown game is a positioned error, another game's ruleset
// validates with that game's loader and the commands that play refuse it.
func TestRulesetGameKey(t *testing.T) {
	at := withGameKey(t, "game: alphatactics")
	typo := withGameKey(t, "game: cmdtets")
	list := withGameKey(t, "game: [alphatactics]")
	tiny := filepath.Join(t.TempDir(), "tiny")
	if code, _, stderr := cardlab(t, "init", "--game", tinyID, tiny); code != 0 {
		t.Fatalf("init --game %s: exit %d: %s", tinyID, code, stderr)
	}
	tinyBroken := filepath.Join(t.TempDir(), "tinyb")
	if err := os.MkdirAll(tinyBroken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tinyBroken, "rules.yaml"), []byte("game: cmdtest\nname: Tiny\nversoin: \"1\"\nsides: [a, b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := rules.Default()
	okAT := "ok: " + rs.Name + " " + rs.Version + ": 4 factions, 132 player cards, 24 targets (hash "

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // prefix of stdout ("" for none)
		stderr []string
	}{
		{"alphatactics named", []string{"validate", "--rules", at}, 0, okAT, nil},
		{"unknown game", []string{"validate", "--rules", typo}, 1, "",
			[]string{typo + `/rules.yaml:1:7: unknown game "cmdtets"; did you mean "cmdtest"? (registered games: ` + strings.Join(game.IDs(), ", ") + ")\n1 error\n"}},
		{"game not a string", []string{"validate", "--rules", list}, 1, "",
			[]string{list + `/rules.yaml:1:7: game: expected a string, got a list`}},
		{"another game validates", []string{"validate", "--rules", tiny}, 0, "ok: Tiny 1: Command Test, 2 seats, 2 players (one may take several seats), 3 cards (hash ", nil},
		{"another game's errors name the directory", []string{"validate", "--rules", tinyBroken}, 1, "",
			[]string{tinyBroken + `/rules.yaml:3:1: unknown key "versoin" in rules.yaml, did you mean "version"?`}},
		{"simulate plays another game", []string{"simulate", "--rules", tiny, "--games", "2", "--bots", "random"}, 1, "",
			[]string{"cmdtest: not playable"}},
		{"report plays another game", []string{"report", "--rules", tiny, "--bots", "random", "--out", filepath.Join(t.TempDir(), "r")}, 1, "",
			[]string{"cmdtest: not playable"}},
		{"cards refuses a game without a card list", []string{"cards", "--rules", tiny}, 1, "",
			[]string{"cardlab: cardlab cards cannot list the cards of Command Test: the game has no card list\n"}},
		{"play refuses a game without a trace", []string{"play", "--rules", tiny, "--players", "north,south"}, 1, "",
			[]string{"cardlab: cardlab play cannot show a game of Command Test: the game has no trace\n"}},
		{"score refuses a game without scenarios", []string{"score", "--rules", tiny, "no-such-file.yaml"}, 1, "",
			[]string{"cardlab: cardlab score plays scenarios, and Command Test has none"}},
		{"diff refuses another game's base", []string{"diff", "--rules", at, "--base", tiny, "--games", "2"}, 1, "",
			[]string{"cardlab: cardlab diff compares two versions of one game; the base is cmdtest, the variant alphatactics"}},
		{"simulate names an unknown game", []string{"simulate", "--rules", typo, "--games", "2"}, 1, "",
			[]string{"ruleset " + typo + " is invalid (run 'cardlab validate --rules " + typo + "' for every error):\n" + typo + `/rules.yaml:1:7: unknown game "cmdtets"`}},
		{"simulate plays alphatactics named", []string{"simulate", "--rules", at, "--games", "2", "--bots", "random", "--players", "vulcan,klingon"}, 0, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if tt.code != 0 && stdout != "" {
				t.Errorf("stdout: %s", stdout)
			}
			if !strings.HasPrefix(stdout, tt.stdout) {
				t.Errorf("stdout %q, want prefix %q", stdout, tt.stdout)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, "Usage:") || strings.Contains(stderr, "goroutine") {
				t.Errorf("usage or a stack for a bad ruleset:\n%s", stderr)
			}
		})
	}

	// --json puts the unknown game's position in its fields.
	code, stdout, _ := cardlab(t, "validate", "--rules", typo, "--json")
	var res struct {
		Valid  bool
		Errors []jsonError
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != 1 || res.Valid || len(res.Errors) != 1 {
		t.Fatalf("--json: exit %d, %v: %s", code, err, stdout)
	}
	if e := res.Errors[0]; e.File != typo+"/rules.yaml" || e.Line != 1 || e.Col != 7 || !strings.HasPrefix(e.Message, `unknown game "cmdtets"`) {
		t.Errorf("--json error %+v", e)
	}
}

func TestInitGame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	code, stdout, stderr := cardlab(t, "init", "--game", tinyID, dir)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "wrote 1 files to "+dir) || !strings.Contains(stderr, "cardlab validate --rules "+dir) {
		t.Errorf("stderr:\n%s", stderr)
	}
	if got := dirFiles(t, dir); len(got) != 1 || string(got["rules.yaml"]) != string(tinyDefault["rules.yaml"].Data) {
		t.Errorf("wrote %v", got)
	}

	// The same safety as the default: an edited file stops a second init.
	corrupt(t, dir, "rules.yaml", "Tiny", "Mine")
	before := dirFiles(t, dir)
	if code, _, stderr := cardlab(t, "init", "--game", tinyID, dir); code != 1 || !strings.Contains(stderr, "not overwriting") {
		t.Errorf("second init: exit %d: %s", code, stderr)
	}
	if after := dirFiles(t, dir); !reflect.DeepEqual(after, before) {
		t.Error("second init changed the directory")
	}
	// A directory holding another game's files is as much in the way.
	if code, _, stderr := cardlab(t, "init", dir); code != 1 || !strings.Contains(stderr, "not overwriting") {
		t.Errorf("init of alphatactics over it: exit %d: %s", code, stderr)
	}

	for _, tt := range []struct{ game, want string }{
		{"cmdtset", `invalid --game: unknown game "cmdtset"; did you mean "cmdtest"? (valid: ` + strings.Join(game.IDs(), ", ") + ")"},
		{"", `invalid --game: unknown game ""`},
		{"chess", `invalid --game: unknown game "chess" (valid: `},
	} {
		out := filepath.Join(t.TempDir(), "x")
		code, stdout, stderr := cardlab(t, "init", "--game", tt.game, out)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "Usage:") {
			t.Errorf("--game %q: exit %d\nstdout: %s\nstderr: %s", tt.game, code, stdout, stderr)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("--game %q: %s was created", tt.game, out)
		}
	}
}

// Another game's messages name files as Alpha Tactics' do: with --rules in
// front, "./x" as "x", whatever its loader was given.
func TestPrefixErrors(t *testing.T) {
	tests := []struct{ prefix, file, want string }{
		{"my", "./rules.yaml", "my/rules.yaml"},
		{"my", "rules.yaml", "my/rules.yaml"},
		{"my", "my/rules.yaml", "my/rules.yaml"},
		{"my", ".", "my"},
		{"my", "", "my"},
		{"", "./rules.yaml", "rules.yaml"},
		{"", "rules.yaml", "rules.yaml"},
		{"", ".", "."},
		{"../up/dir", "./deck.yaml", "../up/dir/deck.yaml"},
		{"/abs", "./rules.yaml", "/abs/rules.yaml"},
	}
	for _, tt := range tests {
		in := cards.ErrorList{{Pos: cards.Pos{File: tt.file, Line: 3, Col: 1}, Msg: "m"}}
		var got cards.ErrorList
		if !errors.As(prefixErrors(in, tt.prefix), &got) || len(got) != 1 {
			t.Fatalf("%q, %q: not one positioned error", tt.prefix, tt.file)
		}
		if got[0].Pos.File != tt.want || got[0].Pos.Line != 3 || in[0].Pos.File != tt.file {
			t.Errorf("prefix %q, file %q: %+v, want %q (and the input unchanged)", tt.prefix, tt.file, got[0].Pos, tt.want)
		}
	}
	if err := fmt.Errorf("plain"); prefixErrors(err, "my") != err {
		t.Error("an error without positions changed")
	}
}

// validate's line names one side in the singular.
func TestPrintValidSides(t *testing.T) {
	for sides, want := range map[int]string{1: "2 seats, 1 player (every seat plays it),", 2: "2 seats, 2 players (one may take several seats),"} {
		var b strings.Builder
		rs := &tinyRuleset{name: "T", version: "1", hash: "0123456789", sides: []string{"a", "b"}[:sides]}
		if err := printValid(&b, tinyGame{}, rs); err != nil || !strings.Contains(b.String(), want) {
			t.Errorf("%d sides: %q, want %q", sides, b.String(), want)
		}
	}
}

// The first game beside Alpha Tactics, end to end on the command line: its
// default written, validated by its own loader, a misspelt game: named at
// its position, and the commands that play but simulate refusing it by
// name (TestSimulateGoofspiel plays it).
func TestGoofspielRuleset(t *testing.T) {
	if _, ok := game.Lookup("goofspiel"); !ok {
		t.Fatal("goofspiel is not registered: games/all does not link it")
	}
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init --game goofspiel: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := cardlab(t, "validate", "--rules", dir); code != 0 || !strings.HasPrefix(stdout, "ok: Goofspiel ") {
		t.Errorf("validate: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(string(data[:strings.Index(string(data), "game: goofspiel")]), "\n")
	corrupt(t, dir, "rules.yaml", "game: goofspiel", "game: goofspeil")
	want := fmt.Sprintf("%s/rules.yaml:%d:7: unknown game \"goofspeil\"; did you mean \"goofspiel\"? (registered games: %s)\n",
		dir, line, strings.Join(game.IDs(), ", "))
	if code, stdout, stderr := cardlab(t, "validate", "--rules", dir); code != 1 || stdout != "" || stderr != want+"1 error\n" {
		t.Errorf("validate of a misspelt game: exit %d\nstderr %q\nwant   %q", code, stderr, want+"1 error\n")
	}
}

// TestSimulateGoofspiel is simulate on another game than Alpha Tactics: its
// sides (one, on every seat), its bots, its counts as tables, its records;
// the JSON names the game, and two shards merge to the whole run.
func TestSimulateGoofspiel(t *testing.T) {
	dir := t.TempDir()
	rs := filepath.Join(dir, "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", rs); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := cardlab(t, "simulate", "--rules", rs, "--games", "60", "--bots", "greedy,random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Goofspiel 1.0 (game goofspiel, ruleset ", "60 games: 1 lineup × 60, bots greedy,random",
		"\nPlayers\n", "Seats at 2-player tables", "Prizes: each prize card", "  prize-13     13      60", "Bids: each bid card",
		"  bid-1       1  120", "per game: lost_points "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the tables lack %q:\n%s", want, stdout)
		}
	}
	whole, games := filepath.Join(dir, "whole.json"), filepath.Join(dir, "g.jsonl")
	args := []string{"simulate", "--rules", rs, "--matchups", "all:2;all:3", "--games", "30", "--bots", "random", "--seed", "4"}
	if code, _, stderr := cardlab(t, append(args, "--out", whole, "--games-out", games)...); code != 0 {
		t.Fatal(stderr)
	}
	var shards []string
	for k := 1; k <= 2; k++ {
		f := filepath.Join(dir, fmt.Sprintf("s%d.json", k))
		if code, _, stderr := cardlab(t, append(args, "--shard", fmt.Sprintf("%d/2", k), "--out", f)...); code != 0 {
			t.Fatal(stderr)
		}
		shards = append(shards, f)
	}
	merged := filepath.Join(dir, "merged.json")
	if code, _, stderr := cardlab(t, append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
		t.Fatal(stderr)
	}
	var a, b map[string]any
	for f, m := range map[string]*map[string]any{whole: &a, merged: &b} {
		data, _ := os.ReadFile(f)
		if err := json.Unmarshal(data, m); err != nil {
			t.Fatal(err)
		}
	}
	if a["ruleset"].(map[string]any)["game"] != "goofspiel" || !reflect.DeepEqual(a["raw"], b["raw"]) || a["raw"].(map[string]any)["prizes"] == nil {
		t.Errorf("the merged shards' counts differ from the whole run's, or the result does not name its game")
	}
	data, _ := os.ReadFile(games)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 60 || !strings.Contains(lines[59], `"factions":["player","player","player"]`) || !strings.Contains(lines[0], `"tied_turns":`) {
		t.Errorf("%d records: %s", len(lines), lines[0])
	}
}
