package game

// Ablator is a Ruleset whose cards `cardlab impact` ablates in ways of the
// game's own, each ablation a whole variant ruleset played beside the
// ruleset on the same seeds (Alpha Tactics: blank, effect-off and
// blank-copy, by power, kind and effect). Without it, impact blanks one
// copy of a card through the game's Valuer (Goofspiel: a bid card bids
// 0). A game whose Valuer also blanks may still want its own: Alpha
// Tactics' blank-copy deck (the blank appended to the faction's deck) is
// not the card-value experiment's, and its impact results are kept.
type Ablator interface {
	// AblationModes lists the modes Ablate takes, as a designer names them
	// (--mode), and the one impact plays when none is given.
	AblationModes() (modes []string, def string)
	// Ablate returns the ruleset with card (its index in Cards()) ablated
	// by mode, and the change in words ("blank (power 3 → 0, kind O →
	// N)"); skip says why not, with v nil, when the ablation would change
	// nothing (a card already blank). The variant's Info().Hash differs
	// from the ruleset's.
	Ablate(card int, mode string) (v Ruleset, desc, skip string)
}

// CardHasher is a Ruleset that identifies what each card does in play, so
// a value measured on a card can be told stale once the card changes
// (Alpha Tactics: its faction, type, kind, power, effect and tags, not its
// name or text; `print --with-values` marks such a value). Without it a
// card's value carries no hash.
type CardHasher interface {
	// CardHash is card's (its index in Cards()) play hash.
	CardHash(card int) string
}
