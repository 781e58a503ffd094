package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudyCommand: `cardlab study` lists a game's studies, runs one on an
// initialised ruleset in text and JSON, and refuses a bad request with the
// right exit status (2 for a malformed one, 1 for one the ruleset cannot
// satisfy).
func TestStudyCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fleets")
	if code, _, stderr := cardlab(t, "init", "--game", "eclipse", dir); code != 0 {
		t.Fatalf("init --game eclipse: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cardlab(t, "study", "--rules", dir)
	if code != 0 || !strings.Contains(stdout, "matrix: ") || !strings.Contains(stdout, "attacker=") {
		t.Fatalf("list: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = cardlab(t, "study", "--rules", dir, "matrix", "fleets=5i,2d")
	if code != 0 {
		t.Fatalf("matrix: exit %d: %s", code, stderr)
	}
	// 5 Interceptors against 2 Dreadnoughts: 10.3% attacking (design brief §3.1).
	for _, want := range []string{"Blueprint matrix", "5i  40.3  10.3", "exact", "Players assign hits by optimal"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("matrix output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = cardlab(t, "study", "--game", "eclipse", "battle", "attacker=1c", "defender=ancient", "--json")
	var res struct {
		Game, Study string
		Tables      []struct {
			Name string
			Rows [][]any
		}
		Notes []string
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || res.Game != "eclipse" || len(res.Tables) != 2 {
		t.Fatalf("battle --json: exit %d\n%s", code, stdout)
	}
	// Cruiser attacks Ancient: 1168/6859 (EclipseCPPBackEnd's 17.03%).
	if p, ok := res.Tables[0].Rows[0][1].(float64); !ok || p < 0.17028 || p > 0.17029 {
		t.Fatalf("Cruiser attacks Ancient: %v", res.Tables[0].Rows[0])
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"study", "--game", "eclipse", "battel"}, 2, `did you mean "battle"?`},
		{[]string{"study", "--game", "eclipse", "battle", "attackr=1c"}, 2, `did you mean "attacker"?`},
		{[]string{"study", "--game", "eclipse", "battle", "attacker"}, 2, "is not KEY=VALUE"},
		{[]string{"study", "--game", "eclipse", "battle", "attacker=1x", "defender=ancient"}, 1, `no fleet "1x", did you mean "1c"?`},
		{[]string{"study", "--game", "eclipse", "battle", "attacker=ancient", "defender=1c"}, 1, "NPCs always defend"},
		{[]string{"study", "--game", "eclipse", "matrix", "policy=best"}, 1, `policy "best"`},
		// optimal above the budget is refused, never played by another
		// policy (issue 30: the same policy in both modes)
		{[]string{"study", "--game", "eclipse", "battle", "attacker=dc", "defender=ancient2", "budget=10"}, 1, "above the exact study's budget 10; raise budget= (rules.yaml study.state_budget)"},
		{[]string{"study", "--game", "eclipse", "battle", "attacker=dc", "defender=ancient2", "mode=sometimes"}, 1, `mode="sometimes"`},
		{[]string{"study", "--game", "goofspiel"}, 1, "Goofspiel has no studies"},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// TestReportValueFlagsWithoutValuer: a game without a game.Valuer (Eclipse)
// refuses a request for card values, and takes --values=false and
// --impact=false, which ask for what its report does anyway.
func TestReportValueFlagsWithoutValuer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fleets")
	if code, _, stderr := cardlab(t, "init", "--game", "eclipse", dir); code != 0 {
		t.Fatalf("init --game eclipse: exit %d: %s", code, stderr)
	}
	out := t.TempDir()
	code, _, stderr := cardlab(t, "report", "--rules", dir, "--games", "4", "--check-bots", "none", "--values=false", "--impact=false", "--workers", "2", "--out", filepath.Join(out, "off"))
	if code != 0 {
		t.Fatalf("--values=false --impact=false: exit %d: %s", code, stderr)
	}
	code, _, stderr = cardlab(t, "report", "--rules", dir, "--games", "4", "--check-bots", "none", "--values", "--value-games", "100", "--out", filepath.Join(out, "on"))
	if code != 1 || !strings.Contains(stderr, "--values, --value-games: card values and impact need a blank and a unit of value") {
		t.Fatalf("--values: exit %d: %s", code, stderr)
	}
}

// TestReportChecksEclipseAgainstOptimal: Eclipse's greedy is kill_largest,
// its default bot, by another name; its report's default check is minimax
// assignment (game.CheckBotter), and the check's sentence names fleets.
func TestReportChecksEclipseAgainstOptimal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fleets")
	if code, _, stderr := cardlab(t, "init", "--game", "eclipse", dir); code != 0 {
		t.Fatalf("init --game eclipse: exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "report")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--games", "20", "--matchups", "5i,3c;2d,dci", "--workers", "2", "--out", out); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{"the skill check replays the same deals with the optimal bot", "--check-bots optimal"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	if strings.Contains(s, "faction") {
		t.Errorf("an Eclipse summary names a faction:\n%s", s)
	}
}
