package analysis

import (
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The tests' Alpha Tactics fixtures: analysis itself reads a game only
// through the contracts (game.Ablator, game.Knob, game.Valuer), and its
// tests make their variant rulesets with the game's own helpers.

// Variant is alphatactics.Variant.
func Variant(rs *rules.Ruleset, desc string, edit func(*rules.Ruleset)) *rules.Ruleset {
	return alphatactics.Variant(rs, desc, edit)
}

// Ablate is alphatactics.Ablate.
func Ablate(rs *rules.Ruleset, d int, mode string) (*rules.Ruleset, string, string) {
	return alphatactics.Ablate(rs, d, mode)
}

// blankable is alphatactics.Blankable.
func blankable(c *rules.Card) bool { return alphatactics.Blankable(c) }
