package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// tierFaction is a faction of a synthetic skill check: its share at the
// report's tier (rep) and the check tier (chk) over n games, and the paired
// test's corrected p-value.
func tierFaction(f string, n int64, rep, chk, pAdj float64) analysis.TierFaction {
	ci := func(x float64) [2]float64 {
		lo, hi := analysis.Wilson(x*float64(n), float64(n), analysis.Z95)
		return [2]float64{lo, hi}
	}
	d := rep - chk
	return analysis.TierFaction{Fair: 0.5, FactionDelta: analysis.FactionDelta{Faction: f, Base: chk, BaseCI95: ci(chk), Variant: rep, VariantCI95: ci(rep),
		PairedTest: analysis.PairedTest{Games: n, Changed: n / 2, Delta: d, SD: 0.7, CI95: [2]float64{d - 0.02, d + 0.02}, P: pAdj / 4, PAdj: pAdj,
			Test: analysis.TestPairedT, Significant: pAdj < 0.05}}}
}

// TestMarkTiers: a faction is skill-dependent exactly when its paired change
// is significant after Holm and its verdict against the band differs
// between the tiers.
func TestMarkTiers(t *testing.T) {
	for _, c := range []struct {
		name     string
		rep, chk float64
		pAdj     float64
		want     bool
		verdicts [2]string
	}{
		{"fair against greedy, +18 against strong", 0.68, 0.495, 0.0001, true, [2]string{"above", "balanced"}},
		{"out at both tiers, significant change", 0.68, 0.60, 0.0001, false, [2]string{"above", "above"}},
		{"verdict differs, change not significant", 0.53, 0.50, 0.2, false, [2]string{"possibly out", "balanced"}},
		{"below against strong, fair against greedy", 0.36, 0.495, 0.0001, true, [2]string{"below", "balanced"}},
		{"balanced at both", 0.501, 0.499, 0.9, false, [2]string{"balanced", "balanced"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := &analysis.TierCheck{Bots: []string{"strong"}, CheckBots: []string{"greedy"}, Games: 3000, Alpha: 0.05,
				Factions: []analysis.TierFaction{tierFaction("vulcan", 9000, c.rep, c.chk, c.pAdj)}}
			got := markTiers(tc, 0.02, 8, nil).Factions[0]
			if got.SkillDependent != c.want || got.ReportVerdict != c.verdicts[0] || got.CheckVerdict != c.verdicts[1] {
				t.Errorf("skill-dependent %v, verdicts %q/%q; want %v, %q/%q", got.SkillDependent, got.ReportVerdict, got.CheckVerdict, c.want, c.verdicts[0], c.verdicts[1])
			}
			if tc.Factions[0].ReportVerdict != "" {
				t.Error("markTiers changed its input")
			}
		})
	}
}

// fixtureTiers is fixtureData with a skill check in which Vulcan is fair
// against greedy play and far above against strong play, Klingon moves
// within its verdict, and one card's flag changes.
func fixtureTiers() *Data {
	d := fixtureData(false)
	rep := *d.Report
	rep.Config.Bots = []string{"strong"}
	d.Report = &rep
	vul := rep.Factions["vulcan"]
	d.Tiers = &analysis.TierCheck{Bots: []string{"strong"}, CheckBots: []string{"greedy"}, Games: 2000, Alpha: 0.05, Correction: analysis.CorrectionHolm,
		Factions: []analysis.TierFaction{
			tierFaction("starfleet", 6000, rep.Factions["starfleet"].WinRate, 0.480, 0.8),
			tierFaction("klingon", 6000, rep.Factions["klingon"].WinRate, 0.440, 0.3),
			tierFaction("romulan", 6000, rep.Factions["romulan"].WinRate, 0.590, 0.9),
			tierFaction("vulcan", 6000, vul.WinRate, 0.495, 0.001),
		}}
	// Romulan beats Starfleet far more against strong play than against
	// greedy play.
	mu := tierFaction("romulan", 2000, 0.62, 0.505, 0.001)
	d.Tiers.Matchups = []analysis.TierMatchup{{Lineup: []string{"romulan", "starfleet"}, TierFaction: mu}}
	d.Tiers.Seats = []analysis.TierSeat{{Players: 2, Seat: 1, TierFaction: tierFaction("", 12000, 0.51, 0.50, 0.9)},
		{Players: 2, Seat: 2, TierFaction: tierFaction("", 12000, 0.49, 0.50, 0.9)}}
	for _, k := range rep.Cards {
		if k.Value != nil && k.Value.Flag == analysis.FlagDead {
			v := *k.Value
			v.Pts, v.PtsCI95 = 6, [2]float64{4, 8}
			d.Tiers.Cards = append(d.Tiers.Cards, analysis.TierCard{ID: k.ID, Value: v, P: 0.0001, PAdj: 0.001})
		}
	}
	return d
}

