package game

// Facer is a Game whose cards can be printed (cardlab print): it words every
// card of a ruleset as the faces a player reads, grouped in the decks that
// share a back. Package printing draws them (layout, PDF, Tabletop
// Simulator, PNG, SVG, CSV) and knows nothing else of the game.
type Facer interface {
	// Faces words the cards of rs, a ruleset of this game. Its error is
	// for a ruleset of another game.
	Faces(rs Ruleset) (*FaceSet, error)
}

// FaceSet is everything a game prints of one ruleset.
type FaceSet struct {
	// Name and Version are the ruleset's: the PDF's title and the line
	// under a back's title.
	Name, Version string
	Decks         []Deck
	// CSV is the header of cards.csv (the data sheet nanDECK and Squib
	// read): one row per face, its cells taken from Face.Cells by key. The
	// columns "deck", "color" and "back" are printing's: the deck's stem,
	// the printed colour and the back's file stem.
	CSV []string
	// ValueLegend says what a face's Value is, in a sentence for the PDF's
	// first page (`The corner figure "plays like N power" is the card's
	// value measured by simulation`); "" for faces without values, or a
	// plain "the card's measured value".
	ValueLegend string
}

// Deck is one pile of faces sharing a back.
type Deck struct {
	ID, Name string
	// Stem names the deck's files (tts/STEM-faces.png, cards/STEM/…): unique
	// in the set, letters, digits, '-' and '_' only.
	Stem  string
	Back  Back
	Faces []Face
}

// Back is the design on the reverse of a deck's cards: its colour to the
// edge and the title across the middle.
type Back struct {
	Title string
	// Side and Color choose the colour as for a Face.
	Side, Color string
}

// Face is what one card shows, whatever kind it is: the content of the
// layout's fields, already worded for a player.
type Face struct {
	// ID names the card's files and is printed in small print; the same
	// rules as Deck.Stem.
	ID   string
	Name string
	// Badge is the big number in the top corner (Alpha Tactics' combat
	// power, a target's victory points, a Goofspiel card's value);
	// BadgeSub an optional word under it ("VP").
	Badge, BadgeSub string
	TypeLine        string
	Text            string
	Footer          string // bottom left: the side's name, "Target", …
	Value           string // bottom right: the measured value (print --with-values), or ""
	// Side is the id of the side whose colour the card wears (layout.yaml's
	// colors.factions overrides it by this id); Color the colour it wears
	// otherwise ("#rrggbb"). A face with neither wears the layout's colour
	// for cards of no side (colors.targets).
	Side, Color string
	Copies      int // how often the card is printed
	// Cells are the face's cells of cards.csv by column key; a missing key
	// is an empty cell.
	Cells []Cell
}

// Cell is one cell of cards.csv.
type Cell struct {
	Key, Text string
	// Number marks a number the game formatted (written as it is); any
	// other cell is text from the ruleset, which printing keeps from being
	// read as a spreadsheet formula.
	Number bool
}

// ValueFacer is a Facer that also prints each card's measured value from a
// report's results.json in a corner of its face (cardlab print
// --with-values).
type ValueFacer interface {
	// FacesWithValues words the cards of rs as Faces does, reading the
	// values from the results file named file (already checked as a report
	// result by the caller). Its error is for a file it cannot read or one
	// that holds no card values of this game.
	FacesWithValues(rs Ruleset, file string) (*FaceSet, *ValueNotes, error)
}

// ValueNotes is what a designer should know about the values printed.
type ValueNotes struct {
	// HashMatches: the results were made from exactly these files.
	HashMatches bool
	// Stale are the ids of cards edited since the results measured them;
	// their faces say StaleLine instead of a value.
	Stale     []string
	StaleLine string
	// Unknown are card ids of the results that this ruleset lacks.
	Unknown []string
}

// CardFacer is a Facer that also words a card no deck of the ruleset holds
// (a spare card of the catalog, printed by no deck): the report's gallery
// draws it as the game would print it.
type CardFacer interface {
	// CardFace words the card of rs whose id is id; false for no such
	// card or a ruleset of another game.
	CardFace(rs Ruleset, id string) (Face, bool)
}
