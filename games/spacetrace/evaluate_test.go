package spacetrace

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// TestEvaluatorParams: the search's spec reaches the evaluator; a bad value
// or an unknown key is the spec's error, named.
func TestEvaluatorParams(t *testing.T) {
	rs := First()
	for _, tc := range []struct {
		params map[string]string
		random bool
		turns  int
		err    string
	}{
		{params: nil, turns: DefaultRolloutTurns},
		{params: map[string]string{"rollout": "random"}, random: true, turns: DefaultRolloutTurns},
		{params: map[string]string{"rollout": "greedy", "turns": "0"}, turns: 0},
		{params: map[string]string{"turns": "5"}, turns: 5},
		{params: map[string]string{"rollout": "strong"}, err: "rollout must be greedy or random"},
		{params: map[string]string{"turns": "-1"}, err: "turns must be a whole number"},
		{params: map[string]string{"turns": "two"}, err: "turns must be a whole number"},
		{params: map[string]string{"depth": "game"}, err: `unknown ismcts parameter "depth"`},
	} {
		e, err := rs.NewEvaluator(tc.params, 1)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "spacetrace: ") {
				t.Errorf("%v: error %v, want %q", tc.params, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.params, err)
		}
		ev := e.(*Evaluator)
		if ev.Random != tc.random || ev.Turns != tc.turns {
			t.Errorf("%v: random %v turns %d, want %v %d", tc.params, ev.Random, ev.Turns, tc.random, tc.turns)
		}
	}
	// Through the core's spec parser, as --bots gives it.
	if _, err := bots.ParseFor(rs, "ismcts:iters=10,rollout=random,turns=3", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := bots.ParseFor(rs, "ismcts:iters=10,horizon=3", 1); err == nil || !strings.Contains(err.Error(), "rollout, turns") {
		t.Fatalf("an unknown parameter: %v", err)
	}
}

// TestEstimate: the static reading favours the seat that dealt more Base
// damage or has more MP in play, symmetrically, and sums to one.
func TestEstimate(t *testing.T) {
	s := table(t, nil, 3)
	if r := s.Estimate(); r[0] != 0.5 || r[1] != 0.5 {
		t.Fatalf("an empty table reads %v, want even", r)
	}
	DamageBase(s.P[1].Army.Base(), 300)
	r := s.Estimate()
	if r[0] <= 0.7 || r[0] >= 0.76 || r[0]+r[1] != 1 {
		t.Fatalf("300 Base damage dealt by seat 0 reads %v, want about 73%%", r)
	}
	s.enterAs(0, "fighters")
	s.enterAs(1, "battleship")
	if r2 := s.Estimate(); r2[0] >= r[0] {
		t.Fatalf("seat 1's dearer fleet did not lower seat 0's estimate: %v then %v", r, r2)
	}
}

// enterAs puts one copy of card id into seat p's Base fleet, as played.
func (s *State) enterAs(p int, id string) {
	act := s.Active
	s.Active = p
	s.enter(s.rs.CardIndex(id))
	s.Active = act
}

