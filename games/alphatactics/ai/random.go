// Package ai holds Alpha Tactics' own AI players, typed to its engine:
// random with its pass rule, strong, ISMCTS with its rollouts (the core's
// search, bots.Search, on the engine's contracts) and Parse for their specs.
// They make every decision of a game: Deployment turns, discards after
// passing, and every choice an effect asks for (a Strike ship's target, an
// EMP's weapon, Distress Signal ships, Negotiations bids, a Flagship's row).
package ai

import (
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
)

// Agent decides for the seat whose turn it is.
//
// Choose is called with the state and the deciding seat's legal actions
// (s.LegalActions, never empty) and returns one of them. An agent must use
// only what the deciding seat may know: the public table, its own hand and
// face-down cards, discard piles and any hand a Spy showed it — that is, the
// engine.State methods with viewer = s.CurrentPlayer() (Slot, HandCard, …).
// It must never read the state as engine.Omniscient, and it must not modify s
// (clone it to look ahead, and determinize the clone for the deciding seat).
//
// An agent holds its own random stream, never the game's: its choices must
// not change the game's shuffles. Agents are not safe for concurrent use; use
// one per game.
type Agent interface {
	Choose(s *engine.State, legal []engine.Action) engine.Action
}

// Random chooses uniformly among the legal actions, with one pass rule so
// that games look like games rather than endless passing:
//
//   - In a Deployment turn in which a card can be played, it passes with
//     probability 1/20 (PassOdds) and otherwise plays one of the other
//     actions chosen uniformly; it passes for sure only when passing is the
//     only legal action.
//   - After passing, it discards: each step it stops with probability 1/2,
//     and otherwise discards a hand card chosen uniformly (so it discards
//     one card with probability 1/4, and so on).
//   - Every other decision (an effect's target, a row, a Negotiations bid,
//     declining an optional effect) is uniform over the legal actions.
//
// Random looks at nothing but the legal actions, so it never uses hidden
// information. Choose does not allocate.
type Random struct {
	rng engine.RNG
	buf []engine.Action // scratch for the decisions RandomAction lists
}

// PassOdds is the 1-in-N chance with which Random passes a Deployment turn in
// which it could place a card.
const PassOdds = 20

// NewRandom returns a Random agent with its own stream seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: engine.NewRNG(seed)}
}

// Choose picks one of legal as described on Random.
func (b *Random) Choose(s *engine.State, legal []engine.Action) engine.Action {
	if len(legal) == 0 {
		return engine.DoneAction() // not reachable: a deciding seat always has an action
	}
	// engine.State.LegalActions lists Pass last in a Deployment turn, and
	// after passing the discards first and Done last; so the kind of
	// decision shows at the ends of the list without scanning it.
	last := legal[len(legal)-1]
	switch {
	case last.Kind() == engine.ActPass:
		others := len(legal) - 1
		if others == 0 || b.rng.Intn(PassOdds) == 0 {
			return last
		}
		return legal[b.rng.Intn(others)]
	case last.Kind() == engine.ActDone && legal[0].Kind() == engine.ActDiscard:
		if b.rng.Intn(2) == 0 {
			return last
		}
		return legal[b.rng.Intn(len(legal)-1)]
	}
	return legal[b.rng.Intn(len(legal))]
}

// Sample is Choose without a legal list: s.RandomAction draws the same
// action Choose would draw from s.LegalActions, so a random game lists only
// the options of effects (and is the same game either way). ok is false
// when s has no legal action. Once its scratch list has grown, Sample
// allocates nothing.
func (b *Random) Sample(s *engine.State) (a engine.Action, ok bool) {
	return s.RandomAction(&b.rng, PassOdds, &b.buf)
}

// Reseed starts the agent over as NewRandom(seed) would, so a runner can
// reuse it between games.
func (b *Random) Reseed(seed uint64) { b.rng = engine.NewRNG(seed) }

// Sampler is an Agent that decides from the state alone, drawing its action
// without building the legal list (Random does).
type Sampler interface {
	Agent
	Sample(s *engine.State) (a engine.Action, ok bool)
}

// Decide returns ag's action in s: a Sampler samples it, any other agent
// chooses from s.LegalActions, listed into *buf. ok is false when s has no
// legal action (a finished game, or an engine bug).
func Decide(ag Agent, s *engine.State, buf *[]engine.Action) (a engine.Action, ok bool) {
	// The random bot first, by its concrete type (one comparison; asking
	// for an interface is a runtime lookup), and alone: its path then
	// keeps nothing for later (rollouts and random games decide ~200 times
	// a game).
	if r, isRandom := ag.(*Random); isRandom {
		return r.Sample(s)
	}
	return decideOther(ag, s, buf)
}

// decideOther is Decide for any agent but Random.
func decideOther(ag Agent, s *engine.State, buf *[]engine.Action) (a engine.Action, ok bool) {
	switch r := ag.(type) {
	case *greedy.Greedy:
		return r.Decide(s, buf)
	case *ISMCTS:
	default:
		if sm, isSampler := ag.(Sampler); isSampler {
			return sm.Sample(s)
		}
	}
	*buf = s.LegalActions(*buf)
	if len(*buf) == 0 {
		return 0, false
	}
	return ag.Choose(s, *buf), true
}
