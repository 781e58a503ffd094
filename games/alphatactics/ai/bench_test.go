package ai

import (
	"os"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

func benchGames(b *testing.B, agents func(seed uint64) []Agent) {
	benchRuleset(b, rules.Default(), agents)
}

func benchRuleset(b *testing.B, rs *rules.Ruleset, agents func(seed uint64) []Agent) {
	s, err := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	ag := agents(1)
	buf := make([]engine.Action, 0, 256)
	decisions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset(engine.SeedFor(1, uint64(i)))
		decisions += playOut(s, ag, &buf)
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// playOut plays s to its end, each seat asking its agent, and returns the
// decisions taken.
func playOut(s *engine.State, ag []Agent, buf *[]engine.Action) (decisions int) {
	for !s.IsTerminal() {
		a, _ := Decide(ag[s.CurrentPlayer()], s, buf)
		s.Apply(a)
		decisions++
	}
	return decisions
}

// BenchmarkRandomGames2p: 2-player games between random bots (engine target:
// >= 50,000 games/s on one core, no allocation per decision).
func BenchmarkRandomGames2p(b *testing.B) {
	benchGames(b, func(seed uint64) []Agent { return []Agent{NewRandom(seed), NewRandom(seed + 1)} })
}

// BenchmarkRulesCost splits BenchmarkRandomGames2p's cost between the
// engine's machinery and the card set's rules: the same random games on the
// default ruleset with the effects of every player card removed except those
// of the kinds named (none: only power, targets and their bonuses remain;
// all: the default ruleset). docs/architecture.md, "Speed", compares them
// with ../shared/tools/leanlimit, which models a third of the cards with
// four simple effects where the real set gives four in five an effect.
func BenchmarkRulesCost(b *testing.B) {
	random := func(seed uint64) []Agent { return []Agent{NewRandom(seed), NewRandom(seed + 1)} }
	for _, keep := range []string{"none", "O", "P", "S", "X", "all"} {
		b.Run("kinds="+keep, func(b *testing.B) { benchRuleset(b, keepEffects(rules.Default(), keep), random) })
	}
}

// BenchmarkRulesCostSameGame plays one game of BenchmarkRulesCost over and
// over, the same deal and the same choices, so that the branch predictor
// learns its branches. Set against BenchmarkRulesCost's many games (compare
// ns/decision) it shows how much of what the effects cost is unpredictable
// play rather than work (docs/architecture.md, "Speed").
func BenchmarkRulesCostSameGame(b *testing.B) {
	for _, keep := range []string{"none", "all"} {
		b.Run("kinds="+keep, func(b *testing.B) {
			s, err := engine.New(keepEffects(rules.Default(), keep), engine.Config{Factions: factions[:2], Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			first, second := NewRandom(1), NewRandom(2)
			ag := []Agent{first, second}
			buf := make([]engine.Action, 0, 256)
			decisions := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				first.Reseed(1)
				second.Reseed(2)
				s.Reset(engine.SeedFor(1, 0))
				decisions += playOut(s, ag, &buf)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
		})
	}
}

// keepEffects returns a copy of rs whose player cards keep their effects
// only if their kind's letter is in kinds ("all" keeps every one); the
// others become plain cards of the same power, type and tags.
func keepEffects(rs *rules.Ruleset, kinds string) *rules.Ruleset {
	v := *rs
	v.Cards = append([]rules.Card(nil), rs.Cards...)
	for i := range v.Cards {
		c := &v.Cards[i]
		if kinds != "all" && !strings.Contains(kinds, rules.EffectKinds[c.Kind]) {
			c.Kind, c.Effect = rules.KindNone, nil
		}
	}
	return &v
}

// BenchmarkGreedyGames2p: greedy against greedy (bots target: >= 10,000
// games/s on one core).
func BenchmarkGreedyGames2p(b *testing.B) {
	benchGames(b, func(seed uint64) []Agent { return []Agent{greedy.New(seed), greedy.New(seed + 1)} })
}

// BenchmarkISMCTSIterations measures search iterations per second from the
// opening position (bots target: >= 50,000 per core).
func BenchmarkISMCTSIterations(b *testing.B) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 1})
	legal := s.LegalActions(nil)
	bot := NewISMCTS(1, 1, "random")
	bot.Choose(s, legal)
	b.ReportAllocs()
	b.ResetTimer()
	bot.st.S = s
	for i := 0; i < b.N; i++ {
		bot.Iterate(&bot.st, s.CurrentPlayer())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
}

func TestKeepEffects(t *testing.T) {
	rs := rules.Default()
	for _, keep := range []string{"none", "O", "X", "all"} {
		v := keepEffects(rs, keep)
		kept := 0
		for i, c := range v.Cards {
			orig := rs.Cards[i]
			if c.Power != orig.Power || c.Type != orig.Type || c.Copies != orig.Copies {
				t.Fatalf("%s: %s changed more than its effect", keep, c.ID)
			}
			letter := rules.EffectKinds[orig.Kind]
			want := keep == "all" || strings.Contains(keep, letter) || orig.Kind == rules.KindNone
			if want != (c.Effect == orig.Effect && c.Kind == orig.Kind) {
				t.Fatalf("kinds=%s: %s (kind %s) kept %v", keep, c.ID, letter, !want)
			}
			if c.Effect != nil {
				kept++
			}
		}
		if (keep == "none") != (kept == 0) {
			t.Fatalf("kinds=%s: %d cards keep an effect", keep, kept)
		}
	}
	for _, c := range rs.Cards {
		if c.Kind != rules.KindNone && c.Effect == nil {
			t.Fatalf("the default ruleset was changed in place: %s lost its effect", c.ID)
		}
	}
}

// BenchmarkStrongGames2p: the strong bot against itself (issue 26 target:
// <= 2 ms per 2-player game on one core; 10 ms the first milestone). It
// reports CPU ms per game besides wall time: run with -test.cpu 1 on a
// shared machine. STRONG_SPEC="strong:…" measures another spec.
func BenchmarkStrongGames2p(b *testing.B) {
	spec := "strong"
	if e := os.Getenv("STRONG_SPEC"); e != "" {
		spec = e
	}
	// A fitted leaf is fitted once per ruleset, before the games
	// (BenchmarkRowModelFit costs it).
	if st, ok := mustParse(b, spec, 0).(*Strong); ok && st.Fit {
		rowModelFor(rules.Default(), 2)
	}
	// So is an imitation policy (BenchmarkPolicyFit).
	if st, ok := mustParse(b, spec, 0).(*Strong); ok && st.Pol != PolNone {
		policyFor(polKey{rules.Default(), 2, st.PolTeach, st.PolIters, st.PolNoLeaf, st.PolGames})
	}
	c0 := cpuSeconds()
	benchGames(b, func(seed uint64) []Agent {
		return []Agent{mustParse(b, spec, seed), mustParse(b, spec, seed+1)}
	})
	if c := cpuSeconds(); c > 0 {
		b.ReportMetric((c-c0)*1e3/float64(b.N), "cpu-ms/game")
	}
}

func mustParse(b testing.TB, spec string, seed uint64) Agent {
	a, err := Parse(spec, seed)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkRowModelFit: the fitted leaf's one-off cost per ruleset and
// player count (leaf=fit), the self-play games and the regression.
func BenchmarkRowModelFit(b *testing.B) {
	rs := rules.Default()
	c0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		if !fitRows(rs, 2, fitGames).ok {
			b.Fatal("fit failed")
		}
	}
	if c := cpuSeconds(); c > 0 {
		b.ReportMetric((c-c0)*1e3/float64(b.N), "cpu-ms/fit")
	}
}
