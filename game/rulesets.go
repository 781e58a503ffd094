package game

import "io/fs"

// Embedded is one ruleset a game carries in its binary for a designer to
// start from: cardlab init --game G --ruleset Name writes Files.
type Embedded struct {
	// Name is what --ruleset takes: unique within the game, stable.
	Name string
	// Summary says in one line what the ruleset is, for cardlab games.
	Summary string
	// Files are the ruleset's files, rules.yaml at the root.
	Files fs.FS
}

// Embedder is a Game that embeds more than its default ruleset. The first
// entry of Embedded is the default: the one Default returns.
type Embedder interface {
	Embedded() []Embedded
}

// DefaultRulesetName names the default of a game that is no Embedder.
const DefaultRulesetName = "default"

// Rulesets are g's embedded rulesets, the default first: an Embedder's
// list, otherwise the default alone, named DefaultRulesetName and summed
// up by its name and version. A game without a default has none.
func Rulesets(g Game) []Embedded {
	if e, ok := g.(Embedder); ok {
		return e.Embedded()
	}
	rs, files := g.Default()
	if files == nil {
		return nil
	}
	summary := "the default ruleset"
	if rs != nil {
		if in := rs.Info(); in.Name != "" {
			summary = in.Name
			if in.Version != "" {
				summary += " " + in.Version
			}
		}
	}
	return []Embedded{{Name: DefaultRulesetName, Summary: summary, Files: files}}
}
