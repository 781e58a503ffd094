package eclipse

import (
	"encoding/json"
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
	if len(names) != 6 || names[0] != "Exact matrix" || names[2] != "NPC table" || names[4] != "Part values vs interceptor" || names[5] != "Part values vs cruiser" {
		t.Fatalf("sheets %v", names)
	}
	// 2 Dreadnoughts attacking 5 Interceptors: 89.7% (design brief §3.1).
	m := p.Sheets[0]
	if m.Rows[2][0].Value != "2d" || m.Rows[2][1].Value != "89.7" {
		t.Fatalf("matrix row %v", m.Rows[2])
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
