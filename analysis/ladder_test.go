package analysis

import (
	"context"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

func TestLadderDeterministicAcrossWorkers(t *testing.T) {
	rs := alphatactics.Ruleset{RS: rules.Default()}
	cfg := LadderConfig{Game: rs, Bots: []string{"random", "greedy"}, Games: 40, Seed: 3}
	cfg.Workers = 1
	a, err := Ladder(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	b, err := Ladder(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Bots[1] != b.Bots[1] || a.Pairs[0] != b.Pairs[0] {
		t.Fatalf("results differ by workers: %+v vs %+v", a.Bots, b.Bots)
	}
	if a.Bots[1].WinShare < 0.7 || a.Bots[1].Rating <= 0 {
		t.Fatalf("greedy should beat random: %+v", a.Bots)
	}
	if s := a.Bots[0].WinShare + a.Bots[1].WinShare; s < 0.999 || s > 1.001 {
		t.Fatalf("shares of a two-bot ladder sum to %v", s)
	}
}

func TestLadderErrors(t *testing.T) {
	rs := alphatactics.Ruleset{RS: rules.Default()}
	for _, cfg := range []LadderConfig{
		{Game: rs, Bots: []string{"random"}, Games: 2},
		{Game: rs, Bots: []string{"random", "random"}, Games: 2},
		{Game: rs, Bots: []string{"random", "mcts"}, Games: 2},
		{Game: rs, Bots: []string{"random", "greedy"}, Games: 0},
		{Game: rs, Bots: []string{"random", "greedy"}, Games: 2, Players: 3},
	} {
		if _, err := Ladder(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg.Bots)
		}
	}
}

func TestBradleyTerry(t *testing.T) {
	// A beats B 3 of 4 times: about 190 Elo apart (400*log10(3)) once the
	// half-win prior is added: (3.5/1.5).
	n := [][]float64{{0, 4}, {4, 0}}
	w := [][]float64{{0, 3}, {1, 0}}
	r := bradleyTerry(n, w)
	if d := r[0] - r[1]; d < 140 || d > 160 {
		t.Fatalf("rating gap %.1f, want about 147", d)
	}
}