// TestEvaluatorNeverPeeks: the search with each evaluator setting chooses
// the same action in a position and its twin redealt for the deciding seat
// (what that seat cannot see differs, nothing else).
func TestEvaluatorNeverPeeks(t *testing.T) {
	rs := First()
	specs := []map[string]string{
		{"iters": "30"},
		{"iters": "30", "rollout": "random"},
		{"iters": "20", "turns": "0"},
	}
	differ, total := 0, 0
	for i := 0; i < 24; i++ {
		st, _ := rs.NewState([]int{0, 0}, uint64(i))
		s := st.(*State)
		walk := game.NewRNG(uint64(i) + 77)
		var buf []game.Action
		for k := 10 + walk.Intn(60); k > 0 && !s.IsTerminal(); k-- {
			buf = s.LegalActions(buf)
			s.Apply(Greedy{}.Choose(s, buf))
		}
		if s.IsTerminal() {
			continue
		}
		v := s.CurrentPlayer()
		twin := s.Clone().(*State)
		r := game.NewRNG(uint64(i) + 1000)
		twin.Determinize(v, &r)
		total++
		if string(s.Observation(1-v, nil)) != string(twin.Observation(1-v, nil)) {
			differ++
		}
		la, lb := s.LegalActions(nil), twin.LegalActions(nil)
		for _, p := range specs {
			a, err := bots.NewSearchFor(rs, p, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := bots.NewSearchFor(rs, p, uint64(i))
			if x, y := a.Choose(s, la), b.Choose(twin, lb); x != y {
				t.Fatalf("position %d, %v: %s in one, %s in its twin: the search used hidden information",
					i, p, s.ActionString(x), twin.ActionString(y))
			}
		}
	}
	if differ < total/2 {
		t.Fatalf("only %d of %d twins differ in the opponent's hand or library", differ, total)
	}
}

// TestSearchBeatsRandom: the search with Spacetrace's evaluator at a small
// budget beats a random player clearly in both seats (a leaf value that
// misread the game would not).
func TestSearchBeatsRandom(t *testing.T) {
	rs := First()
	wins, n := 0.0, 40
	for i := 0; i < n; i++ {
		st, _ := rs.NewState([]int{0, 0}, uint64(i))
		seat := i % 2
		b, err := bots.NewSearchFor(rs, map[string]string{"iters": "20"}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		u := bots.NewUniform(uint64(i))
		var buf []game.Action
		for !st.IsTerminal() {
			buf = st.LegalActions(buf)
			if st.CurrentPlayer() == seat {
				st.Apply(b.Choose(st, buf))
			} else {
				st.Apply(u.Choose(st, buf))
			}
		}
		wins += st.Returns()[seat]
	}
	if wins/float64(n) < 0.8 {
		t.Fatalf("the search wins %.2f of its games against random", wins/float64(n))
	}
}

// TestSearchEveryRuleset: the search with its greedy rollouts plays every
// embedded ruleset to the end against greedy — the full game's windows,
// stack and payments included.
func TestSearchEveryRuleset(t *testing.T) {
	for _, name := range []string{FirstRuleset, SecondRuleset, ReferenceRuleset} {
		rs := Embedded(name)
		for i := 0; i < 4; i++ {
			st, err := rs.NewState([]int{0, 0}, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			b, err := bots.NewSearchFor(rs, map[string]string{"iters": "12"}, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			var buf []game.Action
			n := 0
			for ; !st.IsTerminal(); n++ {
				if n > 5000 {
					t.Fatalf("%s game %d: no end after %d decisions", name, i, n)
				}
				buf = st.LegalActions(buf)
				if st.CurrentPlayer() == i%2 {
					st.Apply(b.Choose(st, buf))
				} else {
					st.Apply(Greedy{}.Choose(st, buf))
				}
			}
			t.Logf("%s game %d: %d decisions", name, i, n)
		}
	}
}

// TestGreedySacrificesFromExtraFleet: a sacrifice whose only candidate
// sits in the extra fleet (an action fleet<<8|unit) is priced by its own
// fleet — the greedy bot read every unit from the Base fleet and indexed
// past it (a panic in the full game's rollouts).
func TestGreedySacrificesFromExtraFleet(t *testing.T) {
	s := table(t, nil, 1)
	give(s, 0, "penguins")
	s.P[0].MP = 300
	ex := &s.P[0].Army.Fleets[ExtraFleet]
	ex.U[0] = ShipUnit(s.rs.Defs, s.rs.CardIndex("mothership"))
	ex.U[1] = ShipUnit(s.rs.Defs, s.rs.CardIndex("fighters"))
	ex.N = 2
	s.Apply(mk(actPlay, s.rs.CardIndex("penguins")))
	if s.phase != phSacrifice {
		t.Fatal("no sacrifice asked")
	}
	la := s.LegalActions(nil)
	if len(la) != 1 || int(la[0]&0xffff)>>8 != ExtraFleet {
		t.Fatalf("sacrifice choices %v, want the extra fleet's Fighters alone", la)
	}
	if a := (Greedy{}).Choose(s, la); a != la[0] {
		t.Fatalf("greedy chose %s", s.ActionString(a))
	}
}
