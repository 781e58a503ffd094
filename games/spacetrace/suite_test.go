package spacetrace

import (
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

// TestSuite runs the generic game suite here too, so the package's own
// tests catch a broken engine before games/all does.
func TestSuite(t *testing.T) { gametest.Run(t, Game{}) }

func BenchmarkRandomGame(b *testing.B) { benchRandom(b, First()) }

// BenchmarkFullRandomGame is a random full game (the reference deck:
// tactics, windows, commanders).
func BenchmarkFullRandomGame(b *testing.B) { benchRandom(b, Embedded(ReferenceRuleset)) }

func benchRandom(b *testing.B, rs *Ruleset) {
	st, _ := rs.NewState([]int{0, 0}, 1)
	s := st.(*State)
	rng := game.NewRNG(7)
	buf := make([]game.Action, 0, 64)
	decisions := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Reset(uint64(i))
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			s.Apply(buf[rng.Intn(len(buf))])
			decisions++
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}

// TestGreedyBeatsRandom: the greedy bot must beat a random one clearly in
// both seats (a bot that did nothing useful would not).
func TestGreedyBeatsRandom(t *testing.T) {
	for _, name := range []string{FirstRuleset, SecondRuleset, ReferenceRuleset} {
		t.Run(name, func(t *testing.T) { greedyVsRandom(t, Embedded(name)) })
	}
}

func greedyVsRandom(t *testing.T, rs *Ruleset) {
	g := Greedy{}
	wins, n := 0.0, 400
	for i := 0; i < n; i++ {
		st, _ := rs.NewState([]int{0, 0}, uint64(i))
		s := st.(*State)
		seat := i % 2
		rng := game.NewRNG(uint64(i))
		var buf []game.Action
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			if s.CurrentPlayer() == seat {
				s.Apply(g.Choose(s, buf))
			} else {
				s.Apply(buf[rng.Intn(len(buf))])
			}
		}
		wins += s.Returns()[seat]
	}
	if wins/float64(n) < 0.75 {
		t.Fatalf("greedy wins %.2f of its games against random", wins/float64(n))
	}
	t.Logf("greedy wins %.3f against random", wins/float64(n))
}

func BenchmarkGreedyGame(b *testing.B) { benchGreedy(b, First()) }

// BenchmarkFullGreedyGame is a greedy full game (the reference deck).
func BenchmarkFullGreedyGame(b *testing.B) { benchGreedy(b, Embedded(ReferenceRuleset)) }

func benchGreedy(b *testing.B, rs *Ruleset) {
	st, _ := rs.NewState([]int{0, 0}, 1)
	s := st.(*State)
	g := Greedy{}
	buf := make([]game.Action, 0, 64)
	decisions := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Reset(uint64(i))
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			s.Apply(g.Choose(s, buf))
			decisions++
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}
