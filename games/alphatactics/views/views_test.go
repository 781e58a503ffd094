package views

import (
	"encoding/json"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// input is a report input from results.json's keys.
func input(t *testing.T, keys map[string]string) *game.ReportInput {
	t.Helper()
	in := &game.ReportInput{Sides: []game.Side{{ID: "kl", Name: "Klingon"}, {ID: "sf", Name: "Starfleet"}}, Result: map[string]json.RawMessage{}}
	for k, v := range keys {
		if !json.Valid([]byte(v)) {
			t.Fatalf("%s: not JSON", k)
		}
		in.Result[k] = json.RawMessage(v)
	}
	return in
}

// TestTargets: the Targets view reads results.json's targets and the
// catalog's, charts the capture shares by side in the sides' order, fills
// the Targets sheet (type and affiliation from the catalog, a low count
// marked), adds Diff targets only with a diff, names the targets for the
// changes and words the rules' rounds.
func TestTargets(t *testing.T) {
	res := map[string]string{
		"targets": `[{"id":"earth","name":"Earth","laid":10,"won":6,"negotiated":1,"unclaimed":3,"captured":7,"capture_rate":0.7,
			"captures":{"sf":{"captures":5,"share":0.714,"ci95":[0.4,0.9]},"kl":{"captures":2,"share":0.286,"ci95":[0.1,0.6]}},
			"mean_margin":2.5,"margin_sd":1,"tie_rate":0.1,"low_n":true}]`,
		"report": `{"catalog":{"rounds":6,"factions":[],"cards":[],"targets":[{"id":"earth","name":"Earth","type":"planet","affiliation":"federation","vp":3}]}}`,
	}
	p, err := Targets{}.Render(input(t, res))
	if err != nil {
		t.Fatal(err)
	}
	sh := p.Section.Charts[0].Shares
	if len(sh.Categories) != 1 || sh.Categories[0] != "Earth · 70% captured" || sh.Values[0][0] != 0.286 || sh.Values[1][0] != 0.714 || sh.CI[1][0] != [2]float64{0.4, 0.9} {
		t.Errorf("chart: %+v", sh)
	}
	if len(p.Sheets) != 1 || p.DiffSheets != nil {
		t.Fatalf("sheets %d, diff sheets %d", len(p.Sheets), len(p.DiffSheets))
	}
	s := p.Sheets[0]
	row := s.Rows[0]
	if len(s.Columns) != 14+2*3 || len(row) != len(s.Columns) {
		t.Fatalf("%d columns, a row of %d", len(s.Columns), len(row))
	}
	if row[2].Value != "planet" || row[3].Value != "federation" || row[8].Value != int64(7) || !row[8].Low || row[13].Value != "yes" || row[14].Value != 0.286 {
		t.Errorf("row: %+v", row)
	}
	if s.Columns[14].Head != "kl share" || s.Columns[14].Doc != "the share of the target's captures Klingon took" {
		t.Errorf("side column: %+v", s.Columns[14])
	}
	if p.Names["earth"] != "Earth" || p.Length == nil || p.Length.Short != "the rules give 6, more when targets return" {
		t.Errorf("names %v, length %+v", p.Names, p.Length)
	}
	res["diff"] = `{"targets":[{"id":"earth","name":"Earth","changed":true,"capture_rate":{"delta":0.05},"mean_margin":{"delta":-1},"tie_rate":{"delta":0},"laid_per_game":{"delta":0.5}}]}`
	delete(res, "report")
	p, err = Targets{}.Render(input(t, res))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.DiffSheets) != 1 || p.DiffSheets[0].Rows[0][2].Value != "yes" || p.DiffSheets[0].Rows[0][4].Value != -1.0 {
		t.Errorf("diff sheets: %+v", p.DiffSheets)
	}
	if p.Length != nil || p.Names != nil || p.Sheets[0].Rows[0][2].Value != "" {
		t.Errorf("without a catalog: length %+v, names %v, type %v", p.Length, p.Names, p.Sheets[0].Rows[0][2].Value)
	}
	res["targets"] = `{"not":"a list"}`
	if _, err := (Targets{}).Render(input(t, res)); err == nil {
		t.Error("targets that are not a list were read")
	}
}

// TestEffects: cards with an effect, or whose effect ran, in the result's
// order; the handler sheet sums them by handler, in name order; shares of
// nothing are empty cells.
func TestEffects(t *testing.T) {
	res := map[string]string{
		"cards": `[{"id":"a","faction":"kl","name":"A","games":10,"fired":4,"blocked":1,"fizzled":2},
			{"id":"plain","faction":"kl","name":"Plain","games":10},
			{"id":"b","faction":"sf","name":"","games":0,"fired":0,"blocked":0,"fizzled":0}]`,
		"report": `{"catalog":{"factions":[],"cards":[{"id":"a","kind":"O","effect":"zap"},{"id":"plain","kind":"N"},{"id":"b","name":"Bee","kind":"P","effect":"aura"}]}}`,
	}
	p, err := Effects{}.Render(input(t, res))
	if err != nil {
		t.Fatal(err)
	}
	ef, hs := p.Sheets[0], p.Sheets[1]
	if len(ef.Rows) != 2 || ef.Rows[0][0].Value != "a" || ef.Rows[1][1].Value != "Bee" || ef.Rows[0][8].Value != 0.4 || ef.Rows[0][9].Value != 0.2 || ef.Rows[1][8].Value != nil {
		t.Errorf("effects: %+v", ef.Rows)
	}
	if len(hs.Rows) != 2 || hs.Rows[0][0].Value != "aura" || hs.Rows[1][0].Value != "zap" || hs.Rows[1][2].Value != int64(4) {
		t.Errorf("handlers: %+v", hs.Rows)
	}
}

// TestCatalog: the rules' rounds and starting faction and every target.
func TestCatalog(t *testing.T) {
	rs := rules.Default()
	c := Catalog(rs)
	var ts []TargetInfo
	if err := json.Unmarshal(c.Extra[0].JSON, &ts); err != nil {
		t.Fatal(err)
	}
	if c.Length != rs.Rules.Rounds || c.StartingSide != rs.Rules.StartingFaction || c.Extra[0].Key != "targets" || len(ts) != len(rs.Targets) || ts[0].ID != rs.Targets[0].ID {
		t.Errorf("catalog: %+v, %d targets", c, len(ts))
	}
}
