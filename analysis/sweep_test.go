package analysis

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
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
	res, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Card: "kl-d7", Field: "power", Values: []int{0, 2, 4, 8},
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
	res, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Field: "planet_bonus", Values: []int{0, 2, 5},
		PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Bots: []string{"random"}, Games: 40, Seed: 3, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Card != nil || res.Current != 2 || res.Faction != "" || len(res.Points[0].Factions) != 2 {
		t.Fatalf("param sweep: %+v", res)
	}
	k, _ := alphatactics.Ruleset{RS: rs}.FindKnob(game.OnRules, 0, "planet_bonus")
	if s := suggestEdit(alphatactics.Ruleset{RS: rs}, &k, nil, 0, 2, 3); s.Line != 12 || s.Text != "rules.yaml:12: planet_bonus: 2 → 3" {
		t.Errorf("suggestion %+v", s)
	}
	if _, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Field: "hand_size", Values: []int{0},
		PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1}}); err == nil {
		t.Error("hand_size 0 accepted")
	}
	if _, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Field: "nonsense", Values: []int{1},
		PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1}}); err == nil {
		t.Error("unknown parameter accepted")
	}
}

// A card sweep replays only its faction's lineups and shares the others
// with the ruleset's own arm: they are the same games.
func TestSweepSharedLineupsIdentical(t *testing.T) {
	rs := loadDefault(t)
	d7, _ := rs.CardByID("kl-d7")
	v := Variant(rs, "kl-d7 power 9", func(x *rules.Ruleset) { x.Cards[d7.Index].Power = 9 })
	cfg := &PairedConfig{Matchups: allPairs(rs), Bots: []string{"greedy"}, Games: 12, Seed: 8, Workers: 2}
	var only []int
	for li, l := range cfg.Matchups {
		if slices.Contains(l, "klingon") {
			only = append(only, li)
		}
	}
	base, full, part := &arm{g: alphatactics.Ruleset{RS: rs}}, &arm{g: alphatactics.Ruleset{RS: v}}, &arm{g: alphatactics.Ruleset{RS: v}, lineups: only}
	if _, _, err := runArms(context.Background(), cfg, []*arm{base, full, part}); err != nil {
		t.Fatal(err)
	}
	part.shareUnplayed(base)
	if !slices.Equal(full.units, part.units) || part.played != int64(len(only)*12) || part.covered() != full.covered() {
		t.Fatal("shared lineups differ from played ones")
	}
}

