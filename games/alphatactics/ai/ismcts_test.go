package ai

import (
	"testing"

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
