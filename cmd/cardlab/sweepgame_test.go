package main

import (
	"strings"
	"testing"
)

// `cardlab sweep` on Goofspiel: its knobs by --card/--field and --param, its
// greedy bot by default (it has no strong), the seats compared (a mirror);
// go test ./cmd/cardlab/ -run SweepGoofspiel -update rewrites the golden.
func TestSweepGoofspiel(t *testing.T) {
	dir := initGoofspiel(t)
	code, stdout, stderr := cardlab(t, "sweep", "--rules", dir, "--card", "prize-1", "--field", "value", "--values", "1,1000",
		"--bots", "greedy,random", "--players", "player,player", "--games", "300", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "sweep-goofspiel.golden", stdout)
	// Without --bots: greedy, at the cheap bots' games.
	code, stdout, stderr = cardlab(t, "sweep", "--rules", dir, "--param", "cards", "--values", "13,14", "--games", "20")
	if code != 0 || !strings.Contains(stdout, "bots greedy,") || !strings.Contains(stdout, "SEAT 2") {
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

// report on Goofspiel without --bots plays its greedy bot (no strong).
func TestReportGoofspielDefaultBot(t *testing.T) {
	dir := initGoofspiel(t)
	out := t.TempDir() + "/r"
	code, _, stderr := cardlab(t, "report", "--rules", dir, "--out", out, "--games", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
