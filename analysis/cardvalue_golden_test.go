package analysis

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestCardValuesUnchanged pins Alpha Tactics' card values, figure for
// figure, to the ones the experiment gave before it ran on the game's
// Valuer (issue 27 step 5d): a hash of each result's JSON, taken with the
// engine-typed loop at 7a383c1. Two and three seats, random and greedy,
// and a ruleset near the engine's capacity (perturbations trimmed).
func TestCardValuesUnchanged(t *testing.T) {
	base := rules.Default()
	padded := Variant(base, "padded", func(v *rules.Ruleset) {
		v.Factions = slices.Clone(v.Factions)
		kl := &v.Factions[0]
		kl.Deck = slices.Clone(kl.Deck)
		for len(v.Cards) < 240 {
			c := v.Cards[kl.Deck[0]]
			c.Index, c.ID, c.Copies = len(v.Cards), fmt.Sprintf("pad-%d", len(v.Cards)), 1
			v.Cards = append(v.Cards, c)
		}
	})
	for _, tc := range []struct {
		name string
		cfg  CardValueConfig
		want string
	}{
		{"two seats random", CardValueConfig{Game: alphatactics.Ruleset{RS: base}, Matchups: [][]string{{"klingon", "romulan"}, {"starfleet", "vulcan"}},
			Bots: []string{"random"}, Games: 640, Precision: -1, Seed: 7, Workers: 2}, "521dcc5ea84c5db5bccd29eaf4241b88cd0a87cf7df2342673abd4cf96b787e9"},
		{"three seats greedy", CardValueConfig{Game: alphatactics.Ruleset{RS: base}, Matchups: [][]string{{"klingon", "romulan", "vulcan"}},
			Bots: []string{"greedy"}, Games: 320, Precision: -1, Seed: 11, Workers: 2}, "1e130768570bd40e8e359bc712105625f1109ddf8deb68c3b76807e2805876c0"},
		{"near capacity", CardValueConfig{Game: alphatactics.Ruleset{RS: padded}, Matchups: [][]string{{padded.Factions[0].ID, "klingon"}},
			Bots: []string{"random"}, Games: 640, Precision: -1, Seed: 2, Workers: 2}, "35b76f96c34d8b750efa5bd49cf0fa897a2154bf2029c2c2f28bd52a3aeaa513"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := CardValues(context.Background(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Values) == 0 {
				t.Fatal("no values")
			}
			res.Elapsed = 0
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != tc.want {
				t.Errorf("card values changed: hash %s, want %s", got, tc.want)
			}
		})
	}
}

// BenchmarkCardValueGames runs the card-value experiment on b.N games (at
// least 64) of one two-faction lineup of random bots, one worker: run
// under callgrind at two N, the difference of the totals over the
// difference of the games is the experiment's instructions a game
// (docs/architecture.md, step 5d).
func BenchmarkCardValueGames(b *testing.B) {
	cfg := CardValueConfig{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"klingon", "romulan"}},
		Bots: []string{"random"}, Games: max(b.N, 2*valueGroups), Precision: -1, Seed: 1, Workers: 1}
	if _, err := CardValues(context.Background(), cfg); err != nil {
		b.Fatal(err)
	}
}
