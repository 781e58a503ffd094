package spacetrace

import (
	"testing"

	"github.com/cardlab/cardlab/game"
)

// TestCounter: the economy adds up over random games of every embedded
// ruleset (CheckCounts; the full game's commanders pay income, which is MP
// gained, not paid for a card), a Counter subtracted from itself is empty,
// and a clone never counts into the attached tally.
func TestCounter(t *testing.T) {
	for _, name := range []string{FirstRuleset, SecondRuleset, ReferenceRuleset} {
		rs := Embedded(name)
		c := rs.NewCounter([]int{0}).(*Counter)
		st, _ := rs.NewState([]int{0, 0}, 1)
		c.Attach(st)
		rng := game.NewRNG(9)
		var buf []game.Action
		games := 0
		for seed := uint64(0); seed < 200; seed++ {
			st.Reset(seed)
			for !st.IsTerminal() {
				buf = st.LegalActions(buf)
				a := buf[rng.Intn(len(buf))]
				cl := st.Clone()
				cl.Apply(a) // must not count
				st.Apply(a)
			}
			c.Finish(st, [game.MaxSeats]int64{})
			games++
		}
		secs := c.Sections()
		if err := (Game{}).CheckCounts(secs, nil, 1); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g := secs[1].Rows[0].Values
		if g[0] == 0 || g[1] == 0 || g[5] == 0 || g[6]+g[7]+g[8] != int64(games) && g[6] < int64(games)/2 {
			t.Fatalf("%s: game counts %v over %d games", name, g, games)
		}
		// mp_spent equals what the cards say was paid (no clone counted).
		var paid int64
		for _, r := range secs[0].Rows {
			if r.Labels[1] != "reinforcement" {
				paid += r.Values[4]
			}
		}
		if paid != g[1] {
			t.Fatalf("%s: cards paid %d, game spent %d", name, paid, g[1])
		}
		d := rs.NewCounter([]int{0}).(*Counter)
		d.Add(c)
		d.Sub(c)
		if d.t != (tally{}) {
			t.Fatalf("%s: Add then Sub leaves counts", name)
		}
	}
	// A broken file is refused.
	secs := (&Counter{rs: First()}).Sections()
	secs[1].Rows[0].Values[1] = 100 // spent without gaining
	if err := (Game{}).CheckCounts(secs, nil, 1); err == nil {
		t.Fatal("MP spent beyond MP gained accepted")
	}
}
