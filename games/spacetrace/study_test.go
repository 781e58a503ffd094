package spacetrace

import (
	"sync/atomic"
	"testing"
)

// TestClassMatrix pins cells the rulebook examples decide: equal Fighters
// cancel (both gone); Destroyers lose to Fighters at equal MP (one battle:
// the destroyers' card is destroyed, the fighters' card keeps 90 ships);
// and the study is a full card × card table.
func TestClassMatrix(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	f, d := rs.CardIndex("fighters"), rs.CardIndex("destroyers")
	m := rs.Matchup(f, f, 100)
	if m.LostA != 100 || m.LostB != 100 || m.Winner != -1 || m.Stalemate || m.Battles != 1 {
		t.Fatalf("fighters mirror %+v", m)
	}
	m = rs.Matchup(d, f, 100)
	if m.CopiesA != 1 || m.CopiesB != 1 || m.LostA != 100 || m.LostB != 0 || m.Winner != 1 {
		t.Fatalf("destroyers vs fighters %+v", m)
	}
	// Interceptors (60 MP) vs Fighters (100 MP): 5 cards against 3 at 300 MP.
	m = rs.Matchup(rs.CardIndex("interceptors"), f, 100)
	if m.MP != 300 || m.CopiesA != 5 || m.CopiesB != 3 {
		t.Fatalf("interceptors vs fighters %+v", m)
	}
	var stop atomic.Bool
	res, err := rs.Study("classes", map[string]string{}, &stop)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range rs.Defs {
		if rs.Defs[i].Type == Ship {
			n++
		}
	}
	if len(res.Tables) != 2 || len(res.Tables[0].Rows) != n || len(res.Tables[1].Rows) != n*n {
		t.Fatalf("tables %d, rows %d and %d for %d ship cards", len(res.Tables), len(res.Tables[0].Rows), len(res.Tables[1].Rows), n)
	}
	// Every mirror cell's margin is 0: a fleet battle is symmetric.
	for i := 0; i < n; i++ {
		if v := res.Tables[0].Rows[i][i+1].Value; v != nil && v != int64(0) {
			t.Errorf("mirror %s: margin %v", res.Tables[0].Rows[i][0].Value, v)
		}
	}
	if _, err := rs.Study("classes", map[string]string{"cards": "figters"}, &stop); err == nil {
		t.Fatal("an unknown card was accepted")
	}
	if _, err := rs.Study("classes", map[string]string{"battles": "NaN"}, &stop); err == nil {
		t.Fatal("battles NaN was accepted")
	}
	stop.Store(true)
	if _, err := rs.Study("classes", nil, &stop); err == nil {
		t.Fatal("a stopped study finished")
	}
}

// TestCostCurve: the cost index of the rulebook's three vanilla cards is
// exactly 1 (100 MP for 100/100 each, brief §3.1), and the study lists
// every ship card.
func TestCostCurve(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	var stop atomic.Bool
	res, err := rs.Study("costs", nil, &stop)
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Tables[0].Rows
	seen := 0
	for _, r := range rows {
		switch r[0].Value {
		case "fighters", "destroyers", "cruiser":
			if ci := r[6].Value.(float64); ci != 1 {
				t.Errorf("%s: cost index %v", r[0].Value, ci)
			}
			seen++
		case "interceptors":
			if ci := r[6].Value.(float64); ci != 1.5 {
				t.Errorf("interceptors: cost index %v, want 60/40", ci)
			}
		}
	}
	if seen != 3 || len(rows) != 16 {
		t.Fatalf("%d rows, %d rulebook cards", len(rows), seen)
	}
}
