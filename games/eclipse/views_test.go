package eclipse

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// The report's Eclipse sheets come from the catalog the ruleset writes
// into results.json, so a report rendered again from results.json has
// them: the blueprint matrix (exact cells), every battle's figures, and
// the NPC table.
func TestStudyView(t *testing.T) {
	rs := Default()
	cat := rs.Catalog()
	if len(cat.Extra) != 1 || cat.Extra[0].Key != catalogKey {
		t.Fatalf("catalog extra %v", cat.Extra)
	}
	report, err := json.Marshal(map[string]any{"catalog": map[string]json.RawMessage{catalogKey: cat.Extra[0].JSON}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := studyView{}.Render(&game.ReportInput{Result: map[string]json.RawMessage{"report": report}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range p.Sheets {
		names = append(names, s.Name)
	}
	if len(names) != 10 || names[0] != "Exact matrix" || names[2] != "NPC table" || names[4] != "Initiative flips" || names[5] != "Equal-material matrix" || names[6] != "Equal-material battles" || names[7] != "Part values vs interceptor" || names[8] != "Price curve" || names[9] != "Part values vs cruiser" {
		t.Fatalf("sheets %v", names)
	}
	// The equal-material matrix at the dearest fleet's 16 (design brief
	// §3.1): 5 Interceptors cost 15, and 2 Dreadnoughts win 89.7% of
	// their attacks on them, exactly.
	em := p.Sheets[5]
	if cost, _ := game.CellNumber(em.Rows[0][1].Value); em.Columns[1].Head != "material" || em.Rows[0][0].Value != "5i" || cost != 15 || em.Rows[2][0].Value != "2d" || em.Rows[2][2].Value != "89.7" || em.Rows[2][2].Mark != "exact" {
		t.Fatalf("equal-material matrix %v", em.Rows)
	}
	// Initiative flips (design brief §3.3): +1 on the Dreadnought puts it
	// before the Cruiser as defender.
	flip := false
	for _, r := range p.Sheets[4].Rows {
		if r[0].Value == "dreadnought" && r[1].Value == "+1" && r[3].Value == "+Cruiser def" {
			flip = true
		}
	}
	if !flip {
		t.Errorf("no Dreadnought +1 flip before the Cruiser as defender: %v", p.Sheets[4].Rows)
	}
	// 2 Dreadnoughts attacking 5 Interceptors: 89.7% (design brief §3.1).
	m := p.Sheets[0]
	if m.Rows[2][0].Value != "2d" || m.Rows[2][1].Value != "89.7" {
		t.Fatalf("matrix row %v", m.Rows[2])
	}
	// The page section: the matrix as a heat map, exact cells marked, and
	// every table with its note (the full provenance under the first
	// figure).
	sec := p.Section
	if sec == nil || len(sec.Charts) != 3 || sec.Charts[0].Grid == nil || sec.Charts[1].Grid == nil || sec.Charts[2].Points == nil {
		t.Fatalf("page section %+v", sec)
	}
	// The equal-material matrix as a heat map too, and the price curve
	// (1E: no research costs) as hulls against energy used, each part
	// tile a named point: the Improved Hull 2 hulls for no energy.
	if mg := sec.Charts[1].Grid; sec.Charts[1].ID != "chart-material-matrix" || mg.Rows[2] != "2d" || math.Abs(mg.Values[2][0]-0.897) > 0.0005 || !mg.Marked[2][0] {
		t.Fatalf("equal-material heat map %+v", mg)
	}
	pc := sec.Charts[2].Points
	if sec.Charts[2].ID != "chart-price-energy" || pc.XAxis != "energy used" || len(pc.Series) != 1 {
		t.Fatalf("price chart %+v", sec.Charts[2])
	}
	ps := pc.Series[0]
	if i := slices.Index(ps.Names, "Improved Hull"); i < 0 || ps.X[i] != 0 || ps.Y[i] != 2 || ps.YLo[i] != 2 || ps.YHi[i] != 2 || len(ps.Names) != len(p.Sheets[8].Rows) {
		t.Fatalf("price points %+v", ps)
	}
	g := sec.Charts[0].Grid
	if g.Rows[2] != "2d" || g.Cols[0] != "5i" || math.Abs(g.Values[2][0]-0.897) > 0.0005 || !g.Marked[2][0] || g.Lo[2][0] != g.Values[2][0] {
		t.Fatalf("grid row 2d: %v %v %v %v", g.Rows, g.Cols, g.Values[2], g.Marked[2])
	}
	if len(g.Rows) != len(g.Cols) || len(g.Rows) != len(m.Rows) {
		t.Fatalf("grid %d×%d for %d matrix rows", len(g.Rows), len(g.Cols), len(m.Rows))
	}
	if !strings.Contains(sec.Charts[0].Note, "Players assign hits by") {
		t.Errorf("the heat map's note has no provenance: %q", sec.Charts[0].Note)
	}
	var titles []string
	for _, pt := range sec.Tables {
		titles = append(titles, pt.Title)
		if pt.Note == "" {
			t.Errorf("table %q has no note", pt.Title)
		}
	}
	if len(sec.Tables) != 10 || sec.Tables[8].Title != "Price curve: each part's hulls against its energy and research cost" || sec.Tables[4].Title != "Initiative flips: what ±1 initiative on a blueprint changes" || !sec.Tables[1].Folded || sec.Tables[0].Sheet.Rows[2][1].Mark != "exact" || !strings.HasPrefix(sec.Tables[0].Note, "Bold: exact") {
		t.Fatalf("page tables %q", titles)
	}
	// 2E has research costs: a second price chart, hulls against them.
	rs2, err := Edition("eclipse-2e")
	if err != nil {
		t.Fatal(err)
	}
	cat2 := rs2.Catalog()
	report2, _ := json.Marshal(map[string]any{"catalog": map[string]json.RawMessage{catalogKey: cat2.Extra[0].JSON}})
	p2, err := studyView{}.Render(&game.ReportInput{Result: map[string]json.RawMessage{"report": report2}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range p2.Section.Charts {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, []string{"chart-battle-matrix", "chart-material-matrix", "chart-price-energy", "chart-price-research"}) {
		t.Fatalf("2E charts %v", ids)
	}
	if rc := p2.Section.Charts[3].Points.Series[0]; !slices.Contains(rc.Names, "Improved Hull") || rc.X[slices.Index(rc.Names, "Improved Hull")] != 6 {
		t.Fatalf("2E research points %+v", rc)
	}
	// Without the catalog key (an older result) the view adds nothing.
	empty, _ := json.Marshal(map[string]any{"catalog": map[string]any{}})
	if p, err := (studyView{}).Render(&game.ReportInput{Result: map[string]json.RawMessage{"report": empty}}); err != nil || p != nil {
		t.Fatalf("no study in the catalog: %v %v", p, err)
	}
}

func TestCutTo(t *testing.T) {
	if got := cutTo("a/b:c*d[e]?f\\g'hijklmnopqrstuvwxyz", 16); got != "a-b-c-d-e--f-g-h" {
		t.Fatalf("cutTo: %q", got)
	}
	if got := cutTo("äöüäöüäöüäöüäöüäöü", 16); got != "äöüäöüäöüäöüäöüä" {
		t.Fatalf("cutTo runes: %q", got)
	}
}
