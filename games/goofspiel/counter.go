package goofspiel

import (
	"fmt"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// Goofspiel's counts (game.Counter): what a designer balancing a prize deck
// and a hand wants to see — for each prize card, how often it was taken
// outright or lost to a tie and by how high a bid; for each bid card, how
// often it took its prize, on what prizes it was spent, and the points it
// brought in. The state counts every settled turn into the attached tally
// (State.settle); Finish adds the points no one took.

// prizeCounts count one prize card (a position of rules.yaml's prizes).
type prizeCounts struct {
	turned, taken, tied, points, bidSum, bidSq, marginSum int64
}

// bidCounts count one bid card value.
type bidCounts struct {
	bid, won, tied, points, prizeSum int64
}

// tally is what the state counts as it plays: by prize index and by bid
// value − 1.
type tally struct {
	prize [MaxCards]prizeCounts
	bid   [MaxCards]bidCounts
	lost  int64 // prize points no one took (discarded, or carried past the end)
}

// settle counts the turn whose bids are s.bid: the highest bid best, by
// winner (-1: tied).
func (t *tally) settle(s *State, winner int, best uint8) {
	pc := &t.prize[s.deck[s.turn]]
	prize := int64(s.rs.Prizes[s.deck[s.turn]])
	pc.turned++
	second := uint8(0)
	for q := 0; q < s.n; q++ {
		b := s.bid[q]
		bc := &t.bid[b-1]
		bc.bid++
		bc.prizeSum += prize
		if b == best {
			if winner < 0 {
				bc.tied++
			}
		} else if b > second {
			second = b
		}
	}
	if winner < 0 {
		pc.tied++
		return
	}
	pot := int64(s.pot)
	pc.taken++
	pc.points += pot
	pc.bidSum += int64(best)
	pc.bidSq += int64(best) * int64(best)
	pc.marginSum += int64(best - second)
	bc := &t.bid[best-1]
	bc.won++
	bc.points += pot
}

// Counter is Goofspiel's game.Counter.
type Counter struct {
	rs *Ruleset
	t  tally
}

// NewCounter implements game.Counted; Goofspiel's one side needs no
// per-side columns.
func (rs *Ruleset) NewCounter([]int) game.Counter { return &Counter{rs: rs} }

// Attach implements game.Counter.
func (c *Counter) Attach(s game.State) { s.(*State).tally = &c.t }

// Finish implements game.Counter: the prize points no one took.
func (c *Counter) Finish(s game.State, _ [game.MaxSeats]int64) {
	st := s.(*State)
	lost := int64(0)
	for _, v := range c.rs.Prizes {
		lost += int64(v)
	}
	for q := 0; q < st.n; q++ {
		lost -= int64(st.points[q])
	}
	c.t.lost += lost
}

// Add implements game.Counter.
func (c *Counter) Add(o game.Counter) { c.add(&o.(*Counter).t, 1) }

// Sub implements game.Counter.
func (c *Counter) Sub(o game.Counter) { c.add(&o.(*Counter).t, -1) }

func (c *Counter) add(o *tally, k int64) {
	t := &c.t
	for i := range t.prize {
		a, b := &t.prize[i], &o.prize[i]
		a.turned += k * b.turned
		a.taken += k * b.taken
		a.tied += k * b.tied
		a.points += k * b.points
		a.bidSum += k * b.bidSum
		a.bidSq += k * b.bidSq
		a.marginSum += k * b.marginSum
	}
	for i := range t.bid {
		a, b := &t.bid[i], &o.bid[i]
		a.bid += k * b.bid
		a.won += k * b.won
		a.tied += k * b.tied
		a.points += k * b.points
		a.prizeSum += k * b.prizeSum
	}
	t.lost += k * o.lost
}

// CountLayout implements game.CountRules.
func (Game) CountLayout() []game.Section {
	return []game.Section{
		{Key: "prizes", Entity: "prize card", Doc: "each prize card, in rules.yaml's order: who bid how much for it",
			Labels: []string{"id"}, Columns: []game.Count{
				{Key: "value", Doc: "its points", Const: true},
				{Key: "turned", Label: "turned up", Doc: "times turned up (and settled)"},
				{Key: "taken", Label: "taken", Doc: "times taken by a single highest bid"},
				{Key: "tied", Label: "tied", Doc: "times the highest bid was tied (discarded or carried)"},
				{Key: "points", Label: "points taken", Doc: "points its takers got with it, carried points included"},
				{Key: "bid_sum", Label: "winning bids, summed", Doc: "the winning bid, summed over the times taken"},
				{Key: "bid_sq", Doc: "its squares, summed", Squares: true},
				{Key: "margin_sum", Label: "winning margins, summed", Doc: "the winning bid minus the next highest, summed over the times taken"},
			}},
		{Key: "bids", Entity: "bid card", Doc: "each bid card value, lowest first: what it was spent on and what it took",
			Labels: []string{"id"}, Columns: []game.Count{
				{Key: "value", Doc: "its value", Const: true},
				{Key: "bid", Label: "bid", Doc: "times bid"},
				{Key: "won", Label: "took the prize", Doc: "times it took the prize (the single highest bid)"},
				{Key: "tied", Label: "tied for the highest bid", Doc: "times it tied for the highest bid"},
				{Key: "points", Label: "points taken", Doc: "points it took, carried points included"},
				{Key: "prize_sum", Label: "prize values bid on", Doc: "the value of the prize it was bid on, summed over the times bid"},
			}},
		{Key: game.GameSection, Entity: "game", Doc: "whole games", Columns: []game.Count{
			{Key: "lost_points", Doc: "prize points no one took (discarded on a tie, or carried past the last turn)"},
		}},
	}
}

// Sections implements game.Counter.
func (c *Counter) Sections() []game.Section {
	secs := Game{}.CountLayout()
	t := &c.t
	for i, v := range c.rs.Prizes {
		p := t.prize[i]
		secs[0].Rows = append(secs[0].Rows, game.Row{Labels: []string{"prize-" + strconv.Itoa(i+1)},
			Values: []int64{int64(v), p.turned, p.taken, p.tied, p.points, p.bidSum, p.bidSq, p.marginSum}})
	}
	for v := 1; v <= c.rs.HandSize; v++ {
		b := t.bid[v-1]
		secs[1].Rows = append(secs[1].Rows, game.Row{Labels: []string{"bid-" + strconv.Itoa(v)},
			Values: []int64{int64(v), b.bid, b.won, b.tied, b.points, b.prizeSum}})
	}
	secs[2].Rows = []game.Row{{Values: []int64{t.lost}}}
	return secs
}

// CheckCounts implements game.CountRules: a prize is not taken or tied more
// often than turned up; a bid card does not win or tie more often than
// bid; every prize taken was taken by one bid card, and every tied turn
// had two tied bids or more.
func (Game) CheckCounts(secs []game.Section, _ []game.SideTotal, _ int64) error {
	var taken, tiedTurns, won, tiedBids int64
	for i := range secs {
		s := &secs[i]
		col := func(key string) int { k, _, _ := s.Column(key); return k }
		switch s.Key {
		case "prizes":
			turned, tk, td := col("turned"), col("taken"), col("tied")
			for _, r := range s.Rows {
				v := r.Values
				if v[tk]+v[td] > v[turned] {
					return fmt.Errorf("prize %s: taken %d and tied %d of %d times turned up", r.Labels[0], v[tk], v[td], v[turned])
				}
				taken += v[tk]
				tiedTurns += v[td]
			}
		case "bids":
			bid, w, td := col("bid"), col("won"), col("tied")
			for _, r := range s.Rows {
				v := r.Values
				if v[w]+v[td] > v[bid] {
					return fmt.Errorf("bid card %s: won %d and tied %d of %d times bid", r.Labels[0], v[w], v[td], v[bid])
				}
				won += v[w]
				tiedBids += v[td]
			}
		}
	}
	if taken != won || tiedBids < 2*tiedTurns {
		return fmt.Errorf("prizes taken %d but bid cards won %d; %d tied turns but %d tied bids", taken, won, tiedTurns, tiedBids)
	}
	return nil
}

// Starter is not implemented: seat 0 bids first, but the bids are
// simultaneous, so no seat has a start.

// SeatRecord implements game.Recorder: the seat's points and the prizes it
// took.
func (s *State) SeatRecord(seat int, buf []game.Named) []game.Named {
	return append(buf, game.Named{Key: "total", Value: s.points[seat]}, game.Named{Key: "prizes", Value: int(s.taken[seat])})
}

// GameRecord implements game.Recorder: the turns whose highest bid was
// tied.
func (s *State) GameRecord(buf []game.Named) []game.Named {
	return append(buf, game.Named{Key: "tied_turns", Value: int(s.ties)})
}
