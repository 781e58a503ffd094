package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// verifiedData is a real run of rs (its counts pass
// Verify) carrying everything a report renders besides: card values, the
// prices of a power point and their design, a comparison with a base and
// an impact analysis (made-up figures, taken from fixtureData), the catalog
// and the histograms.
func verifiedData(t testing.TB, rs *rules.Ruleset) *Data {
	t.Helper()
	d := testData(t, rs, 12)
	fx := fixtureData(true)
	rep := d.Report
	rep.PriceOfPower = fx.PriceOfPower
	for i := range rep.Cards {
		v := *fx.Cards[i%len(fx.Cards)].Value
		rep.Cards[i].Value = &v
	}
	rep.CardValueDesign = &analysis.CardValueDesign{Matchups: rep.Config.Matchups, Bots: rep.Config.Bots, Seed: 1,
		GamesPerLineup: 500, Games: 3000, BlankRate: 0.1, ShiftRate: 0.2, Precision: 1, MedianPowerHalfWidth: 0.9}
	rep.Checksum = rep.Sum()
	d.Diff = fx.Diff
	d.Impact = &analysis.ImpactResult{ToolVersion: "test", Ruleset: rep.Ruleset, Mode: "blank", Alpha: 0.05,
		Correction: analysis.CorrectionBH, Cards: []analysis.CardImpact{{Rank: 1, ID: rep.Cards[0].ID, Name: rep.Cards[0].Name,
			Faction: rep.Cards[0].Faction, WithCard: 0.52, Ablated: 0.47, PairedTest: analysis.PairedTest{Games: 400, Delta: 0.05,
				CI95: [2]float64{0.02, 0.08}, P: 0.001, PAdj: 0.004, Test: analysis.TestPairedT, Significant: true}}}}
	return d
}

func resultsJSON(t testing.TB, d *Data) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJSON(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// leaf is one number, string or boolean of a JSON document and its path.
type leaf struct {
	path string
	set  func(any) // replaces the value in the decoded document
	v    any
}

// leaves lists the leaves of the decoded document doc (decoded with
// UseNumber) in a fixed order; the checksums themselves are left out.
func leaves(doc any) []leaf {
	var out []leaf
	var walk func(v any, path string, set func(any))
	walk = func(v any, path string, set func(any)) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if k == "checksum" || k == "document_checksum" {
					continue
				}
				walk(x[k], path+"."+k, func(nv any) { x[k] = nv })
			}
		case []any:
			for i := range x {
				walk(x[i], fmt.Sprintf("%s[%d]", path, i), func(nv any) { x[i] = nv })
			}
		case nil:
		default:
			out = append(out, leaf{path, set, v})
		}
	}
	walk(doc, "", nil)
	return out
}

// edited is v changed to another value of the same JSON type.
func edited(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, ok := new(big.Int).SetString(x.String(), 10); ok {
			return json.Number(i.Add(i, big.NewInt(1)).String())
		}
		f, _ := new(big.Float).SetString(x.String())
		if f == nil {
			return json.Number("1")
		}
		return json.Number(f.Add(f, big.NewFloat(0.2)).Text('g', 20))
	case string:
		return x + "x"
	case bool:
		return !x
	}
	return v
}

// editLeaf returns data with leaf i (of leaves) changed, and its path.
func editLeaf(t testing.TB, data []byte, i int) ([]byte, string, bool) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, "", false
	}
	ls := leaves(doc)
	if len(ls) == 0 {
		return nil, "", false
	}
	l := ls[i%len(ls)]
	l.set(edited(l.v))
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out, l.path, true
}

// TestParseRefusesEditedFigures is issue 24 item 6: `report --from`
// rendered a results.json whose factions.klingon.win_rate was changed from
// 0.51 to 0.71, or a card's value.vs_faction, because the checksum covered
// the raw counts only. Every leaf of results.json — figures, card values,
// price_of_power, card_value_design, matchups, seats, targets, config,
// impact, diff, the catalog and histograms — is changed in turn (without
// renewing the checksums): Parse must refuse each.
func TestParseRefusesEditedFigures(t *testing.T) {
	d := verifiedData(t, rules.Default())
	data := resultsJSON(t, d)
	if _, err := Parse("results.json", data); err != nil {
		t.Fatalf("the file as written is refused: %v", err)
	}
	// The two examples, by hand, as a designer would edit them.
	klingon := fmt.Sprintf(`"win_rate": %v`, d.Factions["klingon"].WinRate)
	for name, ed := range map[string]func(string) string{
		"factions.klingon.win_rate": func(s string) string {
			i := strings.Index(s, `"klingon": {`)
			j := i + strings.Index(s[i:], klingon)
			return s[:j] + `"win_rate": 0.71` + s[j+len(klingon):]
		},
		"cards[0].value.vs_faction": func(s string) string {
			return strings.Replace(s, fmt.Sprintf(`"vs_faction": %v,`, d.Cards[0].Value.VsFaction), `"vs_faction": 9.5,`, 1)
		},
	} {
		s := ed(string(data))
		if s == string(data) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if _, err := Parse("results.json", []byte(s)); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("%s edited: Parse = %v, want a checksum error", name, err)
		}
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	// Up to 20 leaves of each top-level key, spread over it (every leaf
	// of the document takes minutes).
	byKey := map[string][]leaf{}
	for _, l := range leaves(doc) {
		if strings.Contains(l.path, "timing") {
			continue // left out of the checksums on purpose: TestParseAcceptsOtherTiming
		}
		top, _, _ := strings.Cut(strings.TrimPrefix(l.path, "."), ".")
		top, _, _ = strings.Cut(top, "[")
		byKey[top] = append(byKey[top], l)
	}
	seen := map[string]bool{}
	for top, ls := range byKey {
		seen[top] = true
		n := min(len(ls), 20)
		for k := range n {
			l := ls[k*len(ls)/n]
			l.set(edited(l.v))
			e, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			l.set(l.v)
			if _, err := Parse("results.json", e); err == nil {
				t.Errorf("%s edited: accepted", l.path)
			}
		}
	}
	for _, key := range []string{"tool_version", "ruleset", "config", "games", "partial", "factions", "seats", "matchups",
		"targets", "cards", "price_of_power", "card_value_design", "game", "raw", "impact", "diff", "report"} {
		if !seen[key] {
			t.Errorf("no leaf of %q was edited", key)
		}
	}
}

