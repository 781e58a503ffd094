package ai

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

var factions = []string{"starfleet", "vulcan", "romulan", "klingon"}

func newGame(t testing.TB, n int, seed uint64) *engine.State {
	t.Helper()
	s, err := engine.New(rules.Default(), engine.Config{Factions: factions[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func isLegal(legal []engine.Action, a engine.Action) bool {
	for _, l := range legal {
		if l == a {
			return true
		}
	}
	return false
}

// play runs a whole game with one Random agent per seat and returns the
// actions taken.
func play(t *testing.T, n int, seed uint64) []engine.Action {
	t.Helper()
	s := newGame(t, n, seed)
	agents := make([]Agent, n)
	for p := range agents {
		agents[p] = NewRandom(engine.SeedFor(seed, uint64(p)))
	}
	var trace []engine.Action
	buf := make([]engine.Action, 0, 256)
	for steps := 0; !s.IsTerminal(); steps++ {
		if steps > 100000 {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		buf = s.LegalActions(buf)
		a := agents[s.CurrentPlayer()].Choose(s, buf)
		if !isLegal(buf, a) {
			t.Fatalf("seed %d: %v is not legal (%v)", seed, a, buf)
		}
		s.Apply(a)
		if err := s.CheckInvariants(); err != nil {
			t.Fatalf("seed %d step %d: %v", seed, steps, err)
		}
		trace = append(trace, a)
	}
	return trace
}

func TestRandomPlaysWholeGames(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed := uint64(1); seed <= 3; seed++ {
			a := play(t, n, seed)
			b := play(t, n, seed)
			if len(a) != len(b) {
				t.Fatalf("%d players, seed %d: %d then %d decisions", n, seed, len(a), len(b))
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%d players, seed %d: decision %d differs: %v vs %v", n, seed, i, a[i], b[i])
				}
			}
		}
	}
}

func TestRandomPassRule(t *testing.T) {
	s := newGame(t, 2, 7)
	legal := s.LegalActions(nil)
	if len(legal) < 2 || legal[len(legal)-1].Kind() != engine.ActPass {
		t.Fatalf("unexpected opening actions %v", legal)
	}
	b := NewRandom(1)
	const n = 20000
	passes := 0
	for i := 0; i < n; i++ {
		if b.Choose(s, legal).Kind() == engine.ActPass {
			passes++
		}
	}
	if got := float64(passes) / n; got < 0.035 || got > 0.065 {
		t.Errorf("pass rate %.3f, want about 1/%d", got, PassOdds)
	}
	// Only passing left: it passes.
	if a := b.Choose(s, []engine.Action{engine.PassAction()}); a != engine.PassAction() {
		t.Errorf("with only pass legal, chose %v", a)
	}

	// After passing: stop with probability 1/2, else a uniform discard.
	s.Apply(engine.PassAction())
	legal = s.LegalActions(nil)
	if legal[0].Kind() != engine.ActDiscard || legal[len(legal)-1] != engine.DoneAction() {
		t.Fatalf("unexpected discard actions %v", legal)
	}
	dones := 0
	for i := 0; i < n; i++ {
		if b.Choose(s, legal) == engine.DoneAction() {
			dones++
		}
	}
	if got := float64(dones) / n; got < 0.47 || got > 0.53 {
		t.Errorf("stop rate %.3f, want about 1/2", got)
	}
}

// Sample must draw what Choose draws from the legal list: the same action
// from the same random values, at every decision of many games.
func TestSampleMatchesChoose(t *testing.T) {
	var legal []engine.Action
	for n := 2; n <= 4; n++ {
		for seed := uint64(0); seed < 200; seed++ {
			s := newGame(t, n, seed)
			b := NewRandom(seed)
			for !s.IsTerminal() {
				listed := *b
				legal = s.LegalActions(legal)
				want := listed.Choose(s, legal)
				got, ok := b.Sample(s)
				if !ok || got != want || b.rng != listed.rng {
					t.Fatalf("%dp seed %d: Sample %v (ok %v), Choose %v from %v; streams equal: %v", n, seed, got, ok, want, legal, b.rng == listed.rng)
				}
				s.Apply(got)
			}
		}
	}
}

func TestRandomDoesNotAllocate(t *testing.T) {
	s := newGame(t, 4, 3)
	legal := s.LegalActions(nil)
	b := NewRandom(5)
	if allocs := testing.AllocsPerRun(1000, func() { b.Choose(s, legal) }); allocs != 0 {
		t.Errorf("Choose allocates %.1f times per call", allocs)
	}
	// Whole games through Decide, as the runner plays them: once the bot's
	// scratch list has grown, no decision allocates.
	var buf []engine.Action
	b.Reseed(1)
	playGames := func() {
		for seed := uint64(0); seed < 20; seed++ {
			s.Reset(seed)
			for !s.IsTerminal() {
				a, _ := Decide(b, s, &buf)
				s.Apply(a)
			}
		}
	}
	playGames()
	if allocs := testing.AllocsPerRun(5, playGames); allocs != 0 {
		t.Errorf("20 games through Decide allocate %.1f times", allocs)
	}
}

func TestParse(t *testing.T) {
	for _, spec := range []string{"random", " Random "} {
		a, err := Parse(spec, 1)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec, err)
		}
		if _, ok := a.(*Random); !ok {
			t.Errorf("Parse(%q) = %T", spec, a)
		}
	}
	_, err := Parse("mcts", 1)
	if err == nil || !strings.Contains(err.Error(), `unknown bot "mcts" (available: random, greedy, strong, ismcts)`) {
		t.Errorf("Parse(mcts) error %v", err)
	}
}

func TestSameSeedSameChoices(t *testing.T) {
	s := newGame(t, 3, 11)
	legal := s.LegalActions(nil)
	a, b := NewRandom(9), NewRandom(9)
	for i := 0; i < 100; i++ {
		if x, y := a.Choose(s, legal), b.Choose(s, legal); x != y {
			t.Fatalf("choice %d: %v vs %v", i, x, y)
		}
	}
}
