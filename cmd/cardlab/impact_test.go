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
	code, stdout, stderr := cardlab(t, "impact", "--bots", "greedy", "--method", "ablation", "--mode", "blank", "--cards", "kl-d7,KL-RAPTOR", "--games", "60", "--workers", "2", "--json", "--out", out)
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

	code, stdout, _ = cardlab(t, "impact", "--bots", "greedy", "--method", "ablation", "--cards", "kl-d7", "--mode", "effect-off", "--games", "10")
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
		{[]string{"impact", "--bots", "greedy", "--cards", "kl-d8", "--value-games", "64"}, 1, `(kl-d7)`},
		{[]string{"impact", "--bots", "greedy", "--method", "ablation", "--mode", "off", "--games", "5"}, 2, "--mode must be blank-copy, blank or effect-off"},
		{[]string{"impact", "--bots", "greedy", "--mode", "blank"}, 2, "--mode is a setting of --method ablation"},
		{[]string{"impact", "--bots", "greedy", "--method", "ablation", "--precision", "2"}, 2, "--precision is a setting of --method screening"},
		{[]string{"impact", "--bots", "greedy", "--method", "guess"}, 2, "--method must be screening or ablation"},
		{[]string{"impact", "--bots", "greedy", "--value-games", "10"}, 2, "--value-games must be at least 64"},
		{[]string{"impact", "--bots", "greedy", "--games", "640"}, 2, "--games is the paired games per card of --method ablation"},
		{[]string{"impact", "--bots", "greedy", "--method", "ablation", "--value-games", "640"}, 2, "--value-games is a setting of --method screening"},
		{[]string{"impact", "--bots", "greedy", "--precision", "-1"}, 2, "--precision must be 0 (off: exactly --value-games per lineup) or at least 0.01"},
		{[]string{"impact", "--bots", "greedy", "--games", "0"}, 2, "--games must be at least 1"},
		{[]string{"impact", "--bots", "greedy", "--players", "starfleet,klingon", "--matchups", "all"}, 2, "cannot be used together"},
		{[]string{"impact", "--bots", "greedy", "--players", "starfleet,klingon", "--cards", "vu-suurok", "--value-games", "64"}, 1, "plays in none of the lineups"},
		{[]string{"impact", "--bots", "greedy", "--method", "ablation", "--players", "starfleet,klingon", "--cards", "vu-suurok", "--games", "5"}, 1, "plays in none of the lineups"},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, stderr, c.msg)
		}
	}
}

// TestImpactScreening: the default method values every card at once and
// writes the card-value contract (docs/metrics.md, "Card value").
func TestImpactScreening(t *testing.T) {
	out := filepath.Join(t.TempDir(), "values.json")
	code, stdout, stderr := cardlab(t, "impact", "--players", "klingon,romulan", "--bots", "random", "--value-games", "640",
		"--precision", "50", "--cards", "Klingon Warriors,ro-norexan", "--json", "--out", out)
	if code != 0 || stdout != "" {
		t.Fatalf("impact: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	wantKeys(t, "value report", m, "tool_version", "ruleset", "design", "price_of_power", "cards")
	wantKeys(t, "design", m["design"].(map[string]any), "matchups", "bots", "seed", "games_per_lineup", "games",
		"blank_rate", "shift_rate", "precision", "median_pts_half_width", "median_power_half_width", "partial", "timing")
	if p := m["price_of_power"].(map[string]any); len(p) != 2 || p["klingon"] == nil || p["romulan"] == nil {
		t.Errorf("price_of_power %v: want klingon and romulan", p)
	}
	cs := m["cards"].([]any)
	if len(cs) != 2 {
		t.Fatalf("%d cards, want the 2 asked for", len(cs))
	}
	c := cs[0].(map[string]any)
	wantKeys(t, "valued card", c, "rank", "id", "name", "faction", "type", "kind", "power", "copies", "value")
	wantKeys(t, "value", c["value"].(map[string]any), "pts", "pts_ci95", "power", "power_ci95", "vs_faction",
		"vs_faction_ci95", "effect_power", "effect_power_ci95", "flagged")

	code, stdout, _ = cardlab(t, "impact", "--players", "klingon,romulan", "--bots", "random", "--value-games", "640", "--precision", "50")
	if code != 0 || !strings.Contains(stdout, "Price of a power point") || !strings.Contains(stdout, "VS_FACTION") {
		t.Errorf("impact tables: exit %d\n%s", code, stdout)
	}
}

// TestImpactGoofspielCommand: the ablation of another game through its
// Valuer on the command line, with its wording (one seat's copy blanked in
// a mirror), cards by id or name, and the Alpha-Tactics-only settings
// refused by name.
func TestImpactGoofspielCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cardlab(t, "impact", "--rules", dir, "--method", "ablation", "--bots", "random", "--cards", "Bid 1,bid-13", "--games", "600", "--workers", "2")
	if code != 0 {
		t.Fatalf("impact: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"one copy blank; in a mirror one seat's copy blanked (the lineup's first seat of its side)", "IMPACT = the seat's win % with its copy − with it blank"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("impact output lacks %q:\n%s", want, stdout)
		}
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(stdout, "\n") {
		if f := strings.Fields(l); len(f) > 7 && strings.HasPrefix(f[1], "bid-") {
			rows[f[1]] = f
		}
	}
	if r := rows["bid-13"]; r == nil || r[0] != "1" || !strings.HasSuffix(r[6], "*") {
		t.Errorf("bid-13 not first and significant: %q\n%s", r, stdout)
	}
	if rows["bid-1"] == nil {
		t.Errorf("no row for bid-1 (named 'Bid 1'):\n%s", stdout)
	}
	for _, c := range []struct{ args, want string }{
		{"--method ablation --mode blank", "--mode blank: goofspiel cards have no power, kind or effect to remove"},
		{"--method ablation --cards bid-99", `unknown card "bid-99"`},
	} {
		args := append([]string{"impact", "--rules", dir, "--games", "2"}, strings.Fields(c.args)...)
		if code, _, stderr := cardlab(t, args...); code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d: %s", c.args, code, stderr)
		}
	}
	// The screening (the default method): the card-value experiment
	// through the Valuer, in bid points; bid 13 ranks above bid 1.
	code, stdout, stderr = cardlab(t, "impact", "--rules", dir, "--bots", "random", "--precision", "0", "--value-games", "2048", "--workers", "2")
	if code != 0 || !strings.Contains(stdout, "Price of a bid point (+1 bid on one copy of a card)") || strings.Contains(stdout, "power point") {
		t.Fatalf("screening: exit %d: %s\n%s", code, stderr, stdout)
	}
	if i13, i1 := strings.Index(stdout, "bid-13"), strings.Index(stdout, "bid-1 "); i13 < 0 || i1 < 0 || i13 > i1 {
		t.Errorf("screening: bid-13 not ranked above bid-1:\n%s", stdout)
	}
}
