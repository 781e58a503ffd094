package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

func TestDiffNullCommand(t *testing.T) {
	a, b := writeDefault(t), writeDefault(t)
	code, stdout, stderr := cardlab(t, "diff", "--bots", "greedy", "--base", a, "--rules", b, "--games", "30", "--workers", "2", "--fail-on-significant")
	if code != 0 {
		t.Fatalf("null diff: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"No changes in the definitions.", "Verdict: no changes", "Paired games: none"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("null diff output lacks %q:\n%s", want, stdout)
		}
	}
	// A comment changes the hash, not the game: the games are played, none
	// changes, and no interval is a bare [+0.0, +0.0].
	f, err := os.OpenFile(filepath.Join(b, "rules.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# reworded nothing\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr = cardlab(t, "diff", "--bots", "greedy", "--base", a, "--rules", b, "--games", "30", "--workers", "2", "--fail-on-significant")
	if code != 0 {
		t.Fatalf("comment-only diff: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"No changes in the definitions.", "no game changed", "Verdict: no changes"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("comment-only diff output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "[+0.0, +0.0]") {
		t.Errorf("an interval of [0, 0]:\n%s", stdout)
	}
}

// Two rulesets with the same hash make the same games: diff answers at once
// without playing (issue 16), in JSON too, whatever --games asks.
func TestDiffIdenticalPlaysNothing(t *testing.T) {
	a, b := writeDefault(t), writeDefault(t)
	code, stdout, stderr := cardlab(t, "diff", "--bots", "greedy", "--base", a, "--rules", b, "--games", "90000", "--json", "--fail-on-significant")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res analysis.DiffResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Base.Hash == "" || res.Base.Hash != res.Variant.Hash || res.Games != 0 || len(res.Factions) != 0 ||
		len(res.Changes) != 0 || res.Significant || !strings.Contains(res.Verdict, "none was played") {
		t.Errorf("identical rulesets: %+v", res)
	}
	// One changed byte (a comment) is another hash: the games are played.
	corrupt(t, b, "klingon.yaml", "    power: 4\n    copies: 2\n", "    power: 4 # same\n    copies: 2\n")
	code, stdout, stderr = cardlab(t, "diff", "--bots", "greedy", "--base", a, "--rules", b, "--games", "10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res = analysis.DiffResult{}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Games != 10 || len(res.Factions) == 0 || !strings.Contains(res.Verdict, "no changes") {
		t.Errorf("same game, other bytes: games %d, factions %d, verdict %q", res.Games, len(res.Factions), res.Verdict)
	}
}

func TestDiffCommandSignificant(t *testing.T) {
	a, b := writeDefault(t), writeDefault(t)
	// The D7 Battle Cruiser (power 4, two copies) much stronger.
	corrupt(t, b, "klingon.yaml", "    power: 4\n    copies: 2\n", "    power: 9\n    copies: 2\n")
	code, stdout, stderr := cardlab(t, "diff", "--bots", "greedy", "--base", a, "--rules", b, "--games", "150", "--workers", "2", "--json", "--fail-on-significant")
	if code != 1 || !strings.Contains(stderr, "--fail-on-significant: SIGNIFICANT") {
		t.Fatalf("diff: exit %d, stderr %q", code, stderr)
	}
	var res analysis.DiffResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("the result is still written: %v", err)
	}
	if len(res.Changes) != 1 || res.Changes[0].ID != "kl-d7" || res.Changes[0].Pos != "klingon.yaml:95" || !res.Significant {
		t.Errorf("changes %+v, significant %v", res.Changes, res.Significant)
	}
	for _, f := range res.Factions {
		if f.Faction == "klingon" && (f.Delta <= 0 || !f.Significant) {
			t.Errorf("klingon: %+v", f)
		}
	}
	// Without the flag a significant change is not an error.
	if code, _, stderr := cardlab(t, "diff", "--bots", "greedy", "--base", a, "--rules", b, "--games", "20"); code != 0 {
		t.Errorf("diff without --fail-on-significant: exit %d: %s", code, stderr)
	}
}

func TestDiffErrors(t *testing.T) {
	if code, _, stderr := cardlab(t, "diff", "--bots", "greedy", "--games", "5"); code != 2 || !strings.Contains(stderr, "--base DIR is required") {
		t.Errorf("no --base: exit %d, %q", code, stderr)
	}
	if code, _, stderr := cardlab(t, "diff", "--bots", "greedy", "--base", t.TempDir()+"/none", "--games", "5"); code != 1 || !strings.Contains(stderr, "--base") {
		t.Errorf("missing base dir: exit %d, %q", code, stderr)
	}
}
