package analysis

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules/cardstest"
	"github.com/cardlab/cardlab/internal/bug"
)

// TestRunCapacityLimits plays rulesets at every loader limit through the
// runner with every bot kind, every lineup size the rules allow, and the
// card-value estimate (issue 24: a ruleset that validated crashed every
// command that plays). A panic in a worker fails the run with an error.
func TestRunCapacityLimits(t *testing.T) {
	for _, c := range cardstest.Limits() {
		t.Run(c.Name, func(t *testing.T) {
			rs, err := cardstest.Load(c.Params)
			if err != nil {
				t.Fatalf("the generated ruleset does not load: %v", err)
			}
			var ids []string
			for i := range rs.Factions {
				ids = append(ids, rs.Factions[i].ID)
			}
			var matchups [][]string
			for n := rs.Rules.MinPlayers; n <= rs.Rules.MaxPlayers; n++ {
				matchups = append(matchups, ids[:n])
			}
			for _, bot := range []string{"random", "greedy", "ismcts:iters=8"} {
				res, err := Run(context.Background(), Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: matchups, Bots: []string{bot},
					Games: 4, Seed: 1, Workers: 2})
				if err != nil {
					t.Fatalf("%s: %v", bot, err)
				}
				if res.Counts.Games != int64(4*len(matchups)) {
					t.Fatalf("%s: %d games played, want %d", bot, res.Counts.Games, 4*len(matchups))
				}
			}
			// 64 games may leave some of 240 distinct cards unperturbed or
			// the model unconverged: that is an answer (play more games),
			// a crash or a refused ruleset is not.
			_, err = CardValues(context.Background(), CardValueConfig{Game: alphatactics.Ruleset{RS: rs}, Matchups: matchups[:1],
				Bots: []string{"random"}, Games: 64, Precision: -1, Workers: 2})
			var be *bug.Error
			if err != nil && (errors.As(err, &be) || !errors.Is(err, errTooFewGames) && !strings.Contains(err.Error(), "play more games")) {
				t.Fatalf("card values: %v", err)
			}
		})
	}
}
