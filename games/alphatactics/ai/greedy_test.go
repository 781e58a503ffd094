package ai

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// playOne plays a game between agents seated in order and returns the win
// shares.
func playOne(t testing.TB, rs *rules.Ruleset, fs []string, agents []Agent, seed uint64) [4]float64 {
	s, err := engine.New(rs, engine.Config{Factions: fs, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	var buf []engine.Action
	for !s.IsTerminal() {
		buf = s.LegalActions(buf)
		s.Apply(agents[s.CurrentPlayer()].Choose(s, buf))
	}
	return s.Returns()
}

// Greedy must beat random clearly (the bots issue asks for >= 80% win share
// over 1,000 rotated games; this quick check uses 200).
func TestGreedyBeatsRandom(t *testing.T) {
	rs := rules.Default()
	share := 0.0
	n := 200
	for g := 0; g < n; g++ {
		fs := []string{factions[g%4], factions[(g+1+g/4)%4]}
		if fs[0] == fs[1] {
			fs[1] = factions[(g+2)%4]
		}
		greedySeat := g % 2
		agents := []Agent{NewRandom(uint64(g)), NewRandom(uint64(g))}
		agents[greedySeat] = greedy.New(uint64(g))
		share += playOne(t, rs, fs, agents, engine.SeedFor(42, uint64(g)))[greedySeat]
	}
	if share/float64(n) < 0.8 {
		t.Fatalf("greedy win share against random %.2f, want >= 0.80", share/float64(n))
	}
	t.Logf("greedy vs random: %.3f", share/float64(n))
}

func TestParseSpecs(t *testing.T) {
	for _, tc := range []struct {
		spec string
		ok   bool
	}{
		{"random", true}, {"greedy", true}, {"ismcts", true}, {"ISMCTS:iters=2000,rollout=greedy", true},
		{"ismcts:time=20ms", true}, {"ismcts:iters=0", false}, {"ismcts:rollout=smart", false},
		{"ismcts:depth=3", false}, {"ismcts:depth=game", true}, {"greedy:iters=3", false}, {"ismcts:iters", false}, {"alphazero", false},
	} {
		_, err := Parse(tc.spec, 1)
		if (err == nil) != tc.ok {
			t.Errorf("Parse(%q) error %v, want ok=%v", tc.spec, err, tc.ok)
		}
	}
}

// A reseeded agent plays exactly like a new one with that seed (the batch
// runner reuses agents between games through Reseed).
func TestReseedEqualsNew(t *testing.T) {
	rs := rules.Default()
	for _, spec := range []string{"random", "greedy", "ismcts:iters=20", "ismcts:iters=10,rollout=greedy"} {
		used, _ := Parse(spec, 99)
		playOne(t, rs, factions[:2], []Agent{used, NewRandom(5)}, 1) // dirty it
		used.(interface{ Reseed(uint64) }).Reseed(7)
		fresh, _ := Parse(spec, 7)
		a := playOne(t, rs, factions[:2], []Agent{used, NewRandom(3)}, 11)
		b := playOne(t, rs, factions[:2], []Agent{fresh, NewRandom(3)}, 11)
		if a != b {
			t.Fatalf("%s: reseeded agent played differently from a new one", spec)
		}
	}
}

// A greedy agent reused on a variant ruleset where a card lost its effect
// must not remember the old effect (found by the impact runner).
func TestGreedyForgetsOldRuleset(t *testing.T) {
	rs := rules.Default()
	g := greedy.New(1)
	playOne(t, rs, factions[:2], []Agent{g, NewRandom(2)}, 3)
	variant := *rs
	variant.Cards = append([]rules.Card(nil), rs.Cards...)
	for i := range variant.Cards {
		variant.Cards[i].Effect, variant.Cards[i].Kind = nil, rules.KindNone
	}
	g.Reseed(4)
	playOne(t, &variant, factions[:2], []Agent{g, NewRandom(2)}, 3)
}
