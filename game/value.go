package game

// Valuer is a Ruleset's side of the card-value experiment
// (analysis.CardValues; design game-neutral-core.md §3.6): which card
// copies it may blank or move by one unit of value, the unit, and the
// games in which a seat's copies are so perturbed. Every game of the
// experiment perturbs each seat's copies independently, so both seats of a
// mirrored game (one side on several seats) get their own perturbations,
// and the model adds a perturbed copy's term to the seat that holds it.
type Valuer interface {
	// ValueUnit is the unit a card's value is read in: Alpha Tactics' one
	// power point, Goofspiel's one bid point.
	ValueUnit() Unit
	// ValueCards lists side's cards in the order the experiment draws and
	// records their perturbations (the same order every game).
	ValueCards(side int) []ValueCard
	// NewVariants returns one worker's maker of perturbed games, which
	// reuses its memory from game to game.
	NewVariants() Variants
}

// Unit names the unit of value in the game's words.
type Unit struct {
	// Name and Plural: "power point", "power points".
	Name, Plural string
	// Short names what is moved by one unit: "power", "bid".
	Short string
	// Scale and Currency read values in the game's own currency where the
	// unit is a step of it: Spacetrace's unit is 10 MP (Scale 10, Currency
	// "MP"), so a value of 10.6 units prints as "a 106-MP card". Scale 0
	// prints values in units as they are.
	Scale    int
	Currency string
}

// PrintedColumn is the key of a card's whole-number column (Card.Columns)
// holding its printed value exactly in the game's currency, where the unit
// of value is a step of it that rounds the printed value (Spacetrace's
// full game: a 60-MP card is one 50-MP step). Reports print and plot it
// in place of the rounded steps.
const PrintedColumn = "printed"

// ValueCard is one card definition as the experiment may perturb it.
type ValueCard struct {
	// Index is the card's index in Ruleset.Cards().
	Index int
	// Blankable: a blank in one copy's place differs from the card. A card
	// that is already a blank is worth exactly 0 and gets no parameter.
	Blankable bool
	// Lower: a copy may be moved by −1 unit (else only by +1).
	Lower bool
	// Value is the card's printed value in units (the price curve's x).
	Value int
	// Plain: the card is its value and nothing else (no text, no tags), a
	// reference for what other cards' text is worth.
	Plain bool
}

// Perturb is what one game does to one card definition's copies on one
// seat: one copy blanked, and (besides) one copy moved by Shift units
// (−1, 0, +1).
type Perturb struct {
	Blank bool
	Shift int8
}

// Variants makes the experiment's games: a state of the ruleset played by
// the sides given, with the perturbations given. It is the design's
// Rebinder folded into the maker: the game may rebuild one state's tables
// in place (Alpha Tactics rebinds its engine to each variant ruleset) so
// that a game allocates nothing.
type Variants interface {
	// Variant returns a game seeded with seed in which lineup position k
	// plays side sides[k] with pert[k] (indexed by card, Cards() order)
	// applied to its copies, and seat q plays position (q+rot) mod n. It may
	// clear perturbations it cannot make (a capacity), from pert alone,
	// never from play; the caller records what is left. The state is valid
	// until the next call: states cloned from it must not be used after.
	Variant(sides []int, rot int, pert [][]Perturb, seed uint64) (State, error)
}
