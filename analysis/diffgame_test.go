package analysis

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
	"github.com/cardlab/cardlab/games/spacetrace"
)

func goofspielFrom(t *testing.T, yaml string) *goofspiel.Ruleset {
	t.Helper()
	rs, err := goofspiel.Load(fstest.MapFS{"rules.yaml": {Data: []byte(yaml)}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

const gsBase = "game: goofspiel\nname: G\nversion: \"1\"\nplayers: {min: 2, max: 3}\ncards: 5\nprizes:\n  - 1\n  - 2\n  - 3\nties: discard\n"

// The change list of two Goofspiel versions: knob values (the hand, a
// prize's value by card id with its line), cards added, and the top-level
// keys no knob covers (ties), each with its line; the prize list itself is
// not repeated beside its card's change.
func TestGameChanges(t *testing.T) {
	a := goofspielFrom(t, gsBase)
	b := goofspielFrom(t, strings.NewReplacer("cards: 5", "cards: 6", "  - 2\n", "  - 9\n", "ties: discard", "ties: carry", "  - 3\n", "  - 3\n  - 4\n").Replace(gsBase))
	got := GameChanges(a, b)
	want := []Change{
		{Kind: "rules", Change: "changed", Field: "cards", Base: "5", Variant: "6", Pos: "rules.yaml:5"},
		{Kind: "card", ID: "bid-6", Change: "added", Variant: "Bid 6"},
		{Kind: "card", ID: "prize-2", Change: "changed", Field: "value", Base: "2", Variant: "9", Pos: "rules.yaml:8"},
		{Kind: "card", ID: "prize-4", Change: "added", Variant: "Prize 4", Pos: "rules.yaml:10"},
		{Kind: "rules", Change: "changed", Field: "ties", Base: "discard", Variant: "carry", Pos: "rules.yaml:11"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes:\n got %+v\nwant %+v", got, want)
	}
	if c := GameChanges(a, a); len(c) != 0 {
		t.Errorf("a ruleset against itself: %+v", c)
	}
}

// Diff of two Goofspiel versions pairs the seats: a prize of 1000 points
// moves greedy's win share significantly, and the verdict says seats.
func TestDiffGoofspiel(t *testing.T) {
	a := goofspiel.Default()
	k := a.Knobs()[0]
	b, err := k.With(a, a.HandSize, 1000) // prize-1
	if err != nil {
		t.Fatal(err)
	}
	res, err := Diff(context.Background(), DiffConfig{Base: a, Variant: b,
		PairedConfig: PairedConfig{Matchups: [][]string{{"player", "player"}}, Bots: []string{"greedy", "random"}, Games: 400, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Factions) != 2 || res.Factions[0].Faction != "seat 1" || !res.Significant || res.Factions[0].Delta <= 0 {
		t.Fatalf("factions %+v", res.Factions)
	}
	if !strings.HasPrefix(res.Verdict, "SIGNIFICANT") || strings.Contains(res.Verdict, "faction") || !strings.Contains(res.Verdict, "seats' win shares") {
		t.Errorf("verdict %q", res.Verdict)
	}
	if len(res.Changes) != 1 || res.Changes[0].ID != "prize-1" || res.Changes[0].Variant != "1000" {
		t.Errorf("changes %+v", res.Changes)
	}
	if _, err := Diff(context.Background(), DiffConfig{Base: a, Variant: nil, PairedConfig: PairedConfig{Matchups: [][]string{{"player", "player"}}, Games: 1}}); err == nil {
		t.Error("one ruleset: no error")
	}
}

// Alpha Tactics lists its changes itself (game.Differ): GameChanges of its
// rulesets is RulesetChanges, field by field, and TestDiffChangesListed's
// edits are in it.
func TestGameChangesUsesDiffer(t *testing.T) {
	a := loadDefault(t)
	b := Variant(a, "edits", func(v *rules.Ruleset) {
		v.Rules.HandSize = 5
		v.Cards[0].Power++
	})
	got := GameChanges(alphatactics.Ruleset{RS: a}, alphatactics.Ruleset{RS: b})
	if want := alphatactics.Changes(a, b); len(got) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("GameChanges %+v, RulesetChanges %+v", got, want)
	}
}

// A knob under a mapping (Spacetrace's draw.per_turn) is one change, at
// its own line; the mapping is listed beside it only when something no
// knob covers changed in it too (draw.first_turn, a true/false).
func TestGameChangesNestedKnob(t *testing.T) {
	a := spacetrace.First()
	b := spacetraceDraw(t, 1)
	got := GameChanges(a, b)
	line := keyPathLine(b.Info().Files["rules.yaml"], []string{"draw", "per_turn"})
	want := []Change{{Kind: "rules", Change: "changed", Field: "draw.per_turn", Base: "2", Variant: "1", Pos: fmt.Sprintf("rules.yaml:%d", line)}}
	if line == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("changes:\n got %+v\nwant %+v", got, want)
	}
	files := maps.Clone(a.Info().Files)
	files["rules.yaml"] = bytes.Replace(files["rules.yaml"], []byte("per_turn: 2"), []byte("per_turn: 1"), 1)
	files["rules.yaml"] = bytes.Replace(files["rules.yaml"], []byte("first_turn: true"), []byte("first_turn: false"), 1)
	c, err := spacetrace.Load(mapFS(files), "")
	if err != nil {
		t.Fatal(err)
	}
	got = GameChanges(a, c)
	if len(got) != 2 || got[0].Field != "draw.per_turn" || got[1].Field != "draw" || !strings.Contains(got[1].Variant, "first_turn: false") {
		t.Errorf("with first_turn changed too: %+v", got)
	}
}

func mapFS(files map[string][]byte) fstest.MapFS {
	fs := fstest.MapFS{}
	for name, data := range files {
		fs[name] = &fstest.MapFile{Data: data}
	}
	return fs
}

// spacetraceDraw is Spacetrace's first game with draw.per_turn set to v.
func spacetraceDraw(t *testing.T, v int) game.Ruleset {
	t.Helper()
	g := spacetrace.First()
	for _, k := range game.KnobsOf(g) {
		if k.Scope == game.OnRules && k.Name == "draw.per_turn" {
			vg, err := k.With(g, 0, v)
			if err != nil {
				t.Fatal(err)
			}
			return vg
		}
	}
	t.Fatal("spacetrace has no knob draw.per_turn")
	return nil
}
