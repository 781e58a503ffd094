package game

import (
	"testing"

	"github.com/cardlab/cardlab/cards"
)

// BenchmarkRandomGame2p measures whole 2-player games with uniform random
// choices (the target: >= 50,000 games/s on one core, and no
// allocation per decision).
func BenchmarkRandomGame2p(b *testing.B) {
	rs := cards.Default()
	s, err := New(rs, Config{Factions: allFactions[:2], Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	bot := NewRNG(99)
	buf := make([]Action, 0, 256)
	decisions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset(uint64(i))
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			s.Apply(buf[bot.Intn(len(buf))])
			decisions++
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
