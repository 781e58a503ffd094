package ai

import (
	"slices"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// A quick strength check: ISMCTS beats random almost always.
func TestISMCTSBeatsRandom(t *testing.T) {
	rs := rules.Default()
	share, n := 0.0, 20
	for g := 0; g < n; g++ {
		fs := []string{factions[g%4], factions[(g+1)%4]}
		seat := g % 2
		agents := []Agent{NewRandom(uint64(g)), NewRandom(uint64(g))}
		agents[seat] = NewISMCTS(uint64(g), 100, "random")
		share += playOne(t, rs, fs, agents, engine.SeedFor(7, uint64(g)))[seat]
	}
	if share/float64(n) < 0.8 {
		t.Fatalf("ismcts win share against random %.2f", share/float64(n))
	}
}

// Same seed and budget, same decision.
func TestISMCTSDeterministic(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	legal := s.LegalActions(nil)
	a := NewISMCTS(9, 200, "random").Choose(s, legal)
	b := NewISMCTS(9, 200, "random").Choose(s, legal)
	if a != b {
		t.Fatalf("%v vs %v", a, b)
	}
}

// What the benchmarks read of the search from outside bots: RootMeans
// lists the root's children (every one a legal action, its mean a win
// share, the chosen one the most visited), and Iterate runs exactly one
// iteration from a new root, so one child.
func TestSearchInspection(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	legal := s.LegalActions(nil)
	b := NewISMCTS(9, 200, "random")
	chosen := b.Choose(s, legal)
	n, sawChosen := 0, false
	b.RootMeans(func(a game.Action, mean float64) {
		n++
		sawChosen = sawChosen || engine.Action(a) == chosen
		if !slices.Contains(legal, engine.Action(a)) || !(mean >= 0 && mean <= 1) {
			t.Errorf("root child %v: mean %v, legal %v", a, mean, slices.Contains(legal, engine.Action(a)))
		}
	})
	if n < 2 || !sawChosen {
		t.Fatalf("%d root children, chosen %v among them: %v", n, chosen, sawChosen)
	}
	b.Iterate(&b.st, s.CurrentPlayer())
	n = 0
	b.RootMeans(func(game.Action, float64) { n++ })
	if n != 1 {
		t.Fatalf("one iteration from a new root left %d children, want 1", n)
	}
}
