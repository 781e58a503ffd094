package alphatactics

import (
	"fmt"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
)

// BotNames implements game.Botter: bots.Parse's names. Alpha Tactics plays
// the core's random and ismcts its own way — random with its pass rule and
// list-free sampler, ISMCTS typed to the engine with a concrete rollout and
// the round horizon — so its streams and costs stay what they were
// (docs/architecture.md, "Core migration", step 6).
func (Ruleset) BotNames() []string { return bots.Names() }

// NewBot implements game.Botter with bots.Parse, the bot wrapped as an
// *Agent, which PlayOut plays with bots.Decide.
func (Ruleset) NewBot(_ string, _ map[string]string, spec string, seed uint64) (game.Agent, error) {
	a, err := bots.Parse(spec, seed)
	if err != nil {
		return nil, err
	}
	return &Agent{A: a}, nil
}

// EvaluatorParams implements game.EvaluatorMaker: ISMCTS's rollout policy
// and horizon.
func (Ruleset) EvaluatorParams() []string { return []string{"rollout", "depth"} }

// NewEvaluator implements game.EvaluatorMaker: the leaf value of ISMCTS
// (bots/ismcts.go) for bots.Search — a rollout by the random or greedy bot
// to the end of the round (depth=round, the default) or of the game
// (depth=game), then bots.Evaluate's win chances where the game is not
// over. The rollout runs on the engine, no interface call a decision.
func (Ruleset) NewEvaluator(params map[string]string, seed uint64) (game.Evaluator, error) {
	e := &Evaluator{}
	for k, v := range params {
		switch {
		case k == "rollout" && (v == "random" || v == "greedy"):
			e.greedy = v == "greedy"
		case k == "rollout":
			return nil, fmt.Errorf("bots: ismcts rollout must be random or greedy, got %q", v)
		case k == "depth" && (v == "round" || v == "game"):
			e.full = v == "game"
		case k == "depth":
			return nil, fmt.Errorf("bots: ismcts depth must be round or game, got %q", v)
		default:
			return nil, fmt.Errorf("bots: unknown ismcts parameter %q (have iters, rollout, depth, time)", k)
		}
	}
	e.Reseed(seed)
	return e, nil
}

// Evaluator is Alpha Tactics' game.Evaluator (NewEvaluator).
type Evaluator struct {
	greedy, full bool
	roll         bots.Agent
	buf          []engine.Action
}

// Reseed implements game.Evaluator as ISMCTS.Reseed seeds its rollout bot.
func (e *Evaluator) Reseed(seed uint64) {
	switch r := e.roll.(type) {
	case interface{ Reseed(uint64) }:
		r.Reseed(seed)
	default:
		if e.greedy {
			e.roll, _ = bots.Parse("greedy", seed)
		} else {
			e.roll = bots.NewRandom(seed)
		}
	}
}

// Evaluate implements game.Evaluator; s must be an Alpha Tactics state.
func (e *Evaluator) Evaluate(s game.State) [game.MaxSeats]float64 {
	d := s.(*State).S
	round := d.Round()
	for !d.IsTerminal() && (e.full || d.Round() == round) {
		a, _ := bots.Decide(e.roll, d, &e.buf)
		d.Apply(a)
	}
	if d.IsTerminal() {
		return d.Returns()
	}
	return bots.Evaluate(d)
}
