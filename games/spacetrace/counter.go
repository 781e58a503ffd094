package spacetrace

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
)

// Spacetrace's counts (game.Counter): the economy a designer balances (brief
// §4a.4) — MP gained, spent and expired, 3-card discards — and each card's
// fate: played, wrecked, removed from game. The state counts into the
// attached tally as it plays; Finish adds how the game ended.

type cardCounts struct{ played, wrecked, removed, mp int64 }

type tally struct {
	card                                 [MaxDefs]cardCounts
	gained, spent, expired               int64
	discardsMP, discardsDraw, attacks    int64
	baseKills, quietEnds, timeouts, turn int64
}

// Counter is Spacetrace's game.Counter.
type Counter struct {
	rs *Ruleset
	t  tally
}

// NewCounter implements game.Counted; the counts are by card, not by side.
func (rs *Ruleset) NewCounter([]int) game.Counter { return &Counter{rs: rs} }

// Attach implements game.Counter.
func (c *Counter) Attach(s game.State) { s.(*State).tally = &c.t }

// Finish implements game.Counter: how the game ended.
func (c *Counter) Finish(s game.State, _ [game.MaxSeats]int64) {
	st := s.(*State)
	for p := 0; p < 2; p++ {
		if st.BaseDamageOf(p) >= st.rs.Rules.BaseLP {
			c.t.baseKills++
		}
	}
	switch {
	case st.timeout:
		c.t.timeouts++
	case st.quiet >= st.rs.Rules.QuietTurns:
		c.t.quietEnds++
	}
	c.t.turn += int64(st.Length())
}

// Add implements game.Counter.
func (c *Counter) Add(o game.Counter) { c.add(&o.(*Counter).t, 1) }

// Sub implements game.Counter.
func (c *Counter) Sub(o game.Counter) { c.add(&o.(*Counter).t, -1) }

func (c *Counter) add(o *tally, k int64) {
	t := &c.t
	for i := range t.card {
		a, b := &t.card[i], &o.card[i]
		a.played += k * b.played
		a.wrecked += k * b.wrecked
		a.removed += k * b.removed
		a.mp += k * b.mp
	}
	t.gained += k * o.gained
	t.spent += k * o.spent
	t.expired += k * o.expired
	t.discardsMP += k * o.discardsMP
	t.discardsDraw += k * o.discardsDraw
	t.attacks += k * o.attacks
	t.baseKills += k * o.baseKills
	t.quietEnds += k * o.quietEnds
	t.timeouts += k * o.timeouts
	t.turn += k * o.turn
}

// CountLayout implements game.CountRules.
func (Game) CountLayout() []game.Section {
	return []game.Section{
		{Key: "cards", Entity: "card", Doc: "each card definition: how often it was played, wrecked and removed from game",
			Labels: []string{"id", "type"}, Columns: []game.Count{
				{Key: "cost", Doc: "its MP cost (a reinforcement: the MP it gives)", Const: true},
				{Key: "played", Doc: "times played (a ship: entered play; a reinforcement: spent for MP)"},
				{Key: "wrecked", Doc: "times it went to the discard pile as a wreck: destroyed, self-destroyed or sacrificed (E4)"},
				{Key: "removed", Doc: "times discarded by the 3-card discard (a ship: removed from game, T4)"},
				{Key: "mp", Doc: "MP paid for it, or gained from it (a reinforcement)"},
			}},
		{Key: game.GameSection, Entity: "game", Doc: "whole games: the economy and the ends", Columns: []game.Count{
			{Key: "mp_gained", Doc: "MP gained: reinforcements and 3-card discards"},
			{Key: "mp_spent", Doc: "MP paid for cards"},
			{Key: "mp_expired", Doc: "MP left in a pool at the end of a turn (T1: it expires)"},
			{Key: "discards_mp", Doc: "3-card discards for MP"},
			{Key: "discards_draw", Doc: "3-card discards for a card"},
			{Key: "attacks", Doc: "attacks fought"},
			{Key: "base_kills", Doc: "Bases destroyed (end condition 1)"},
			{Key: "quiet_ends", Doc: "games ended by end condition 2 (nothing left to do)"},
			{Key: "timeouts", Doc: "games ended at end.turn_cap"},
			{Key: "turns", Doc: "turns played"},
		}},
	}
}

// Sections implements game.Counter.
func (c *Counter) Sections() []game.Section {
	secs := Game{}.CountLayout()
	t := &c.t
	for i := range c.rs.Defs {
		d := &c.rs.Defs[i]
		cost := d.MP
		if e := d.Effect(MP); d.Type == Reinforcement && e != nil {
			cost = e.Amount
		}
		k := t.card[i]
		secs[0].Rows = append(secs[0].Rows, game.Row{Labels: []string{d.ID, d.Type.String()},
			Values: []int64{int64(cost), k.played, k.wrecked, k.removed, k.mp}})
	}
	secs[1].Rows = []game.Row{{Values: []int64{t.gained, t.spent, t.expired, t.discardsMP, t.discardsDraw,
		t.attacks, t.baseKills, t.quietEnds, t.timeouts, t.turn}}}
	return secs
}

// CheckCounts implements game.CountRules: MP spent and expired never exceed
// MP gained (a pool cannot go below 0), and the cards' MP adds up to the
// game's.
func (Game) CheckCounts(secs []game.Section, _ []game.SideTotal, _ int64) error {
	var cardSpent, cardGained int64
	var gained, spent, expired int64
	for i := range secs {
		s := &secs[i]
		col := func(key string) int { k, _, _ := s.Column(key); return k }
		switch s.Key {
		case "cards":
			mp := col("mp")
			for _, r := range s.Rows {
				if len(r.Labels) > 1 && r.Labels[1] == Reinforcement.String() {
					cardGained += r.Values[mp]
				} else {
					cardSpent += r.Values[mp]
				}
			}
		case game.GameSection:
			if len(s.Rows) == 1 {
				v := s.Rows[0].Values
				gained, spent, expired = v[col("mp_gained")], v[col("mp_spent")], v[col("mp_expired")]
			}
		}
	}
	if spent+expired > gained {
		return fmt.Errorf("MP spent %d and expired %d, but only %d gained", spent, expired, gained)
	}
	if cardSpent != spent || cardGained > gained {
		return fmt.Errorf("the cards' MP (spent %d, gained %d) does not match the game's (spent %d, gained %d)", cardSpent, cardGained, spent, gained)
	}
	return nil
}
