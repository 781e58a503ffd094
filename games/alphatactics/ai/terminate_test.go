package ai

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Greedy against greedy found a round that never ended (cards placed and
// removed again while one row stayed short); the engine's turn limit ends
// it. This keeps that seed range under test.
func TestGreedyTerminates(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 1})
	ag := []Agent{greedy.New(1), greedy.New(2)}
	var buf []engine.Action
	for i := 0; i < 3000; i++ {
		s.Reset(engine.SeedFor(1, uint64(i)))
		steps := 0
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			a := ag[s.CurrentPlayer()].Choose(s, buf)
			s.Apply(a)
			steps++
			if steps > 5000 {
				t.Fatalf("game %d stuck: phase %v round %d player %d action %v legal %v handler %q", i, s.Phase(), s.Round(), s.CurrentPlayer(), a, buf, s.PendingHandler())
			}
		}
	}
}
