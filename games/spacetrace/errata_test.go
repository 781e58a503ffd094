package spacetrace

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestErrataStudy: at its printed cost the changed deck is the deck as
// written, so the paired games split exactly even; a dearer Dreadnought
// does not help its holder; bad parameters are refused.
func TestErrataStudy(t *testing.T) {
	rs := First()
	var stop atomic.Bool
	res, err := rs.Study("errata", map[string]string{"card": "dreadnought", "costs": "300,1000", "games": "150"}, &stop)
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Tables[0].Rows
	if len(rows) != 2 {
		t.Fatalf("rows %v", rows)
	}
	if w := rows[0][4].Value.(float64); w != 0.5 || rows[0][7].Value.(float64) != 0 {
		t.Errorf("the printed cost against itself: win share %v, want exactly 0.5 (the seats swapped on the same deals)", w)
	}
	if w := rows[1][4].Value.(float64); w > 0.5 || rows[1][6].Value.(float64) < w || rows[1][5].Value.(float64) > w {
		t.Errorf("Dreadnought at 1000 MP: its holder wins %v [%v, %v]", w, rows[1][5].Value, rows[1][6].Value)
	}
	if n := strings.Join(res.Notes, " "); !strings.Contains(n, "Dreadnought at 1000 MP instead of 300") || !strings.Contains(n, "greedy bot") {
		t.Errorf("notes %q", n)
	}
	for _, p := range []map[string]string{{"card": "reinforcement-100"}, {"card": "nope"}, {"costs": "x"}, {"costs": "-5"}, {"games": "1"}, {"bots": "nope"}, {"depth": "1"}} {
		if _, err := rs.Study("errata", p, &stop); err == nil || !strings.HasPrefix(err.Error(), "spacetrace: ") {
			t.Errorf("%v: error %v", p, err)
		}
	}
}
