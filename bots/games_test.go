package bots_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	_ "github.com/cardlab/cardlab/games/all"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/goofspiel"
)

func defaultOf(t testing.TB, id string) game.Ruleset {
	t.Helper()
	g, ok := game.Lookup(id)
	if !ok {
		t.Fatalf("no game %s", id)
	}
	rs, _ := g.Default()
	return rs
}

func TestParseFor(t *testing.T) {
	goof, at := defaultOf(t, goofspiel.ID), defaultOf(t, alphatactics.ID)
	typeOf := func(a game.Agent) string {
		if w, ok := a.(*alphatactics.Agent); ok {
			return fmt.Sprintf("%T(%T)", w, w.A)
		}
		return fmt.Sprintf("%T", a)
	}
	for _, tt := range []struct {
		rs   game.Ruleset
		spec string
		want string // the agent's type, or the error
	}{
		{goof, "random", "*bots.Uniform"},
		{goof, " Random ", "*bots.Uniform"},
		{goof, "greedy", "*goofspiel.Greedy"},
		{goof, "ismcts", "*bots.Search"},
		{goof, "ismcts:iters=10,time=5ms", "*bots.Search"},
		{at, "random", "*alphatactics.Agent(*ai.Random)"},
		{at, "greedy", "*alphatactics.Agent(*greedy.Greedy)"},
		{at, "ismcts:iters=10,rollout=greedy", "*alphatactics.Agent(*ai.ISMCTS)"},
		{at, "strong", "*alphatactics.Agent(*ai.Strong)"},
		{goof, "strong", `bots: unknown bot "strong" for Goofspiel (its bots: greedy, ismcts, random)`},
		{goof, "grredy", `bots: unknown bot "grredy" for Goofspiel; did you mean "greedy"? (its bots: greedy, ismcts, random)`},
		{at, "stron", `bots: unknown bot "stron" for Star Trek Conquest – Alpha Tactics; did you mean "strong"? (its bots: greedy, ismcts, random, strong)`},
		{goof, "greedy:k=2", `goofspiel: greedy takes no parameters (got "greedy:k=2")`},
		{goof, "random:x=1", `bots: random takes no parameters (got "random:x=1")`},
		{goof, "ismcts:rollout=greedy", `bots: unknown ismcts parameter "rollout" for Goofspiel (have iters, time)`},
		{goof, "ismcts:iter=5", `bots: unknown ismcts parameter "iter" for Goofspiel; did you mean "iters"? (have iters, time)`},
		{goof, "ismcts:iters=0", "bots: ismcts iters must be a whole number from 1 to 10000000, got \"0\""},
		{goof, "ismcts:iters", `bots: bad parameter "iters" in "ismcts:iters" (want key=value)`},
		{at, "ismcts:depth=turn", `bots: ismcts depth must be round or game, got "turn"`},
	} {
		a, err := bots.ParseFor(tt.rs, tt.spec, 1)
		var got string
		if err != nil {
			got = err.Error()
			var se *bots.SpecError
			if !errors.As(err, &se) {
				t.Errorf("%s %q: %v is not a SpecError", tt.rs.Game(), tt.spec, err)
			}
		} else {
			got = typeOf(a)
		}
		if got != tt.want {
			t.Errorf("%s %q: %s, want %s", tt.rs.Game(), tt.spec, got, tt.want)
		}
	}
}

func TestNamesFor(t *testing.T) {
	if got := strings.Join(bots.NamesFor(defaultOf(t, goofspiel.ID)), ","); got != "greedy,ismcts,random" {
		t.Errorf("goofspiel: %s", got)
	}
	if got := strings.Join(bots.NamesFor(defaultOf(t, alphatactics.ID)), ","); got != "greedy,ismcts,random,strong" {
		t.Errorf("alphatactics: %s", got)
	}
}

// agentSpecs are the specs the never-peek suite seats for a game: each of
// its bots (the search with a small budget, every ISMCTS variant Alpha
// Tactics has, the strong bot's), with "generic" the core's search on the
// game even where the game plays ismcts its own way.
func agentSpecs(rs game.Ruleset) []string {
	var out []string
	for _, n := range bots.NamesFor(rs) {
		switch n {
		case "ismcts":
			out = append(out, "ismcts:iters=40", "generic:iters=40")
			if rs.Game() == alphatactics.ID {
				out = append(out, "ismcts:iters=25,rollout=greedy,depth=game", "generic:iters=25,rollout=greedy")
			}
		case "strong":
			out = append(out, "strong:k=3,dets=2")
		default:
			out = append(out, n)
		}
	}
	return out
}

