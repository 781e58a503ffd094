package eclipse

import (
	"errors"
	"sync"

	"github.com/cardlab/cardlab/game"
)

// OptimalBot plays the study's minimax assignment (Q1 `optimal`): for each
// volley it picks the enemy state with the best study value for its side
// — the attacker the highest expected share, the defender the lowest —
// and places die by die toward it, so its battles follow the study's
// Markov chain exactly. It solves each battle it meets once and keeps the
// table; a battle above the ruleset's state budget it plays by
// kill_largest instead (Fallbacks counts them). It attacks at every
// activation (the study's retreat policy is never).
type OptimalBot struct {
	mu        sync.Mutex
	budget    int
	tables    map[*Battle]*study
	fallback  PolicyBot
	rc, rt    reacher
	Fallbacks int
}

// NewOptimalBot returns the bot, solving battles up to budget damage
// states × slots.
func NewOptimalBot(budget int) *OptimalBot {
	return &OptimalBot{budget: budget, tables: map[*Battle]*study{}, fallback: PolicyBot{p: KillLargest}}
}

func (bt *OptimalBot) table(b *Battle) *study {
	if st, ok := bt.tables[b]; ok {
		return st
	}
	var st *study
	if StudySize(b) <= float64(bt.budget) {
		st = newStudy(b, Optimal)
		st.startValue()
	}
	bt.tables[b] = st
	return st
}

// Choose implements game.Agent.
func (bt *OptimalBot) Choose(g game.State, legal []game.Action) game.Action {
	s := g.(*State)
	if s.decide != decideAssign {
		return ActAttack
	}
	bt.mu.Lock()
	defer bt.mu.Unlock()
	st := bt.table(s.b)
	if st == nil {
		bt.Fallbacks++
		return bt.fallback.Choose(g, legal)
	}
	side := int(s.firing.Side)
	e := 1 - side
	f := &s.b.Forces[e]
	rest := s.pend[s.ipend:s.npend]
	reach := bt.rc.reach(f, s.x[e], rest, s.b.Rules.AllowWaste)
	best, bestScore := -1, 0.0
	y := s.x
	for i := range reach {
		y[e] = reach[i]
		var v []float64
		if s.phase == phaseMissiles {
			v = st.missileValue(&y, int(s.pos))
		} else {
			idx := st.encode(&y)
			st.solve(idx)
			v = st.value(idx, int(s.pos))
		}
		sc := st.score(v)
		better := best < 0 || (side == Attacker && sc > bestScore) || (side == Defender && sc < bestScore) ||
			(sc == bestScore && less(&reach[i], &reach[best]))
		if better {
			best, bestScore = i, sc
		}
	}
	goal := reach[best]
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
	return legal[0] // only past MaxReach can the goal be cut off
}

var errNoBot = errors.New("eclipse: no such bot")
