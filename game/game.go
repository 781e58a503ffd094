// Package game says what a game is to cardlab's game-neutral layers: the
// contracts every game implements (State, Agent, Game, Ruleset, with the
// Side and Card descriptors and the Vocabulary reports name things by), the
// registry games join in init like database/sql drivers (Register, Lookup,
// Games), and the games' generator RNG with the seeds that make batches
// independent of workers and shards (SeedFor).
//
// A game keeps its hot loops concrete (design game-neutral-core.md §3.1):
// the neutral layers cross these interfaces once per game, or once per
// search step, never per decision inside a game's own loop. Alpha Tactics
// implements them in games/alphatactics; games/all links every game.
//
// The optional PlayOuter lets a game play a whole game with its own loop
// (the batch runner's); Botter and EvaluatorMaker give a game its own bots
// and its searches' leaf values (bots.go). The design's further contracts —
// Knob, Valuer, Counter, Study, View and the optional Lifecycler, Differ —
// join here with the steps that first use them (sweep
// and card value, the counts, reports), so each is written against a
// caller, not guessed.
package game

import (
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
)

// MaxSeats is the most seats a game of any game has.
const MaxSeats = 4

// Action is a game's move, packed by the game; the neutral layers never
// decode it.
type Action uint32

// State is one game in progress (OpenSpiel's State). Chance is sampled
// inside Apply from the state's own stream, so two rulesets played from one
// seed see the same deals: what makes cardlab's comparisons paired.
type State interface {
	NumSeats() int
	// CurrentPlayer is the deciding seat; -1 once the game is over.
	CurrentPlayer() int
	// LegalActions appends the legal actions to buf[:0] in the game's fixed
	// order and returns it.
	LegalActions(buf []Action) []Action
	Apply(Action)
	IsTerminal() bool
	// Returns are the win shares, summing to 1 once the game is over (a
	// shared victory is split).
	Returns() [MaxSeats]float64
	// Score is seat's points in the game's own unit (Alpha Tactics: VP),
	// final once the game is over, as they stand before.
	Score(seat int) int
	// Reset starts a new game at the same table and ruleset with seed.
	Reset(seed uint64)
	Clone() State
	// CopyInto overwrites dst, a state of the same game, with this one.
	CopyInto(dst State)
	// Determinize resamples what viewer cannot see (OpenSpiel's
	// ResampleFromInfostate) from rng.
	Determinize(viewer int, rng *RNG)
	// ActionString names an action for traces and errors.
	ActionString(a Action) string
	// Observation appends to buf an encoding of what seat can observe now
	// (its own hand, the table as it sees it, public counts), for the
	// never-peek tests: Determinize(seat, …) must leave it unchanged. Two
	// states with different observations for seat are ones seat can tell
	// apart; the encoding is the game's and only compared for equality.
	Observation(seat int, buf []byte) []byte
}

// Agent decides for the seat whose turn it is, from what that seat may know.
type Agent interface {
	Choose(s State, legal []Action) Action
}

// PlayOuter is a State that plays a whole game itself with a concrete
// decision loop, so a batch of games crosses the contracts once per game
// rather than at every decision (design game-neutral-core.md §3.12: four
// interface calls a decision would cost a random Alpha Tactics game about
// 5%). The batch runner uses it when the state has it and PlayGeneric
// otherwise; both must play the same game.
type PlayOuter interface {
	// PlayOut plays from the current position to the end, agents[seat]
	// deciding for seat, and appends each action applied to moves. It checks
	// stop before each action is applied: once stop is true it returns
	// ErrStopped with the game unfinished (moves then replay what was
	// played); stop must not be nil. Agents it does not know it may leave
	// to PlayGeneric.
	PlayOut(agents []Agent, stop *atomic.Bool, moves []Action) ([]Action, error)
}

// ErrStopped is PlayOut's answer when stop was set during the game.
var ErrStopped = errors.New("game: stopped")

// MaxDecisions bounds one game for the players of whole games: beyond it a
// game is looping (a bug in its rules engine).
const MaxDecisions = 1_000_000

