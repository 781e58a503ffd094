package analysis

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/goofspiel"
)

func TestSkillLevels(t *testing.T) {
	rs := loadDefault(t)
	games := 60
	if testing.Short() {
		games = 20
	}
	res, err := Skill(context.Background(), SkillConfig{Game: alphatactics.Ruleset{RS: rs}, Levels: []string{"random", "greedy"},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Games: games, Seed: 2, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Factions) != 4 || len(res.Steps) != 1 || len(res.Cards) != len(rs.Cards) {
		t.Fatalf("factions %d steps %d cards %d", len(res.Factions), len(res.Steps), len(res.Cards))
	}
	for _, f := range res.Factions {
		if len(f.Levels) != 2 || f.Levels[0].Games != int64(3*games) || f.Levels[0].Rank < 1 {
			t.Errorf("faction %+v", f)
		}
	}
	for _, d := range res.Steps[0].Factions {
		if d.Games != int64(3*games) {
			t.Errorf("step %+v", d)
		}
	}
	for _, rc := range res.RankChanges {
		if rc.RankFrom == rc.RankTo || rc.Note == "" {
			t.Errorf("rank change %+v", rc)
		}
	}
	if _, err := Skill(context.Background(), SkillConfig{Game: alphatactics.Ruleset{RS: rs}, Levels: []string{"greedy"},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Games: 1}}); err == nil {
		t.Error("one level accepted")
	}
}

// TestSkillGoofspiel: skill plays another game through the contracts. In a
// mirror the seats are compared: two seats, each with its share at every
// level from the same games (greedy against itself bids alike every turn,
// so every prize ties and each seat's share is exactly a half), no cards
// of Alpha Tactics' counts, and the same result for any number of workers.
func TestSkillGoofspiel(t *testing.T) {
	gs := goofspiel.Default()
	cfg := SkillConfig{Game: gs, Levels: []string{"random", "greedy"},
		PairedConfig: PairedConfig{Matchups: [][]string{{"player", "player"}}, Games: 120, Seed: 4}}
	var first *SkillResult
	for _, workers := range []int{1, 3} {
		cfg.Workers = workers
		res, err := Skill(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		res.Timing = Timing{}
		if first == nil {
			first = res
			continue
		}
		if !reflect.DeepEqual(first, res) {
			t.Fatalf("results differ by workers:\n%+v\n%+v", first, res)
		}
	}
	r := first
	if len(r.Factions) != 2 || r.Factions[0].Faction != "seat 1" || r.Factions[1].Faction != "seat 2" ||
		len(r.Steps) != 1 || len(r.Cards) != 0 || r.Ruleset.Game != "goofspiel" {
		t.Fatalf("skill: %+v", r)
	}
	for _, f := range r.Factions {
		rnd, gr := f.Levels[0], f.Levels[1]
		if rnd.Games != 120 || gr.Games != 120 || gr.Wins != 60 || gr.WinRate != 0.5 {
			t.Errorf("%s: random %+v, greedy %+v (greedy against itself ties every game)", f.Faction, rnd, gr)
		}
	}
	if s := r.Factions[0].Levels[0].Wins + r.Factions[1].Levels[0].Wins; s != 120 {
		t.Errorf("random: the seats' wins sum to %v, not the 120 games", s)
	}
	// Seat 1's step from random to greedy is its random share paired with
	// a half: every game it won or lost at random changes.
	d := r.Steps[0].Factions[0]
	if d.Games != 120 || math.Abs(d.Delta-(0.5-r.Factions[0].Levels[0].WinRate)) > 1e-6 {
		t.Errorf("step %+v against random share %v", d, r.Factions[0].Levels[0].WinRate)
	}
}
