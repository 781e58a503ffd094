package alphatactics

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
)

// agentsFor parses spec for n seats with the runner's seeds for game seed.
func agentsFor(t testing.TB, spec string, n int, seed uint64) []game.Agent {
	t.Helper()
	out := make([]game.Agent, n)
	for q := range out {
		a, err := ai.Parse(spec, game.SeedFor(seed, uint64(q)))
		if err != nil {
			t.Fatal(err)
		}
		out[q] = &Agent{A: a}
	}
	return out
}

// opaque hides an agent's type, so PlayOut cannot take its concrete loop.
type opaque struct{ game.Agent }

// PlayOut's concrete loop plays the game the generic loop plays through the
// contracts — the same actions, returns and scores — for the random, greedy
// and ISMCTS bots at 2-4 seats; agents it does not know are played by the
// generic loop.
func TestPlayOutIsGeneric(t *testing.T) {
	r, _ := Game{}.Default()
	for _, spec := range []string{"random", "greedy", "ismcts:iters=8"} {
		for n := 2; n <= 4; n++ {
			seed := uint64(10*n + len(spec))
			seats := make([]int, n)
			for i := range seats {
				seats[i] = (i + n) % len(r.Sides())
			}
			s1, _ := r.NewState(seats, seed)
			s2, _ := r.NewState(seats, seed)
			s3, _ := r.NewState(seats, seed)
			var never atomic.Bool
			got, err := s1.(game.PlayOuter).PlayOut(agentsFor(t, spec, n, seed), &never, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := game.PlayGeneric(s2, agentsFor(t, spec, n, seed), nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			hidden := agentsFor(t, spec, n, seed)
			for q := range hidden {
				hidden[q] = opaque{hidden[q]}
			}
			fell, err := s3.(game.PlayOuter).PlayOut(hidden, &never, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < 10 || !slices.Equal(got, want) || !slices.Equal(fell, want) {
				t.Fatalf("%s %dp: PlayOut played %d actions, the generic loop %d, PlayOut with opaque agents %d, or they differ", spec, n, len(got), len(want), len(fell))
			}
			if !s1.IsTerminal() || s1.Returns() != s2.Returns() || s1.Score(0) != s2.Score(0) || s3.Returns() != s2.Returns() {
				t.Fatalf("%s %dp: returns %v, generic %v", spec, n, s1.Returns(), s2.Returns())
			}
		}
	}
}

// stoppingBot decides as its bot does and sets stop at the n-th decision
// of the game (counted over every seat), as a Ctrl-C would.
type stoppingBot struct {
	ai.Agent
	n    *int
	stop *atomic.Bool
}

func (b stoppingBot) Choose(s *engine.State, legal []engine.Action) engine.Action {
	if *b.n--; *b.n == 0 {
		b.stop.Store(true)
	}
	return b.Agent.Choose(s, legal)
}

// A stopped PlayOut returns game.ErrStopped without applying the action
// decided when stop was set, and its moves replay the game as it stands.
func TestPlayOutStops(t *testing.T) {
	r, _ := Game{}.Default()
	for _, at := range []int{1, 30, 120} {
		s, _ := r.NewState([]int{0, 1, 2}, 3)
		var stop atomic.Bool
		n := at
		ag := agentsFor(t, "greedy", 3, 3)
		for _, a := range ag {
			a.(*Agent).A = stoppingBot{Agent: a.(*Agent).A, n: &n, stop: &stop}
		}
		moves, err := s.(game.PlayOuter).PlayOut(ag, &stop, nil)
		if !errors.Is(err, game.ErrStopped) || len(moves) != at-1 || s.IsTerminal() {
			t.Fatalf("stop at decision %d: %v after %d actions", at, err, len(moves))
		}
		re, _ := r.NewState([]int{0, 1, 2}, 3)
		for _, a := range moves {
			re.Apply(a)
		}
		for q := range 3 {
			if string(re.Observation(q, nil)) != string(s.Observation(q, nil)) {
				t.Fatalf("stop at decision %d: the moves do not replay the stopped game", at)
			}
		}
	}
}

// A batch game played by PlayOut with the random bot allocates nothing: the
// agents and the moves' buffer are the caller's, reused from game to game.
func TestPlayOutNoAllocs(t *testing.T) {
	r, _ := Game{}.Default()
	s, _ := r.NewState([]int{0, 1}, 1)
	ag := agentsFor(t, "random", 2, 1)
	var never atomic.Bool
	moves := make([]game.Action, 0, 4096)
	po := s.(game.PlayOuter)
	seed := uint64(1)
	allocs := testing.AllocsPerRun(50, func() {
		seed++
		s.Reset(seed)
		var err error
		if moves, err = po.PlayOut(ag, &never, moves[:0]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations a game, want 0", allocs)
	}
}
