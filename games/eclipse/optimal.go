package eclipse

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/cardlab/cardlab/game"
)

// OptimalBot plays the study's minimax assignment (Q1 `optimal`): for each
// volley it picks the enemy state with the best study value for its side
// — the attacker the highest expected share, the defender the lowest —
// and places die by die toward it, so its battles follow the study's
// Markov chain exactly. It solves each battle it meets once and keeps the
// table. It never plays another policy in optimal's place: a battle too
// large for its table is refused before play (NewBot and the study check
// the state budget, optimalFits) and, met anyway, is a bug (a panic
// naming it). It attacks at every activation; around it a RetreatBot
// retreats by threshold θ, and then (NewOptimalRetreatBot) it places hits
// by the minimax of that retreating game, as the study's optimal with
// retreat=θ does.
//
// Why the whole battle: optimal's choice at a state needs the values of
// the states its volley can leave, and the first volley's can leave every
// ship alive (a hit short of a kill), so the subgame below the first
// decision is the whole battle less a sliver. Solving subgames on demand
// would not bring a battle above the budget within it.
type OptimalBot struct {
	mu     sync.Mutex
	budget int
	theta  float64 // the threshold retreat whose game it plays; 0: never
	tables map[*Battle]*study
	rc, rt reacher
}

// NewOptimalBot returns the bot, solving battles up to budget damage
// states × slots.
func NewOptimalBot(budget int) *OptimalBot {
	return &OptimalBot{budget: budget, tables: map[*Battle]*study{}}
}

// NewOptimalRetreatBot is optimal play with the threshold retreat θ
// (0 < θ ≤ 1, retreat.completes next_activation): a RetreatBot declaring
// by θ around an OptimalBot placing hits by the retreating game's values.
func NewOptimalRetreatBot(budget int, theta float64) *RetreatBot {
	inner := &OptimalBot{budget: budget, theta: theta, tables: map[*Battle]*study{}}
	return NewRetreatBot(inner, Optimal, theta, budget)
}

// optimalFits says why the study's table for b cannot be built within
// budget (nil if it can): the exact study, the optimal policy and the
// threshold retreat all read it.
func optimalFits(b *Battle, budget int) error {
	size := StudySize(b)
	if size > float64(budget) {
		return &sizeError{fmt.Sprintf("%s attacking %s has %.3g damage states × slots, above the exact study's budget %d", b.Forces[Attacker].Name, b.Forces[Defender].Name, size, budget)}
	}
	if mem := size * float64(quantities(b)) * 8; mem > MaxStudyBytes {
		return &sizeError{fmt.Sprintf("the exact study of %s attacking %s would take %.0f MiB, at most %d MiB", b.Forces[Attacker].Name, b.Forces[Defender].Name, mem/(1<<20), MaxStudyBytes>>20)}
	}
	return nil
}

// sizeError is ErrTooLarge (errors.Is) naming the battle and its size,
// worded to follow a caller's "eclipse: …:" (the package prefix once).
type sizeError struct{ what string }

func (e *sizeError) Error() string        { return e.what }
func (e *sizeError) Is(target error) bool { return target == ErrTooLarge }

func (bt *OptimalBot) table(b *Battle) *study {
	if st, ok := bt.tables[b]; ok {
		return st
	}
	// NewBot checked the battles the ruleset seats against the budget; a
	// variant's (a card value's +1 hull) may be a little larger, so only
	// the memory cap is a hard stop here.
	if err := optimalFits(b, math.MaxInt); err != nil {
		panic(fmt.Sprintf("eclipse: the optimal bot cannot play this battle: %v", err))
	}
	st := newStudy(b, Optimal)
	if bt.theta > 0 {
		// Hits are placed by the retreating game's minimax, as the
		// study's optimal with retreat=θ does (retreat.go).
		st.withRetreat(bt.theta)
	}
	st.startValue()
	bt.tables[b] = st
	return st
}

// retreatFlags are the engine state's retreat flags as the study's, and
// y with the ships that left put back (at level 0: where a gone ship's
// damage stands does not change who wins).
func retreatFlags(s *State, y *sides) flags {
	var f flags
	for side := range s.retreat {
		for t := range s.retreat[side] {
			sl := Slot{uint8(side), uint8(t)}
			switch {
			case s.retreat[side][t]:
				f = f.with(sl, declared)
			case s.left[side][t] > 0:
				f = f.with(sl, gone)
				y[side][t] = [MaxHull + 1]uint8{s.left[side][t]}
			}
		}
	}
	return f
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
		z := y
		if s.phase == phaseMissiles {
			v = st.missileValue(&y, int(s.pos))
		} else if f := retreatFlags(s, &z); f != 0 && st.ret != nil {
			v = st.ret.value(&z, f, int(s.pos))
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
