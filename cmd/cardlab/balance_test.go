package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/reports"
)

// balanceFast are small budgets: greedy at both tiers, a few thousand
// games a stage.
var balanceFast = []string{"--verify-bots", "greedy", "--games", "300", "--value-games", "1000", "--verify-games", "1000"}

func balanceJSON(t *testing.T, args ...string) (int, *analysis.BalanceResult, string) {
	t.Helper()
	code, stdout, stderr := cardlab(t, append(append([]string{"balance", "--json"}, balanceFast...), args...)...)
	var r analysis.BalanceResult
	if code == 0 || code == 1 && stdout != "" {
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("exit %d, %v: %s\n%s", code, err, stdout, stderr)
		}
	}
	return code, &r, stderr
}

// changedLines lists the lines (1-based) where a and b differ; they must
// have as many lines.
func changedLines(t *testing.T, name string, a, b []byte) []int {
	t.Helper()
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	if len(la) != len(lb) {
		t.Fatalf("%s: %d lines became %d", name, len(la), len(lb))
	}
	var out []int
	for i := range la {
		if !bytes.Equal(la[i], lb[i]) {
			out = append(out, i+1)
		}
	}
	return out
}

// TestBalance: the default ruleset at greedy is brought within ±4 points
// (verified), the written ruleset re-loads and validates and differs from
// the input only in the package's values; balance on its own output says
// "already balanced" and changes nothing; one card of the balanced set
// made much stronger is among the edits of the repair; one side weakened by
// several small edits is repaired within the band.
func TestBalance(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 300 000 greedy games")
	}
	src := writeDefault(t)
	out := filepath.Join(t.TempDir(), "balanced")
	code, r, stderr := balanceJSON(t, "--rules", src, "--out", out, "--tolerance", "4")
	if code != 0 || !r.Balanced || len(r.Package) == 0 {
		t.Fatalf("exit %d, balanced %v, package %v: %s", code, r.Balanced, r.Package, stderr)
	}
	if !strings.Contains(stderr, "balance: round 1:") || !strings.Contains(stderr, "verified at greedy") {
		t.Errorf("progress on stderr: %s", stderr)
	}
	if c, _, e := cardlab(t, "validate", "--rules", out); c != 0 {
		t.Fatalf("the written ruleset does not validate: %s", e)
	}
	before, after := dirFiles(t, src), dirFiles(t, out)
	for name, data := range before {
		got, ok := after[name]
		if !ok {
			t.Errorf("%s was not copied", name)
			continue
		}
		var want []int
		for _, e := range r.Package {
			if e.File == name {
				want = append(want, e.Line)
			}
		}
		slices.Sort(want)
		if lines := changedLines(t, name, data, got); !slices.Equal(lines, want) {
			t.Errorf("%s: lines %v changed, want the package's %v", name, lines, want)
		}
	}
	md := string(after["balance.md"])
	if len(r.Menu) != len(r.Package)+1 || r.Menu[len(r.Menu)-1].MaxDev >= r.Menu[0].MaxDev || !strings.HasPrefix(r.Diff, "--- a/") {
		t.Errorf("menu %+v, diff %q", r.Menu, r.Diff)
	}
	for _, want := range []string{"**Balanced**", "## The package", r.Package[0].Text, "```diff\n" + r.Diff + "```", "## The menu", "| 1 | " + reports.MarkdownText(r.Package[0].Text) + " | ", "## Reproduce", "cardlab balance ", "--rules " + src} {
		if !strings.Contains(md, want) {
			t.Errorf("balance.md lacks %q:\n%s", want, md)
		}
	}
	// On its own output: already balanced, nothing changed.
	again := filepath.Join(t.TempDir(), "again")
	code, r2, stderr := balanceJSON(t, "--rules", out, "--out", again, "--tolerance", "4")
	if code != 0 || !r2.AlreadyBalanced || len(r2.Package) != 0 {
		t.Fatalf("on its own output: exit %d, already %v, package %v: %s", code, r2.AlreadyBalanced, r2.Package, stderr)
	}
	twice := dirFiles(t, again)
	for name, data := range after {
		if name != "balance.md" && !bytes.Equal(twice[name], data) {
			t.Errorf("%s changed on a balanced ruleset", name)
		}
	}
	if !strings.Contains(string(twice["balance.md"]), "**Already balanced**") {
		t.Errorf("balance.md:\n%s", twice["balance.md"])
	}
	// One card made much stronger: the repair edits it first.
	strong := filepath.Join(t.TempDir(), "strong")
	if err := os.CopyFS(strong, os.DirFS(out)); err != nil {
		t.Fatal(err)
	}
	corrupt(t, strong, "klingon.yaml", "    power: 5\n    effect: flagship", "    power: 9\n    effect: flagship")
	code, r3, stderr := balanceJSON(t, "--rules", strong, "--out", filepath.Join(t.TempDir(), "repaired"), "--tolerance", "3")
	// The acceptance: the edited card is among the package's edits
	// (the race prefers the card most out of line only among edits
	// measured within a band of the best, so a bigger fix elsewhere may
	// come first).
	if !slices.ContainsFunc(r3.Package, func(e analysis.BalanceEdit) bool { return e.Card == "kl-neghvar" && e.To < 9 }) {
		t.Fatalf("exit %d: kl-neghvar's power down is not among the package's edits %v: %s", code, r3.Package, stderr)
	}
	if len(r3.Verify) == 0 || r3.Verify[0].MaxDev >= maxDevOf(r3.Before) {
		t.Errorf("the repair did not bring the sides closer on fresh games: %+v", r3.Verify)
	}
	// One side weakened by several small edits: repaired within the band.
	weak := filepath.Join(t.TempDir(), "weak")
	if err := os.CopyFS(weak, os.DirFS(out)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"sf-defiant", "sf-akira", "sf-excelsior"} {
		lowerPower(t, weak, "starfleet.yaml", id)
	}
	code, r4, stderr := balanceJSON(t, "--rules", weak, "--out", filepath.Join(t.TempDir(), "unweakened"), "--tolerance", "4")
	if code != 0 || !r4.Balanced || len(r4.Package) == 0 || maxDevOf(r4.Before) <= 0.04 {
		t.Fatalf("weakened Starfleet: exit %d, balanced %v, before %+v, package %v: %s", code, r4.Balanced, r4.Before, r4.Package, stderr)
	}
}

