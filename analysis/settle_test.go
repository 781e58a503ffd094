package analysis

import "testing"

func TestSettle(t *testing.T) {
	levels := []string{"greedy", "ismcts:iters=400", "ismcts:iters=800", "ismcts:iters=1600"}
	step := func(delta, lo, hi float64, sig bool) *FactionDelta {
		d := &FactionDelta{}
		d.Delta, d.CI95, d.Significant = delta, [2]float64{lo, hi}, sig
		return d
	}
	tight := step(0.005, -0.02, 0.03, false)  // inside ±3 points
	wide := step(0.005, -0.055, 0.065, false) // not significant, wider than the band: (0.06/0.025)² × 100 games to tell
	big := step(0.12, 0.07, 0.17, true)       // significant
	edge := step(0.035, -0.02, 0.09, false)   // change beyond the band, not significant
	for _, c := range []struct {
		name   string
		steps  []*FactionDelta
		state  string
		level  string
		needed int
	}{
		{"settled from the first level", []*FactionDelta{tight, tight, tight}, SettleSettled, "greedy", 0},
		{"settled after a significant step", []*FactionDelta{big, tight, tight}, SettleSettled, "ismcts:iters=400", 0},
		{"only the last step within", []*FactionDelta{big, wide, tight}, SettleSettled, "ismcts:iters=800", 0},
		{"a wide step after a tight one is not settled", []*FactionDelta{tight, tight, wide}, SettleUnresolved, "", 576},
		{"moving", []*FactionDelta{tight, tight, big}, SettleMoving, "", 0},
		{"beyond the band, no games would tell", []*FactionDelta{tight, edge}, SettleUnresolved, "", 0},
		{"a significant step inside the band still moves", []*FactionDelta{step(0.02, 0.01, 0.029, true)}, SettleMoving, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := settle(levels[:len(c.steps)+1], c.steps, 0.03, 100)
			if s.State != c.state || s.Level != c.level || s.GamesNeeded != c.needed || s.Tolerance != 0.03 {
				t.Errorf("got %+v, want state %s level %q games %d", s, c.state, c.level, c.needed)
			}
		})
	}
}
