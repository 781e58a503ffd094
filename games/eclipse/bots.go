package eclipse

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
)

// BotNames implements game.Botter: optimal (OptimalBot, the study's
// minimax) and one bot per fixed assignment policy (Q1); greedy is
// kill_largest, the rule calculators use, under the name simulate and
// skill take by default. They attack at every activation (the study's retreat policy
// `never`, Q3) and place each hit so that the volley ends in the state the
// policy ranks first — the state the study's Markov chain for the same
// policy moves to, which is what makes Monte Carlo with them comparable to
// the study.
func (rs *Ruleset) BotNames() []string {
	return []string{"greedy", Optimal.String(), KillLargest.String(), MostDangerous.String(), Spread.String()}
}

// NewBot implements game.Botter.
func (rs *Ruleset) NewBot(name string, params map[string]string, spec string, _ uint64) (game.Agent, error) {
	if name == "greedy" {
		name = KillLargest.String() // the greedy rule of thumb, under the name commands default to
	}
	p, err := ParsePolicy(name)
	if err != nil || p == NPCRule || p == MaxDamage {
		return nil, fmt.Errorf("%w %q", errNoBot, name)
	}
	if len(params) > 0 {
		return nil, fmt.Errorf("eclipse: %s takes no parameters (got %q)", name, spec)
	}
	if p == Optimal {
		return NewOptimalBot(rs.Rules.StateBudget), nil
	}
	return NewPolicyBot(p), nil
}

// PolicyBot plays a fixed assignment policy for whichever seat asks.
type PolicyBot struct {
	p      Policy
	rc, rt reacher
}

// NewPolicyBot returns the bot for p (not Optimal).
func NewPolicyBot(p Policy) *PolicyBot { return &PolicyBot{p: p} }

// Choose implements game.Agent: at an activation it attacks; for a die it
// picks the first legal target from which the rest of the volley can still
// reach the policy's state.
func (bt *PolicyBot) Choose(g game.State, legal []game.Action) game.Action {
	s := g.(*State)
	if s.decide != decideAssign {
		return ActAttack
	}
	e := 1 - int(s.firing.Side)
	f := &s.b.Forces[e]
	rest := s.pend[s.ipend:s.npend]
	reach := bt.rc.reach(f, s.x[e], rest, s.b.Rules.AllowWaste)
	goal := reach[choose(bt.p, f, &s.b.Rules, &s.x[e], reach)]
	for _, a := range legal {
		l := s.x[e]
		if a != ActWaste {
			applyHit(f, &l, int(a)/(MaxHull+1), int(a)%(MaxHull+1), rest[0])
		}
		for _, r := range bt.rt.reach(f, l, rest[1:], s.b.Rules.AllowWaste) {
			if r == goal {
				return a
			}
		}
	}
	// Only past MaxReach can the goal be cut from a partial enumeration.
	return legal[0]
}