// lowerPower lowers card id's power by one in file of dir.
func lowerPower(t *testing.T, dir, file, id string) {
	t.Helper()
	p := filepath.Join(dir, file)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	at := slices.Index(lines, "  - id: "+id)
	for i := at + 1; at >= 0 && i < len(lines) && !strings.HasPrefix(lines[i], "  - "); i++ {
		var v int
		if n, _ := fmt.Sscanf(lines[i], "    power: %d", &v); n == 1 {
			lines[i] = fmt.Sprintf("    power: %d", v-1)
			if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s: no power line of %s", file, id)
}

// Bad requests are refused clearly, before any game, and nothing is
// written.
func TestBalanceRefuses(t *testing.T) {
	gs := initGoofspiel(t)
	at := writeDefault(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"mirror without its knob", []string{"--rules", gs, "--out", out}, 1, `no card knob "power" (card knobs: value), nor a rule parameter`},
		{"mirror's cards unpredicted", []string{"--rules", gs, "--out", out, "--knobs", "value"}, 1, "edits have no prediction to shortlist them (edits of a mirror's cards"},
		{"rule knob unknown", []string{"--out", out, "--knobs", "power,hand_sise"}, 1, `cannot sweep rule parameter "hand_sise"`},
		{"no out", []string{}, 2, "--out NEWDIR is required"},
		{"seat tolerance NaN", []string{"--out", out, "--seat-tolerance", "NaN"}, 2, "seat-tolerance"},
		{"seat tolerance 0", []string{"--out", out, "--seat-tolerance", "0"}, 2, "--seat-tolerance must be above 0"},
		{"tolerance NaN", []string{"--out", out, "--tolerance", "NaN"}, 2, "tolerance"},
		{"tolerance 0", []string{"--out", out, "--tolerance", "0"}, 2, "--tolerance must be above 0"},
		{"unknown knob", []string{"--out", out, "--knobs", "powr"}, 1, `no card knob "powr"`},
		{"unpredicted knob", []string{"--out", out, "--knobs", "params.amount"}, 1, "(power) and copies only"},
		{"lock unknown", []string{"--out", out, "--lock", "kl-nope"}, 1, "kl-nope"},
		{"out inside rules", []string{"--rules", at, "--out", filepath.Join(at, "b")}, 1, "inside the ruleset's own folder"},
		{"budget", []string{"--out", out, "--budget", "soon"}, 2, "--budget"},
		{"tiers unknown", []string{"--out", out, "--tiers", "all"}, 2, "--tiers \"all\": give both"},
		{"finalists 0", []string{"--out", out, "--finalists", "0"}, 2, "--finalists"},
		{"tier games 0", []string{"--out", out, "--tier-games", "0"}, 2, "--tier-games"},
		{"shortlist 0", []string{"--out", out, "--shortlist", "0"}, 2, "--shortlist"},
		// Every copies edit alone breaks the default's deck_size 33: none
		// is a candidate (the search had played, and written, 35-card decks).
		{"copies break the deck size", []string{"--out", out, "--knobs", "copies"}, 1, "edits the knobs allow leaves a valid ruleset (a copies change alone breaks a fixed deck size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cardlab(t, append([]string{"balance"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, want %d with %q: %s", code, tt.code, tt.want, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatal("wrote the output")
			}
		})
	}
	// A file of another user's kind in the way is refused before any game.
	if err := os.MkdirAll(filepath.Join(dir, "taken", "rules.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cardlab(t, "balance", "--out", filepath.Join(dir, "taken"))
	if code != 1 || strings.Contains(stderr, "measuring") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// balance.md's menu is a table of every package size with each side's
// share before → after and its interval, and the package is a patch; a
// side's name is data (escaped).
func TestBalanceMarkdownMenu(t *testing.T) {
	sh := func(a, b float64) []analysis.SideShare {
		return []analysis.SideShare{{Side: "a|x", Share: a, CI95: [2]float64{a - 0.01, a + 0.01}, Fair: 0.5},
			{Side: "b", Share: b, CI95: [2]float64{b - 0.01, b + 0.01}, Fair: 0.5}}
	}
	e1 := analysis.BalanceEdit{Card: "c1", Text: "a.yaml:3 (c1, C*1): power: 7 → 6"}
	e2 := analysis.BalanceEdit{Card: "c2", Text: "b.yaml:9 (c2, C2): power: 2 → 3"}
	r := &analysis.BalanceResult{Sides: []string{"a|x", "b"}, Fair: []float64{0.5, 0.5}, Tolerance: 0.02, Bots: []string{"greedy"},
		Before: sh(0.6, 0.4), Package: []analysis.BalanceEdit{e1, e2}, Diff: "--- a/a.yaml\n+++ b/a.yaml\n@@ -3 +3 @@\n-power: 7\n+power: 6\n",
		Menu: []analysis.BalanceMenuRow{{Shares: sh(0.6, 0.4), MaxDev: 0.1, Pareto: true},
			{Edits: []analysis.BalanceEdit{e1}, Shares: sh(0.55, 0.45), MaxDev: 0.05, Pareto: true},
			{Edits: []analysis.BalanceEdit{e1, e2}, Shares: sh(0.44, 0.56), MaxDev: 0.06}}}
	var b bytes.Buffer
	writeBalanceMarkdown(&b, r, "cardlab balance --out x")
	md := b.String()
	for _, want := range []string{
		"```diff\n--- a/a.yaml\n+++ b/a.yaml\n@@ -3 +3 @@\n-power: 7\n+power: 6\n```",
		"| edits | edit added | largest deviation | front | a\\|x | b |\n|---:|---|---:|---|---|---|\n",
		"| 0 | (the ruleset as written) | 10.0 points | yes | 60.0% [59.0, 61.0] | 40.0% [39.0, 41.0] |\n",
		"| 1 | a.yaml:3 (c1, C\\*1): power: 7 → 6 | 5.0 points | yes | 60.0% [59.0, 61.0] → 55.0% [54.0, 56.0] | 40.0% [39.0, 41.0] → 45.0% [44.0, 46.0] |\n",
		"| 2 | b.yaml:9 (c2, C2): power: 2 → 3 | 6.0 points | no | 60.0% [59.0, 61.0] → 44.0% [43.0, 45.0] | 40.0% [39.0, 41.0] → 56.0% [55.0, 57.0] |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("balance.md lacks %q:\n%s", want, md)
		}
	}
}

// A package within the band at the search's tier (strong) but not at the
// other (greedy) is skill-dependent: balance.md and the exit say so with
// both tiers' figures and never call it balanced; within the band at both,
// it is balanced and exits 0.
func TestBalanceSkillDependentVerdict(t *testing.T) {
	fd := func(after float64) []analysis.FactionDelta {
		return []analysis.FactionDelta{{Faction: "a", Variant: after}, {Faction: "b", Variant: 1 - after}}
	}
	r := &analysis.BalanceResult{Sides: []string{"a", "b"}, Fair: []float64{0.5, 0.5}, Tolerance: 0.02, Bots: []string{"strong"},
		Package: []analysis.BalanceEdit{{Card: "c1", Text: "a.yaml:3 (c1, C1): power: 7 → 6"}}, SkillDependent: true,
		Stop: "the search's games put every side within the band", Games: 1200, GamesByBots: map[string]int64{"strong": 1000, "greedy": 200}, ReusedGames: 300,
		Verify: []analysis.BalanceVerify{{Bots: []string{"strong"}, Sides: fd(0.51), InBand: true, MaxDev: 0.01},
			{Bots: []string{"greedy"}, Sides: fd(0.56), InBand: false, MaxDev: 0.06}}}
	var b bytes.Buffer
	writeBalanceMarkdown(&b, r, "cardlab balance --bots strong --verify-bots greedy --out x")
	md := b.String()
	for _, want := range []string{
		"**Skill-dependent** — not balanced at every tier: on fresh games the package holds every side within ±2.0 points of its fair share at strong, not at greedy (largest deviation 1.0 points at strong, largest deviation 6.0 points at greedy).",
		"1200 games in all (200 at greedy, 1000 at strong), besides 300 of the package's brought from the round before on the same deals",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("balance.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "**Balanced**") {
		t.Errorf("a skill-dependent package is called balanced:\n%s", md)
	}
	err := balanceVerdict(r, "out")
	if err == nil || !strings.Contains(err.Error(), "skill-dependent, not balanced: on fresh games every side is within the band at strong but not at greedy (largest deviation 1.0 points at strong, largest deviation 6.0 points at greedy)") {
		t.Errorf("exit: %v", err)
	}
	r.SkillDependent, r.Balanced = false, true
	r.Verify[1].InBand, r.Verify[1].MaxDev = true, 0.015
	if err := balanceVerdict(r, "out"); err != nil {
		t.Errorf("balanced at both tiers: %v", err)
	}
	r.Balanced = false
	r.Verify[0].InBand = false
	if err := balanceVerdict(r, "out"); err == nil || !strings.Contains(err.Error(), "not balanced: on fresh games a side is outside the band at strong") {
		t.Errorf("outside at strong: %v", err)
	}
}

// report --base DIR NEWDIR on balance's output names every edit of the
// package in its "What changed" list, at the file:line balance.md gives.
func TestReportBaseNamesBalanceEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 60 000 greedy games")
	}
	src := writeDefault(t)
	out := filepath.Join(t.TempDir(), "balanced")
	_, r, stderr := balanceJSON(t, "--rules", src, "--out", out, "--tolerance", "4", "--max-edits", "2", "--verify-games", "200")
	if len(r.Package) == 0 {
		t.Fatalf("no package to compare: %s", stderr)
	}
	rep := filepath.Join(t.TempDir(), "report")
	if code, _, stderr := cardlab(t, "report", "--rules", out, "--base", src, "--bots", "greedy", "--games", "100", "--check-bots", "none", "--out", rep); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(rep, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Diff struct {
			Changes []analysis.Change `json:"changes"`
		} `json:"diff"`
	}
	data, err := os.ReadFile(filepath.Join(rep, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Diff.Changes) != len(r.Package) {
		t.Errorf("the report lists %d changes for a package of %d: %+v", len(res.Diff.Changes), len(r.Package), res.Diff.Changes)
	}
	for _, e := range r.Package {
		pos := fmt.Sprintf("%s:%d", e.File, e.Line)
		line := fmt.Sprintf("- %s (%s): %s: %d → %d (%s)\n", reports.MarkdownText(e.Name), reports.MarkdownText(e.Card), e.Knob, e.From, e.To, pos)
		if !strings.Contains(string(md), line) {
			t.Errorf("summary.md lacks %q:\n%s", line, md)
		}
		if !slices.ContainsFunc(res.Diff.Changes, func(c analysis.Change) bool {
			return c.ID == e.Card && c.Field == e.Knob && c.Base == fmt.Sprint(e.From) && c.Variant == fmt.Sprint(e.To) && c.Pos == pos
		}) {
			t.Errorf("results.json has no change %s %s %d → %d at %s: %+v", e.Card, e.Knob, e.From, e.To, pos, res.Diff.Changes)
		}
	}
}

// The starting seat: Spacetrace is a mirror whose starter wins some 60% of
// greedy games. balance brings the starting seat towards its fair share
// with rule parameters alone, raced without a prediction against the rules
// as they are on the same games, writes only those lines, and names the
// starting seat in balance.md; on Alpha Tactics --seat-tolerance adds the
// starting seat to the factions.
func TestBalanceSeats(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "st")
	if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", "--ruleset", "spacetrace-first", st); code != 0 {
		t.Fatal(stderr)
	}
	out := filepath.Join(dir, "st-b")
	code, r, stderr := balanceJSON(t, "--rules", st, "--out", out, "--knobs", "hand.start,draw.per_turn", "--max-step", "1", "--seat-tolerance", "3")
	if code > 1 || len(r.Sides) != 1 || r.Sides[0] != analysis.StarterSide || r.SeatTolerance != 0.03 {
		t.Fatalf("exit %d, sides %v, seat tolerance %v: %s", code, r.Sides, r.SeatTolerance, stderr)
	}
	if r.Before[0].Share < 0.55 || r.Fair[0] != 0.5 {
		t.Fatalf("the starter's share before: %+v (fair %v); Spacetrace's greedy starter wins ~60%%", r.Before, r.Fair)
	}
	if len(r.Package) == 0 || !strings.Contains(stderr, "without a prediction") {
		t.Fatalf("no package from rule parameters: %+v: %s", r, stderr)
	}
	for _, e := range r.Package {
		if !e.Rules || e.File != "rules.yaml" || e.Line == 0 || (e.Knob != "hand.start" && e.Knob != "draw.per_turn") {
			t.Errorf("edit %+v: want a rule parameter's line of rules.yaml", e)
		}
	}
	for _, s := range r.Steps {
		if len(s.Baseline) != 1 || s.Baseline[0].Games == 0 {
			t.Errorf("round without the rules as they are on its games: %+v", s)
		}
	}
	v := r.Verify[0]
	if len(v.Sides) != 1 || v.Sides[0].Faction != analysis.StarterSide || v.Sides[0].Variant >= v.Sides[0].Base {
		t.Errorf("verification: %+v", v)
	}
	before, after := dirFiles(t, st), dirFiles(t, out)
	var want []int
	for _, e := range r.Package {
		want = append(want, e.Line)
	}
	slices.Sort(want)
	if lines := changedLines(t, "rules.yaml", before["rules.yaml"], after["rules.yaml"]); !slices.Equal(lines, want) {
		t.Errorf("rules.yaml: lines %v changed, want %v", lines, want)
	}
	if !bytes.Equal(before["cards.yaml"], after["cards.yaml"]) {
		t.Error("cards.yaml changed")
	}
	if md := string(after["balance.md"]); !strings.Contains(md, "the starting seat within ±3.0 points of its fair share") || !strings.Contains(md, "- starting seat: ") {
		t.Errorf("balance.md:\n%s", md)
	}
	// Alpha Tactics: the factions and the starting seat, both bands.
	at := writeDefault(t)
	code, r2, stderr := balanceJSON(t, "--rules", at, "--out", filepath.Join(dir, "at-b"), "--tolerance", "40", "--seat-tolerance", "30")
	if code != 0 || !r2.AlreadyBalanced || len(r2.Sides) != 5 || r2.Sides[4] != analysis.StarterSide || r2.Before[4].Tolerance != 0.3 || r2.Before[0].Tolerance != 0.4 {
		t.Fatalf("exit %d, sides %v, before %+v: %s", code, r2.Sides, r2.Before, stderr)
	}
}

