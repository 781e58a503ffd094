package goofspiel

import (
	"reflect"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// TestCounterCounts plays random games with a Counter attached and recounts
// every turn from what the state shows after it (the revealed bids, the
// points): the counter's tables must be that recount, with carried ties
// and 2 to 4 seats; a clone played on beside it counts nothing.
func TestCounterCounts(t *testing.T) {
	for _, text := range []string{
		"game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 4}\ncards: 5\nprizes: [3, 1, 4, 1, 5]\n",
		"game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 4}\ncards: 4\nprizes: [2, 7, 1]\nties: carry\n",
	} {
		rs := rules(t, text)
		for n := 2; n <= 4; n++ {
			c := rs.NewCounter([]int{0}).(*Counter)
			var want tally
			rng := game.NewRNG(uint64(n))
			s := New(rs, n, 0)
			c.Attach(s)
			var buf []game.Action
			for g := 0; g < 300; g++ {
				s.Reset(uint64(g))
				for !s.IsTerminal() {
					if g%50 == 0 && s.turn == 1 && s.player == 0 {
						cl := s.Clone().(*State)
						for !cl.IsTerminal() {
							buf = cl.LegalActions(buf)
							cl.Apply(buf[rng.Intn(len(buf))])
						}
					}
					last := s.player == n-1
					prize := s.deck[s.turn]
					before := s.points
					buf = s.LegalActions(buf)
					s.Apply(buf[rng.Intn(len(buf))])
					if !last {
						continue
					}
					bids := s.LastBids()
					best, k, second := uint8(0), 0, uint8(0)
					for q := 0; q < n; q++ {
						switch b := bids[q]; {
						case b > best:
							second, best, k = best, b, 1
						case b == best:
							k++
						case b > second:
							second = b
						}
					}
					pc := &want.prize[prize]
					pc.turned++
					for q := 0; q < n; q++ {
						bc := &want.bid[bids[q]-1]
						bc.bid++
						bc.prizeSum += int64(rs.Prizes[prize])
						if bids[q] == best && k > 1 {
							bc.tied++
						}
					}
					if k > 1 {
						pc.tied++
						continue
					}
					var gain int64
					for q := 0; q < n; q++ {
						gain += int64(s.points[q] - before[q])
					}
					pc.taken++
					pc.points += gain
					pc.bidSum += int64(best)
					pc.bidSq += int64(best) * int64(best)
					pc.marginSum += int64(best - second)
					want.bid[best-1].won++
					want.bid[best-1].points += gain
				}
				c.Finish(s, [game.MaxSeats]int64{})
				total := int64(0)
				for _, v := range rs.Prizes {
					total += int64(v)
				}
				for q := 0; q < n; q++ {
					total -= int64(s.points[q])
				}
				want.lost += total
			}
			if !reflect.DeepEqual(c.t, want) {
				t.Fatalf("%d seats, ties %v: the counter differs from the recount", n, rs.Ties)
			}
			secs := c.Sections()
			if err := (Game{}).CheckCounts(secs, nil, 12); err != nil {
				t.Fatal(err)
			}
			if len(secs[0].Rows) != len(rs.Prizes) || len(secs[1].Rows) != rs.HandSize || secs[2].Rows[0].Values[0] != want.lost {
				t.Fatalf("sections %+v", secs)
			}
			// Sub takes back what Add added.
			d := rs.NewCounter([]int{0}).(*Counter)
			d.Add(c)
			d.Add(c)
			d.Sub(c)
			if !reflect.DeepEqual(d.t, c.t) {
				t.Fatal("Add twice then Sub differs from one Add")
			}
		}
	}
}

// TestCheckCountsRefuses: counts that cannot come from games are refused.
func TestCheckCountsRefuses(t *testing.T) {
	rs := Default()
	c := rs.NewCounter([]int{0}).(*Counter)
	s := New(rs, 2, 1)
	c.Attach(s)
	for !s.IsTerminal() {
		s.Apply(s.LegalActions(nil)[0])
	}
	c.Finish(s, [game.MaxSeats]int64{})
	for _, edit := range []func(secs []game.Section){
		func(secs []game.Section) { secs[0].Rows[0].Values[2] += 5 },  // taken beyond turned
		func(secs []game.Section) { secs[1].Rows[12].Values[2] += 1 }, // a win with no prize taken
		func(secs []game.Section) { secs[1].Rows[0].Values[3] += 9 },  // tied beyond bid
	} {
		secs := c.Sections()
		if err := (Game{}).CheckCounts(secs, nil, 12); err != nil {
			t.Fatal(err)
		}
		edit(secs)
		if err := (Game{}).CheckCounts(secs, nil, 12); err == nil {
			t.Error("an edited count was accepted")
		}
	}
}