func makeAgent(t testing.TB, rs game.Ruleset, spec string, seed uint64) game.Agent {
	t.Helper()
	if rest, ok := strings.CutPrefix(spec, "generic:"); ok {
		params := map[string]string{}
		for _, kv := range strings.Split(rest, ",") {
			k, v, _ := strings.Cut(kv, "=")
			params[k] = v
		}
		b, err := bots.NewSearchFor(rs, params, seed)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, err := bots.ParseFor(rs, spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// peekTwins walks n random positions of every seat count of rs and calls
// check with each position, its twin redealt for the deciding seat (what
// that seat may not see dealt again) and the legal lists of both; it
// returns how many twins another seat can tell apart from their original,
// i.e. how many differ in hidden information at all.
func peekTwins(t *testing.T, rs game.Ruleset, n int, check func(i int, s, twin game.State, la, lb []game.Action)) (differ, total int) {
	lo, hi := rs.Seats()
	for seats := lo; seats <= hi; seats++ {
		for i := 0; i < n; i++ {
			s, err := rs.NewState(make([]int, seats), uint64(i))
			if err != nil {
				// A game without mirrors: seat sides 0..seats-1.
				sides := make([]int, seats)
				for q := range sides {
					sides[q] = (q + i) % len(rs.Sides())
				}
				if s, err = rs.NewState(sides, uint64(i)); err != nil {
					t.Fatal(err)
				}
			}
			// A random game's length from this start, then a walk of a
			// random part of it: positions from the whole game.
			walk := game.NewRNG(uint64(i)*31 + uint64(seats))
			var buf []game.Action
			length := 0
			for c := s.Clone(); !c.IsTerminal(); length++ {
				buf = c.LegalActions(buf)
				c.Apply(buf[walk.Intn(len(buf))])
			}
			for k := walk.Intn(length); k > 0 && !s.IsTerminal(); k-- {
				buf = s.LegalActions(buf)
				s.Apply(buf[walk.Intn(len(buf))])
			}
			if s.IsTerminal() {
				continue
			}
			v := s.CurrentPlayer()
			twin := s.Clone()
			r := game.NewRNG(uint64(i) + 1000)
			twin.Determinize(v, &r)
			total++
			for q := 0; q < seats; q++ {
				if q != v && !bytes.Equal(s.Observation(q, nil), twin.Observation(q, nil)) {
					differ++
					break
				}
			}
			check(i, s, twin, s.LegalActions(nil), twin.LegalActions(nil))
		}
	}
	return differ, total
}

// TestNeverPeekEveryGame is bots/peek_test.go for every registered game and
// every bot it has: in two positions that differ only in what the deciding
// seat cannot see — the original and a twin Determinize redealt for that
// seat — each agent, seeded alike, chooses the same action. A game added to
// games/all is covered without a line of test.
func TestNeverPeekEveryGame(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	for _, g := range game.Games() {
		rs, _ := g.Default()
		t.Run(g.ID(), func(t *testing.T) {
			if game.IsPerfectInformation(rs) {
				t.Skipf("%s hides nothing: there is nothing to peek at", g.ID())
			}
			specs := agentSpecs(rs)
			differ, total := peekTwins(t, rs, n, func(i int, s, twin game.State, la, lb []game.Action) {
				for _, spec := range specs {
					x := makeAgent(t, rs, spec, uint64(i)).Choose(s, la)
					y := makeAgent(t, rs, spec, uint64(i)).Choose(twin, lb)
					if x != y {
						t.Fatalf("position %d: %s chose %s in one and %s in its twin: it used hidden information",
							i, spec, s.ActionString(x), twin.ActionString(y))
					}
				}
			})
			// The check is empty unless the twins differ in what is hidden.
			if differ < total/3 {
				t.Fatalf("only %d of %d twins differ in hidden information", differ, total)
			}
			t.Logf("%d positions, %d with hidden information redealt; agents %s", total, differ, strings.Join(specs, " "))
		})
	}
}

// peeker cheats in any game: it chooses by what the next seat observes.
type peeker struct{}

func (peeker) Choose(s game.State, legal []game.Action) game.Action {
	h := fnv.New32a()
	h.Write(s.Observation((s.CurrentPlayer()+1)%s.NumSeats(), nil))
	return legal[int(h.Sum32()%uint32(len(legal)))]
}

// The suite must catch a cheat in every game.
func TestNeverPeekEveryGameCatchesCheat(t *testing.T) {
	for _, g := range game.Games() {
		rs, _ := g.Default()
		if game.IsPerfectInformation(rs) {
			continue // nothing hidden, nothing to catch
		}
		caught := 0
		peekTwins(t, rs, 20, func(_ int, s, twin game.State, la, lb []game.Action) {
			if (peeker{}).Choose(s, la) != (peeker{}).Choose(twin, lb) {
				caught++
			}
		})
		if caught == 0 {
			t.Errorf("%s: a peeking agent was never caught", g.ID())
		}
	}
}

// TestSearchEveryGame: the core's search on every registered game makes no
// allocation a decision once its scratch state and arena have grown, is
// deterministic for a seed, and returns within a few iterations of its
// stop flag, at any budget.
func TestSearchEveryGame(t *testing.T) {
	for _, g := range game.Games() {
		rs, _ := g.Default()
		t.Run(g.ID(), func(t *testing.T) {
			lo, _ := rs.Seats()
			sides := make([]int, lo)
			if !rs.Mirror() {
				for q := range sides {
					sides[q] = q
				}
			}
			s, err := rs.NewState(sides, 3)
			if err != nil {
				t.Fatal(err)
			}
			legal := s.LegalActions(nil)
			b, err := bots.NewSearchFor(rs, map[string]string{"iters": "50"}, 9)
			if err != nil {
				t.Fatal(err)
			}
			first := b.Choose(s, legal)
			if n := testing.AllocsPerRun(5, func() { b.Choose(s, legal) }); n != 0 {
				t.Errorf("a decision allocates %.0f times", n)
			}
			again, _ := bots.NewSearchFor(rs, map[string]string{"iters": "50"}, 9)
			if a := again.Choose(s, legal); a != first {
				t.Errorf("the same seed chose %s, then %s", s.ActionString(first), s.ActionString(a))
			}
			huge, _ := bots.NewSearchFor(rs, map[string]string{"iters": "10000000"}, 9)
			var stop atomic.Bool
			stop.Store(true)
			huge.SetStop(&stop)
			began := time.Now()
			if a := huge.Choose(s, legal); !slices.Contains(legal, a) {
				t.Errorf("a stopped search chose %v, not a legal action", a)
			}
			if took := time.Since(began); took > time.Second {
				t.Errorf("a stopped search took %s", took)
			}
		})
	}
}
