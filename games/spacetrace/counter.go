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
	// reinf and ships are the reinforcement and ship cards played; sq the
	// sums over games of each economy figure's square (econ order), for
	// the economy view's intervals.
	reinf, ships int64
	sq           [numEcon]int64
	// gainedXExpired and reinfXShips are the sums over games of those
	// figures' products, for the shares' intervals.
	gainedXExpired, reinfXShips int64
	// agree and disagree count the games whose winner the other scoring
	// rule (E3 against E4) names alike or not (brief §4a.7).
	agree, disagree int64
}

// The economy figures of one game, in the order of tally.sq and of the
// game section's squares columns.
const (
	econGained = iota
	econSpent
	econExpired
	econDiscardsMP
	econDiscardsDraw
	econReinf
	econShips
	numEcon
)

// econ is the tally's economy totals (econ order).
func (t *tally) econ() [numEcon]int64 {
	return [numEcon]int64{t.gained, t.spent, t.expired, t.discardsMP, t.discardsDraw, t.reinf, t.ships}
}

// Counter is Spacetrace's game.Counter.
type Counter struct {
	rs *Ruleset
	t  tally
	// prev is the economy at the end of the last game counted here: a
	// game's own figures are the difference (one worker plays its games
	// one after another; an abandoned game's counts are taken back by Sub
	// before the next, so the totals are prev's again).
	prev [numEcon]int64
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
	var reinf, ships int64
	for i := range c.rs.Defs {
		switch c.rs.Defs[i].Type {
		case Reinforcement:
			reinf += c.t.card[i].played
		case Ship:
			ships += c.t.card[i].played
		}
	}
	c.t.reinf, c.t.ships = reinf, ships
	now := c.t.econ()
	for k := range now {
		d := now[k] - c.prev[k]
		c.t.sq[k] += d * d
	}
	d := func(k int) int64 { return now[k] - c.prev[k] }
	c.t.gainedXExpired += d(econGained) * d(econExpired)
	c.t.reinfXShips += d(econReinf) * d(econShips)
	c.prev = now
	if a, b := st.winnerBy(ScoreBaseDamage), st.winnerBy(ScoreWrecked); a == b {
		c.t.agree++
	} else {
		c.t.disagree++
	}
}

// winnerBy is the seat that wins the finished game under scoring rule
// sc (E3 or E4), -1 for a draw: what the other rule would have said of
// the same game.
func (s *State) winnerBy(sc int) int {
	var pts [2]int
	for p := 0; p < 2; p++ {
		opp := 1 - p
		if sc == ScoreWrecked {
			pts[p] = s.P[opp].WreckMP
			if s.BaseDamageOf(opp) >= s.rs.Rules.BaseLP {
				pts[p] += 500
			}
		} else {
			pts[p] = s.BaseDamageOf(opp)
		}
	}
	switch {
	case pts[0] > pts[1]:
		return 0
	case pts[1] > pts[0]:
		return 1
	}
	return -1
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
	t.reinf += k * o.reinf
	t.ships += k * o.ships
	for i := range t.sq {
		t.sq[i] += k * o.sq[i]
	}
	t.gainedXExpired += k * o.gainedXExpired
	t.reinfXShips += k * o.reinfXShips
	t.agree += k * o.agree
	t.disagree += k * o.disagree
}

// CountLayout implements game.CountRules.
func (Game) CountLayout() []game.Section {
	return []game.Section{
		{Key: "card_counts", Entity: "card", Doc: "each card definition: how often it was played, wrecked and removed from game",
			Labels: []string{"id", "type"}, Columns: []game.Count{
				{Key: "cost", Doc: "its MP cost (a reinforcement: the MP it gives)", Const: true},
				{Key: "played", Label: "played", Doc: "times played (a ship: entered play; a reinforcement: spent for MP)"},
				{Key: "wrecked", Label: "wrecked", Doc: "times it went to the discard pile as a wreck: destroyed, self-destroyed or sacrificed (E4)"},
				{Key: "removed", Label: "discarded (3 cards)", Doc: "times discarded by the 3-card discard (a ship: removed from game, T4)"},
				{Key: "mp", Label: "MP paid or gained", Doc: "MP paid for it, or gained from it (a reinforcement)"},
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
			{Key: "reinforcements_played", Doc: "reinforcement cards played"},
			{Key: "ships_played", Doc: "ship cards played"},
			{Key: "mp_gained_sq", Doc: "sum over games of the game's MP gained, squared", Squares: true},
			{Key: "mp_spent_sq", Doc: "sum over games of the game's MP spent, squared", Squares: true},
			{Key: "mp_expired_sq", Doc: "sum over games of the game's MP expired, squared", Squares: true},
			{Key: "discards_mp_sq", Doc: "sum over games of the game's 3-card discards for MP, squared", Squares: true},
			{Key: "discards_draw_sq", Doc: "sum over games of the game's 3-card discards for a card, squared", Squares: true},
			{Key: "reinforcements_played_sq", Doc: "sum over games of the game's reinforcements played, squared", Squares: true},
			{Key: "ships_played_sq", Doc: "sum over games of the game's ships played, squared", Squares: true},
			{Key: "mp_gained_x_expired", Doc: "sum over games of the game's MP gained times its MP expired", Squares: true},
			{Key: "reinforcements_x_ships", Doc: "sum over games of the game's reinforcements played times its ships played", Squares: true},
			{Key: "scoring_agree", Doc: "games whose winner (or draw) the other scoring rule names alike (base damage E3 against wrecked ships E4)"},
			{Key: "scoring_disagree", Doc: "games the other scoring rule gives another winner or a draw"},
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
		t.attacks, t.baseKills, t.quietEnds, t.timeouts, t.turn, t.reinf, t.ships,
		t.sq[econGained], t.sq[econSpent], t.sq[econExpired], t.sq[econDiscardsMP], t.sq[econDiscardsDraw], t.sq[econReinf], t.sq[econShips],
		t.gainedXExpired, t.reinfXShips, t.agree, t.disagree}}}
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
		case "card_counts":
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
