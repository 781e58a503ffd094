package eclipse

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/cardlab/cardlab/cards"

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
	theta := 0.0
	for k, v := range params {
		if k != "retreat" {
			return nil, fmt.Errorf("eclipse: %s takes one parameter, retreat=θ (got %q)", name, spec)
		}
		if theta, err = parseTheta(v); err != nil {
			return nil, err
		}
	}
	if p == Optimal || theta > 0 {
		// Both read the exact study of each battle: refuse a ruleset
		// seating a battle above the budget rather than play another
		// policy in their place.
		if err := rs.seatedFit(rs.Rules.StateBudget); err != nil {
			return nil, fmt.Errorf("eclipse: bot %s reads the exact study of every battle it plays: %w; raise rules.yaml study.state_budget or play kill_largest, most_dangerous or spread", cards.Truncate(spec), err)
		}
	}
	if p == Optimal && theta > 0 {
		if rs.Rules.RetreatCompletes != RetreatNextActivation {
			return nil, fmt.Errorf("eclipse: bot %s: optimal with retreat places hits by the study's retreating game, which needs rules.yaml retreat.completes: next_activation", cards.Truncate(spec))
		}
		return NewOptimalRetreatBot(rs.Rules.StateBudget, theta), nil
	}
	var inner game.Agent = NewPolicyBot(p)
	if p == Optimal {
		inner = NewOptimalBot(rs.Rules.StateBudget)
	}
	if theta > 0 {
		return NewRetreatBot(inner, p, theta, rs.Rules.StateBudget), nil
	}
	return inner, nil
}

// parseTheta reads a retreat threshold: a chance in (0, 1], or "never"
// (0).
func parseTheta(v string) (float64, error) {
	if v == "never" {
		return 0, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x > 0 && x <= 1) {
		return 0, fmt.Errorf("eclipse: retreat=%q: want never or a chance above 0, at most 1", cards.Truncate(v))
	}
	return x, nil
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

// RetreatBot plays the study's threshold retreat (retreat.go) around an
// assignment bot: at an activation its type retreats when a type of its
// side already did, or when its side's chance of winning, never
// retreating, is below θ — read from the never-retreating study of the
// battle with the bot's assignment policy, solved once per battle. Like
// OptimalBot it never plays another rule in its place: a battle without
// such a study is refused before play (NewBot, the study) and, met
// anyway, is a bug. Hits are placed by the inner bot.
type RetreatBot struct {
	mu     sync.Mutex
	inner  game.Agent
	policy Policy
	theta  float64
	budget int
	tables map[*Battle]*study
}

// NewRetreatBot returns inner retreating by threshold theta, its chances
// from the study with policy p.
func NewRetreatBot(inner game.Agent, p Policy, theta float64, budget int) *RetreatBot {
	return &RetreatBot{inner: inner, policy: p, theta: theta, budget: budget, tables: map[*Battle]*study{}}
}

// Choose implements game.Agent.
func (bt *RetreatBot) Choose(g game.State, legal []game.Action) game.Action {
	s := g.(*State)
	if s.decide != decideActivation || len(legal) < 2 {
		return bt.inner.Choose(g, legal)
	}
	side := int(s.firing.Side)
	for t := range s.retreat[side] {
		if s.retreat[side][t] || s.left[side][t] > 0 {
			return ActRetreat
		}
	}
	bt.mu.Lock()
	defer bt.mu.Unlock()
	nr, ok := bt.tables[s.b]
	if !ok {
		// As OptimalBot.table: the budget was checked for the seated
		// battles, the memory cap holds for every battle.
		if err := optimalFits(s.b, math.MaxInt); err != nil {
			panic(fmt.Sprintf("eclipse: the retreat bot cannot play this battle: %v", err))
		}
		nr = newStudy(s.b, bt.policy)
		bt.tables[s.b] = nr
	}
	if winChance(nr, &s.x, side, int(s.pos)-1) < bt.theta {
		return ActRetreat
	}
	return ActAttack
}

// seatedFit checks that the exact study of every battle the ruleset seats
// (each player fleet attacking each, seat rotation giving both roles)
// fits budget.
func (rs *Ruleset) seatedFit(budget int) error {
	for _, a := range rs.SideFleets {
		for _, d := range rs.SideFleets {
			b, err := rs.Battle(a, d)
			if err != nil {
				return err
			}
			if err := optimalFits(b, budget); err != nil {
				return err
			}
		}
	}
	return nil
}
