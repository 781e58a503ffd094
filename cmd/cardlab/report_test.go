package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/cardlab/cardlab/reports"
)

func wantReportFiles(t *testing.T, dir string) {
	t.Helper()
	for _, f := range reports.Files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestReportUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"report"}, 2, "--out DIR is required"},
		{[]string{"report", "--out", dir, "--games", "0"}, 2, "--games must be at least 1"},
		{[]string{"report", "--out", dir, "--games", "abc"}, 2, `--games must be a whole number, got "abc"`},
		{[]string{"report", "--out", dir, "--tolerance", "-1"}, 2, "--tolerance must be at least 0"},
		{[]string{"report", "--out", dir, "--tolerance", "NaN"}, 2, "--tolerance must be a finite number"},
		{[]string{"report", "--out", dir, "--card-tolerance", "0"}, 2, "--card-tolerance must be above 0"},
		{[]string{"report", "--out", dir, "--card-tolerance", "NaN"}, 2, "--card-tolerance must be a finite number"},
		{[]string{"report", "--out", dir, "--card-tolerance", "+Inf"}, 2, "--card-tolerance must be a finite number"},
		{[]string{"report", "--out", dir, "--from", "x.json", "--games", "5"}, 2, "--games cannot be used with it"},
		{[]string{"report", "--out", dir, "--from", "x.json", "--impact"}, 2, "--impact cannot be used with it"},
		{[]string{"report", "--out", dir, "extra"}, 2, "takes no arguments"},
		{[]string{"report", "--out", dir, "--from", filepath.Join(dir, "missing.json")}, 1, "missing.json"},
		{[]string{"report", "--out", dir, "--bots", "nosuchbot", "--games", "2"}, 2, "nosuchbot"},
		{[]string{"report", "--out", dir, "--matchups", "starfleet,nosuch", "--games", "2"}, 1, "nosuch"},
	}
	for _, tc := range tests {
		code, stdout, stderr := cardlab(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
		if stdout != "" {
			t.Errorf("%v: stdout %q", tc.args, stdout)
		}
	}
}

