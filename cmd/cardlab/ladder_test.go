package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLadderCommand(t *testing.T) {
	code, out, errOut := cardlab(t, "ladder", "--bots", "random,greedy", "--games", "20", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Bots []struct {
			Bot      string  `json:"bot"`
			Games    int     `json:"games"`
			WinShare float64 `json:"win_share"`
			Rating   float64 `json:"rating"`
		} `json:"bots"`
		Pairs []struct {
			A, B  string
			Games int
		} `json:"pairs"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("ladder --json: %v\n%s", err, out)
	}
	if len(res.Bots) != 2 || res.Bots[0].Games != 20 || len(res.Pairs) != 1 || res.Bots[0].Rating != 0 {
		t.Fatalf("unexpected ladder: %+v", res)
	}
	code, out, _ = cardlab(t, "ladder", "--bots", "random, ismcts:iters=5,rollout=greedy", "--games", "2")
	if code != 0 || !strings.Contains(out, "ismcts:iters=5,rollout=greedy") {
		t.Fatalf("a spec with parameters: exit %d\n%s", code, out)
	}
}

func TestLadderBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ladder", "--bots", "random"}, 2, "at least two"},
		{[]string{"ladder", "--bots", "random,greedy", "--games", "0"}, 2, "--games"},
		{[]string{"ladder", "--bots", "random,greedy", "--players", "3"}, 2, "2-player"},
		{[]string{"ladder", "--bots", "random,mcts", "--games", "2"}, 2, `unknown bot "mcts"`},
		{[]string{"ladder", "--bots", "random,random", "--games", "2"}, 1, "twice"},
	} {
		code, _, errOut := cardlab(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// TestLadderGoofspiel: the ladder ranks another game's bots, from --game and
// from a ruleset directory alike, and refuses what that game has not got.
func TestLadderGoofspiel(t *testing.T) {
	dir := initGoofspiel(t)
	var outs []string
	for _, args := range [][]string{
		{"ladder", "--game", "goofspiel", "--bots", "random,greedy", "--games", "60"},
		{"ladder", "--rules", dir, "--bots", "random,greedy", "--games", "60"},
	} {
		code, out, errOut := cardlab(t, args...)
		if code != 0 || !strings.Contains(out, "\ngreedy ") || !strings.Contains(out, "random  greedy  60 ") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("--game goofspiel and --rules %s rank differently:\n%s\n%s", dir, outs[0], outs[1])
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ladder", "--game", "goofspiel", "--bots", "random,strong", "--games", "2"}, 2, `unknown bot "strong" for Goofspiel`},
		{[]string{"ladder", "--game", "goofspiel", "--bots", "greedy,Greedy", "--games", "2"}, 1, "twice"},
		{[]string{"ladder", "--game", "goofspeil", "--bots", "random,greedy"}, 2, `did you mean "goofspiel"`},
	} {
		code, _, errOut := cardlab(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
