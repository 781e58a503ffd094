package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

func TestSweepCommand(t *testing.T) {
	code, stdout, stderr := cardlab(t, "sweep", "--bots", "greedy", "--card", "kl-d7", "--values", "0,4,8", "--games", "60", "--workers", "2")
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
	code, stdout, stderr = cardlab(t, "sweep", "--bots", "greedy", "--param", "planet_bonus", "--values", "1..3", "--players", "starfleet,klingon",
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
	// An effect parameter, the card named by its name.
	code, stdout, stderr = cardlab(t, "sweep", "--bots", "greedy", "--card", "klingon warriors", "--field", "amount", "--values", "0,2",
		"--games", "20", "--workers", "2", "--json")
	if code != 0 {
		t.Fatalf("sweep of an effect parameter: exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	if m["field"] != "params.amount" || m["current"] != 1.0 || m["card"].(map[string]any)["id"] != "kl-warriors" {
		t.Errorf("effect parameter sweep: field %v, current %v, card %v", m["field"], m["current"], m["card"])
	}
	if _, ok := m["plausible"].([]any); !ok {
		t.Errorf("no plausible values list: %v", m["plausible"])
	}
	code, stdout, _ = cardlab(t, "sweep", "--bots", "greedy", "--card", "kl-warriors", "--field", "params.amount", "--values", "0..2", "--games", "20")
	if code != 0 || !strings.Contains(stdout, "Sweep of kl-warriors (Klingon Warriors, klingon) params.amount, now 1") ||
		!strings.Contains(stdout, "95% interval") {
		t.Errorf("effect parameter tables: exit %d\n%s", code, stdout)
	}
}

func TestSweepErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"sweep", "--bots", "greedy", "--card", "kl-d7"}, 2, "--values is required"},
		{[]string{"sweep", "--bots", "greedy", "--values", "1..3"}, 2, "give --card ID"},
		{[]string{"sweep", "--bots", "greedy", "--card", "kl-d7", "--param", "hand_size", "--values", "1"}, 2, "cannot be used together"},
		{[]string{"sweep", "--bots", "greedy", "--card", "kl-d7", "--values", "5..1"}, 2, "--values"},
		{[]string{"sweep", "--bots", "greedy", "--param", "hand_size", "--field", "power", "--values", "1"}, 2, "--field goes with --card"},
		{[]string{"sweep", "--bots", "greedy", "--card", "kl-d7", "--field", "name", "--values", "1", "--games", "2"}, 1, "cannot sweep card field"},
		{[]string{"sweep", "--bots", "greedy", "--param", "hand_size", "--values", "0,4", "--games", "2"}, 1, "out of range"},
		{[]string{"sweep", "--bots", "greedy", "--card", "nope", "--values", "1", "--games", "2"}, 1, "unknown card"},
		{[]string{"sweep", "--bots", "greedy", "--card", "kl-warriors", "--field", "amount", "--values", "-11,0", "--games", "2"}, 1, "from -10 to 10"},
		{[]string{"sweep", "--bots", "greedy", "--card", "kl-warriors", "--field", "who", "--values", "1", "--games", "2"}, 1, "not a whole number"},
		{[]string{"sweep", "--bots", "greedy", "--card", "Klingon Warrior", "--values", "1", "--games", "2"}, 1, `did you mean "Klingon Warriors" (kl-warriors)`},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, stderr, c.msg)
		}
	}
}
