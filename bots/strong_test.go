package bots

import (
	"testing"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// The strong bot must beat greedy clearly: paired deals, both seat orders.
func TestStrongBeatsGreedy(t *testing.T) {
	rs := cards.Default()
	share, n := 0.0, 60
	for g := 0; g < n; g++ {
		fs := []string{factions[(g/2)%4], factions[(g/2+1+g/8)%4]}
		if fs[0] == fs[1] {
			fs[1] = factions[(g/2+2)%4]
		}
		seat := g % 2
		agents := []Agent{NewGreedy(uint64(g)), NewGreedy(uint64(g))}
		agents[seat] = mustParse(t, "strong", uint64(g))
		share += playOne(t, rs, fs, agents, game.SeedFor(11, uint64(g/2)))[seat]
	}
	if share/float64(n) < 0.6 {
		t.Fatalf("strong's win share against greedy %.2f, want >= 0.6", share/float64(n))
	}
}

// Same seed, same game: a whole game between two strong bots replays
// action for action.
func TestStrongDeterministic(t *testing.T) {
	rs := cards.Default()
	play := func() []game.Action {
		s, _ := game.New(rs, game.Config{Factions: factions[:2], Seed: 5})
		ag := []Agent{mustParse(t, "strong", 1), mustParse(t, "strong", 2)}
		var out, buf []game.Action
		for !s.IsTerminal() {
			a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
			out = append(out, a)
			s.Apply(a)
		}
		return out
	}
	a, b := play(), play()
	if len(a) != len(b) {
		t.Fatalf("%d actions, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("action %d: %v, then %v", i, a[i], b[i])
		}
	}
}

// A strong decision allocates nothing once its buffers have grown.
func TestStrongNoAllocs(t *testing.T) {
	rs := cards.Default()
	s, _ := game.New(rs, game.Config{Factions: factions[:2], Seed: 3})
	st := NewStrong(1, 4, 3)
	st.Margin = 100 // always search
	legal := s.LegalActions(nil)
	st.Choose(s, legal)
	if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
		t.Fatalf("%v allocations per decision", n)
	}
}

func TestParseStrong(t *testing.T) {
	a, err := Parse("Strong:k=6,ke=10,dets=8,h=0,sigma=2.5,margin=0.5,roll=greedy,search=flat", 1)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := a.(*Strong)
	if !ok || st.K != 6 || st.KE != 10 || st.Dets != 8 || st.Horizon != 0 || st.Sigma != 2.5 || st.Margin != 0.5 || !st.GreedyRoll || !st.Flat {
		t.Fatalf("parsed %+v", a)
	}
	for _, bad := range []string{"strong:k=0", "strong:dets=65", "strong:h=-1", "strong:sigma=nan",
		"strong:margin=inf", "strong:iters=3", "strong:k=x", "strong:roll=minimax", "strong:search=tree"} {
		if _, err := Parse(bad, 1); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
