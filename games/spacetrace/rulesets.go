package spacetrace

import "github.com/cardlab/cardlab/game"

// Embedded implements game.Embedder: the three embedded rulesets, the
// default first, for cardlab init --game spacetrace --ruleset NAME.
func (Game) Embedded() []game.Embedded {
	return []game.Embedded{
		{Name: ReferenceRuleset, Summary: "the full game: the reconstructed 40-card reference deck", Files: EmbeddedFS(ReferenceRuleset)},
		{Name: FirstRuleset, Summary: "the simplified first game: 12 ships + 10 reinforcements each, no tactics", Files: EmbeddedFS(FirstRuleset)},
		{Name: SecondRuleset, Summary: "the second game: 17 ships + 14 reinforcements each, no tactics", Files: EmbeddedFS(SecondRuleset)},
	}
}
