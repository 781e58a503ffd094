package gametest

import (
	"testing"

	"github.com/cardlab/cardlab/game"
)

// Knobs checks every knob of rs on every entity it applies to: Get lies in
// [Min, Max]; With at the current value and at a neighbour inside the
// range (or an error saying why not) gives a ruleset whose Get is that
// value, leaves rs's value as it was, and plays a game to its end; With
// outside [Min, Max] is an error.
func Knobs(t *testing.T, rs game.Ruleset) {
	knobs := game.KnobsOf(rs)
	lo, _ := rs.Seats()
	seats := make([]int, lo)
	for i := range seats {
		seats[i] = i % len(rs.Sides())
	}
	for _, k := range knobs {
		var entities []int
		switch k.Scope {
		case game.OnCard:
			for _, c := range rs.Cards() {
				entities = append(entities, c.Index)
			}
		case game.OnSide:
			for i := range rs.Sides() {
				entities = append(entities, i)
			}
		default:
			entities = []int{0}
		}
		for _, e := range entities {
			if !game.KnobApplies(&k, rs, e) {
				continue
			}
			cur := k.Get(rs, e)
			if cur < k.Min || cur > k.Max {
				t.Errorf("knob %s on %d: value %d outside [%d, %d]", k.Name, e, cur, k.Min, k.Max)
			}
			for _, v := range []int{cur, cur + 1, cur - 1} {
				if v < k.Min || v > k.Max {
					continue
				}
				x, err := k.With(rs, e, v)
				if err != nil {
					if v == cur {
						t.Errorf("knob %s on %d: With the current value %d: %v", k.Name, e, v, err)
					}
					continue
				}
				if got := k.Get(x, e); got != v {
					t.Errorf("knob %s on %d: With %d reads back %d", k.Name, e, v, got)
				}
				if got := k.Get(rs, e); got != cur {
					t.Errorf("knob %s on %d: With %d changed the ruleset itself to %d", k.Name, e, v, got)
				}
				s, err := x.NewState(seats, 1)
				if err != nil {
					t.Errorf("knob %s on %d = %d: NewState: %v", k.Name, e, v, err)
					continue
				}
				rng := game.NewRNG(uint64(e)<<32 ^ uint64(uint32(v)))
				Play(t, s, &rng)
				if !s.IsTerminal() {
					t.Errorf("knob %s on %d = %d: a random game did not end", k.Name, e, v)
				}
			}
			if k.Max < 1<<31-1 {
				if _, err := k.With(rs, e, k.Max+1); err == nil {
					t.Errorf("knob %s on %d: With %d above the maximum %d accepted", k.Name, e, k.Max+1, k.Max)
				}
			}
			if k.Min > -1<<31 {
				if _, err := k.With(rs, e, k.Min-1); err == nil {
					t.Errorf("knob %s on %d: With %d below the minimum %d accepted", k.Name, e, k.Min-1, k.Min)
				}
			}
		}
	}
}
