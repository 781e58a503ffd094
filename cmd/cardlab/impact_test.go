package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

func TestImpactCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "impact.json")
	code, stdout, stderr := cardlab(t, "impact", "--cards", "kl-d7,KL-RAPTOR", "--games", "60", "--workers", "2", "--json", "--out", out)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "wrote "+out) {
		t.Fatalf("impact: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res analysis.ImpactResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Cards) != 2 || res.Games != 20 || res.Mode != "blank" || res.Correction != analysis.CorrectionBH || res.ToolVersion == "" {
		t.Fatalf("impact result: %d cards, %d games per lineup, mode %q", len(res.Cards), res.Games, res.Mode)
	}
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	c := m["cards"].([]any)[0].(map[string]any)
	wantKeys(t, "impact card", c, "rank", "id", "faction", "with_card", "ablated", "delta", "ci95", "unpaired_ci95",
		"p", "p_adj", "test", "significant", "games", "changed", "variant")

	code, stdout, _ = cardlab(t, "impact", "--cards", "kl-d7", "--mode", "effect-off", "--games", "10")
	if code != 0 || !strings.Contains(stdout, "Not tested (1)") || !strings.Contains(stdout, "no effect to remove") {
		t.Errorf("effect-off of a plain card: exit %d\n%s", code, stdout)
	}
}

func TestImpactErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"impact", "--cards", "kl-d8", "--games", "5"}, 1, `did you mean "kl-d7"`},
		{[]string{"impact", "--mode", "off", "--games", "5"}, 2, "--mode must be blank or effect-off"},
		{[]string{"impact", "--games", "0"}, 2, "--games must be at least 1"},
		{[]string{"impact", "--players", "starfleet,klingon", "--matchups", "all"}, 2, "cannot be used together"},
		{[]string{"impact", "--players", "starfleet,klingon", "--cards", "vu-suurok", "--games", "5"}, 1, "plays in none of the lineups"},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, stderr, c.msg)
		}
	}
}