// report plays, writes the four files and says so on stderr; --from renders
// the same report again from results.json, and from a simulate result.
func TestReportCommand(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "rep")
	code, stdout, stderr := cardlab(t, "report", "--games", "12", "--bots", "random", "--check-bots", "greedy", "--seed", "3", "--workers", "2",
		"--precision", "100", "--value-games", "64", "--out", out)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("report wrote to stdout: %q", stdout)
	}
	if !strings.Contains(stderr, "wrote "+filepath.Join(out, "balance.xlsx")) {
		t.Errorf("stderr %q", stderr)
	}
	wantReportFiles(t, out)
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if want := "cardlab report --bots random --games 12 --seed 3 --check-bots greedy --precision 100 --value-games 64 --out " + out; !strings.Contains(string(md), want) {
		t.Errorf("summary.md has no reproduce command %q:\n%s", want, md)
	}
	f, err := excelize.OpenFile(filepath.Join(out, "balance.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.GetSheetList(); !slices.Contains(got, "Cards") || !slices.Contains(got, "Summary") {
		t.Errorf("sheets %v", got)
	}
	f.Close()
	var res struct {
		Cards []struct {
			ID    string          `json:"id"`
			Value json.RawMessage `json:"value"`
		} `json:"cards"`
		Price  map[string]json.RawMessage `json:"price_of_power"`
		Design json.RawMessage            `json:"card_value_design"`
		Tiers  struct {
			Cards  []json.RawMessage `json:"cards"`
			Design struct {
				Bots []string `json:"bots"`
			} `json:"card_value_design"`
		} `json:"tier_check"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Price) != 4 || res.Design == nil || len(res.Cards) == 0 {
		t.Fatalf("results.json: %d prices of power, design %s, %d cards", len(res.Price), res.Design, len(res.Cards))
	}
	for _, c := range res.Cards {
		if c.Value == nil {
			t.Errorf("card %s has no value in results.json", c.ID)
		}
	}
	// The check tier measured the card values too, with its own bots.
	if len(res.Tiers.Cards) == 0 || len(res.Tiers.Design.Bots) != 1 || res.Tiers.Design.Bots[0] != "greedy" {
		t.Errorf("tier_check: %d cards, card values played by %v", len(res.Tiers.Cards), res.Tiers.Design.Bots)
	}

	again := filepath.Join(tmp, "again")
	code, _, stderr = cardlab(t, "report", "--from", filepath.Join(out, "results.json"), "--out", again)
	if code != 0 {
		t.Fatalf("report --from: exit %d: %s", code, stderr)
	}
	wantReportFiles(t, again)
	for _, name := range []string{"results.json", "summary.md"} {
		a, _ := os.ReadFile(filepath.Join(out, name))
		b, _ := os.ReadFile(filepath.Join(again, name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s rendered --from results.json differs from the original", name)
		}
	}

	sim := filepath.Join(tmp, "sim.json")
	if code, _, stderr := cardlab(t, "simulate", "--games", "8", "--seed", "2", "--json", "--out", sim); code != 0 {
		t.Fatalf("simulate: %s", stderr)
	}
	fromSim := filepath.Join(tmp, "fromsim")
	code, _, stderr = cardlab(t, "report", "--from", sim, "--out", fromSim)
	if code != 0 {
		t.Fatalf("report --from a simulate result: exit %d: %s", code, stderr)
	}
	page, _ := os.ReadFile(filepath.Join(fromSim, "cards.html"))
	if !strings.Contains(string(page), "Play the top card of your draw pile") {
		t.Error("the gallery has no card texts although the result matches the embedded ruleset")
	}
	md, _ = os.ReadFile(filepath.Join(fromSim, "summary.md"))
	if !strings.Contains(string(md), "cardlab simulate --matchups") {
		t.Errorf("a simulate result's summary has no simulate command:\n%s", md)
	}
	// A ruleset whose hash differs: names only, and a note.
	rules := writeDefault(t)
	corrupt(t, rules, "klingon.yaml", "name: Raptor", "name: Raptor II")
	code, _, stderr = cardlab(t, "report", "--rules", rules, "--from", sim, "--out", filepath.Join(tmp, "names"))
	if code != 0 || !strings.Contains(stderr, "without faces") {
		t.Errorf("--from with another ruleset: exit %d, stderr %q", code, stderr)
	}
}

// --impact adds the ablation: an Impact sheet and chart.
func TestReportImpact(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rep")
	code, _, stderr := cardlab(t, "report", "--matchups", "starfleet,klingon", "--games", "10", "--bots", "random",
		"--impact", "--impact-games", "4", "--workers", "2", "--values=false", "--out", out)
	if code != 0 {
		t.Fatalf("report --impact: exit %d: %s", code, stderr)
	}
	f, err := excelize.OpenFile(filepath.Join(out, "balance.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !slices.Contains(f.GetSheetList(), "Impact") {
		t.Errorf("no Impact sheet: %v", f.GetSheetList())
	}
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(page), `id="chart-impact"`) {
		t.Error("no impact chart on the page")
	}
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if !strings.Contains(string(md), "--impact --impact-games 4") {
		t.Errorf("the reproduce command lacks --impact:\n%s", md)
	}
}

// --base compares with an earlier ruleset: the Diff sheets, the "what
// changed" section and its charts, and the list of changes in summary.md.
func TestReportBase(t *testing.T) {
	base := writeDefault(t)
	variant := writeDefault(t)
	corrupt(t, variant, "klingon.yaml", "    name: Raptor\n    type: ship\n    kind: X\n    power: 2", "    name: Raptor\n    type: ship\n    kind: X\n    power: 4")
	out := filepath.Join(t.TempDir(), "rep")
	code, _, stderr := cardlab(t, "report", "--rules", variant, "--base", base, "--matchups", "starfleet,klingon",
		"--games", "20", "--bots", "random", "--workers", "2", "--values=false", "--out", out)
	if code != 0 {
		t.Fatalf("report --base: exit %d: %s", code, stderr)
	}
	f, err := excelize.OpenFile(filepath.Join(out, "balance.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !slices.Contains(f.GetSheetList(), "Diff changes") {
		t.Errorf("no Diff changes sheet: %v", f.GetSheetList())
	}
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, want := range []string{`id="changes"`, `id="chart-diff-factions"`, "kl-raptor"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page has no %s", want)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if !strings.Contains(string(md), "### What changed") || !strings.Contains(string(md), "- Raptor (kl-raptor): power: 2 → 4") {
		t.Errorf("summary.md does not list what changed:\n%s", md)
	}
}

// TestReportFromRefusesEditedFigures is issue 24 item 6: factions.klingon.
// win_rate changed from 0.51 to 0.71 in a result (a simulate result, and a
// report's results.json) was rendered as "Klingon wins 71.0%", because the
// checksum covered only the raw counts. It is refused now, nothing written.
func TestReportFromRefusesEditedFigures(t *testing.T) {
	dir := t.TempDir()
	sim := filepath.Join(dir, "r.json")
	if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "20", "--json", "--out", sim); code != 0 {
		t.Fatal(stderr)
	}
	first := filepath.Join(dir, "first")
	if code, _, stderr := cardlab(t, "report", "--from", sim, "--out", first); code != 0 {
		t.Fatal(stderr)
	}
	for _, src := range []string{sim, filepath.Join(first, "results.json")} {
		var m map[string]any
		data, _ := os.ReadFile(src)
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		m["factions"].(map[string]any)["klingon"].(map[string]any)["win_rate"] = 0.71
		b, _ := json.MarshalIndent(m, "", "  ")
		ed := filepath.Join(dir, "edited.json")
		os.WriteFile(ed, b, 0o644)
		out := filepath.Join(dir, "out")
		code, _, stderr := cardlab(t, "report", "--from", ed, "--out", out)
		if code != 1 || !strings.Contains(stderr, "checksum does not match") {
			t.Errorf("%s edited: exit %d: %s", filepath.Base(src), code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s edited: %s was written", filepath.Base(src), out)
		}
	}
}

// A report checked at a second tier marks the verdicts the tiers disagree
// on. On the default ruleset greedy and random play disagree about Romulan
// (about 62% against greedy play, 49% against random play: `cardlab skill
// --bots random,greedy --games 300`), which the verdict, the findings and
// results.json mark skill-dependent; the two cheap tiers keep the test
// fast. (Strong against greedy is the report's default; its run on the
// default ruleset is in docs/metrics.md, "Skill-dependent verdicts".)
func TestReportMarksSkillDependence(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rep")
	code, _, stderr := cardlab(t, "report", "--games", "300", "--bots", "greedy", "--check-bots", "random", "--values=false", "--workers", "2", "--out", out)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	for _, want := range []string{"bots greedy", "Every figure comes from games of the greedy bot; the skill check replays the same deals with the random bot.",
		"Skill-dependent (checked against random play on the same deals) — Romulan: -0.6 (possibly out) against random play, +12.5 (out of balance) against greedy play.", "Romulan is skill-dependent", "--bots greedy --games 300 --seed 1 --check-bots random --values=false"} {
		if !strings.Contains(string(md), reportsMD(want)) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	var res struct {
		Tiers struct {
			Bots      []string `json:"bots"`
			CheckBots []string `json:"check_bots"`
			Factions  []struct {
				Faction        string `json:"faction"`
				SkillDependent bool   `json:"skill_dependent"`
			} `json:"factions"`
		} `json:"tier_check"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	marked := map[string]bool{}
	for _, f := range res.Tiers.Factions {
		marked[f.Faction] = f.SkillDependent
	}
	if !marked["romulan"] || len(res.Tiers.Factions) != 4 || res.Tiers.CheckBots[0] != "random" || res.Tiers.Bots[0] != "greedy" {
		t.Errorf("tier_check %+v", res.Tiers)
	}
	// By default the report plays the strong bot and checks against greedy.
	def := filepath.Join(t.TempDir(), "def")
	if code, _, stderr := cardlab(t, "report", "--games", "10", "--values=false", "--workers", "2", "--out", def); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	md, _ = os.ReadFile(filepath.Join(def, "summary.md"))
	if want := "Every figure comes from games of the strong bot; the skill check replays the same deals with the greedy bot."; !strings.Contains(string(md), want) {
		t.Errorf("summary.md lacks %q:\n%s", want, md)
	}
	// --check-bots none skips the check; the report says so.
	none := filepath.Join(t.TempDir(), "none")
	if code, _, stderr := cardlab(t, "report", "--games", "4", "--bots", "greedy", "--check-bots", "none", "--values=false", "--out", none); code != 0 {
		t.Fatalf("report --check-bots none: exit %d: %s", code, stderr)
	}
	md, _ = os.ReadFile(filepath.Join(none, "summary.md"))
	if !strings.Contains(string(md), "no skill check was run") || strings.Contains(string(md), "tier_check") {
		t.Errorf("summary.md without a check:\n%s", md)
	}
	if code, _, stderr := cardlab(t, "report", "--games", "4", "--bots", "greedy", "--check-bots", "greedy", "--out", none); code != 1 || !strings.Contains(stderr, "the report's own tier") {
		t.Errorf("--check-bots equal to --bots: exit %d: %s", code, stderr)
	}
}

// reportsMD escapes what summary.md escapes in the strings the tests look
// for (brackets, parentheses are left alone).
func reportsMD(s string) string {
	return strings.NewReplacer("-", "-", "_", `\_`).Replace(s)
}
