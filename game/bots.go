package game

// The optional Ruleset interfaces the bots read (design game-neutral-core.md
// §3.8). The core's bots are "random" (uniform over the legal actions) and
// "ismcts" (the search in package bots, valuing its leaves with the game's
// Evaluator or a uniform random rollout to the end); a game adds its own
// through Botter, and may play a core bot its own way there too (Alpha
// Tactics' random has a pass rule, its ISMCTS a concrete rollout).

// Botter is a Ruleset that has bots of its own.
type Botter interface {
	// BotNames are the names NewBot makes, lower case: the game's own bots
	// (Alpha Tactics: greedy, strong; Goofspiel: greedy) and any core bot
	// the game plays its own way.
	BotNames() []string
	// NewBot makes bot name, one of BotNames, seeded with seed. params are
	// the spec's key=value parameters (lower case; empty for none) and spec
	// the whole spec as given, normalised to lower case. An error is the
	// spec's fault (a bad parameter), never the game's.
	NewBot(name string, params map[string]string, spec string, seed uint64) (Agent, error)
}

// Evaluator values a search's leaf (OpenSpiel's Evaluator, algorithms/mcts.h):
// s is the search's own scratch copy, determinized for the searching seat,
// which Evaluate may play on (a rollout). The values are each seat's
// expected win share in [0, 1]. An Evaluator holds its own random stream and
// is used by one search at a time.
type Evaluator interface {
	Evaluate(s State) [MaxSeats]float64
	// Reseed starts the evaluator's stream over from seed.
	Reseed(seed uint64)
}

// EvaluatorMaker is a Ruleset whose searches value their leaves its own
// way, in place of a uniform random rollout to the end.
type EvaluatorMaker interface {
	// NewEvaluator makes an evaluator seeded with seed. params are the
	// search spec's parameters other than the core's (iterations, time), for
	// the evaluator to read (Alpha Tactics: rollout, depth); an unknown one
	// is an error.
	NewEvaluator(params map[string]string, seed uint64) (Evaluator, error)
	// EvaluatorParams names the parameters NewEvaluator reads, for messages.
	EvaluatorParams() []string
}

// Simultaneous is a State whose moves can be hidden from the seats that
// decide after them until later — simultaneous moves played one seat after
// another (Goofspiel's bids). A search over such a state keeps one tree per
// seat, each seat's nodes told apart only by what that seat observes
// (Observation), so a later mover never plays as if it saw an earlier
// hidden move (bots.Search). A game without hidden moves (Alpha Tactics)
// does not implement it and keeps the cheaper single-tree search.
type Simultaneous interface {
	// Rewind takes a determinized state back, for viewer, to the start of
	// the simultaneous round in progress: the moves of the round viewer has
	// not seen are undone, so the search plays them again from their
	// movers' trees rather than taking a uniformly random deal of them for
	// what was played (which would model the earlier movers as random and
	// the later as knowing it). A state with nothing hidden from viewer in
	// the round is left as it is.
	Rewind(viewer int)
}

// DefaultBotter is a Ruleset that names the bot the analysis commands play
// when --bots is not given, in place of the core's choice (strong where the
// game has it, else greedy, else random): a game whose rule of thumb plays
// degenerate games against itself (Goofspiel's greedy ties every turn) names
// a bot whose self-play varies.
type DefaultBotter interface {
	// DefaultBot is a bot spec the game's bots parse (bots.ParseFor).
	DefaultBot() string
}

// CheckBotter is a Ruleset that names the tier the report checks its
// verdicts against when --check-bots is not given: where one of its bots is
// another's alias (Eclipse's greedy is kill_largest), the core's rule of
// thumb (strong, else greedy, else random) would replay the report's own
// policy under another name.
type CheckBotter interface {
	// CheckBot is a bot spec for a report whose bots are played (the
	// report's --bots, comma-joined).
	CheckBot(played string) string
}