// An effect parameter sweeps like a card field: Klingon Warriors' bonus
// to the other troops in its row, from −3 to +10, moves Klingon's share the
// same way; the ruleset itself is left as it was.
func TestSweepEffectParam(t *testing.T) {
	rs := loadDefault(t)
	kw, _ := rs.CardByID("kl-warriors")
	games := 300
	if testing.Short() {
		games = 100
	}
	res, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Card: "kl-warriors", Field: "amount", Values: []int{-3, 1, 10},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Bots: []string{"random"}, Games: games, Seed: 5, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Field != "params.amount" || res.Current != 1 || res.Faction != "klingon" || len(res.Points) != 3 {
		t.Fatalf("sweep header: field %q current %d faction %q points %d", res.Field, res.Current, res.Faction, len(res.Points))
	}
	if got := kw.Effect.Arg("amount").Int; got != 1 {
		t.Fatalf("the swept ruleset was changed: amount %d", got)
	}
	kl := func(p SweepPoint) FactionDelta {
		for _, f := range p.Factions {
			if f.Faction == "klingon" {
				return f
			}
		}
		t.Fatal("no klingon")
		return FactionDelta{}
	}
	lo, hi := kl(res.Points[0]), kl(res.Points[2])
	t.Logf("klingon: amount -3 %+.4f (changed %d), +10 %+.4f (changed %d); plausible %v; %v",
		lo.Delta, lo.Changed, hi.Delta, hi.Changed, res.Plausible, res.Suggestion)
	if lo.Changed == 0 || hi.Changed == 0 {
		t.Fatal("the parameter did not change any game: the engine did not see it")
	}
	if !(lo.Variant < hi.Variant) || hi.Delta <= 0 {
		t.Errorf("klingon share at amount -3 (%v) not below amount 10 (%v)", lo.Variant, hi.Variant)
	}
	if res.Suggestion != nil && (res.Suggestion.Line != 237 || !strings.Contains(res.Suggestion.Text, "params.amount: 1 → ") ||
		!strings.Contains(res.Suggestion.Text, "95% interval")) {
		t.Errorf("suggestion %+v", res.Suggestion)
	}
	for _, c := range []struct {
		card, field string
		values      []int
		msg         string
	}{
		{"kl-warriors", "amount", []int{11}, "params.amount 11 is out of range: modify_power declares amount from -10 to 10"},
		{"kl-warriors", "params.amount", []int{-11, 0}, "out of range"},
		{"kl-warriors", "who", []int{1}, "not a whole number"},
		{"kl-warriors", "amout", []int{1}, `did you mean "amount"`},
		{"kl-d7", "amount", []int{1}, "the card has no effect, so only power or copies"},
	} {
		_, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Card: c.card, Field: c.field, Values: c.values,
			PairedConfig: PairedConfig{Matchups: allPairs(rs), Games: 1}})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %s %v: error %v, want %q", c.card, c.field, c.values, err, c.msg)
		}
	}
}

// The suggestion's uncertainty: the values whose interval of the steered
// share contains the target.
func TestSweepPlausibleValues(t *testing.T) {
	point := func(v int, ci ...[2]float64) SweepPoint {
		p := SweepPoint{Value: v}
		for i, c := range ci {
			p.Factions = append(p.Factions, FactionDelta{Faction: []string{"klingon", "romulan"}[i], VariantCI95: c})
		}
		return p
	}
	r := &SweepResult{Faction: "klingon", Target: 0.5, Current: 4, Points: []SweepPoint{
		point(0, [2]float64{0.30, 0.40}, [2]float64{0.45, 0.55}),
		point(1, [2]float64{0.42, 0.51}, [2]float64{0.40, 0.47}),
		point(2, [2]float64{0.46, 0.55}, [2]float64{0.40, 0.47}),
		point(3, [2]float64{0.50, 0.58}, [2]float64{0.40, 0.47}),
		point(4, [2]float64{0.52, 0.60}, [2]float64{0.45, 0.55}),
		point(6, [2]float64{0.49, 0.62}, [2]float64{0.45, 0.55}),
	}}
	for _, c := range []struct {
		faction string
		current int
		want    []int
		note    string
	}{
		{"klingon", 4, []int{1, 2, 3, 6}, "(values whose 95% interval contains the target 50.0%: 1 to 3, 6)"},
		{"klingon", 2, []int{1, 2, 3, 6}, "including the current 2, so the games cannot yet tell them apart"},
		{"", 4, []int{6}, "target 50.0%: 6)"},
		{"romulan", 4, []int{0, 4, 6}, "0, 4, 6 — including the current 4"},
	} {
		r.Faction, r.Current = c.faction, c.current
		r.Plausible = plausibleValues(r)
		if !slices.Equal(r.Plausible, c.want) {
			t.Errorf("faction %q: plausible %v, want %v", c.faction, r.Plausible, c.want)
		}
		if n := r.PlausibleNote(); !strings.Contains(n, c.note) {
			t.Errorf("faction %q: note %q lacks %q", c.faction, n, c.note)
		}
	}
	r.Faction, r.Target = "klingon", 0.9
	if r.Plausible = plausibleValues(r); len(r.Plausible) != 0 || !strings.Contains(r.PlausibleNote(), "no value tried") {
		t.Errorf("unreachable target: %v, %q", r.Plausible, r.PlausibleNote())
	}
	if got := valueRanges([]int{-1, 0, 1, 3, 5, 6}); got != "-1 to 1, 3, 5, 6" {
		t.Errorf("valueRanges: %q", got)
	}
}

