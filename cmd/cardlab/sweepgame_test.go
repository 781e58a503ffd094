package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/games/goofspiel"
)

// `cardlab sweep` on Goofspiel: its knobs by --card/--field and --param, its
// own default bot (its search), the seats compared (a mirror);
// go test ./cmd/cardlab/ -run SweepGoofspiel -update rewrites the golden.
func TestSweepGoofspiel(t *testing.T) {
	dir := initGoofspiel(t)
	code, stdout, stderr := cardlab(t, "sweep", "--rules", dir, "--card", "prize-1", "--field", "value", "--values", "1,1000",
		"--bots", "greedy,random", "--players", "player,player", "--games", "300", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "sweep-goofspiel.golden", stdout)
	// Without --bots: the game's own default (game.DefaultBotter), the search.
	code, stdout, stderr = cardlab(t, "sweep", "--rules", dir, "--param", "cards", "--values", "13,14", "--games", "20")
	if code != 0 || !strings.Contains(stdout, "bots "+goofspiel.DefaultBot+",") || !strings.Contains(stdout, "SEAT 2") {
		t.Fatalf("exit %d: %s\n%s", code, stdout, stderr)
	}
	for _, c := range []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"--card", "bid-2", "--field", "value", "--values", "3"}, 1, "nothing to sweep"},
		{[]string{"--card", "prize-2", "--values", "3"}, 1, `cannot sweep field of card prize-2 "power" (have value)`},
		{[]string{"--param", "cards", "--values", "5"}, 1, "at least 13"},
		{[]string{"--card", "prize-2", "--field", "value", "--values", "3", "--bots", "strong"}, 2, `unknown bot "strong" for Goofspiel`},
	} {
		code, _, stderr := cardlab(t, append([]string{"sweep", "--rules", dir, "--games", "2"}, c.args...)...)
		if code != c.exit || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want exit %d and %q", c.args, code, stderr, c.exit, c.want)
		}
	}
}

