package analysis

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// TestCardValuesGoofspiel measures Goofspiel's bid cards in a mirrored
// lineup (one side on both seats) with the prize-matching bots: a higher
// bid card must be worth more. With both seats matching prizes every turn
// ties, so a card's worth is what its seat loses when the card bids 0
// against the other's equal card (the prize goes to the other seat): about
// the prize it is matched with. Values are in bid points at the measured
// price of one.
func TestCardValuesGoofspiel(t *testing.T) {
	res, err := CardValues(context.Background(), CardValueConfig{Game: goofspiel.Default(),
		Matchups: [][]string{{"player", "player"}}, Bots: []string{"greedy"}, Games: 2048, Precision: -1, Seed: 5, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Price["player"]; !(p.CI95[0] > 0) {
		t.Fatalf("price of a bid point %+v, want above 0", p)
	}
	var pts [14]CardValue
	for v := 1; v <= 13; v++ {
		c, ok := res.Values[fmt.Sprintf("bid-%d", v)]
		if !ok {
			t.Fatalf("no value for bid-%d", v)
		}
		pts[v] = c
		t.Logf("bid-%d: %.2f pts %v, %.2f bid points %v", v, c.Pts, c.PtsCI95, c.Power, c.PowerCI95)
	}
	// The high cards are clearly worth more than the low: the top three's
	// intervals lie above the bottom three's. (Card 1 is worth about
	// nothing: blanked, it loses prize 1 of 91 points.)
	for hi := 11; hi <= 13; hi++ {
		for lo := 1; lo <= 3; lo++ {
			if !(pts[hi].PtsCI95[0] > pts[lo].PtsCI95[1]) {
				t.Errorf("bid-%d %v not above bid-%d %v", hi, pts[hi].PtsCI95, lo, pts[lo].PtsCI95)
			}
		}
	}
	// In bid points: +1 on a card makes it take the prize it was matched
	// with instead of tying, so a bid point is worth about the mean prize
	// (7) and card v about v/7 of one; the middle card about one.
	if v := pts[7].PowerCI95; !(v[0] < 1 && v[1] > 1) {
		t.Errorf("bid-7 is worth %v bid points, want an interval around 1", v)
	}
	// The order: a card ranks with its face (Spearman's rho over the 13).
	rho := spearman(pts[1:], func(c CardValue) float64 { return c.Pts })
	if rho < 0.9 {
		t.Errorf("rank correlation of value with face %.2f, want at least 0.9", rho)
	}
}

func spearman(cs []CardValue, at func(CardValue) float64) float64 {
	n := len(cs)
	rank := make([]float64, n)
	for i := range cs {
		for j := range cs {
			if at(cs[j]) < at(cs[i]) {
				rank[i]++
			}
		}
	}
	d2 := 0.0
	for i := range rank {
		d := rank[i] - float64(i)
		d2 += d * d
	}
	return 1 - 6*d2/float64(n*(n*n-1))
}

// TestCardValuesPerSeat: in a mirror every seat's copies are perturbed on
// their own — the two positions' draws of one game differ, each at the
// design's rates — and each position's record holds its own perturbations.
func TestCardValuesPerSeat(t *testing.T) {
	d, err := newValueDesign(CardValueConfig{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}},
		Bots: []string{"random"}, Games: 64, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	w := &valueWorker{d: d, stop: new(atomic.Bool), vs: d.val.NewVariants(), buf: make([]game.Action, 0, 16)}
	for q := range w.pt {
		w.pt[q] = make([]game.Perturb, len(d.cards))
	}
	const games = 2000
	differ, blanks := 0, [2]int{}
	for j := range games {
		off, err := w.play(0, j)
		if err != nil {
			t.Fatal(err)
		}
		rec := w.pool[off:]
		same := true
		for c := range 13 {
			if w.pt[0][c] != w.pt[1][c] {
				same = false
			}
			for k := range 2 {
				if w.pt[k][c].Blank {
					blanks[k]++
				}
			}
		}
		if !same {
			differ++
		}
		// The record: position k's blanks are its own.
		at := 1
		for k := range 2 {
			cnt := int(rec[at+1])
			nb := 0
			for _, tm := range rec[at+2 : at+2+cnt] {
				if int(tm>>8) < d.nCardPars {
					nb++
				}
			}
			want := 0
			for c := range 13 {
				if w.pt[k][c].Blank {
					want++
				}
			}
			if nb != want {
				t.Fatalf("game %d: position %d records %d blanks, drew %d", j, k, nb, want)
			}
			at += 2 + cnt
		}
	}
	if differ < games*9/10 {
		t.Errorf("the two seats' perturbations differ in %d of %d games: not drawn apart", differ, games)
	}
	for k, b := range blanks {
		if rate := float64(b) / (games * 13); rate < 0.08 || rate > 0.12 {
			t.Errorf("position %d: blank rate %.3f, want about %.2f", k, rate, DefaultBlankRate)
		}
	}
}