// TestSkillDependentEverywhere: the marks reach the verdict, the findings,
// the cards chart, the gallery, summary.md, the workbook and results.json,
// and results.json reads back (checksum) and renders the same again.
func TestSkillDependentEverywhere(t *testing.T) {
	d := fixtureTiers()
	// Vulcan's share must be fair at the check tier and out at the report
	// tier for the fixture to mean anything.
	d.Report.Factions["vulcan"] = analysis.FactionStats{WinStats: analysis.WinStats{Games: 6000, Wins: 0.68 * 6000, WinRate: 0.68, CI95: [2]float64{0.668, 0.692}}}
	d.Tiers.Factions[3] = tierFaction("vulcan", 6000, 0.68, 0.495, 0.001)
	d.Report.Checksum = d.Report.Sum()
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	md := read("summary.md")
	for _, want := range []string{
		"Skill-dependent (checked against greedy play on the same deals) — Vulcan: fair (-0.5) against greedy play, +18.0 (out of balance) against strong play.",
		"Vulcan is skill-dependent:",
		"Every figure comes from games of the strong bot; the skill check replays the same deals with the greedy bot (card values too).",
		"Skill-dependent: fair (-0.5) against greedy play.",
		"skill-dependent — the flag changes between greedy and strong play",
		"◆ skill-dependent: not flagged against greedy play",
		"Skill-dependent matchups and seats: Romulan vs Starfleet — Romulan +0.5 (possibly out) against greedy play, +12.0 (out of balance) against strong play",
	} {
		if !strings.Contains(md, strings.ReplaceAll(want, "(", "(")) && !strings.Contains(md, mdText(want)) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Klingon is skill-dependent") {
		t.Error("Klingon's change is not significant, yet it is marked")
	}
	page := read("index.html")
	for _, want := range []string{"skill-dependent: fair (-0.5) against greedy", "Every figure comes from games of the strong bot", " ◆"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if g := read("cards.html"); !strings.Contains(g, "Skill-dependent ◆") || !strings.Contains(g, "Every figure comes from games of the strong bot") {
		t.Error("cards.html does not mark the skill-dependent card or name the bots")
	}
	book := openBook(t, []byte(read("balance.xlsx")))
	checkOneTablePerSheet(t, book)
	checkReadMe(t, book)
	rows, err := book.GetRows(SheetSkillCheck)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || !strings.Contains(strings.Join(rows[4], "|"), "vulcan|Vulcan") || rows[4][len(rows[4])-1] != "yes" {
		t.Errorf("sheet %q: %q", SheetSkillCheck, rows)
	}
	for _, sh := range []string{SheetSkillCheckCards, SheetSkillCheckMatchups, SheetSkillCheckSeats} {
		if _, err := book.GetRows(sh); err != nil {
			t.Error(err)
		}
	}
	var js struct {
		Tiers *analysis.TierCheck `json:"tier_check"`
	}
	if err := json.Unmarshal([]byte(read("results.json")), &js); err != nil || js.Tiers == nil {
		t.Fatalf("results.json: tier_check missing (%v)", err)
	}
	if f := js.Tiers.Factions[3]; !f.SkillDependent || f.ReportVerdict != "above" || f.CheckVerdict != "balanced" {
		t.Errorf("results.json stores %+v", f)
	}
	// (The fixture has no raw counts, so only the document checksum is
	// checked, not Report.Verify.)
	back, err := decode("results.json", []byte(read("results.json")))
	if err != nil || back.DocumentChecksum != back.Sum() {
		t.Fatalf("results.json does not read back: %v", err)
	}
	var again bytes.Buffer
	if err := WriteMarkdown(&again, back, Options{Now: testNow}); err != nil || again.String() != md {
		t.Errorf("rendered from results.json, summary.md differs (%v)", err)
	}
	// Rendered again with a wider band, the marks follow the band: a
	// change of 18.5 points inside ±20 marks nothing.
	var wide bytes.Buffer
	if err := WriteMarkdown(&wide, back, Options{Now: testNow, Tolerance: 0.2}); err != nil || strings.Contains(wide.String(), "Vulcan is skill-dependent") ||
		!strings.Contains(wide.String(), "no faction's verdict changes") {
		t.Errorf("with a ±20 band (%v):\n%s", err, wide.String())
	}
	// Editing a mark is refused.
	edited := strings.Replace(read("results.json"), `"skill_dependent": true`, `"skill_dependent": false`, 1)
	if e, err := decode("results.json", []byte(edited)); err != nil || e.DocumentChecksum == e.Sum() {
		t.Error("the document checksum does not cover skill_dependent")
	}
}

// playTiers plays the default ruleset's 2-player lineups at two tiers on
// the same deals (salt, when non-zero, gives the second tier's bots other
// streams) and returns the marked comparison.
func playTiers(t testing.TB, rs *rules.Ruleset, seed uint64, games int, a, b string, salt uint64) *analysis.TierCheck {
	t.Helper()
	var lineups [][]string
	ids := rs.FactionIDs()
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			lineups = append(lineups, []string{ids[i], ids[j]})
		}
	}
	play := func(bots string, salt uint64) *analysis.Outcomes {
		o := analysis.NewOutcomes(lineups, games)
		if _, err := analysis.Run(context.Background(), analysis.Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: lineups, Bots: []string{bots},
			Games: games, Seed: seed, Workers: 2, BotSalt: salt, Record: o.Record}); err != nil {
			t.Fatal(err)
		}
		return o
	}
	ra, rb := play(a, 0), play(b, salt)
	tc := analysis.CompareTiers(alphatactics.Ruleset{RS: rs}, lineups, games, []string{a}, []string{b}, ra, rb, 0)
	return markTiers(tc, DefaultTolerance, analysis.DefaultCardTolerance, nil)
}

