package eclipse

import (
	"testing"

	"github.com/cardlab/cardlab/game"
)

// The counts add up: hits within the dice rolled, damage done plus
// overkill equal to the damage the hits carried, every battle ended once;
// Add and Sub are inverse; and the counts match the study where they can
// (the stalemates of the missiles-only mirror, a quarter of the battles).
func TestCounter(t *testing.T) {
	rs := Default()
	for _, c := range []struct {
		name string
		b    *Battle
	}{
		{"missiles only", referenceCases()[6].battle(t)},
		{"NPC defender", referenceCases()[5].battle(t)},
		{"missile ships vs Dreadnoughts", referenceCases()[3].battle(t)},
	} {
		cnt := rs.NewCounter(nil).(*Counter)
		s := NewState(c.b, 0)
		cnt.Attach(s)
		bot := NewPolicyBot(KillLargest)
		var buf []game.Action
		const n = 4000
		for i := 0; i < n; i++ {
			s.Reset(game.SeedFor(9, uint64(i)))
			for !s.IsTerminal() {
				buf = s.LegalActions(buf)
				s.Apply(bot.Choose(s, buf))
			}
			cnt.Finish(s, [game.MaxSeats]int64{})
		}
		secs := cnt.Sections()
		if err := (Game{}).CheckCounts(secs, []game.SideTotal{{Games: n}, {Games: n}}, 1); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g := secs[1].Rows[0].Values
		if c.name == "missiles only" {
			// Both ships fire one missile; 1/4 of the battles end in a
			// stalemate (the study), and no cannon die is ever rolled.
			if st := float64(g[7]) / n; st < 0.22 || st > 0.28 {
				t.Fatalf("stalemates %.3f, the study 0.25", st)
			}
			if g[2] != g[1] || g[0] != 0 {
				t.Fatalf("missile kills %d of %d destroyed, rounds %d", g[2], g[1], g[0])
			}
		}
		// Red missiles (4 damage) on hull-4 Dreadnoughts kill with damage
		// to spare; yellow hits (1 damage) on live ships never overkill.
		if c.name == "missile ships vs Dreadnoughts" && (g[2] == 0 || g[4] == 0) {
			t.Fatalf("missile kills %d, overkill %d", g[2], g[4])
		}
		if c.name == "NPC defender" && g[4] != 0 {
			t.Fatalf("overkill %d from 1-damage hits", g[4])
		}
		twice := rs.NewCounter(nil).(*Counter)
		twice.Add(cnt)
		twice.Add(cnt)
		twice.Sub(cnt)
		if twice.t != cnt.t {
			t.Fatalf("%s: Add twice and Sub once is not the counts", c.name)
		}
	}
}