// report on Goofspiel without --bots plays the bot the game names
// (game.DefaultBotter: its search, as greedy against itself ties every
// turn), and says so.
func TestReportGoofspielDefaultBot(t *testing.T) {
	dir := initGoofspiel(t)
	out := t.TempDir() + "/r"
	// (--check-bots none: the default check tier is greedy.)
	code, _, stderr := cardlab(t, "report", "--rules", dir, "--out", out, "--games", "20", "--values=false", "--check-bots", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"`+goofspiel.DefaultBot+`"`) || strings.Contains(string(b), `"greedy"`) {
		t.Errorf("results.json does not name %s as the bot:\n%.600s", goofspiel.DefaultBot, b)
	}
}

// `cardlab diff` of two Goofspiel versions: the change list from its knobs
// and rules.yaml, the seats paired (go test ./cmd/cardlab/ -run
// DiffGoofspiel -update rewrites the golden); a version of another game is
// refused.
func TestDiffGoofspiel(t *testing.T) {
	base := initGoofspiel(t)
	variant := initGoofspiel(t)
	data, err := os.ReadFile(filepath.Join(variant, "rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.NewReplacer("prizes: [1, 2,", "prizes: [1000, 2,", "ties: discard", "ties: carry").Replace(string(data)))
	if err := os.WriteFile(filepath.Join(variant, "rules.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cardlab(t, "diff", "--rules", variant, "--base", base, "--bots", "greedy,random",
		"--players", "player,player", "--games", "300", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "diff-goofspiel.golden", stdout)
	code, _, stderr = cardlab(t, "diff", "--rules", variant, "--base", base, "--games", "20", "--fail-on-significant", "--bots", "greedy,random", "--players", "player,player")
	if code != 0 && !strings.Contains(stderr, "--fail-on-significant") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	code, _, stderr = cardlab(t, "diff", "--rules", variant, "--games", "2", "--base", filepath.Join("..", "..", "testdata", "rulesets", "minimal"))
	if code != 1 || !strings.Contains(stderr, "two versions of one game; the base is alphatactics, the variant goofspiel") {
		t.Errorf("another game as the base: exit %d, %s", code, stderr)
	}
}

// initSpacetraceFirst writes Spacetrace's first game into a temporary
// folder, and with draw.per_turn 1 (it reads 2) into another.
func initSpacetraceFirst(t *testing.T) (dir, drawOne string) {
	t.Helper()
	root := t.TempDir()
	dir, drawOne = filepath.Join(root, "st"), filepath.Join(root, "st-draw1")
	for _, d := range []string{dir, drawOne} {
		if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", "--ruleset", "spacetrace-first", d); code != 0 {
			t.Fatal(stderr)
		}
	}
	corrupt(t, drawOne, "rules.yaml", "  per_turn: 2 ", "  per_turn: 1 ")
	return dir, drawOne
}

// sweep and diff on a mirror whose games say who began (Spacetrace: the
// starter is drawn each game) compare the seats in turn order: the
// starting seat's share (about 60% with greedy) is in the table's heading,
// the JSON ("compared": "turn order", "starting seat") and the note that
// names the bot; go test ./cmd/cardlab/ -run SpacetraceTurnOrder -update
// rewrites the goldens.
func TestSweepDiffSpacetraceTurnOrder(t *testing.T) {
	dir, drawOne := initSpacetraceFirst(t)
	sweep := []string{"sweep", "--rules", dir, "--param", "draw.per_turn", "--values", "1,2,3", "--bots", "greedy", "--games", "200", "--workers", "1"}
	code, stdout, stderr := cardlab(t, sweep...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "sweep-spacetrace.golden", stdout)
	for _, want := range []string{"of each seat in turn order", "STARTING SEAT  ", "2ND IN TURN  ", "every seat played by greedy"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("sweep's tables lack %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = cardlab(t, append(sweep, "--json")...)
	if code != 0 || !strings.Contains(stdout, `"compared": "turn order"`) || !strings.Contains(stdout, `"faction": "starting seat"`) {
		t.Errorf("sweep --json: exit %d: %s\n%.800s", code, stderr, stdout)
	}
	code, stdout, stderr = cardlab(t, "diff", "--rules", drawOne, "--base", dir, "--bots", "greedy", "--games", "200", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "diff-spacetrace.golden", stdout)
	if !strings.Contains(stdout, "SEAT IN TURN ORDER") || !strings.Contains(stdout, "\n  starting seat ") {
		t.Errorf("diff's tables name no starting seat:\n%s", stdout)
	}
	// Bots that differ by seat: the starting seat is each game's own, so
	// its figure mixes them, and the note says so.
	code, stdout, stderr = cardlab(t, "diff", "--rules", drawOne, "--base", dir, "--bots", "greedy,random", "--games", "20", "--workers", "1")
	if code != 0 || !strings.Contains(stdout, "the seats' bots differ (seat 1 greedy, seat 2 random)") {
		t.Errorf("exit %d: %s\n%s", code, stderr, stdout)
	}
}

// watch on a Goofspiel ruleset: a save is validated by its game's loader
// (errors with file:line) and compared with the baseline through the same
// paired diff as report --base; the seats are what it shows.
func TestWatchGoofspiel(t *testing.T) {
	dir := initGoofspiel(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	ready := make(chan string, 1)
	opts := &WatchOptions{Out: out, ErrOut: out, Context: ctx, RulesDir: dir, Matchups: []string{"player,player"},
		Bots: "greedy,random", BotsSet: true, Games: 200, Seed: 1, Workers: 1, Debounce: 100 * time.Millisecond, Precision: 50,
		Ready: func(u string) { ready <- u }}
	done := make(chan error, 1)
	go func() { done <- watchRun(opts) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("watch ended before serving: %v\n%s", err, out)
	case <-time.After(20 * time.Second):
		t.Fatal("watch did not start")
	}
	waitOutput(t, out, "save a file to compare")
	file := filepath.Join(dir, "rules.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), "ties: discard", "ties: sometimes", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, out, "rules.yaml:")
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), "prizes: [1, 2,", "prizes: [1000, 2,", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, out, "prize-1")
	waitOutput(t, out, "seat 1")
	cancel()
	if err := <-done; err != nil {
		t.Errorf("watch after Ctrl-C: %v", err)
	}
	if s := out.String(); strings.Contains(s, "failed") {
		t.Errorf("a run failed:\n%s", s)
	}
	// A mirror's rows are seats, its cards' values against its player.
	if s := out.String(); strings.Contains(s, "faction") || !strings.Contains(s, "  seat   ") || !strings.Contains(s, "only the seats' changes") {
		t.Errorf("watch's console is not in Goofspiel's words:\n%s", s)
	}
}
