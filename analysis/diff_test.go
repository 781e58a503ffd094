package analysis

import (
	"context"
	"io/fs"
	"os"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// long reports whether the acceptance-size runs were asked for
// (CARDLAB_LONG=1); they take minutes.
func longRuns() bool { return os.Getenv("CARDLAB_LONG") != "" }

// plainShipsPlus2 is rs with every plain (kind N) ship of faction f 2 power
// stronger.
func plainShipsPlus2(rs *rules.Ruleset, f string) *rules.Ruleset {
	return Variant(rs, f+" plain ships +2", func(v *rules.Ruleset) {
		for i := range v.Cards {
			c := &v.Cards[i]
			if c.Kind == rules.KindNone && c.Type == rules.Ship && v.Factions[c.Faction].ID == f {
				c.Power += 2
			}
		}
	})
}

// reversedDeck is rs with faction f's deck listed in reverse order: the same
// game, but every deal differs (a null change that is not a no-op).
func reversedDeck(rs *rules.Ruleset, f string) *rules.Ruleset {
	return Variant(rs, f+" deck reversed", func(v *rules.Ruleset) {
		v.Factions = slices.Clone(v.Factions)
		for i := range v.Factions {
			if v.Factions[i].ID == f {
				d := slices.Clone(v.Factions[i].Deck)
				slices.Reverse(d)
				v.Factions[i].Deck = d
			}
		}
	})
}

func loadDefault(t testing.TB) *rules.Ruleset {
	t.Helper()
	rs, err := rules.Load(rules.DefaultFS(), "cards/default")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// commentedDefault is the default ruleset with a comment added to
// rules.yaml: the same game under another hash, so that a diff plays it
// rather than recognising identical files.
func commentedDefault(t testing.TB) *rules.Ruleset {
	t.Helper()
	files := fstest.MapFS{}
	err := fs.WalkDir(rules.DefaultFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(rules.DefaultFS(), path)
		if path == "rules.yaml" {
			data = append(data, "# a comment: the game is unchanged\n"...)
		}
		files[path] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rules.Load(files, "cards/default")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// A null diff — the default ruleset against itself with a comment added
// (another hash, the same game) — is never significant: the paired games
// are identical. (The acceptance figure: 20 seeds at 2,000 games per lineup
// with CARDLAB_LONG=1.)
func TestDiffNull(t *testing.T) {
	a, b := loadDefault(t), commentedDefault(t)
	if a.Hash == b.Hash {
		t.Fatal("the commented ruleset has the same hash")
	}
	games, seeds := 100, 20
	switch {
	case longRuns():
		games = 2000
	case testing.Short():
		games, seeds = 20, 5
	}
	flagged := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		res, err := Diff(context.Background(), DiffConfig{Base: alphatactics.Ruleset{RS: a}, Variant: alphatactics.Ruleset{RS: b},
			PairedConfig: PairedConfig{Matchups: allPairs(a), Bots: []string{"greedy"}, Games: games, Seed: seed, Workers: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Changes) != 0 {
			t.Fatalf("changes between identical rulesets: %+v", res.Changes)
		}
		if res.Significant {
			flagged++
		}
		if seed == 1 {
			t.Logf("verdict: %s", res.Verdict)
		}
	}
	t.Logf("null diff flagged in %d of %d seeds (%d games per lineup)", flagged, seeds, games)
	if flagged > 1 {
		t.Errorf("null diff flagged significant in %d of %d seeds", flagged, seeds)
	}
}

// A null change that does change every deal (a deck listed in reverse) tests
// the calibration of the test: with Holm over the factions the chance of
// any false alarm is at most 5% per seed.
func TestDiffNullCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("calibration runs many games")
	}
	a := loadDefault(t)
	b := reversedDeck(a, "klingon")
	games, seeds := 100, 20
	bot := "greedy" // cardlab's default bot
	if longRuns() {
		games = 2000
		if g := os.Getenv("CARDLAB_BOTS"); g != "" {
			bot = g
		}
	}
	flagged := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		res, err := Diff(context.Background(), DiffConfig{Base: alphatactics.Ruleset{RS: a}, Variant: alphatactics.Ruleset{RS: b},
			PairedConfig: PairedConfig{Matchups: allPairs(a), Bots: []string{bot}, Games: games, Seed: seed, Workers: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Significant {
			flagged++
			t.Logf("seed %d: %s", seed, res.Verdict)
		}
	}
	t.Logf("reversed-deck null flagged in %d of %d seeds (%d games per lineup, %s bots)", flagged, seeds, games, bot)
	if flagged > 3 { // P(more than 3 of 20) < 0.02 at a 5% false-alarm rate
		t.Errorf("null change flagged significant in %d of %d seeds", flagged, seeds)
	}
}

// Plain ships 2 power stronger make their faction win more: the diff flags
// it with the right sign. (Acceptance: 5,000 games per lineup with
// CARDLAB_LONG=1; CARDLAB_BOTS picks the bots.)
func TestDiffDetectsStrongerShips(t *testing.T) {
	a := loadDefault(t)
	b := plainShipsPlus2(a, "klingon")
	games, bot := 200, "random"
	switch {
	case longRuns():
		games = 5000
		if g := os.Getenv("CARDLAB_BOTS"); g != "" {
			bot = g
		}
	case testing.Short():
		games = 80
	}
	res, err := Diff(context.Background(), DiffConfig{Base: alphatactics.Ruleset{RS: a}, Variant: alphatactics.Ruleset{RS: b},
		PairedConfig: PairedConfig{Matchups: allPairs(a), Bots: []string{bot}, Games: games, Seed: 7, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) == 0 {
		t.Fatal("no changes listed")
	}
	for _, c := range res.Changes {
		if c.Kind != "card" || c.Field != "power" || c.Pos == "" {
			t.Errorf("unexpected change %+v", c)
		}
	}
	var kl *FactionDelta
	for i := range res.Factions {
		f := &res.Factions[i]
		t.Logf("%s: %+.4f [%+.4f, %+.4f] unpaired [%+.4f, %+.4f] width ratio %.2f, changed %d/%d, p_adj %.3g (%s)",
			f.Faction, f.Delta, f.CI95[0], f.CI95[1], f.UnpairedCI95[0], f.UnpairedCI95[1], f.WidthRatio, f.Changed, f.Games, f.PAdj, f.Test)
		if f.Faction == "klingon" {
			kl = f
		}
	}
	t.Logf("verdict: %s (%.1fs)", res.Verdict, res.Timing.Seconds)
	if kl == nil || !kl.Significant || kl.Delta <= 0 || !res.Significant {
		t.Fatalf("klingon +2 ships not flagged as a gain: %+v", kl)
	}
	if kl.WidthRatio < 1.5 && bot == "random" {
		t.Errorf("paired interval only %.2f× narrower than unpaired", kl.WidthRatio)
	}
	if len(res.Cards) == 0 || len(res.Targets) == 0 {
		t.Fatal("no card or target deltas")
	}
	changed := 0
	for _, c := range res.Cards {
		if c.Changed {
			changed++
		}
	}
	if changed != len(res.Changes) {
		t.Errorf("%d cards marked changed, %d changes", changed, len(res.Changes))
	}
}

func TestDiffChangesListed(t *testing.T) {
	a := loadDefault(t)
	b := Variant(a, "edits", func(v *rules.Ruleset) {
		v.Rules.HandSize = 5
		v.Cards[len(v.Cards)-1].ID = "new-card" // one card removed, one added
		v.Cards[0].Copies++
	})
	ch := alphatactics.Changes(a, b)
	want := map[string]bool{"rules//hand_size": false, "card/" + a.Cards[0].ID + "/copies": false,
		"card/" + a.Cards[len(a.Cards)-1].ID + "/": false, "card/new-card/": false}
	for _, c := range ch {
		k := c.Kind + "/" + c.ID + "/" + c.Field
		if _, ok := want[k]; ok {
			want[k] = true
		}
		if c.Kind == "rules" && c.Field == "hand_size" && (c.Base != "4" || c.Variant != "5" || c.Pos != "rules.yaml:7") {
			t.Errorf("hand_size change %+v", c)
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("change %s not listed in %+v", k, ch)
		}
	}
}
