package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/goofspiel"
)

// TestLadderGoofspiel ranks Goofspiel's bots through the contracts: greedy
// (bid the prize's rank) must beat random with its whole 95% interval above
// a half, and the result must not depend on the workers.
func TestLadderGoofspiel(t *testing.T) {
	cfg := LadderConfig{Game: goofspiel.Default(), Bots: []string{"random", "greedy"}, Games: 200, Seed: 5}
	var first *LadderResult
	for _, workers := range []int{1, 3} {
		cfg.Workers = workers
		res, err := Ladder(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if res.Bots[0] != first.Bots[0] || res.Bots[1] != first.Bots[1] || res.Pairs[0] != first.Pairs[0] {
			t.Fatalf("results differ by workers: %+v vs %+v", first, res)
		}
	}
	g := first.Bots[1]
	if first.Bots[0].Spec != "random" || g.Spec != "greedy" || g.Games != 200 || first.Partial {
		t.Fatalf("ladder: %+v", first)
	}
	if g.CI95[0] <= 0.5 || g.Rating <= 0 {
		t.Fatalf("greedy should beat random at Goofspiel: %+v", first.Bots)
	}
	if s := first.Bots[0].WinShare + first.Bots[1].WinShare; s < 0.999 || s > 1.001 {
		t.Fatalf("shares of a two-bot ladder sum to %v", s)
	}
}

func TestLadderGoofspielErrors(t *testing.T) {
	gs := goofspiel.Default()
	for _, c := range []struct {
		cfg  LadderConfig
		want string
	}{
		{LadderConfig{Game: gs, Bots: []string{"random"}, Games: 2}, "at least two bots"},
		{LadderConfig{Game: gs, Bots: []string{"random", "Random"}, Games: 2}, "listed twice"},
		{LadderConfig{Game: gs, Bots: []string{"random", "strong"}, Games: 2}, `unknown bot "strong"`},
		{LadderConfig{Game: gs, Bots: []string{"random", "greedy"}, Games: 0}, "at least 1"},
		{LadderConfig{Game: gs, Bots: []string{"random", "greedy"}, Games: 2, Players: 3}, "2-player"},
	} {
		_, err := Ladder(context.Background(), c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.cfg.Bots, err, c.want)
		}
	}
}
