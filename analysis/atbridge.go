package analysis

import (
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// atRuleset is g's Alpha Tactics ruleset, nil for another game: the paired
// runner's arms still take Alpha Tactics' engine path through arm.rs until
// arms hold only the game.Ruleset (issue 27).
func atRuleset(g game.Ruleset) *rules.Ruleset {
	if at, ok := g.(alphatactics.Ruleset); ok {
		return at.RS
	}
	return nil
}
