package ai

import (
	"math"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
)

// ISMCTS is information-set Monte Carlo tree search with a single observer
// (Cowling, Powley & Whitehouse 2012) for Alpha Tactics' engine: Search,
// the search of every game, on the state it is asked about seen through
// the contracts (engine.Contract), its leaves valued by EngineEvaluator —
// a rollout by the random or the greedy bot to the end of the round being
// played (or of the game, FullGame), then the standings valued by Evaluate.
// Each iteration deals the cards its seat cannot see at random, walks the
// tree with UCB1 restricted to the actions legal in that deal, adds one
// node, plays out and credits every node on the path with the win share of
// the seat that chose it. Actions name cards, not physical copies, so one
// tree serves every deal.
//
// With a fixed iteration budget and seed it is deterministic. Choose
// allocates nothing once its node arena has grown to the budget.
type ISMCTS struct {
	bots.Search
	Rollout string // "random" or "greedy"
	// FullGame rolls out to the end of the game; otherwise to the end of
	// the round being played, then the standings are valued by Evaluate.
	FullGame bool

	eval EngineEvaluator
	st   engine.Contract // the state Choose is asked about
}

// NewISMCTS returns a search agent with the given iterations per decision and
// rollout ("random" or "greedy").
func NewISMCTS(seed uint64, iterations int, rollout string) *ISMCTS {
	if iterations <= 0 {
		iterations = bots.DefaultIterations
	}
	b := &ISMCTS{Rollout: rollout}
	if rollout != "greedy" {
		b.Rollout = "random"
	}
	b.eval.Greedy = b.Rollout == "greedy"
	b.Search = bots.Search{Iterations: iterations, C: 0.7, Eval: &b.eval}
	b.Reseed(seed)
	return b
}

// Choose runs the search from s for the seat to move and returns the most
// visited legal action.
func (b *ISMCTS) Choose(s *engine.State, legal []engine.Action) engine.Action {
	b.eval.FullGame = b.FullGame
	b.st.S = s
	return engine.Action(b.Search.Choose(&b.st, engine.GameActions(legal)))
}

// EngineEvaluator is Alpha Tactics' leaf value for a search (a
// game.Evaluator over engine states, engine.Holder): a rollout by the random
// bot, or the greedy bot when Greedy, to the end of the round being played,
// or of the game when FullGame, decided with Decide on the engine (no
// interface call a decision); then the win shares if the game is over, else
// Evaluate's win chances.
type EngineEvaluator struct {
	Greedy, FullGame bool
	roll             Agent
	buf              []engine.Action
}

// Reseed implements game.Evaluator: the rollout bot starts over from seed.
func (e *EngineEvaluator) Reseed(seed uint64) {
	switch r := e.roll.(type) {
	case *greedy.Greedy:
		if e.Greedy {
			r.Reseed(seed)
			return
		}
	case *Random:
		if !e.Greedy {
			r.Reseed(seed)
			return
		}
	}
	if e.Greedy {
		e.roll = greedy.New(seed)
	} else {
		e.roll = NewRandom(seed)
	}
}

// Evaluate implements game.Evaluator; s must be an Alpha Tactics state.
func (e *EngineEvaluator) Evaluate(s game.State) [game.MaxSeats]float64 {
	d := engine.Hold(s).S
	round := d.Round()
	for !d.IsTerminal() && (e.FullGame || d.Round() == round) {
		a, _ := Decide(e.roll, d, &e.buf)
		d.Apply(a)
	}
	if d.IsTerminal() {
		return d.Returns()
	}
	return Evaluate(d)
}

// Evaluate values an unfinished game for every seat as a chance of winning:
// a softmax of the victory points each would score if the game ended now,
// flatter the more rounds are left (a lead of a few VP means little early).
func Evaluate(s *engine.State) [4]float64 {
	n := s.NumPlayers()
	var vp [4]float64
	for p := 0; p < n; p++ {
		vp[p] = float64(s.ProvisionalScore(p).Total)
	}
	return winChances(&vp, n, s.RoundsLeft())
}

// winChances turns the first n seats' expected victory points into chances
// of winning the game: a softmax, flatter the more rounds are left.
func winChances(vp *[4]float64, n, roundsLeft int) [4]float64 {
	var out [4]float64
	scale := 2 + 2.5*float64(roundsLeft)
	best := math.Inf(-1)
	for p := 0; p < n; p++ {
		best = math.Max(best, vp[p])
	}
	sum := 0.0
	for p := 0; p < n; p++ {
		out[p] = math.Exp((vp[p] - best) / scale)
		sum += out[p]
	}
	for p := 0; p < n; p++ {
		out[p] /= sum
	}
	return out
}
