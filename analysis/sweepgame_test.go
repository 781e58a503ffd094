package analysis

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/goofspiel"
)

// A prize raised to 1000 points decides the game: the prize-matching
// greedy bot moves its highest bid onto it, so its seat wins more often
// than at the prize's printed value, and significantly so; the random
// bot's seat loses as much. The seats are the entities of a mirror.
func TestSweepGoofspiel(t *testing.T) {
	cfg := SweepConfig{Game: goofspiel.Default(), Card: "prize-1", Field: "value", Values: []int{1, 1000},
		PairedConfig: PairedConfig{Matchups: [][]string{{"player", "player"}}, Bots: []string{"greedy", "random"}, Games: 400, Seed: 1, Workers: 1}}
	res, err := Sweep(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Current != 1 || res.Ruleset.Game != "goofspiel" || res.Card == nil || res.Card.ID != "prize-1" || res.Card.Line == 0 {
		t.Fatalf("current %d, ruleset %+v, card %+v", res.Current, res.Ruleset, res.Card)
	}
	if len(res.Points) != 2 || len(res.Points[1].Factions) != 2 || res.Points[1].Factions[0].Faction != "seat 1" {
		t.Fatalf("points %+v", res.Points)
	}
	for _, fd := range res.Points[0].Factions {
		if fd.Delta != 0 || fd.Games != 400 {
			t.Errorf("the reference point: %+v", fd)
		}
	}
	g, r := res.Points[1].Factions[0], res.Points[1].Factions[1]
	if !(g.Delta > 0 && g.Significant && g.CI95[0] > 0) || r.Delta != -g.Delta {
		t.Errorf("greedy's seat at prize 1000: %+v; random's: %+v", g.PairedTest, r.PairedTest)
	}
	// Independent of the workers.
	cfg.Workers = 3
	again, err := Sweep(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res.Timing, again.Timing = Timing{}, Timing{}
	if !reflect.DeepEqual(res, again) {
		t.Error("the sweep differs with 3 workers")
	}
}

func TestSweepGoofspielRefuses(t *testing.T) {
	pc := PairedConfig{Matchups: [][]string{{"player", "player"}}, Bots: []string{"random"}, Games: 2}
	for _, c := range []struct {
		card, field string
		values      []int
		want        string
	}{
		{"bid-3", "value", []int{4}, "nothing to sweep"},
		{"prize-3", "valu", []int{4}, `did you mean "value"`},
		{"prize-99", "value", []int{4}, "unknown card"},
		{"prize-3", "value", []int{1001}, "out of range"},
		{"", "cards", []int{12}, "at least 13"},
		{"", "ties", []int{1}, "have cards"},
	} {
		_, err := Sweep(context.Background(), SweepConfig{Game: goofspiel.Default(), Card: c.card, Field: c.field, Values: c.values, PairedConfig: pc})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %v: %v, want %q", c.card, c.field, c.values, err, c.want)
		}
	}
}
