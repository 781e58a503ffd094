package alphatactics

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
)

// BotNames implements game.Botter: ai.Parse's names. Alpha Tactics plays
// the core's random and ismcts its own way — random with its pass rule and
// list-free sampler, ISMCTS with its rollout and round horizon
// (ai.EngineEvaluator).
func (Ruleset) BotNames() []string { return ai.Names() }

// NewBot implements game.Botter with ai.Parse, the bot wrapped as an
// *Agent, which PlayOut plays with ai.Decide; the wrapper passes Reseed
// and SetStop on to the bot, so the runners reuse it between games and
// can stop its search.
func (Ruleset) NewBot(_ string, _ map[string]string, spec string, seed uint64) (game.Agent, error) {
	a, err := ai.Parse(spec, seed)
	if err != nil {
		return nil, err
	}
	return &Agent{A: a}, nil
}

// EvaluatorParams implements game.EvaluatorMaker: ISMCTS's rollout policy
// and horizon.
func (Ruleset) EvaluatorParams() []string { return []string{"rollout", "depth"} }

// NewEvaluator implements game.EvaluatorMaker: ISMCTS's leaf value
// (ai.EngineEvaluator) for bots.Search — a rollout by the random or
// greedy bot to the end of the round (depth=round, the default) or of the
// game (depth=game), then ai.Evaluate's win chances where the game is not
// over.
func (Ruleset) NewEvaluator(params map[string]string, seed uint64) (game.Evaluator, error) {
	e := &ai.EngineEvaluator{}
	for k, v := range params {
		switch {
		case k == "rollout" && (v == "random" || v == "greedy"):
			e.Greedy = v == "greedy"
		case k == "rollout":
			return nil, fmt.Errorf("bots: ismcts rollout must be random or greedy, got %q", v)
		case k == "depth" && (v == "round" || v == "game"):
			e.FullGame = v == "game"
		case k == "depth":
			return nil, fmt.Errorf("bots: ismcts depth must be round or game, got %q", v)
		default:
			return nil, fmt.Errorf("bots: unknown ismcts parameter %q (have iters, rollout, depth, time)", k)
		}
	}
	e.Reseed(seed)
	return e, nil
}