// TestSweepParamsChangeGames is issue 24 item 8: `sweep --param rounds
// --values 5..8` reported "changed: 0" for every value, because rounds does
// not change how a game is played. Every parameter a sweep offers changes
// the games: the same seeds played at two of its values give different
// game streams (scores, rounds, decisions, winners).
func TestSweepParamsChangeGames(t *testing.T) {
	rs := loadDefault(t)
	other := map[string]int{"hand_size": 6, "planet_bonus": 5, "cards_to_end": 2, "targets_per_round": 3}
	stream := func(x *rules.Ruleset) string {
		var b strings.Builder
		_, err := Run(context.Background(), Config{Game: alphatactics.Ruleset{RS: x}, Matchups: [][]string{{"starfleet", "klingon"}}, Bots: []string{"random"},
			Games: 8, Seed: 5, Workers: 1, Record: func(r *GameRecord) error { fmt.Fprintf(&b, "%+v\n", *r); return nil }})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	base := stream(rs)
	at := alphatactics.Ruleset{RS: rs}
	for _, field := range alphatactics.RuleKnobs {
		v, ok := other[field]
		if !ok {
			t.Fatalf("no second value of %s to test", field)
		}
		k, err := at.FindKnob(game.OnRules, 0, field)
		if err != nil {
			t.Fatal(err)
		}
		x, err := k.With(at, 0, v)
		if err != nil {
			t.Fatalf("%s %d: %v", field, v, err)
		}
		if stream(x.(alphatactics.Ruleset).RS) == base {
			t.Errorf("%s %d → %d left every game as it was: it is not a parameter of play", field, k.Get(at, 0), v)
		}
	}
}

// TestSweepRefusesWhatValidateRefuses: a sweep accepted values `validate`
// rejects (targets_per_round 5 with 24 targets, rounds 7); each swept value
// is now checked by the loader on the ruleset's own files, and the error
// says why.
func TestSweepRefusesWhatValidateRefuses(t *testing.T) {
	rs := loadDefault(t)
	for _, c := range []struct {
		field  string
		values []int
		want   string
	}{
		{"targets_per_round", []int{3, 5}, "targets_per_round 5 makes a ruleset validate refuses: targets.yaml"},
		{"rounds", []int{5, 6, 7, 8}, "cannot sweep rounds"},
		{"hand_size", []int{9}, "hand_size 9 makes a ruleset validate refuses: rules.yaml:7:"},
		{"cards_to_end", []int{0}, "cards_to_end 0 makes a ruleset validate refuses"},
		{"planet_bonus", []int{-1}, "planet_bonus -1 makes a ruleset validate refuses"},
	} {
		_, err := Sweep(context.Background(), SweepConfig{Game: alphatactics.Ruleset{RS: rs}, Field: c.field, Values: c.values,
			PairedConfig: PairedConfig{Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1}})
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.field, c.values, err, c.want)
		}
	}
	// A value validate accepts passes, with rounds carried along.
	at := alphatactics.Ruleset{RS: rs}
	k, _ := at.FindKnob(game.OnRules, 0, "targets_per_round")
	x, err := k.With(at, 0, 3)
	if err != nil {
		t.Fatalf("targets_per_round 3: %v", err)
	}
	v := x.(alphatactics.Ruleset).RS
	if v.Rules.TargetsPerRound != 3 || v.Rules.Rounds != 8 || rs.Rules.Rounds != 6 {
		t.Errorf("targets_per_round 3: per round %d, rounds %d (ruleset's %d)", v.Rules.TargetsPerRound, v.Rules.Rounds, rs.Rules.Rounds)
	}
}
