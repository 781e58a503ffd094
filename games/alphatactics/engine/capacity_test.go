package engine

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/alphatactics/rules/cardstest"
)

// TestCapacityLimits plays random games, checking every invariant after
// every action, on rulesets at every limit the loader accepts (issue 24: a
// ruleset with 64 targets validated and then crashed every game in setup).
// The loader's limits and the engine's capacities come from the same
// constants (cards.Max*); this test holds them to each other.
func TestCapacityLimits(t *testing.T) {
	for _, c := range cardstest.Limits() {
		t.Run(c.Name, func(t *testing.T) {
			rs, err := cardstest.Load(c.Params)
			if err != nil {
				t.Fatalf("the generated ruleset does not load: %v", err)
			}
			ids := make([]string, len(rs.Factions))
			for i := range rs.Factions {
				ids[i] = rs.Factions[i].ID
			}
			for n := rs.Rules.MinPlayers; n <= rs.Rules.MaxPlayers; n++ {
				for g := 0; g < 20; g++ {
					f := make([]string, n)
					for i := range f {
						f[i] = ids[(g+i)%len(ids)]
					}
					playRandom(t, rs, f, SeedFor(uint64(n), uint64(g)), true, nil)
				}
			}
		})
	}
}

// TestPropertyLoadedRulesetsPlay: any ruleset the loader accepts, with rule
// parameters drawn anywhere in their ranges (limits included), plays to
// the end with every invariant holding.
func TestPropertyLoadedRulesetsPlay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		per := rapid.IntRange(1, rules.MaxRowsPerRound).Draw(t, "targets_per_round")
		hand := rapid.IntRange(1, rules.MaxHandSize).Draw(t, "hand_size")
		p := cardstest.Params{
			Players:         rapid.IntRange(2, rules.MaxPlayers).Draw(t, "players"),
			HandSize:        hand,
			TargetsPerRound: per,
			Rounds:          rapid.IntRange(1, rules.MaxTargets/per).Draw(t, "rounds"),
			CardsToEnd:      rapid.IntRange(1, rules.MaxCardsToEnd).Draw(t, "cards_to_end"),
			DeckSize:        rapid.IntRange(hand, rules.MaxDeckSize).Draw(t, "deck_size"),
			Copies:          rapid.IntRange(1, rules.MaxCopies).Draw(t, "copies"),
		}
		rs, err := cardstest.Load(p)
		if err != nil {
			t.Fatalf("the generated ruleset does not load: %v", err)
		}
		n := rapid.IntRange(2, p.Players).Draw(t, "seats")
		f := make([]string, n)
		for i := range f {
			f[i] = rs.Factions[i].ID
		}
		playRandom(t, rs, f, rapid.Uint64().Draw(t, "seed"), true, nil)
	})
}
