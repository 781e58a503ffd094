package alphatactics

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
)

// walkTo plays a random walk of a seed-chosen length from a new game of n
// seats and returns it unfinished (nil if it ended).
func walkTo(t testing.TB, n int, seed uint64) *State {
	t.Helper()
	r, _ := Game{}.Default()
	seats := make([]int, n)
	for i := range seats {
		seats[i] = (i + int(seed)) % len(r.Sides())
	}
	st, err := r.NewState(seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	walk := game.NewRNG(seed * 31)
	var buf []engine.Action
	for k := walk.Intn(250); k > 0 && !s.S.IsTerminal(); k-- {
		buf = s.S.LegalActions(buf)
		s.S.Apply(buf[walk.Intn(len(buf))])
	}
	if s.S.IsTerminal() {
		return nil
	}
	return s
}

// TestSearchIsISMCTS: the core's search made for Alpha Tactics through the
// contracts (bots.NewSearchFor: its State, its evaluator from the spec's
// parameters) decides as the `ismcts` bot the commands seat (ai.Parse:
// the same search on the engine's state it is handed), seeded alike, at 2-4
// seats and for each rollout and horizon.
func TestSearchIsISMCTS(t *testing.T) {
	r, _ := Game{}.Default()
	specs := []string{"ismcts:iters=40", "ismcts:iters=25,rollout=greedy", "ismcts:iters=25,depth=game"}
	n := 60
	if testing.Short() {
		n = 15
	}
	checked := 0
	for i := 0; i < n; i++ {
		s := walkTo(t, 2+i%3, uint64(i))
		if s == nil {
			continue
		}
		legal := s.S.LegalActions(nil)
		glegal := s.LegalActions(nil)
		for _, spec := range specs {
			concrete, err := ai.Parse(spec, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			_, params, _ := strings.Cut(spec, ":")
			kv := map[string]string{}
			for _, p := range strings.Split(params, ",") {
				k, v, _ := strings.Cut(p, "=")
				kv[k] = v
			}
			generic, err := bots.NewSearchFor(r, kv, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			// Two decisions each, so the streams are compared after a
			// search too.
			for d := 0; d < 2; d++ {
				want := concrete.Choose(s.S, legal)
				got := generic.Choose(s, glegal)
				if game.Action(want) != got {
					t.Fatalf("state %d, %s, decision %d: ISMCTS chose %v, the generic search %v", i, spec, d, want, engine.Action(got))
				}
			}
			checked++
		}
	}
	if checked < n {
		t.Fatalf("only %d searches compared", checked)
	}
}

func TestNewEvaluatorErrors(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		want   string
	}{
		{map[string]string{"rollout": "strong"}, "rollout must be random or greedy"},
		{map[string]string{"depth": "turn"}, "depth must be round or game"},
		{map[string]string{"horizon": "3"}, `unknown ismcts parameter "horizon"`},
	} {
		_, err := Ruleset{}.NewEvaluator(tc.params, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.params, err, tc.want)
		}
	}
}

// TestBotReseedEqualsNew: every bot the runners seat (bots.ParseFor, which
// wraps ai.Parse's as an *Agent) can be reseeded, and a bot that played a
// game and was reseeded plays the next as a new one with that seed — the
// runners reuse agents between games on that promise, so a wrapper whose
// Reseed did not reach its bot would change every result.
func TestBotReseedEqualsNew(t *testing.T) {
	r, _ := Game{}.Default()
	play := func(a game.Agent, seed uint64) []game.Action {
		t.Helper()
		s, err := r.NewState([]int{0, 1}, seed)
		if err != nil {
			t.Fatal(err)
		}
		other, err := bots.ParseFor(r, "random", 5)
		if err != nil {
			t.Fatal(err)
		}
		moves, _, err := game.PlayGeneric(s, []game.Agent{a, other}, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return moves
	}
	for _, spec := range []string{"random", "greedy", "strong:k=2,dets=2", "ismcts:iters=10", "ismcts:iters=10,rollout=greedy"} {
		used, err := bots.ParseFor(r, spec, 99)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := used.(*Agent); !ok {
			t.Fatalf("%s: ParseFor made a %T, not an *Agent (PlayOut's concrete loop)", spec, used)
		}
		re, ok := used.(interface{ Reseed(uint64) })
		if !ok {
			t.Fatalf("%s: %T cannot be reseeded", spec, used)
		}
		play(used, 3) // dirty it
		re.Reseed(7)
		fresh, _ := bots.ParseFor(r, spec, 7)
		if a, b := play(used, 11), play(fresh, 11); !slices.Equal(a, b) {
			t.Fatalf("%s: the reseeded bot played %d actions, a new one %d, or they differ", spec, len(a), len(b))
		}
	}
}
