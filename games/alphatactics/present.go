package alphatactics

import (
	"fmt"
	"io"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/alphatactics/scenario"
	"github.com/cardlab/cardlab/games/alphatactics/trace"
)

// What the command line asks of Alpha Tactics (game.Tracer, game.Scenarios,
// game.Cataloger, game.EffectsGuide): the presentation in packages trace,
// rules (List) and handlers (Guide).
var (
	_ game.Tracer       = Game{}
	_ game.Scenarios    = Game{}
	_ game.Cataloger    = Game{}
	_ game.EffectsGuide = Game{}
	_ game.ValueFacer   = Game{}
	_ game.DirLoader    = Game{}
	_ game.Summarizer   = Ruleset{}
)

// rulesOf is rs as Alpha Tactics' ruleset.
func rulesOf(rs game.Ruleset) (*rules.Ruleset, error) {
	r, ok := rs.(Ruleset)
	if !ok {
		return nil, fmt.Errorf("alphatactics: a %s ruleset", rs.Game())
	}
	return r.RS, nil
}

// engineAgents unwraps the agents bots.ParseFor makes for Alpha Tactics
// (its Botter's *Agent), which play the engine directly.
func engineAgents(agents []game.Agent) ([]ai.Agent, error) {
	out := make([]ai.Agent, len(agents))
	for i, a := range agents {
		aa, ok := a.(*Agent)
		if !ok {
			return nil, fmt.Errorf("alphatactics: seat %d's agent %T is not an Alpha Tactics bot", i+1, a)
		}
		out[i] = aa.A
	}
	return out, nil
}

// Trace implements game.Tracer with trace.Play: every round's targets,
// Deployment turns, reveals, effects, Negotiations, scoring and the final
// score, as the table sees them (t.RevealAll: everything).
func (Game) Trace(w io.Writer, rs game.Ruleset, t game.TraceRequest) error {
	r, err := rulesOf(rs)
	if err != nil {
		return err
	}
	players := make([]string, len(t.Seats))
	for i, f := range t.Seats {
		if f < 0 || f >= len(r.Factions) {
			return fmt.Errorf("%w: seat %d plays side %d of %d", errSide, i, f, len(r.Factions))
		}
		players[i] = r.Factions[f].ID
	}
	agents, err := engineAgents(t.Agents)
	if err != nil {
		return err
	}
	return trace.Play(w, r, players, agents, t.Bots, t.Seed, t.JSON, t.RevealAll)
}

// LoadScenario implements game.Scenarios with scenario.Load
// (docs/scenarios.md).
func (Game) LoadScenario(rs game.Ruleset, data []byte, file string) (game.Scenario, error) {
	r, err := rulesOf(rs)
	if err != nil {
		return nil, err
	}
	sc, err := scenario.Load(data, file, r)
	if err != nil {
		return nil, err
	}
	return atScenario{sc}, nil
}

// atScenario is a scenario as a game.Scenario: its Reveal Phase played and
// its rows scored by trace.Score.
type atScenario struct{ sc *scenario.Scenario }

func (s atScenario) Seats() int        { return len(s.sc.Players) }
func (s atScenario) Seed() uint64      { return s.sc.Seed }
func (s atScenario) Expectations() int { return len(s.sc.Expect) }

func (s atScenario) Score(w io.Writer, agents []game.Agent, asJSON bool) ([]string, error) {
	as, err := engineAgents(agents)
	if err != nil {
		return nil, err
	}
	results, err := trace.Score(w, s.sc, as, asJSON)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range s.sc.Check(results) {
		out = append(out, m.Error())
	}
	return out, nil
}

// Catalog implements game.Cataloger with rules.List: every faction's deck
// and the targets, or one faction's deck (targets are shared and left out).
func (Game) Catalog(w io.Writer, rs game.Ruleset, side int, format string) error {
	r, err := rulesOf(rs)
	if err != nil {
		return err
	}
	var factions []*rules.Faction
	switch {
	case side < 0:
		for i := range r.Factions {
			factions = append(factions, &r.Factions[i])
		}
	case side < len(r.Factions):
		factions = append(factions, &r.Factions[side])
	default:
		return fmt.Errorf("%w: side %d of %d", errSide, side, len(r.Factions))
	}
	return rules.List(w, r, factions, side < 0, format)
}

// EffectsGuide implements game.EffectsGuide with handlers.Guide.
func (Game) EffectsGuide() cards.EffectsGuide { return handlers.Guide() }
