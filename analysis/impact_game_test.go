package analysis

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/goofspiel"
)

// TestImpactGoofspiel: the ablation through Goofspiel's game.Valuer. A
// blanked bid card bids 0 for the lineup's first seat of the mirror; bid
// 13 then loses its prize to the other seat's real card, so its holder's
// share falls by many standard errors, while bid 1 (the least prize at
// stake) changes far less.
func TestImpactGoofspiel(t *testing.T) {
	for _, bot := range []string{"random"} {
		res, err := Impact(context.Background(), ImpactConfig{Game: goofspiel.Default(), GamesPerCard: 2000,
			Cards:        []string{"bid-1", "bid-13"},
			PairedConfig: PairedConfig{Matchups: [][]string{{"player", "player"}}, Bots: []string{bot}, Seed: 3, Workers: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cards) != 2 || res.Mode != ModeBlankCopy || res.BaselineGames != 2000 || res.VariantGames != 4000 {
			t.Fatalf("%s: %d cards, mode %s, %d + %d games", bot, len(res.Cards), res.Mode, res.BaselineGames, res.VariantGames)
		}
		by := map[string]CardImpact{}
		for _, c := range res.Cards {
			by[c.ID] = c
			t.Logf("%s %s: %+.3f %v sd %.3f n %d changed %d (%s)", bot, c.ID, c.Delta, c.CI95, c.SD, c.Games, c.Changed, c.Variant)
		}
		hi, lo := by["bid-13"], by["bid-1"]
		if se := hi.SD / math.Sqrt(float64(hi.Games)); !(hi.Delta > 8*se) || hi.Rank != 1 {
			t.Errorf("%s: bid-13 impact %+.3f, want above 8 standard errors (%.3f), rank 1", bot, hi.Delta, se)
		}
		if hi.Variant != "one of 1 copies blank (bid 13 → 0)" {
			t.Errorf("variant %q", hi.Variant)
		}
		if !(lo.CI95[1] < hi.CI95[0]) {
			t.Errorf("%s: bid-1 impact %v not below bid-13's %v", bot, lo.CI95, hi.CI95)
		}
	}
}

// TestVariantArmUnperturbed: an impact baseline, played through the
// Valuer's Variants with nothing blanked, is the very games of a plain arm
// (NewState) on the same seeds — so a card's arm differs from it by the
// blank alone.
func TestVariantArmUnperturbed(t *testing.T) {
	g := goofspiel.Default()
	cfg := &PairedConfig{Matchups: [][]string{{"player", "player"}, {"player", "player", "player"}}, Bots: []string{"random"}, Games: 300, Seed: 9, Workers: 2}
	plain := &arm{g: g}
	viaVariants := &arm{g: g, variant: true, blank: -1, ncards: len(g.Cards())}
	blanked := &arm{g: g, variant: true, blank: 12, blankSide: 0, ncards: len(g.Cards())}
	if _, _, err := runArms(context.Background(), cfg, []*arm{plain, viaVariants, blanked}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain.units, viaVariants.units) {
		t.Fatal("the unperturbed variant arm's outcomes differ from the plain arm's")
	}
	if slices.Equal(plain.units, blanked.units) {
		t.Fatal("blanking bid 13 changed no outcome")
	}
}

// TestShardedImpactGoofspiel: another game's ablation, sharded and merged,
// is the unsharded result (the variant arms record and replay as any).
func TestShardedImpactGoofspiel(t *testing.T) {
	play := func(ctx context.Context) (*ImpactResult, error) {
		return Impact(ctx, ImpactConfig{Game: goofspiel.Default(), GamesPerCard: 90, Cards: []string{"bid-13", "bid-5"},
			PairedConfig: PairedConfig{Matchups: [][]string{{"player", "player"}, {"player", "player", "player"}}, Bots: []string{"random"}, Seed: 6, Workers: 2}})
	}
	want, err := play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 4} {
		got := shardRuns(t, n, play)
		got.Timing, want.Timing = Timing{}, Timing{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d shards merged differ from the unsharded run", n)
		}
	}
}
