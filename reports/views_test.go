package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/views"
)

// TestCatalogJSONAsBefore: the catalog made through the contracts (sides,
// cards and the game's Catalogued part) encodes as the catalog did when
// reports read Alpha Tactics' ruleset itself — the same keys in the same
// order, HTML characters left to the encoder — so results.json and its
// document checksum are unchanged; and it reads back to the same bytes.
func TestCatalogJSONAsBefore(t *testing.T) {
	rs := hostileRuleset(t)
	type before struct {
		Rounds          int                `json:"rounds,omitempty"`
		StartingFaction string             `json:"starting_faction,omitempty"`
		Factions        []FactionInfo      `json:"factions"`
		Cards           []CardInfo         `json:"cards"`
		Targets         []views.TargetInfo `json:"targets"`
	}
	old := before{Rounds: rs.Rules.Rounds, StartingFaction: rs.Rules.StartingFaction, Factions: []FactionInfo{}, Cards: []CardInfo{}, Targets: []views.TargetInfo{}}
	for _, f := range rs.Factions {
		old.Factions = append(old.Factions, FactionInfo{ID: f.ID, Name: f.Name, Color: f.Color})
	}
	for i := range rs.Cards {
		cd := &rs.Cards[i]
		ci := CardInfo{ID: cd.ID, Faction: rs.Factions[cd.Faction].ID, Name: cd.Name, Type: cd.Type.String(),
			Kind: cd.Kind.String(), Power: cd.Power, Copies: cd.Copies, Text: cd.Text, File: cd.Pos.File, Line: cd.Pos.Line}
		if cd.Effect != nil {
			ci.Effect = cd.Effect.Handler
		}
		old.Cards = append(old.Cards, ci)
	}
	for i := range rs.Targets {
		tg := &rs.Targets[i]
		old.Targets = append(old.Targets, views.TargetInfo{ID: tg.ID, Name: tg.Name, Type: tg.Type.String(), Affiliation: tg.Affiliation, VP: tg.VP, Text: tg.Text})
	}
	enc := func(v any, escape bool) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(escape)
		e.SetIndent("", "  ")
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	cat := CatalogOf(alphatactics.Ruleset{RS: rs})
	for _, escape := range []bool{false, true} {
		want, got := enc(old, escape), enc(cat, escape)
		if got != want {
			t.Fatalf("escape %v: the catalog encodes otherwise than before:\n%.600s\nwant\n%.600s", escape, got, want)
		}
		if !escape && !strings.Contains(got, hostileTarget) {
			t.Errorf("the hostile target's name is not in the catalog as it is")
		}
		var back Catalog
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Fatal(err)
		}
		if again := enc(&back, escape); again != want {
			t.Errorf("escape %v: read back, the catalog encodes otherwise:\n%.600s", escape, again)
		}
		if len(back.Extra) != 1 || back.Extra[0].Key != "targets" {
			t.Errorf("extra keys read back: %v", back.Extra)
		}
	}
}

// TestCatalogKeepsOtherKeys: a game's catalog keys are written after the
// cards in the game's order and read back in it.
func TestCatalogKeepsOtherKeys(t *testing.T) {
	c := Catalog{Factions: []FactionInfo{}, Cards: []CardInfo{}, Extra: []game.KeyJSON{
		{Key: "zeta", JSON: json.RawMessage(`[1, 2]`)}, {Key: "alpha", JSON: json.RawMessage(`{"a&b": "<x>"}`)}}}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"factions":[],"cards":[],"zeta":[1,2],"alpha":{"a\u0026b":"\u003cx\u003e"}}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
	var back Catalog
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Extra) != 2 || back.Extra[0].Key != "zeta" || back.Extra[1].Key != "alpha" {
		t.Errorf("read back: %+v", back.Extra)
	}
	c.Extra = append(c.Extra, game.KeyJSON{Key: "bad", JSON: json.RawMessage(`{`)})
	if _, err := json.Marshal(c); err == nil {
		t.Error("a catalog key that is not JSON was written")
	}
}

// TestViewPartsChecked: a view's sheet named like one of the report's own,
// or a chart whose series do not match the sides, fails the report instead
// of writing a wrong one.
func TestViewPartsChecked(t *testing.T) {
	d := fixtureData(false)
	m := newModel(d, Options{Now: testNow})
	if m.err != nil {
		t.Fatal(m.err)
	}
	m.parts = append(m.parts, &game.Part{Sheets: []game.Sheet{{Name: SheetFactions, Columns: []game.SheetColumn{{Head: "x"}}}}})
	if err := m.writeXLSX(new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "has the name of another") {
		t.Errorf("a view's sheet named %q: %v", SheetFactions, err)
	}
	m.parts = []*game.Part{{Section: &game.PageSection{ID: "x", Title: "X", Charts: []game.Chart{{ID: "chart-x", Shares: &game.Shares{
		Categories: []string{"a"}, Values: [][]float64{{0.5}}, CI: [][][2]float64{{{0.4, 0.6}}}}}}}}}
	if len(m.factions) == 1 {
		t.Fatal("the fixture has one faction")
	}
	if err := m.writeHTML(new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "chart-x") {
		t.Errorf("a chart with one series for %d sides: %v", len(m.factions), err)
	}
	m.parts[0].Section.Charts[0] = game.Chart{ID: "chart-factions", Shares: &game.Shares{}}
	if err := m.writeHTML(new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "another") {
		t.Errorf("a view's chart with a core chart's id: %v", err)
	}
}

// TestHistogramMarginMirror: where one side takes several seats, the
// margin of a sole victory is the winner's lead over the next seat (the
// winner's side names every seat); a shared victory's is 0.
func TestHistogramMarginMirror(t *testing.T) {
	recs := []analysis.GameRecord{
		{Winners: []string{"player"}, Decisions: 26, VP: []analysis.VPRecord{{Faction: "player", Total: 30}, {Faction: "player", Total: 61}}},
		{Winners: []string{"player"}, Decisions: 26, VP: []analysis.VPRecord{{Faction: "player", Total: 50}, {Faction: "player", Total: 20}, {Faction: "player", Total: 21}}},
		{Winners: []string{"player", "player"}, Decisions: 26, VP: []analysis.VPRecord{{Faction: "player", Total: 40}, {Faction: "player", Total: 40}}},
	}
	var hc HistogramCounter
	for i := range recs {
		hc.Add(&recs[i])
	}
	if got := hc.margins; got[31] != 1 || got[29] != 1 || got[0] != 1 {
		t.Errorf("margins %v, want 31, 29 and 0 once each", got)
	}
	h := hc.Histograms()
	if len(h.Rounds) != 1 || h.Rounds[0].From != 0 {
		t.Errorf("rounds %v: a game without rounds counts in the bin of 0", h.Rounds)
	}
	m := &model{}
	if m.roundBins(h) != nil {
		t.Error("a result without rounds has a rounds histogram")
	}
}