// With --verify-bots other than --bots the search plays both tiers (the
// default --tiers both): the ruleset is measured at each, every round's
// finalists (at most --finalists) play the second tier beside the package
// as it is, an edit joins only when the worse tier's objective beats the
// package's on the same games, and balance.md says so; --tiers search
// plays the second tier in the verification only. Greedy and a cheap
// strong setting on one lineup keep it small.
func TestBalanceTwoTiers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 20 000 games")
	}
	const tier2 = "strong:k=2,dets=1"
	args := []string{"--matchups", "starfleet,romulan", "--verify-bots", tier2, "--games", "200", "--value-games", "500",
		"--tier-games", "150", "--tier-value-games", "100", "--finalists", "2", "--verify-games", "150", "--max-edits", "2"}
	run := func(extra ...string) (*analysis.BalanceResult, string, string) {
		out := filepath.Join(t.TempDir(), "b")
		code, stdout, stderr := cardlab(t, append(append([]string{"balance", "--json", "--out", out}, args...), extra...)...)
		if code != 0 && code != 1 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var r analysis.BalanceResult
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("%v: %s\n%s", err, stdout, stderr)
		}
		md, err := os.ReadFile(filepath.Join(out, "balance.md"))
		if err != nil {
			t.Fatal(err)
		}
		return &r, string(md), stderr
	}
	r, md, stderr := run()
	if !slices.Equal(r.Tier2, []string{tier2}) || len(r.Before2) != 2 || r.Tier2Games != 150 || r.Finalists != 2 || len(r.Price2) != 2 {
		t.Fatalf("second tier %v, before %v, games %d, finalists %d, price %v: %s", r.Tier2, r.Before2, r.Tier2Games, r.Finalists, r.Price2, stderr)
	}
	if len(r.Steps) == 0 || len(r.Steps[0].Edits) == 0 {
		t.Fatalf("no edit joined in round 1 (stop: %s): %s", r.Stop, stderr)
	}
	for i, s := range r.Steps {
		finalists := 0
		var won *analysis.BalanceCandidate
		for j := range s.Tried {
			c := &s.Tried[j]
			if c.Measured2 == nil {
				continue
			}
			finalists++
			if len(c.Measured2) != 2 || c.Measured2[0].Games != 150 {
				t.Errorf("round %d: %s measured at the second tier on %v", i+1, c.Edit.Text, c.Measured2)
			}
			if len(s.Edits) > 0 && c.Edit == s.Edits[len(s.Edits)-1] {
				won = c
			}
		}
		if finalists > 2 {
			t.Errorf("round %d: %d finalists", i+1, finalists)
		}
		if len(s.Edits) == 0 {
			continue // a round whose race left no edit ends the search
		}
		if finalists == 0 || s.Baseline2 == nil {
			t.Errorf("round %d: an edit joined with %d finalists, baseline at the second tier %v", i+1, finalists, s.Baseline2)
		}
		// The edit joined: it was a finalist, the package's shares are its
		// own at both tiers, and the worse tier's deviation is what the
		// menu's front is about.
		if won == nil || !slices.Equal(s.Shares2, won.Measured2) || s.MaxDev2 != won.MeasuredDev2 {
			t.Errorf("round %d: the edit joined %v is not a finalist with the package's second-tier shares %v", i+1, s.Edits, s.Shares2)
		}
	}
	if len(r.Verify) != 2 || !slices.Equal(r.Verify[1].Bots, []string{tier2}) {
		t.Errorf("verified at %v", r.Verify)
	}
	// The package's games are brought from round to round on the same
	// deals: each round's baseline at the second tier is the package's
	// shares from the round before (the ruleset's in round 1), and at the
	// first tier as far as the stages played match.
	checkPooled(t, r, false, true)
	if r.GamesByBots["greedy"]+r.GamesByBots[tier2] != r.Games || r.GamesByBots[tier2] == 0 {
		t.Errorf("games by bots %v, in all %d", r.GamesByBots, r.Games)
	}
	for _, want := range []string{"Searched with bots greedy and " + tier2 + " (the worse tier's deviation decides", "At " + tier2 + " (100 games per lineup):"} {
		if !strings.Contains(md, want) {
			t.Errorf("balance.md lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(stderr, "finalists at "+tier2) {
		t.Errorf("progress names no finalists: %s", stderr)
	}
	// --tiers search: the second tier in the verification only.
	r, md, _ = run("--tiers", "search", "--max-edits", "1")
	if r.Tier2 != nil || r.Before2 != nil || len(r.Verify) != 2 || strings.Contains(md, "worse tier") {
		t.Errorf("--tiers search: second tier %v, before %v, verified %d tiers", r.Tier2, r.Before2, len(r.Verify))
	}
	for _, s := range r.Steps {
		for _, c := range s.Tried {
			if c.Measured2 != nil {
				t.Errorf("--tiers search played %s at the second tier", c.Edit.Text)
			}
		}
	}
}

// checkPooled checks that every round's package as it is (its baseline)
// carries the games of the round before: the same shares where as many
// games were played, and that the run counted games brought.
func checkPooled(t *testing.T, r *analysis.BalanceResult, pool, pool2 bool) {
	t.Helper()
	prev, prev2 := r.Before, r.Before2
	brought := false
	for i, s := range r.Steps {
		if len(s.Baseline) > 0 && len(prev) > 0 && s.Baseline[0].Games == prev[0].Games {
			same := slices.Equal(s.Baseline, prev)
			brought = brought || pool
			if same != pool {
				t.Errorf("round %d (pooled %v): the package's baseline %v, its shares of the round before %v", i+1, pool, s.Baseline, prev)
			}
		}
		if s.Baseline2 != nil {
			if same := slices.Equal(s.Baseline2, prev2); same != pool2 {
				t.Errorf("round %d (pooled %v): the package's baseline at the second tier %v, its shares of the round before %v", i+1, pool2, s.Baseline2, prev2)
			}
			brought = brought || pool2
		}
		prev, prev2 = s.Shares, s.Shares2
	}
	if brought != (r.ReusedGames > 0) {
		t.Errorf("games brought %d, baselines brought %v", r.ReusedGames, brought)
	}
}

// --bots strong searches at the strong tier: the costly defaults (a
// shortlist of 3, --games 200) apply where not given, the package's games
// are brought from round to round, and the games are counted by tier. A
// cheap strong setting on one lineup keeps it small.
func TestBalanceStrongSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 10 000 games of a cheap strong")
	}
	const bot = "strong:k=2,dets=1"
	out := filepath.Join(t.TempDir(), "b")
	code, stdout, stderr := cardlab(t, "balance", "--json", "--out", out, "--matchups", "starfleet,romulan", "--bots", bot, "--verify-bots", "greedy",
		"--tiers", "search", "--value-games", "200", "--verify-games", "100", "--max-edits", "2")
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r analysis.BalanceResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s\n%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "measuring the ruleset: 200 games per lineup, bots "+bot) || r.Tier2 != nil {
		t.Fatalf("the costly --games default, one search tier: %v: %s", r.Tier2, stderr)
	}
	if len(r.Steps) == 0 {
		t.Fatalf("no round (stop: %s): %s", r.Stop, stderr)
	}
	for i, s := range r.Steps {
		predicted := 0
		for _, c := range s.Tried {
			if c.Measured != nil && !c.Unpredicted {
				predicted++
			}
		}
		if predicted > 3+len(r.Sides) { // the shortlist of 3 and a suspect per side
			t.Errorf("round %d raced %d edits", i+1, predicted)
		}
	}
	checkPooled(t, &r, true, false)
	if len(r.Steps) > 0 && r.ReusedGames == 0 {
		t.Errorf("no game of the package brought: %+v", r.Steps[0].Baseline)
	}
	if r.GamesByBots[bot]+r.GamesByBots["greedy"] != r.Games || r.GamesByBots["greedy"] == 0 || len(r.Verify) != 2 || !slices.Equal(r.Verify[0].Bots, []string{bot}) {
		t.Errorf("games by bots %v (in all %d), verified %v", r.GamesByBots, r.Games, r.Verify)
	}
}
