package alphatactics

import (
	"fmt"
	"sync/atomic"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
)

// Agent is one of package bots' Alpha Tactics agents as a game.Agent.
// PlayOut unwraps it once per game and plays with ai.Decide, the loop the
// batch runner always had; Choose decides the same way (the random bot
// samples without a list), so a game through game.PlayGeneric is the same
// game.
type Agent struct {
	A   ai.Agent
	buf []engine.Action
}

// Choose implements game.Agent for an Alpha Tactics state; legal is the
// state's list, which ai.Decide makes itself where the bot needs one.
func (a *Agent) Choose(s game.State, legal []game.Action) game.Action {
	act, ok := ai.Decide(a.A, s.(*State).S, &a.buf)
	if !ok {
		panic("alphatactics: an agent was asked to choose with no legal action")
	}
	return game.Action(act)
}

// PlayOut implements game.PlayOuter: the batch runner's concrete decision
// loop (ai.Decide on the engine, no interface call per decision) when
// every agent is an *Agent, game.PlayGeneric otherwise.
func (s *State) PlayOut(agents []game.Agent, stop *atomic.Bool, moves []game.Action) ([]game.Action, error) {
	e := s.S
	if len(agents) < e.NumPlayers() {
		return moves, fmt.Errorf("alphatactics: %d agents for %d seats", len(agents), e.NumPlayers())
	}
	// The loop reads the agents and appends the moves through s, as the
	// runner's loop did through its worker: fewer live registers, and the
	// instructions per game stay the runner's (docs/architecture.md).
	for q := 0; q < e.NumPlayers(); q++ {
		w, ok := agents[q].(*Agent)
		if !ok {
			var err error
			moves, s.gbuf, err = game.PlayGeneric(s, agents, stop, moves, s.gbuf)
			return moves, err
		}
		s.ag[q] = w.A
	}
	s.moves, s.stop = moves, stop
	for steps := 0; !e.IsTerminal(); steps++ {
		q := e.CurrentPlayer()
		if q < 0 || steps > game.MaxDecisions {
			return s.moves, fmt.Errorf("did not end after %d decisions (an engine bug: please report it with the seed)", steps)
		}
		a, ok := ai.Decide(s.ag[q], e, &s.dbuf)
		if !ok {
			return s.moves, fmt.Errorf("no legal action in the %s phase (an engine bug: please report it with the seed)", e.Phase())
		}
		if s.stop.Load() {
			return s.moves, game.ErrStopped
		}
		e.Apply(a)
		s.moves = append(s.moves, game.Action(a))
	}
	return s.moves, nil
}

// Reseed starts the wrapped bot over (every Alpha Tactics bot can), so a
// runner reuses the wrapper between games.
func (a *Agent) Reseed(seed uint64) {
	if r, ok := a.A.(interface{ Reseed(uint64) }); ok {
		r.Reseed(seed)
	}
}

// SetStop implements bots.Stoppable for a wrapped bot whose search can take
// long; it does nothing for the others.
func (a *Agent) SetStop(stop *atomic.Bool) {
	if st, ok := a.A.(bots.Stoppable); ok {
		st.SetStop(stop)
	}
}
