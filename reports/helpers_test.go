package reports

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Hostile names and texts a ruleset may hold; a report must show them as
// text.
const (
	hostileScript  = `<script>alert(1)</script>`
	hostileImg     = `<img src=x onerror=alert(2)>`
	hostileFormula = `=HYPERLINK("http://x","y")`
	// hostileSum is a formula to a spreadsheet though it starts with a
	// sign (issue 24 item 13).
	hostileSum     = `-1+HYPERLINK("http://x","y")`
	hostileUnicode = "Ωμέγα 🚀 中文 עברית ñ" // bidi controls are refused when a ruleset loads
	hostileFaction = `Klingon </script><b id="inj">Empire</b> & "Co"`
	hostileTarget  = `Andoria <svg onload=alert(3)>`
)

// hostileText is a very long rules text with markup in it.
var hostileText = strings.Repeat("Qapla'! <i>glory</i> & \"honour\" ", 300) + "</textarea></style></script>" + hostileUnicode

var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// testData plays a small run (random bots) of rs and returns it as a
// report's data with the catalog and the histograms.
func testData(t testing.TB, rs *rules.Ruleset, games int) *Data {
	t.Helper()
	var lineups [][]string
	ids := rs.FactionIDs()
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			lineups = append(lineups, []string{ids[i], ids[j]})
		}
	}
	res, err := analysis.Run(context.Background(), analysis.Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: lineups,
		Bots: []string{"random"}, Games: games, Seed: 7, Workers: 2, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	return &Data{Report: res.Report("test"), Meta: &Meta{
		Command:    "cardlab report --bots random --games 40 --seed 7 --out report",
		Generated:  "2026-01-02T03:04:05Z",
		Catalog:    CatalogOf(alphatactics.Ruleset{RS: rs}),
		Histograms: HistogramsOf(res.Records),
	}}
}

