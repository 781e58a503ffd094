package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

func TestSweepCommand(t *testing.T) {
	code, stdout, stderr := cardlab(t, "sweep", "--card", "kl-d7", "--values", "0,4,8", "--games", "60", "--workers", "2")
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Sweep of kl-d7", "4 (now)", "KLINGON", "target share 50.0%"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stdout, "klingon.yaml:95 (kl-d7, D7 Battle Cruiser): power: 4 →") &&
		!strings.Contains(stdout, "already the closest") {
		t.Errorf("no suggestion:\n%s", stdout)
	}
	code, stdout, stderr = cardlab(t, "sweep", "--param", "planet_bonus", "--values", "1..3", "--players", "starfleet,klingon",
		"--games", "30", "--json")
	if code != 0 {
		t.Fatalf("sweep --param: exit %d: %s", code, stderr)
	}
	var res analysis.SweepResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Card != nil || res.Field != "planet_bonus" || len(res.Points) != 3 || res.Current != 2 {
		t.Errorf("param sweep: %+v", res)
	}
}

func TestSweepErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"sweep", "--card", "kl-d7"}, 2, "--values is required"},
		{[]string{"sweep", "--values", "1..3"}, 2, "give --card ID"},
		{[]string{"sweep", "--card", "kl-d7", "--param", "hand_size", "--values", "1"}, 2, "cannot be used together"},
		{[]string{"sweep", "--card", "kl-d7", "--values", "5..1"}, 2, "--values"},
		{[]string{"sweep", "--param", "hand_size", "--field", "power", "--values", "1"}, 2, "--field goes with --card"},
		{[]string{"sweep", "--card", "kl-d7", "--field", "name", "--values", "1", "--games", "2"}, 1, "cannot sweep card field"},
		{[]string{"sweep", "--param", "hand_size", "--values", "0,4", "--games", "2"}, 1, "out of range"},
		{[]string{"sweep", "--card", "nope", "--values", "1", "--games", "2"}, 1, "unknown card"},
		{[]string{"sweep", "--card", "Klingon Warrior", "--values", "1", "--games", "2"}, 1, `did you mean "Klingon Warriors" (kl-warriors)`},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, stderr, c.msg)
		}
	}
}
