package spacetrace

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

func renderStudyView(t *testing.T, rs *Ruleset) *game.Part {
	t.Helper()
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
	return p
}

// The report's cost curve and class matrix come from the catalog the
// ruleset writes into results.json (so a report rendered again from
// results.json has them): three sheets, a heat map of the exchange with
// the rulebook's cells, and every page table with its provenance.
func TestStudyView(t *testing.T) {
	rs := First()
	p := renderStudyView(t, rs)
	var names []string
	for _, s := range p.Sheets {
		names = append(names, s.Name)
		if !strings.Contains(s.Columns[0].Doc, "no dice") {
			t.Errorf("sheet %s: first column's doc has no provenance: %q", s.Name, s.Columns[0].Doc)
		}
	}
	if strings.Join(names, "|") != "Cost curve|Class matrix|Class matchups" {
		t.Fatalf("sheets %v", names)
	}
	// Fighters sit on the cost model (100 MP = √(100·100)).
	cc := p.Sheets[0]
	if cc.Rows[0][0].Value != "fighters" || cc.Rows[0][6].Value != 1.0 {
		t.Fatalf("cost curve row %v", cc.Rows[0])
	}
	sec := p.Section
	if sec == nil || sec.ID != "fleet-study" || len(sec.Charts) != 1 || sec.Charts[0].Grid == nil {
		t.Fatalf("page section %+v", sec)
	}
	g := sec.Charts[0].Grid
	ri := map[string]int{}
	for i, r := range g.Rows {
		ri[r] = i
	}
	ci := map[string]int{}
	for j, c := range g.Cols {
		ci[c] = j
	}
	f, d := "fighters", "destroyers"
	// The rulebook: 100 Fighters against 100 Fighters, both destroyed
	// (even exchange); 10 Destroyers lose their card to 100 Fighters,
	// which keep 90 ships and their card.
	for _, c := range []struct {
		row, col string
		want     float64
	}{{f, f, 0.5}, {d, f, 0}, {f, d, 1}} {
		i, ok1 := ri[c.row]
		j, ok2 := ci[c.col]
		if !ok1 || !ok2 {
			t.Fatalf("grid has no %s × %s: %v × %v", c.row, c.col, g.Rows, g.Cols)
		}
		if g.Values[i][j] != c.want || !g.Marked[i][j] || g.Lo[i][j] != c.want || g.Hi[i][j] != c.want {
			t.Errorf("%s × %s: %v (marked %v), want %v exact", c.row, c.col, g.Values[i][j], g.Marked[i][j], c.want)
		}
	}
	if len(g.Rows) != len(cc.Rows) || len(g.Cols) != len(cc.Rows) {
		t.Errorf("grid %d×%d for %d ship cards", len(g.Rows), len(g.Cols), len(cc.Rows))
	}
	var titles []string
	for _, pt := range sec.Tables {
		titles = append(titles, pt.Title)
		if !strings.Contains(pt.Note, "No dice") && !strings.Contains(pt.Note, "no dice") {
			t.Errorf("table %q: no provenance in %q", pt.Title, pt.Note)
		}
	}
	if len(sec.Tables) != 3 || !sec.Tables[2].Folded || sec.Tables[0].Folded {
		t.Fatalf("page tables %q", titles)
	}
	if len(sec.Methods) == 0 || sec.MethodsTitle == "" {
		t.Error("no Methods paragraph")
	}
	// Without the catalog key (an older result) the view adds nothing; a
	// catalog it cannot read is an error.
	report, _ := json.Marshal(map[string]any{"catalog": map[string]any{}})
	if p, err := (studyView{}).Render(&game.ReportInput{Result: map[string]json.RawMessage{"report": report}}); err != nil || p != nil {
		t.Errorf("older result: %v, %v", p, err)
	}
	bad, _ := json.Marshal(map[string]any{"catalog": map[string]any{catalogKey: "tables"}})
	if _, err := (studyView{}).Render(&game.ReportInput{Result: map[string]json.RawMessage{"report": bad}}); err == nil || !strings.HasPrefix(err.Error(), "spacetrace: ") {
		t.Errorf("unreadable catalog: %v", err)
	}
}
