package goofspiel

import (
	"testing"

	"github.com/cardlab/cardlab/game"
)

// greedyBids plays a game of rs with the prize deck in rules.yaml's order,
// seat 0 greedy and the others bidding their lowest card, and returns
// greedy's bids turn by turn.
func greedyBids(t *testing.T, rs *Ruleset) []int {
	t.Helper()
	s := New(rs, 2, 1)
	fixPrizes(s)
	g := NewGreedy(rs)
	var bids []int
	for !s.IsTerminal() {
		legal := s.LegalActions(nil)
		a := legal[0]
		if s.CurrentPlayer() == 0 {
			a = g.Choose(s, legal)
			bids = append(bids, int(a))
		}
		s.Apply(a)
	}
	return bids
}

// TestGreedyMatchesPrize: in the classic game greedy bids the card equal
// to the prize, whatever order the prizes come in.
func TestGreedyMatchesPrize(t *testing.T) {
	rs := Default()
	for seed := uint64(0); seed < 20; seed++ {
		s := New(rs, 3, seed)
		g := NewGreedy(rs)
		for !s.IsTerminal() {
			legal := s.LegalActions(nil)
			if a := g.Choose(s, legal); int(a) != s.Prize() {
				t.Fatalf("seed %d, turn %d: prize %d, greedy bids %d", seed, s.Turn(), s.Prize(), a)
			}
			s.Apply(g.Choose(s, legal))
		}
	}
}

// TestGreedyRanks: with other prize values it bids by rank (equal values by
// their order in rules.yaml), and with fewer prizes than cards the ranks
// spread over the hand, the top prize taking the top card.
func TestGreedyRanks(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int
	}{
		{small + "prizes: [10, 50, 20]\n", []int{1, 3, 2}},
		{small + "prizes: [5, 5, 1]\n", []int{2, 3, 1}},
		{small + "prizes: [7, 2]\n", []int{3, 2}},
		{"game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 2}\ncards: 10\nprizes: [1, 4, 3, 2]\n", []int{3, 10, 8, 5}},
	} {
		got := greedyBids(t, rules(t, tc.text))
		if len(got) != len(tc.want) {
			t.Fatalf("%q: bids %v, want %v", tc.text, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: bids %v, want %v", tc.text, got, tc.want)
				break
			}
		}
	}
}

// TestGreedyNearest: should the card it wants be gone, greedy bids the
// nearest it holds, the lower on a tie.
func TestGreedyNearest(t *testing.T) {
	rs := Default()
	s := New(rs, 2, 1)
	fixPrizes(s) // prize 1 up: greedy wants card 1
	g := NewGreedy(rs)
	s.hand[0] = 1<<1 | 1<<2 // cards 2 and 3
	if a := g.Choose(s, s.LegalActions(nil)); a != 2 {
		t.Fatalf("holding 2 and 3 for prize 1: bid %d", a)
	}
	s.deck[0], s.hand[0] = 4, 1<<2|1<<6 // prize 5 up; cards 3 and 7
	if a := g.Choose(s, s.LegalActions(nil)); a != 3 {
		t.Fatalf("holding 3 and 7 for prize 5: bid %d", a)
	}
}

func TestGreedyNoAllocs(t *testing.T) {
	rs := Default()
	s := New(rs, 2, 1)
	g := NewGreedy(rs)
	legal := s.LegalActions(nil)
	if n := testing.AllocsPerRun(100, func() { _ = g.Choose(s, legal) }); n != 0 {
		t.Fatalf("Choose allocates %.0f times", n)
	}
	var _ game.Agent = g
}
