package game

import (
	"io"

	"github.com/cardlab/cardlab/cards"
)

// The optional Game interfaces the command line asks (design
// game-neutral-core.md §3.3 and §3.10): cmd/cardlab parses flags, resolves
// sides and bots for any game, and leaves what a game shows of itself —
// the trace of one game, a scored scenario, the card list, the wording of
// its effects — to the game. A game that lacks one is refused by name.

// Tracer is a Game that shows one game move by move (cardlab play).
type Tracer interface {
	// Trace plays one game of rs from its start and writes what happens to
	// w: a trace a designer reads, or JSON with t.JSON. Its error is for a
	// ruleset of another game, agents it cannot seat, or a game that does
	// not end.
	Trace(w io.Writer, rs Ruleset, t TraceRequest) error
}

// TraceRequest is one game to trace.
type TraceRequest struct {
	// Seats are the side index each seat plays, in seat order.
	Seats []int
	// Agents decide for the seats (bots.ParseFor's), one per seat; Bots are
	// their specs as the trace names them.
	Agents []Agent
	Bots   []string
	// Seed seeds the game (Ruleset.NewState's).
	Seed uint64
	// JSON asks for the trace as JSON; RevealAll also shows what only some
	// seats see (hands, face-down cards, sealed bids, the order of a deck).
	JSON, RevealAll bool
}

// Scenarios is a Game whose positions can be written down and scored
// (cardlab score): a scenario file sets a position up, says what should
// come of it, and the game plays it out and explains the outcome.
type Scenarios interface {
	// LoadScenario reads the scenario file named file (its contents data)
	// for rs. Its error is a cards.ErrorList of positioned messages where
	// the file is at fault.
	LoadScenario(rs Ruleset, data []byte, file string) (Scenario, error)
}

// Scenario is one loaded scenario.
type Scenario interface {
	// Seats is how many seats it has; the agents are one per seat.
	Seats() int
	// Seed is the scenario's seed (0 when it sets none), which seeds the
	// agents that make its choices.
	Seed() uint64
	// Expectations is how many outcomes the scenario expects.
	Expectations() int
	// Score plays the scenario, agents making its choices, and writes the
	// outcome to w (as JSON with asJSON). mismatches are the expectations
	// not met, each a positioned message.
	Score(w io.Writer, agents []Agent, asJSON bool) (mismatches []string, err error)
}

// Cataloger is a Game that lists a ruleset's cards (cardlab cards).
type Cataloger interface {
	// Catalog writes the cards of rs to w in format: "table" (aligned
	// columns for a terminal), "md" (Markdown tables; free text escaped) or
	// "json" (everything, for machines). side is a side's index to list
	// only its cards, -1 for all.
	Catalog(w io.Writer, rs Ruleset, side int, format string) error
}

// EffectsGuide is a Game whose effect handlers (Game.Effects) cardlab
// effects explains in the game's own words.
type EffectsGuide interface {
	EffectsGuide() cards.EffectsGuide
}
