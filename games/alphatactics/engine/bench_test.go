package engine

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// BenchmarkRandomGame2p measures whole 2-player games with uniform random
// choices (the target: >= 50,000 games/s on one core, and no
// allocation per decision).
func BenchmarkRandomGame2p(b *testing.B) {
	rs := rules.Default()
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

// The benchmarks below split BenchmarkRandomGame2p's cost: the state
// transitions alone, and the legal-action lists alone. (Profiles blur this:
// a decision's cost is spread over dozens of small functions.)

// recordUniform plays n 2-player games with uniform choices, game i seeded
// with i, and returns the actions of each.
func recordUniform(b *testing.B, n int) (*State, [][]Action) {
	b.Helper()
	s, err := New(rules.Default(), Config{Factions: allFactions[:2], Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	bot := NewRNG(99)
	var buf []Action
	games := make([][]Action, n)
	for i := range games {
		s.Reset(uint64(i))
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			a := buf[bot.Intn(len(buf))]
			games[i] = append(games[i], a)
			s.Apply(a)
		}
		// A replay is only meaningful if Reset(seed) deals the same game:
		// the recorded actions must end it exactly.
		s.Reset(uint64(i))
		for k, a := range games[i] {
			if s.IsTerminal() {
				b.Fatalf("game %d: replay ended after %d of %d actions", i, k, len(games[i]))
			}
			s.Apply(a)
		}
		if !s.IsTerminal() {
			b.Fatalf("game %d: replay did not end", i)
		}
	}
	return s, games
}

// BenchmarkApplyReplay2p replays recorded games with Reset and Apply only:
// what the engine's state transitions cost, without listing legal actions
// or choosing.
func BenchmarkApplyReplay2p(b *testing.B) {
	const n = 500
	s, games := recordUniform(b, n)
	decisions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := i % n
		s.Reset(uint64(g))
		for _, a := range games[g] {
			s.Apply(a)
		}
		decisions += len(games[g])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkLegalActions2p lists the legal actions of decision points taken
// from recorded games (every seventh decision of 40 games).
func BenchmarkLegalActions2p(b *testing.B) {
	s, games := recordUniform(b, 40)
	var states []*State
	for g, seq := range games {
		s.Reset(uint64(g))
		for k, a := range seq {
			if k%7 == 0 {
				states = append(states, s.Clone())
			}
			s.Apply(a)
		}
	}
	buf := make([]Action, 0, 256)
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = states[i%len(states)].LegalActions(buf)
		actions += len(buf)
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/list")
}

// BenchmarkApplyReplaySameGame replays one recorded game over and over. Set
// against BenchmarkApplyReplay2p it shows what unpredictable play costs:
// here the branch predictor learns the game's branches, and little else
// differs: the recorded actions are read in order either way
// (docs/architecture.md, "Speed").
func BenchmarkApplyReplaySameGame(b *testing.B) {
	s, games := recordUniform(b, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset(0)
		for _, a := range games[0] {
			s.Apply(a)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(games[0])), "ns/decision")
}