// TestSkillDependentNull: the same tier on the same deals with other bot
// streams (greedy games diverge within a few decisions, so the outcomes
// are nearly independent) gives no skill-dependent faction or matchup in
// at least 19 of 20 seeds.
func TestSkillDependentNull(t *testing.T) {
	rs := rules.Default()
	flagged := 0
	for seed := uint64(1); seed <= 20; seed++ {
		tc := playTiers(t, rs, seed, 100, "greedy", "greedy", 0x5eed)
		fam := slices.Clone(tc.Factions)
		for _, mu := range tc.Matchups {
			fam = append(fam, mu.TierFaction)
		}
		for _, s := range tc.Seats {
			fam = append(fam, s.TierFaction)
		}
		if len(fam) != 4+6+2 {
			t.Fatalf("seed %d: %d factions, matchups and seats compared, want 12", seed, len(fam))
		}
		for _, f := range fam {
			if f.SkillDependent {
				flagged++
				t.Logf("seed %d: %s marked (Δ %+.3f, p_adj %.3g, %s/%s)", seed, f.Faction, f.Delta, f.PAdj, f.ReportVerdict, f.CheckVerdict)
				break
			}
		}
	}
	if flagged > 1 {
		t.Errorf("%d of 20 seeds mark a faction skill-dependent under the null; want at most 1", flagged)
	}
}

