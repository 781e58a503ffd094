package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func scenarioFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.yaml"))
	if err != nil || len(files) < 8 {
		t.Fatalf("%d scenarios in testdata/scenarios (%v)", len(files), err)
	}
	return files
}

// TestScoreScenarios checks every shipped scenario against its expectations.
func TestScoreScenarios(t *testing.T) {
	for _, f := range scenarioFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, stdout, stderr := cardlab(t, "score", "--check", f)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stderr, stdout)
			}
			if !strings.Contains(stderr, "ok: ") || !strings.Contains(stderr, "expectations met") {
				t.Errorf("stderr: %s", stderr)
			}
			if !strings.Contains(stdout, "\nRow 1: ") || !strings.Contains(stdout, "  winner: ") {
				t.Errorf("stdout:\n%s", stdout)
			}

			code, stdout, stderr = cardlab(t, "score", "--json", f)
			if code != 0 {
				t.Fatalf("--json: exit %d: %s", code, stderr)
			}
			var res scoreJSONOut
			dec := json.NewDecoder(strings.NewReader(stdout))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&res); err != nil {
				t.Fatalf("--json: %v\n%s", err, stdout)
			}
			if len(res.Rows) == 0 {
				t.Error("--json: no rows")
			}
		})
	}
}

type scoreJSONOut struct {
	Rows []struct {
		Row    int            `json:"row"`
		Target string         `json:"target"`
		Winner *string        `json:"winner"`
		Reason string         `json:"reason"`
		Power  map[string]int `json:"power"`
		Cards  []struct {
			Pos              int     `json:"pos"`
			Card             string  `json:"card"`
			Name             string  `json:"name"`
			Owner            string  `json:"owner"`
			Base             int     `json:"base"`
			Power            int     `json:"power"`
			Effect           string  `json:"effect"`
			Blocked          *string `json:"blocked"`
			Stolen           bool    `json:"stolen"`
			Weakened         int     `json:"weakened"`
			PowerDeactivated bool    `json:"power_deactivated"`
		} `json:"cards"`
	} `json:"rows"`
}

func scenarioPath(name string) string {
	return filepath.Join("..", "..", "testdata", "scenarios", name)
}

func TestScoreJSON(t *testing.T) {
	code, stdout, stderr := cardlab(t, "score", "--json", scenarioPath("diplomat-combo.yaml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res scoreJSONOut
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	r := res.Rows[0]
	if r.Row != 1 || r.Target != "qonos" || r.Winner == nil || *r.Winner != "starfleet" || r.Reason != "combo" ||
		r.Power["starfleet"] != 4 || r.Power["klingon"] != 8 || len(r.Power) != 2 || len(r.Cards) != 4 {
		t.Fatalf("row 1: %+v", r)
	}
	c := r.Cards[2]
	if c.Pos != 3 || c.Card != "sf-ambassador" || c.Owner != "starfleet" || c.Base != 1 || c.Power != 1 ||
		c.Effect != "blocked" || c.Blocked == nil || *c.Blocked != "under_blocker" {
		t.Errorf("card 3: %+v", c)
	}
	if c := r.Cards[3]; c.Effect != "none" || c.Blocked != nil || c.Power != 6 {
		t.Errorf("card 4: %+v", c)
	}
	// The whole document has exactly the documented keys.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil || len(raw) != 1 || raw["rows"] == nil {
		t.Errorf("top-level keys: %v (%v)", raw, err)
	}
}

func TestScoreText(t *testing.T) {
	code, stdout, _ := cardlab(t, "score", scenarioPath("blocker.yaml"))
	if code != 0 {
		t.Fatal(code)
	}
	for _, want := range []string{
		"blocker.yaml: starfleet vs klingon, seed 1\n",
		"\nReveal Phase\n  row 1, card 2: Admiral (starfleet) is revealed\n",
		"  row 1, card 2: effect of Admiral (starfleet) is blocked: a blocker ship lies above it\n",
		"\nRow 1: Earth (planet, federation, 4 VP)\n",
		"blocked: a blocker ship lies above it",
		"active (admiral)",
		"  power: starfleet 3, klingon 7\n  winner: klingon (power: highest combat power)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}

	_, stdout, _ = cardlab(t, "score", scenarioPath("negotiations.yaml"))
	if !strings.Contains(stdout, "starfleet takes Earth (row 1) by Negotiations") ||
		!strings.Contains(stdout, "winner: starfleet (negotiated: took the target by Negotiations") {
		t.Errorf("negotiated row not explained:\n%s", stdout)
	}
}

func writeScenario(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScoreCheckFails(t *testing.T) {
	p := writeScenario(t, `players: [starfleet, klingon]
rows:
  - target: earth
    cards: [{card: sf-akira, face: up}, {card: kl-ktinga, face: up}]
  - target: qonos
expect:
  - {row: 1, winner: klingon, reason: power, power: {starfleet: 6, klingon: 6}}
  - {row: 2, winner: none, reason: none}
`)
	code, stdout, stderr := cardlab(t, "score", "--check", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	if !strings.Contains(stdout, "\nRow 1: ") {
		t.Errorf("the rows are not printed:\n%s", stdout)
	}
	for _, want := range []string{
		p + ":7:22: row 1: winner is starfleet, expected klingon\n",
		p + ":7:39: row 1: reason is tie_top_card, expected power\n",
		p + ": 2 of 2 expectations not met\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "row 2") || strings.Contains(stderr, "Usage:") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

func TestScoreErrors(t *testing.T) {
	bad := writeScenario(t, "players: [starfleet, klingon]\nrows:\n  - target: earth\n    cards: [{card: sf-galxy}]\n")
	noExpect := writeScenario(t, "players: [starfleet, klingon]\nrows: [{target: earth}]\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad scenario", []string{bad}, 1, bad + `:4:20: unknown card "sf-galxy", did you mean "sf-galaxy"?` + "\n1 error\n"},
		{"missing file", []string{"/nonexistent/s.yaml"}, 1, "reading the scenario: /nonexistent/s.yaml: no such file or directory"},
		{"check without expect", []string{"--check", noExpect}, 1, "--check: the scenario has no expect: list"},
		{"unknown bot", []string{"--bots", "mcts", noExpect}, 2, `unknown bot "mcts" for Star Trek Conquest – Alpha Tactics (its bots: greedy, ismcts, random, strong)`},
		{"no argument", nil, 2, "score needs one argument"},
		{"two arguments", []string{noExpect, noExpect}, 2, "score needs one argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, append([]string{"score"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %.200s", stdout)
			}
		})
	}
}

func TestScoreEmptyRow(t *testing.T) {
	p := writeScenario(t, `players: [starfleet, klingon]
rows:
  - target: earth
expect:
  - {row: 1, winner: none, reason: none, power: {starfleet: 0}}
`)
	code, stdout, stderr := cardlab(t, "score", "--check", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "  no cards\n") || !strings.Contains(stdout, "winner: none (nobody has a card in this row)") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
