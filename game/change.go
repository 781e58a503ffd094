package game

// Change is one difference between two rulesets' definitions, as `cardlab
// diff` lists it.
type Change struct {
	// Kind is what changed: "rules", or a kind of the game's things
	// (Alpha Tactics: "faction", "card", "target"; Goofspiel: "card").
	Kind string `json:"kind"`
	// ID is the thing's id; "" for rules.
	ID string `json:"id,omitempty"`
	// Change is "added", "removed" or "changed".
	Change string `json:"change"`
	// Field is the changed field (for Change "changed"), e.g. "power",
	// "effect", "hand_size".
	Field   string `json:"field,omitempty"`
	Base    string `json:"base,omitempty"`
	Variant string `json:"variant,omitempty"`
	// Pos is file:line in the variant ruleset (in the base one for a
	// removal).
	Pos string `json:"pos,omitempty"`
}

// Differ is implemented by a Ruleset that lists its own changes from a
// base ruleset of its game (Alpha Tactics: every field by name). Without
// it, diff lists the knobs' values and the files' top-level keys.
type Differ interface {
	Changes(base Ruleset) []Change
}
