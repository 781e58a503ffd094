package spacetrace

import (
	"fmt"
	"math"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// ISMCTS's leaf value for Spacetrace (game.EvaluatorMaker): the core's
// search (bots.Search) deals what the searching seat cannot see and hands
// the determinized copy here. A rollout plays it on — by the greedy bot
// (the default: battles are exact, so greedy's attack preview is the
// informed part of a playout a uniform one lacks) or uniformly at random —
// for turns=N turns (default 2, the attack it prepares and the answer),
// after which the position is read by Estimate, or with turns=0 to the end
// of the game. Two turns play as well as the whole game at a quarter of
// the cost (docs/rules-spacetrace.md, "The search").

// Evaluator values a search's leaf by a rollout.
type Evaluator struct {
	// Random plays the rollout uniformly at random instead of greedily.
	Random bool
	// Turns ends the rollout after this many turns (0: at the game's end).
	Turns int
	rng   game.RNG
	buf   []game.Action
}

// EvaluatorParams implements game.EvaluatorMaker.
func (rs *Ruleset) EvaluatorParams() []string { return []string{"rollout", "turns"} }

// DefaultRolloutTurns is the rollout's horizon when turns is not given.
const DefaultRolloutTurns = 2

// NewEvaluator implements game.EvaluatorMaker: rollout=greedy|random,
// turns=N (DefaultRolloutTurns if not given; 0 plays to the end).
func (rs *Ruleset) NewEvaluator(params map[string]string, seed uint64) (game.Evaluator, error) {
	e := &Evaluator{Turns: DefaultRolloutTurns}
	for k, v := range params {
		switch k {
		case "rollout":
			switch v {
			case "greedy", "random":
				e.Random = v == "random"
			default:
				return nil, fmt.Errorf("spacetrace: ismcts rollout must be greedy or random, got %q", v)
			}
		case "turns":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1000 {
				return nil, fmt.Errorf("spacetrace: ismcts turns must be a whole number from 0 (to the end) to 1000, got %q", v)
			}
			e.Turns = n
		default:
			return nil, fmt.Errorf("spacetrace: unknown ismcts parameter %q (have iters, time, rollout, turns)", k)
		}
	}
	e.Reseed(seed)
	return e, nil
}

// Reseed implements game.Evaluator.
func (e *Evaluator) Reseed(seed uint64) { e.rng = game.NewRNG(seed) }

// Evaluate implements game.Evaluator: it plays on s (the search's scratch
// copy) and returns each seat's win share, the game's own where it ended,
// else Estimate's.
func (e *Evaluator) Evaluate(st game.State) [game.MaxSeats]float64 {
	s := st.(*State)
	stop := s.Turn + e.Turns
	for !s.IsTerminal() && (e.Turns == 0 || s.Turn < stop) {
		e.buf = s.LegalActions(e.buf)
		if e.Random {
			s.Apply(e.buf[e.rng.Intn(len(e.buf))])
		} else {
			s.Apply(Greedy{}.Choose(s, e.buf))
		}
	}
	if s.IsTerminal() {
		return s.Returns()
	}
	return s.Estimate()
}

// estimateScale is the margin, in MP, at which Estimate gives the leading
// seat about 73% (logistic(1)): a third of a Base's life (1000 LP in the
// reconstruction), the Base damage one good attack deals.
const estimateScale = 300.0

// Estimate is a position's win shares before the end: a logistic of the
// margin the scoring rule counts so far (Base damage dealt, or wreck MP
// under wrecked scoring) plus the MP of the ship cards each seat has in
// play, which are what deals damage next. It reads only the table, so it
// sees nothing hidden.
func (s *State) Estimate() [game.MaxSeats]float64 {
	m := float64(s.Score(0)-s.Score(1)) + float64(s.tableMP(0)-s.tableMP(1))
	scale := estimateScale * float64(s.rs.Rules.BaseLP) / 1000
	if scale <= 0 {
		scale = estimateScale
	}
	p := 1 / (1 + math.Exp(-m/scale))
	var r [game.MaxSeats]float64
	r[0], r[1] = p, 1-p
	return r
}

// tableMP is the printed MP of seat p's ship cards in play (not the Base).
func (s *State) tableMP(p int) int {
	n := 0
	a := &s.P[p].Army
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; !u.IsBase() && !u.Dead {
				n += s.rs.Defs[u.Card].MP
			}
		}
	}
	return n
}
