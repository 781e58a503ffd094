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
		if c.name == "NPC defender" && g[11] != 0 {
			t.Fatalf("an NPC drew %d reputation tiles", g[11])
		}
		// Kills by size and by whom: every destroyed ship once; NPCs kill
		// only where one fights, and there they kill the player's ships
		// by their sizes (the Cruiser 3, the dummy Dreadnought 4).
		var byNPC, byPlayer int64
		sizes := map[string][2]int64{}
		for _, r := range secs[2].Rows {
			byPlayer += r.Values[0]
			byNPC += r.Values[1]
			sizes[r.Labels[0]] = [2]int64{r.Values[0], r.Values[1]}
		}
		if byNPC+byPlayer != g[1] {
			t.Fatalf("%s: %d + %d ships destroyed by size of %d", c.name, byPlayer, byNPC, g[1])
		}
		if (c.name == "NPC defender") != (byNPC > 0) {
			t.Fatalf("%s: %d ships destroyed by NPCs", c.name, byNPC)
		}
		if c.name == "NPC defender" && (sizes["3"][1] == 0 || sizes["4"][1] == 0 || sizes["1"] != [2]int64{} || secs[2].Rows[0].Labels[1] != "Interceptor") {
			t.Fatalf("NPC kills by size %v (rows %v)", sizes, secs[2].Rows)
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

// Reputation (L113–L116): a Cruiser that destroys an Ancient draws 1 for
// taking part and 1 for the Ancient; one destroyed draws 1; a side that
// retreats draws nothing for taking part.
func TestReputationDraws(t *testing.T) {
	rs := Default()
	b, _ := rs.Battle(rs.FleetIndex("1c"), rs.FleetIndex("ancient"))
	var won, lost int
	for seed := uint64(0); seed < 200; seed++ {
		s := NewState(b, seed)
		for !s.IsTerminal() {
			s.Apply(s.LegalActions(nil)[0])
		}
		switch s.Outcome() {
		case AttackerEliminates:
			won++
			if d := s.ReputationDraws(Attacker); d != 2 {
				t.Fatalf("the Cruiser destroyed the Ancient and drew %d", d)
			}
		case DefenderEliminates:
			lost++
			if d := s.ReputationDraws(Attacker); d != 1 {
				t.Fatalf("the destroyed Cruiser drew %d", d)
			}
		}
		if s.ReputationDraws(Defender) != 0 {
			t.Fatal("the Ancient drew reputation")
		}
	}
	if won == 0 || lost == 0 {
		t.Fatalf("won %d, lost %d", won, lost)
	}
	r := referenceRules()
	r.Retreat = [2]bool{true, false}
	rb, _ := NewBattle(rs.Force(rs.FleetIndex("2d")), rs.Force(rs.FleetIndex("5i")), r)
	s := NewState(rb, 1)
	for !s.IsTerminal() {
		la := s.LegalActions(nil)
		s.Apply(la[len(la)-1]) // the attacker retreats at once
	}
	if s.Outcome() == AttackerLeaves && s.ReputationDraws(Attacker) != 0 {
		t.Fatalf("a retreating attacker drew %d", s.ReputationDraws(Attacker))
	}
}
