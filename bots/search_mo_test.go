package bots_test

import (
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// duel plays pairs of Goofspiel games of rs between the agents a and b made
// by mk: game seed i with a in seat 1, then the same deal with a in seat 2.
// It returns a's mean win share, the share of seat 2 over all games, and
// each one's 95% interval half-width (normal, the pair and the game being
// the units).
func duel(t *testing.T, rs game.Ruleset, pairs int, mkA, mkB func(seed uint64) game.Agent) (share, hwShare, seat2, hwSeat2 float64) {
	t.Helper()
	var sumA, sumA2, sumS, sumS2 float64
	var buf, moves []game.Action
	for i := 0; i < pairs; i++ {
		seed := game.SeedFor(4242, uint64(i))
		pair := 0.0
		for swap := 0; swap < 2; swap++ {
			s, err := rs.NewState([]int{0, 0}, seed)
			if err != nil {
				t.Fatal(err)
			}
			a, b := mkA(seed^1), mkB(seed^2)
			agents := []game.Agent{a, b}
			if swap == 1 {
				agents = []game.Agent{b, a}
			}
			if moves, buf, err = game.PlayGeneric(s, agents, nil, moves[:0], buf); err != nil {
				t.Fatal(err)
			}
			r := s.Returns()
			pair += r[swap] / 2
			sumS += r[1]
			sumS2 += r[1] * r[1]
		}
		sumA += pair
		sumA2 += pair * pair
	}
	hw := func(sum, sum2 float64, n int) (float64, float64) {
		m := sum / float64(n)
		v := (sum2 - float64(n)*m*m) / float64(n-1)
		return m, 1.96 * math.Sqrt(v/float64(n))
	}
	share, hwShare = hw(sumA, sumA2, pairs)
	seat2, hwSeat2 = hw(sumS, sumS2, 2*pairs)
	return
}

func goofSearch(t *testing.T, rs game.Ruleset, iters string, single bool) func(uint64) game.Agent {
	return func(seed uint64) game.Agent {
		b, err := bots.NewSearchFor(rs, map[string]string{"iters": iters}, seed)
		if err != nil {
			t.Fatal(err)
		}
		b.SingleObserver = single
		return b
	}
}

func goofBot(t *testing.T, rs game.Ruleset, spec string) func(uint64) game.Agent {
	return func(seed uint64) game.Agent { return makeAgent(t, rs, spec, seed) }
}

// TestSearchGoofspielSeatsEven: Goofspiel's seats are symmetric (a bid is
// hidden until both are in), so in self-play of the search seat 2 wins half
// the games within the interval — and the single-tree search, whose second
// bidder is modelled by the first as seeing its bid, fails the same check.
// Deals and bots are seeded, so the figures are fixed, not flaky.
func TestSearchGoofspielSeatsEven(t *testing.T) {
	rs := defaultOf(t, goofspiel.ID)
	_, _, s2, hw := duel(t, rs, 200, goofSearch(t, rs, "100", false), goofSearch(t, rs, "100", false))
	t.Logf("multiple observers, 100 iterations: seat 2 wins %.3f ± %.3f", s2, hw)
	if math.Abs(s2-0.5) > hw || hw > 0.06 {
		t.Errorf("seat 2 wins %.3f ± %.3f of the search's self-play: not even", s2, hw)
	}
	if testing.Short() {
		return
	}
	_, _, o2, ohw := duel(t, rs, 200, goofSearch(t, rs, "100", true), goofSearch(t, rs, "100", true))
	t.Logf("single observer, 100 iterations: seat 2 wins %.3f ± %.3f", o2, ohw)
	if math.Abs(o2-0.5) <= ohw {
		t.Errorf("the single-tree search's seat 2 wins %.3f ± %.3f: the check would not catch it", o2, ohw)
	}
}

// TestSearchGoofspielStrength: the search beats random play and, at 1000
// iterations, the single-tree search it replaces, by the whole interval.
func TestSearchGoofspielStrength(t *testing.T) {
	rs := defaultOf(t, goofspiel.ID)
	sh, hw, _, _ := duel(t, rs, 100, goofSearch(t, rs, "100", false), goofBot(t, rs, "random"))
	t.Logf("against random, 100 iterations: %.3f ± %.3f", sh, hw)
	if sh-hw <= 0.5 {
		t.Errorf("against random the search wins %.3f ± %.3f", sh, hw)
	}
	if testing.Short() {
		return
	}
	sh, hw, _, _ = duel(t, rs, 60, goofSearch(t, rs, "1000", false), goofSearch(t, rs, "1000", true))
	t.Logf("against the single-tree search, 1000 iterations each: %.3f ± %.3f", sh, hw)
	if sh-hw <= 0.5 {
		t.Errorf("against the single-tree search the search wins %.3f ± %.3f", sh, hw)
	}
}

// TestMeasureGoofspielSearch prints the figures of docs/rules-goofspiel.md
// (CARDLAB_MEASURE=1; ITERS and PAIRS set the budget and the deals).
func TestMeasureGoofspielSearch(t *testing.T) {
	if os.Getenv("CARDLAB_MEASURE") == "" {
		t.Skip("CARDLAB_MEASURE=1 measures")
	}
	rs := defaultOf(t, goofspiel.ID)
	iters := os.Getenv("ITERS")
	pairs := envInt("PAIRS", 200)
	for _, c := range []struct {
		name string
		a, b func(uint64) game.Agent
	}{
		{"new vs greedy", goofSearch(t, rs, iters, false), goofBot(t, rs, "greedy")},
		{"old vs greedy", goofSearch(t, rs, iters, true), goofBot(t, rs, "greedy")},
		{"new vs old", goofSearch(t, rs, iters, false), goofSearch(t, rs, iters, true)},
		{"new vs random", goofSearch(t, rs, iters, false), goofBot(t, rs, "random")},
		{"new self", goofSearch(t, rs, iters, false), goofSearch(t, rs, iters, false)},
		{"old self", goofSearch(t, rs, iters, true), goofSearch(t, rs, iters, true)},
	} {
		sh, hs, s2, h2 := duel(t, rs, pairs, c.a, c.b)
		t.Logf("%-14s share %.3f ± %.3f  seat 2 %.3f ± %.3f", c.name, sh, hs, s2, h2)
	}
}

func envInt(k string, d int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return d
}

// RootMeans reads the multiple-observer search's root: one mean in [0, 1]
// for each legal bid, the most visited being the one Choose returned — for
// the first bidder and for the second, whose decision node lies below the
// rewound first bid.
func TestSearchGoofspielRootMeans(t *testing.T) {
	rs := defaultOf(t, goofspiel.ID)
	s, err := rs.NewState([]int{0, 0}, 5)
	if err != nil {
		t.Fatal(err)
	}
	for seat := 0; seat < 2; seat++ {
		legal := s.LegalActions(nil)
		b, err := bots.NewSearchFor(rs, map[string]string{"iters": "400"}, 3)
		if err != nil {
			t.Fatal(err)
		}
		b.Choose(s, legal)
		n := 0
		b.RootMeans(func(a game.Action, mean float64) {
			n++
			if mean < 0 || mean > 1 || !slices.Contains(legal, a) {
				t.Errorf("seat %d: %s has mean %v", seat+1, s.ActionString(a), mean)
			}
		})
		if n != len(legal) {
			t.Errorf("seat %d: %d root means for %d legal bids", seat+1, n, len(legal))
		}
		s.Apply(legal[0])
	}
}