// PlayGeneric is the decision loop through the contracts: each agent
// chooses from the legal list, buf being its scratch (returned, maybe
// grown); a nil stop never stops. It is what PlayOuter's concrete loops
// must match.
func PlayGeneric(s State, agents []Agent, stop *atomic.Bool, moves, buf []Action) ([]Action, []Action, error) {
	for steps := 0; !s.IsTerminal(); steps++ {
		q := s.CurrentPlayer()
		if q < 0 || q >= len(agents) || steps > MaxDecisions {
			return moves, buf, fmt.Errorf("game: did not end after %d decisions (a bug in its rules: please report it with the seed)", steps)
		}
		buf = s.LegalActions(buf)
		if len(buf) == 0 {
			return moves, buf, fmt.Errorf("game: no legal action for seat %d (a bug in its rules: please report it with the seed)", q+1)
		}
		a := agents[q].Choose(s, buf)
		if stop != nil && stop.Load() {
			return moves, buf, ErrStopped
		}
		s.Apply(a)
		moves = append(moves, a)
	}
	return moves, buf, nil
}

// Game is a registered game: OpenSpiel's GameType with its factory.
type Game interface {
	// ID is the game's key: Register's, Lookup's and rules.yaml's `game:`.
	ID() string
	Name() string
	Vocabulary() Vocabulary
	// Load reads a ruleset from dir of fsys; its error is a cards.ErrorList
	// of positioned messages where the files are at fault.
	Load(fsys fs.FS, dir string) (Ruleset, error)
	// Default is the game's embedded ruleset and its files (cardlab init).
	Default() (Ruleset, fs.FS)
	// Effects is the game's effect handlers; nil for a game without any.
	Effects() *effects.Registry
	// Schemas are the editor JSON Schemas of the ruleset's files, by file
	// name (rules.schema.json, …).
	Schemas() (map[string][]byte, error)
}

// Vocabulary is how reports and the command line name the game's things.
type Vocabulary struct {
	Side, Sides string // "faction", "factions"
	Score       string // "VP"
	Length      string // "round": what a game's length is counted in
}

// Ruleset is one loaded, validated ruleset of a game. It is immutable:
// states and goroutines share it.
type Ruleset interface {
	Game() string
	Info() Info
	// Seats is the range of seats a game may have.
	Seats() (min, max int)
	// Sides are what a seat plays (Alpha Tactics: the factions); never empty.
	Sides() []Side
	// Mirror reports whether one side may take several seats of a game.
	Mirror() bool
	// Cards describes the card definitions; nil for a game without any.
	Cards() []Card
	// NewState sets up a game: seats[i] is the side index seat i plays.
	NewState(seats []int, seed uint64) (State, error)
}

// Info identifies a ruleset in results.
type Info struct {
	Name, Version string
	// Hash is the hex SHA-256 over the ruleset's files (cards.HashFiles).
	Hash string
	// Files are the ruleset's files by relative path, as loaded.
	Files map[string][]byte
}

// Side is one side a seat may play.
type Side struct {
	ID, Name, Color string
	Pos             cards.Pos
}

// Card describes one card definition to the neutral layers; the game's typed
// card stays in its own package.
type Card struct {
	Index    int
	ID, Name string
	Side     int // the owning side's index; -1 for a shared pile
	Copies   int
	Text     string
	Tags     []string
	Effects  []string // handler names bound, in binding order
	Columns  []Column // printed fields for tables, in the game's order
	Pos      cards.Pos
}

// Column is one printed field of a card: {"power", 3}, {"kind", "O"}.
type Column struct {
	Key string
	// Text is the field as printed; Int its value when IsInt.
	Text  string
	Int   int
	IsInt bool
}

// RulesetFS is the directory dir of fsys, where Game.Load reads a ruleset:
// fsys itself for "" or ".", so a game's Load reads every ruleset the same
// way.
func RulesetFS(fsys fs.FS, dir string) (fs.FS, error) {
	if dir == "." || dir == "" {
		return fsys, nil
	}
	return fs.Sub(fsys, dir)
}
