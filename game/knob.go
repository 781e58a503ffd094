package game

// Knob is one integer of a ruleset that sweeps, diff and a later
// auto-balance may change (TAG's tunable parameters): a card's value, a
// rule's number. A knob never changes the ruleset it reads: With makes a
// copy with the one value changed, sharing what it does not change.
type Knob struct {
	// Name is the knob's name as a designer gives it on the command line
	// and reads it in the ruleset: "value", "cards", "power".
	Name string
	// Scope says what Entity means in Applies, Get and With: a card's
	// index in Cards(), a side's in Sides(), or nothing (rules: 0).
	Scope Scope
	// Doc says in a line what the value is.
	Doc string
	// Min and Max bound the value, inclusive.
	Min, Max int
	// Applies reports whether the knob exists on entity (a prize card's
	// value, not a bid card's). Nil: on every entity of its scope.
	Applies func(rs Ruleset, entity int) bool
	Get     func(rs Ruleset, entity int) int
	// With returns a ruleset with the value set to v, or why v cannot be
	// (a ruleset its loader would refuse); rs is left as it was.
	With func(rs Ruleset, entity, v int) (Ruleset, error)
	// Where is where the value is written in the ruleset's files (file
	// relative to the ruleset, line 1-based; 0 when it is not written, a
	// default), for the edit a sweep suggests: Alpha Tactics' power on the
	// card's `power:` line, an effect parameter on its line under
	// `params:`. Nil: a card knob at the card's first line (Card.Pos), a
	// rules knob at rules.yaml's top-level key of its name.
	Where func(rs Ruleset, entity int) (file string, line int)
}

// Scope is what a knob sits on.
type Scope uint8

const (
	OnRules Scope = iota // the rules as a whole (entity 0)
	OnCard               // a card of Cards()
	OnSide               // a side of Sides()
)

func (s Scope) String() string {
	switch s {
	case OnCard:
		return "card"
	case OnSide:
		return "side"
	}
	return "rules"
}

// Knobbed is implemented by a Ruleset that declares knobs.
type Knobbed interface {
	Knobs() []Knob
}

// KnobFinder is a Knobbed ruleset that finds the knob a designer names
// itself: other names for a knob (Alpha Tactics' "amount" for
// "params.amount") and refusals in the game's words (what the card has
// instead). Without it, sweep finds a knob by its exact name among those
// of the scope that apply to the entity.
type KnobFinder interface {
	// FindKnob returns the knob name names on entity of scope (OnCard: a
	// card's index in Cards(); OnRules: 0), or why there is none.
	FindKnob(scope Scope, entity int, name string) (Knob, error)
}

// KnobsOf returns rs's knobs (none when it declares none).
func KnobsOf(rs Ruleset) []Knob {
	if k, ok := rs.(Knobbed); ok {
		return k.Knobs()
	}
	return nil
}

// KnobApplies reports whether k exists on entity of rs.
func KnobApplies(k *Knob, rs Ruleset, entity int) bool {
	return k.Applies == nil || k.Applies(rs, entity)
}
