package bots

import (
	"testing"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

func benchGames(b *testing.B, agents func(seed uint64) []Agent) {
	rs := cards.Default()
	s, err := game.New(rs, game.Config{Factions: factions[:2], Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	ag := agents(1)
	buf := make([]game.Action, 0, 256)
	decisions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset(game.SeedFor(1, uint64(i)))
		for !s.IsTerminal() {
			a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
			s.Apply(a)
			decisions++
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkRandomGames2p: 2-player games between random bots (engine target:
// >= 50,000 games/s on one core, no allocation per decision).
func BenchmarkRandomGames2p(b *testing.B) {
	benchGames(b, func(seed uint64) []Agent { return []Agent{NewRandom(seed), NewRandom(seed + 1)} })
}

// BenchmarkGreedyGames2p: greedy against greedy (bots target: >= 10,000
// games/s on one core).
func BenchmarkGreedyGames2p(b *testing.B) {
	benchGames(b, func(seed uint64) []Agent { return []Agent{NewGreedy(seed), NewGreedy(seed + 1)} })
}

// BenchmarkISMCTSIterations measures search iterations per second from the
// opening position (bots target: >= 50,000 per core).
func BenchmarkISMCTSIterations(b *testing.B) {
	rs := cards.Default()
	s, _ := game.New(rs, game.Config{Factions: factions[:2], Seed: 1})
	legal := s.LegalActions(nil)
	bot := NewISMCTS(1, 1, "random")
	bot.Choose(s, legal)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bot.nodes = bot.nodes[:0]
		root := bot.newNode(0, -1)
		bot.iterate(s, s.CurrentPlayer(), root)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
}
