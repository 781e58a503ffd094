package eclipse

import "github.com/cardlab/cardlab/game"

// Embedded implements game.Embedder: both editions, the default first, for
// cardlab init --game eclipse --ruleset NAME.
func (Game) Embedded() []game.Embedded {
	return []game.Embedded{
		{Name: DefaultRuleset, Summary: "first edition, the seed summary's", Files: EmbeddedFS(DefaultRuleset)},
		{Name: SecondEdition, Summary: "second edition (Second Dawn for the Galaxy)", Files: EmbeddedFS(SecondEdition)},
	}
}
