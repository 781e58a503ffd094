package main

import (
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// atRules is the Alpha Tactics ruleset under rs, for the analysis configs
// and results that still take *rules.Ruleset until they read game.Ruleset
// (issue 27, steps 5–7): the one place cmd/cardlab reaches under the
// contracts. nil for nil.
func atRules(rs game.Ruleset) *rules.Ruleset {
	if rs == nil {
		return nil
	}
	return rs.(alphatactics.Ruleset).RS
}