// hostileRuleset is the default ruleset with names and texts that are
// markup, formulas, very long or in many scripts.
func hostileRuleset(t testing.TB) *rules.Ruleset {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(rules.DefaultFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(rules.DefaultFS(), path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(file, old, new string) {
		t.Helper()
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s does not contain %q", file, old)
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := func(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
	edit("klingon.yaml", `name: "Negh'Var"`, "name: "+q(hostileScript))
	edit("klingon.yaml", `name: Raptor`, "name: "+q(hostileFormula))
	edit("klingon.yaml", `name: "Vor'Cha"`, "name: "+q(hostileSum))
	edit("klingon.yaml", `name: Bird of Prey`, "name: "+q(hostileImg))
	edit("starfleet.yaml", `name: Galaxy`, "name: "+q(hostileUnicode))
	edit("klingon.yaml", `text: "Remove any one card, face down or face up, from any row."`, "text: "+q(hostileText))
	edit("rules.yaml", "    name: Klingon\n", "    name: "+q(hostileFaction)+"\n")
	edit("targets.yaml", "name: Andoria", "name: "+q(hostileTarget))
	rs, err := rules.LoadDir(dir)
	if err != nil {
		t.Fatalf("hostile ruleset: %v", err)
	}
	return rs
}

// fixtureData is a small hand-made result with card values (the figures of
// issue 15's estimator, made up): four factions, Romulan far above its fair
// share, card names full of Markdown and HTML. It does not depend on the
// engine, so the golden files change only when the rendering does.
func fixtureData(withBase bool) *Data {
	ws := func(games int64, rate, lo, hi float64) analysis.WinStats {
		return analysis.WinStats{Games: games, Wins: rate * float64(games), WinRate: rate, CI95: [2]float64{lo, hi}}
	}
	facs := []struct {
		id, name, color string
		rate, lo, hi    float64
	}{
		{"starfleet", "Starfleet", "#1f5fbf", 0.482, 0.469, 0.495},
		{"klingon", "Klingon", "#b22222", 0.455, 0.442, 0.468},
		{"romulan", "Romulan", "#2e8b57", 0.593, 0.580, 0.606},
		{"vulcan", "Vulcan", "#c8a000", 0.470, 0.457, 0.483},
	}
	rep := &analysis.Report{ToolVersion: "test", Ruleset: analysis.RulesetInfo{Name: "Fixture", Version: "1.0", Hash: "0123456789abcdef0123"},
		Config: analysis.ConfigInfo{Bots: []string{"greedy"}, Games: 2000, Seed: 1, MinSample: 30},
		Games:  12000, Factions: map[string]analysis.FactionStats{}, PriceOfPower: map[string]analysis.PowerPrice{},
		Raw: &analysis.Counts{}}
	cat := &Catalog{Rounds: 6, StartingFaction: "starfleet"}
	for i, f := range facs {
		rep.Raw.Factions = append(rep.Raw.Factions, analysis.FactionCounts{ID: f.id})
		rep.Factions[f.id] = analysis.FactionStats{WinStats: ws(6000, f.rate, f.lo, f.hi), MeanVP: 30 + float64(i), VPSD: 8}
		rep.PriceOfPower[f.id] = analysis.PowerPrice{Pts: 1.3, CI95: [2]float64{1.1, 1.5}}
		cat.Factions = append(cat.Factions, FactionInfo{ID: f.id, Name: f.name, Color: f.color})
		for j := i + 1; j < len(facs); j++ {
			g := facs[j]
			a := 0.5 + (f.rate-g.rate)/2
			rep.Config.Matchups = append(rep.Config.Matchups, []string{f.id, g.id})
			rep.Matchups = append(rep.Matchups, analysis.MatchupStats{Lineup: []string{f.id, g.id}, Games: 2000,
				Factions: map[string]analysis.WinStats{f.id: ws(2000, a, a-0.022, a+0.022), g.id: ws(2000, 1-a, 1-a-0.022, 1-a+0.022)}})
		}
	}
	rep.Seats = []analysis.SeatStats{{Players: 2, Games: 12000, Expected: 0.5,
		Seats:      []analysis.SeatWin{{Seat: 1, WinStats: ws(12000, 0.503, 0.494, 0.512)}, {Seat: 2, WinStats: ws(12000, 0.497, 0.488, 0.506)}},
		StartOrder: []analysis.SeatWin{{Seat: 1, WinStats: ws(12000, 0.561, 0.552, 0.570)}, {Seat: 2, WinStats: ws(12000, 0.439, 0.430, 0.448)}},
		// Starfleet begins whenever it plays: over the games without it the
		// start is random, and there the starter has no advantage.
		RandomStartGames: 6000,
		RandomStartOrder: []analysis.SeatWin{{Seat: 1, WinStats: ws(6000, 0.504, 0.491, 0.517)}, {Seat: 2, WinStats: ws(6000, 0.496, 0.483, 0.509)}}}}
	rep.Targets = []analysis.TargetStats{{ID: "earth", Name: "Earth", Laid: 12000, Won: 11000, Negotiated: 400, Captured: 11400, CaptureRate: 0.95,
		Captures: map[string]analysis.CaptureShare{"starfleet": {Captures: 3400, Share: 0.30, CI95: [2]float64{0.29, 0.31}},
			"klingon": {Captures: 2600, Share: 0.23}, "romulan": {Captures: 3100, Share: 0.27}, "vulcan": {Captures: 2300, Share: 0.20}}}}
	cards := []struct {
		id, fac, name, kind string
		power               int
		vs, lo, hi, pw      float64
		flagged             bool
	}{
		{"ro-thalaron", "romulan", "Thalaron Pulse", "O", 2, 2.4, 1.6, 3.2, 5.9, true},
		{"ro-star", "romulan", "Q*Bert_[x] <b>bold</b> & `tick` | pipe", "P", 3, 1.2, 0.3, 2.1, 4.5, true},
		{"ro-scout", "romulan", "#1 Scout", "N", 1, 0.2, -0.6, 1.0, 1.4, false},
		{"kl-warriors", "klingon", "Klingon Warriors", "P", 3, 0.4, -0.5, 1.3, 3.6, false},
		{"kl-raptor", "klingon", "1. Raptor", "N", 2, -1.9, -2.8, -1.0, 0.9, true},
		{"sf-galaxy", "starfleet", "Galaxy", "N", 5, 0.1, -0.8, 1.0, 5.1, false},
		{"vu-ambassador", "vulcan", "Ambassador", "X", 0, -0.3, -1.2, 0.6, 1.9, false},
	}
	for _, c := range cards {
		v := &analysis.CardValue{Pts: 1.3 * c.pw, PtsCI95: [2]float64{1.3*c.pw - 0.9, 1.3*c.pw + 0.9}, Power: c.pw,
			PowerCI95: [2]float64{c.pw - 0.8, c.pw + 0.8}, VsFaction: c.vs, VsFactionCI95: [2]float64{c.lo, c.hi},
			VsFactionPts: 1.3 * c.vs, VsFactionPtsCI95: [2]float64{1.3 * c.lo, 1.3 * c.hi},
			EffectPower: c.pw - float64(c.power), EffectPts: 1.3 * (c.pw - float64(c.power)),
			EffectPtsCI95: [2]float64{1.3*(c.pw-float64(c.power)) - 1, 1.3*(c.pw-float64(c.power)) + 1}, EffectBasis: analysis.EffectFit,
			Flagged: c.flagged}
		if c.kind == "N" {
			v.EffectPower, v.EffectPts, v.EffectPtsCI95, v.EffectBasis = 0, 0, [2]float64{}, analysis.EffectNoText
		}
		// The flagged cards, one of each flag (the model sets the flags
		// again from these figures).
		switch c.id {
		case "ro-thalaron":
			v.EffectPts, v.EffectPtsCI95, v.Flag = 11, [2]float64{9, 13}, analysis.FlagStrongText
		case "ro-star":
			v.EffectPts, v.EffectPtsCI95, v.Flag = -10, [2]float64{-12, -8.5}, analysis.FlagWeakText
		case "kl-raptor":
			v.Pts, v.PtsCI95, v.Flag = 0.2, [2]float64{-0.6, 0.8}, analysis.FlagDead
		case "ro-scout":
			// Possibly dead: under the dead margin by its estimate, the
			// interval reaching above it — no flag.
			v.Pts, v.PtsCI95, v.PossiblyDead = -0.4, [2]float64{-2.3, 1.5}, true
			v.Power, v.PowerCI95 = -0.3, [2]float64{-1.8, 1.2}
		}
		rep.Cards = append(rep.Cards, analysis.CardStats{ID: c.id, Faction: c.fac, Name: c.name, Copies: 2, Games: 6000,
			Drawn: 6000, Played: 5800, PlayRate: 0.967, Placed: 9000, RowWinRate: 0.52, Scored: 8000, MeanPower: float64(c.power),
			Opening: 1500, NotOpening: 4500, Value: v})
		cat.Cards = append(cat.Cards, CardInfo{ID: c.id, Faction: c.fac, Name: c.name, Type: "ship", Kind: c.kind, Power: c.power,
			Copies: 2, Effect: "HANDLER_" + c.id, Text: "Text of " + c.name})
	}
	rep.Game = analysis.GameStats{Games: 12000, DecisionsMean: 250, RoundsMean: 6.4, RoundsSD: 0.7}
	d := &Data{Report: rep, Meta: &Meta{Command: "cardlab report --bots greedy --games 2000 --seed 1 --out report",
		Generated: "2026-01-02T03:04:05Z", Catalog: cat,
		Histograms: &Histograms{Rounds: []Bin{{6, 6, 8000}, {7, 7, 3000}, {8, 8, 900}, {9, 9, 100}},
			Decisions: []Bin{{200, 249, 6000}, {250, 299, 6000}}, Margin: []Bin{{0, 4, 7000}, {5, 9, 5000}}}}}
	if withBase {
		d.Diff = &analysis.DiffResult{Base: analysis.RulesetInfo{Name: "Fixture", Version: "0.9", Hash: "fedcba9876543210"},
			Variant: rep.Ruleset, Alpha: 0.05, Correction: analysis.CorrectionHolm,
			Verdict: "SIGNIFICANT: 2 of 2 factions' win shares changed (Holm-corrected at 0.05): romulan +4.1 points [+3.0, +5.2] (p_adj < 0.001); klingon -1.5 points [-2.6, -0.4] (p_adj 0.03); 2 definitions differ",
			Changes: []analysis.Change{{Kind: "card", ID: "ro-star", Change: "changed", Field: "power", Base: "2", Variant: "3", Pos: "romulan.yaml:12"},
				{Kind: "rules", Change: "changed", Field: "hand_size", Base: "5", Variant: "6", Pos: "rules.yaml:3"}},
			Factions: []analysis.FactionDelta{{Faction: "romulan", Base: 0.552, Variant: 0.593,
				PairedTest: analysis.PairedTest{Games: 6000, Delta: 0.041, CI95: [2]float64{0.030, 0.052}, PAdj: 0.0001, Significant: true}},
				{Faction: "klingon", Base: 0.47, Variant: 0.455, PairedTest: analysis.PairedTest{Games: 6000, Delta: -0.015, CI95: [2]float64{-0.026, -0.004}, PAdj: 0.03, Significant: true}}},
			Cards: []analysis.CardDelta{{ID: "ro-star", Faction: "romulan", Name: cards[1].name, Changed: true,
				RowWinRate: analysis.ValueDelta{Base: 0.5, Variant: 0.55, Delta: 0.05}}}}
	}
	return d
}