// TestParseAcceptsOtherTiming: timings are the one thing equivalent runs
// differ in and no report renders, so the checksums leave them out; a file
// whose timings differ from another's but are in range is accepted.
func TestParseAcceptsOtherTiming(t *testing.T) {
	d := verifiedData(t, rules.Default())
	data := resultsJSON(t, d)
	c := *d
	r := *d.Report
	r.Timing = analysis.Timing{Seconds: r.Timing.Seconds + 100, GamesPerSecond: 1}
	c.Report = &r
	im := *d.Impact
	im.Timing = analysis.Timing{Seconds: 7, GamesPerSecond: 2}
	c.Impact = &im
	other := resultsJSON(t, &c)
	if bytes.Equal(data, other) {
		t.Fatal("the timings did not change the file")
	}
	if _, err := Parse("results.json", other); err != nil {
		t.Fatalf("a file with other timings is refused: %v", err)
	}
	if c.Sum() != d.Sum() || r.Sum() != d.Report.Sum() {
		t.Fatal("the timings change the checksums")
	}
}

// TestParseAcceptsPlainAndRewritten: a plain `simulate --json` result (no
// document checksum) and a results.json written again after --from are
// accepted; a results.json whose document checksum was removed is not.
func TestParseAcceptsPlainAndRewritten(t *testing.T) {
	d := verifiedData(t, rules.Default())
	plain, err := json.Marshal(d.Report)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("sim.json", plain); err != nil {
		t.Errorf("a simulate result: %v", err)
	}
	back, err := Parse("results.json", resultsJSON(t, d))
	if err != nil {
		t.Fatal(err)
	}
	back.Meta.Catalog = nil // report --from fills it from the ruleset
	if _, err := Parse("results.json", resultsJSON(t, back)); err != nil {
		t.Errorf("written again: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(resultsJSON(t, d), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "document_checksum")
	stripped, _ := json.Marshal(m)
	if _, err := Parse("results.json", stripped); err == nil || !strings.Contains(err.Error(), "no document_checksum") {
		t.Errorf("without its document checksum: %v", err)
	}
}

// FuzzReadResults feeds arbitrary bytes to the reader of `report --from`:
// it must never panic; what it accepts must be written and read back the
// same; and no accepted file stays accepted with one of its leaves changed
// unless what it decodes to is unchanged (a key no renderer reads).
func FuzzReadResults(f *testing.F) {
	// The minimal ruleset keeps the seed small: the fuzzer mutates it
	// much faster than the default set's 100 KiB.
	rs, err := rules.LoadDir("../testdata/rulesets/minimal")
	if err != nil {
		f.Fatal(err)
	}
	d := verifiedData(f, rs)
	good := resultsJSON(f, d)
	f.Add(good, uint16(0))
	plain, _ := json.Marshal(d.Report)
	f.Add(plain, uint16(7))
	f.Add([]byte(strings.Replace(string(good), `"games": 12,`, `"games": 13,`, 1)), uint16(1))
	f.Add([]byte(`{"tool_version":"x","raw":{"win_unit":12},"checksum":"sha256:00"}`), uint16(2))
	f.Add([]byte(`{"tool_version":"x","raw":{},"report":{"command":"\u001b]0;x\u0007"},"document_checksum":""}`), uint16(3))
	f.Add([]byte("{}"), uint16(4))
	f.Add([]byte(`[`), uint16(5))
	f.Fuzz(func(t *testing.T, data []byte, which uint16) {
		got, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		again := resultsJSON(t, got)
		back, err := Parse("fuzz.json", again)
		if err != nil {
			t.Fatalf("accepted, then refused once written again: %v", err)
		}
		if !bytes.Equal(resultsJSON(t, back), again) {
			t.Fatal("accepted, then read back different once written again")
		}
		e, path, ok := editLeaf(t, again, int(which))
		if !ok {
			return
		}
		if ed, err := Parse("fuzz.json", e); err == nil && !bytes.Equal(resultsJSON(t, ed), again) {
			t.Fatalf("%s edited: accepted, and decodes to something else", path)
		}
	})
}
