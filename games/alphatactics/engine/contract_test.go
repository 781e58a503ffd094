package engine

import (
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestContractScoreMemo: the Contract's memoised Score is the engine's
// provisional score at every position — across Reset, a copy into a used
// Contract, a rebinding to a ruleset whose targets are worth more, and at
// the end of the game — at 2 to 4 seats.
func TestContractScoreMemo(t *testing.T) {
	rs := rules.Default()
	richer := *rs
	richer.Targets = append([]rules.Target(nil), rs.Targets...)
	for i := range richer.Targets {
		richer.Targets[i].VP += 3
	}
	check := func(c *Contract, where string) {
		t.Helper()
		for p := 0; p < c.NumSeats(); p++ {
			if got, want := c.Score(p), c.S.ProvisionalScore(p).Total; got != want {
				t.Fatalf("%s: seat %d Score %d, ProvisionalScore %d", where, p+1, got, want)
			}
		}
	}
	for seats := 2; seats <= 4; seats++ {
		s, err := New(rs, Config{Factions: allFactions[:seats], Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		c, other := &Contract{S: s}, &Contract{}
		rng := NewRNG(uint64(seats))
		var buf []Action
		for g := 0; g < 40; g++ {
			c.Reset(uint64(g))
			for steps := 0; !c.IsTerminal(); steps++ {
				check(c, "play")
				if steps == 40 {
					c.CopyInto(other)
					check(other, "copy")
				}
				buf = c.S.LegalActions(buf)
				c.Apply(game.Action(buf[rng.Intn(len(buf))]))
			}
			check(c, "end")
			check(other, "copy, after its source played on")
		}
		// A rebinding keeps the state but changes what targets are worth:
		// the same moves, replayed on richer targets, reach the same held
		// targets, where a memo keyed by them alone would answer the old VP.
		cfg := Config{Factions: allFactions[:seats], Seed: 3}
		if err := c.S.Rebind(rs, cfg); err != nil {
			t.Fatal(err)
		}
		var moves []Action
		first := -1
		for !c.IsTerminal() {
			if first < 0 && c.S.players[0].won != 0 {
				first = len(moves)
				check(c, "before rebinding")
			}
			buf = c.S.LegalActions(buf)
			a := buf[rng.Intn(len(buf))]
			moves = append(moves, a)
			c.Apply(game.Action(a))
		}
		if first < 0 {
			t.Fatal("seat 1 won no target")
		}
		if err := c.S.Rebind(&richer, cfg); err != nil {
			t.Fatal(err)
		}
		for _, a := range moves[:first] {
			c.Apply(game.Action(a))
		}
		check(c, "rebound")
	}
}