// A results.json written before the document checksum left out when the
// games were played (its checksum covers report.generated) still reads, and
// one without tier_check (written before the skill check) renders saying
// no check was run; an edit is still refused.
func TestOlderResultsStillRead(t *testing.T) {
	d := testData(t, rules.Default(), 20)
	d.DocumentChecksum = d.sum(true)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	if d.DocumentChecksum == d.Sum() {
		t.Fatal("the fixture's older checksum equals today's: the test would prove nothing")
	}
	back, err := Parse("old.json", b.Bytes())
	if err != nil {
		t.Fatalf("an older results.json is refused: %v", err)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, back, Options{Now: testNow}); err != nil || !strings.Contains(md.String(), "no skill check was run") {
		t.Errorf("rendered (%v):\n%s", err, md.String())
	}
	edited := strings.Replace(b.String(), `"generated":"2026-01-02T03:04:05Z"`, `"generated":"2026-01-03T03:04:05Z"`, 1)
	if edited == b.String() {
		t.Fatal("the fixture has no generated time to edit")
	}
	if _, err := Parse("old.json", []byte(edited)); err == nil {
		t.Error("an older results.json with an edited time was accepted")
	}
}

// TestSkillCheckTurnOrder: where the check compares the seats in turn
// order (a mirror whose games say who began), a skill-dependent starting
// seat is named so in the skill finding and on the turn-order finding,
// never on a finding about a seat of the table; the workbook names it.
func TestSkillCheckTurnOrder(t *testing.T) {
	d := fixtureTiers()
	d.Tiers.SeatsCompared = analysis.ComparedTurnOrder
	d.Tiers.Seats = []analysis.TierSeat{{Players: 2, Seat: 1, Name: "starting seat", TierFaction: tierFaction("", 6000, 0.56, 0.50, 0.001)},
		{Players: 2, Seat: 2, Name: "2nd in turn", TierFaction: tierFaction("", 6000, 0.44, 0.50, 0.001)}}
	// The starter's advantage out of the band at the report's tier.
	s := &d.Report.Seats[0]
	s.RandomStartOrder[0].WinRate, s.RandomStartOrder[0].CI95 = 0.56, [2]float64{0.545, 0.575}
	s.RandomStartOrder[1].WinRate, s.RandomStartOrder[1].CI95 = 0.44, [2]float64{0.425, 0.455}
	s.Seats[0].WinRate, s.Seats[0].CI95 = 0.54, [2]float64{0.531, 0.549}
	s.Seats[1].WinRate, s.Seats[1].CI95 = 0.46, [2]float64{0.451, 0.469}
	m := newModel(d, Options{Now: testNow})
	var skill, turn, seat string
	for _, f := range m.findings() {
		switch {
		case strings.HasPrefix(f.Text, "Skill-dependent matchups and seats"):
			skill = f.Text
		case strings.Contains(f.Text, "the player who began round 1"):
			turn = f.Text
		case strings.HasPrefix(f.Text, "At 2-player tables seat 1"):
			seat = f.Text
		}
	}
	if !strings.Contains(skill, "the starting seat at 2-player tables — ") || strings.Contains(skill, "seat 1 at") {
		t.Errorf("skill finding: %q", skill)
	}
	if !strings.HasSuffix(turn, "Skill-dependent: against greedy play it wins 50.0%, fair (+0.0).") {
		t.Errorf("turn-order finding: %q", turn)
	}
	if seat == "" || strings.Contains(seat, "Skill-dependent") {
		t.Errorf("the seat-of-the-table finding %q carries the turn-order check", seat)
	}
	var b bytes.Buffer
	if err := WriteXLSX(&b, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	rows, _ := openBook(t, b.Bytes()).GetRows(SheetSkillCheckSeats)
	if len(rows) != 3 || rows[1][1] != "starting seat" || rows[2][1] != "2nd in turn" {
		t.Errorf("Skill check seats: %v", rows)
	}
}
