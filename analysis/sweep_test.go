package analysis

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/cards"
)

func TestSweepParseValues(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "0..8", want: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{in: "2..8..3", want: []int{2, 5, 8}},
		{in: "1,3, 5", want: []int{1, 3, 5}},
		{in: "4", want: []int{4}},
		{in: "8..0", bad: true}, {in: "1,1", bad: true}, {in: "a..3", bad: true}, {in: "", bad: true},
		{in: "1..5..0", bad: true},
	} {
		got, err := ParseValues(c.in)
		if c.bad != (err != nil) || !c.bad && !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseValues(%q) = %v, %v", c.in, got, err)
		}
	}
}

func TestSweepCardPower(t *testing.T) {
	rs := loadDefault(t)
	games := 120
	if testing.Short() {
		games = 40
	}
	res, err := Sweep(context.Background(), SweepConfig{Ruleset: rs, Card: "kl-d7", Field: "power", Values: []int{0, 2, 4, 8},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Bots: []string{"random"}, Games: games, Seed: 3, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Current != 4 || res.Faction != "klingon" || res.Target != 0.5 || len(res.Points) != 4 {
		t.Fatalf("sweep header: current %d faction %q target %v points %d", res.Current, res.Faction, res.Target, len(res.Points))
	}
	share := func(p SweepPoint) float64 {
		for _, f := range p.Factions {
			if f.Faction == "klingon" {
				return f.Variant
			}
		}
		return -1
	}
	for _, p := range res.Points {
		for _, f := range p.Factions {
			if p.Value == 4 && (f.Delta != 0 || f.Test != TestNone) {
				t.Errorf("the current value differs from itself: %+v", f)
			}
		}
	}
	if !(share(res.Points[0]) < share(res.Points[3])) {
		t.Errorf("klingon share at power 0 (%v) not below power 8 (%v)", share(res.Points[0]), share(res.Points[3]))
	}
	if res.Best != 4 && (res.Suggestion == nil || res.Suggestion.File != "klingon.yaml" || res.Suggestion.Line != 95) {
		t.Errorf("suggestion %+v (best %d)", res.Suggestion, res.Best)
	}
	if res.Best == 4 && res.Suggestion != nil {
		t.Errorf("suggestion for the current value: %+v", res.Suggestion)
	}
	t.Logf("best %d, suggestion %+v", res.Best, res.Suggestion)
}

func TestSweepRuleParam(t *testing.T) {
	rs := loadDefault(t)
	res, err := Sweep(context.Background(), SweepConfig{Ruleset: rs, Field: "planet_bonus", Values: []int{0, 2, 5},
		PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Bots: []string{"random"}, Games: 40, Seed: 3, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Card != nil || res.Current != 2 || res.Faction != "" || len(res.Points[0].Factions) != 2 {
		t.Fatalf("param sweep: %+v", res)
	}
	if s := suggestEdit(rs, nil, "planet_bonus", 2, 3); s.Line != 12 || s.Text != "rules.yaml:12: planet_bonus: 2 → 3" {
		t.Errorf("suggestion %+v", s)
	}
	if _, err := Sweep(context.Background(), SweepConfig{Ruleset: rs, Field: "hand_size", Values: []int{0},
		PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1}}); err == nil {
		t.Error("hand_size 0 accepted")
	}
	if _, err := Sweep(context.Background(), SweepConfig{Ruleset: rs, Field: "nonsense", Values: []int{1},
		PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1}}); err == nil {
		t.Error("unknown parameter accepted")
	}
}

// A card sweep replays only its faction's lineups and shares the others
// with the ruleset's own arm: they are the same games.
func TestSweepSharedLineupsIdentical(t *testing.T) {
	rs := loadDefault(t)
	d7, _ := rs.CardByID("kl-d7")
	v := Variant(rs, "kl-d7 power 9", func(x *cards.Ruleset) { x.Cards[d7.Index].Power = 9 })
	cfg := &PairedConfig{Matchups: allPairs(rs), Bots: []string{"greedy"}, Games: 12, Seed: 8, Workers: 2}
	var only []int
	for li, l := range cfg.Matchups {
		if slices.Contains(l, "klingon") {
			only = append(only, li)
		}
	}
	base, full, part := &arm{rs: rs}, &arm{rs: v}, &arm{rs: v, lineups: only}
	if _, _, err := runArms(context.Background(), cfg, []*arm{base, full, part}); err != nil {
		t.Fatal(err)
	}
	part.shareUnplayed(base)
	if !slices.Equal(full.units, part.units) || part.played != int64(len(only)*12) || part.covered() != full.covered() {
		t.Fatal("shared lineups differ from played ones")
	}
}
