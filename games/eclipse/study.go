package eclipse

import (
	"errors"
	"fmt"
	"math"
)

// This file is the exact study (design brief §3.5): a dynamic programme
// over damage states. A state is, per side and type, the multiset of its
// live ships' damage levels, and the slot about to fire. Damage only grows,
// so the only cycle is a round in which nothing changes, which is solved in
// closed form (S8's "state bundles"): with q_i the chance slot i changes
// nothing and A_i its expected value over the outcomes that change
// something, the value at a round's start is
//
//	V_0 = (Σ_i A_i Π_{j<i} q_j + Π_j q_j · e_rounds) / (1 − Π_j q_j)
//
// and every other state is a finite sum over states with more damage. Hit
// assignment is a choice after the dice, so one Bellman pass is exact:
// minimax for `optimal`, a fixed rule (policy.go) otherwise.

// Outcome is what a battle comes to, as probabilities and expectations.
type Outcome struct {
	// AttackerWins: the defender is eliminated; DefenderWins: the attacker
	// is; Stalemate: neither side can hit the other any more, and the
	// attacker must leave (R15). AttackerLeaves and DefenderLeaves: every
	// ship of the side still in the battle retreated (Q3: non-zero only
	// under a retreat policy, SolveRetreat).
	AttackerWins, DefenderWins, Stalemate float64
	AttackerLeaves, DefenderLeaves        float64
	// Rounds is the expected number of engagement rounds begun.
	Rounds float64
	// Survivors are the expected ships left per side and type; Material
	// their build cost.
	Survivors [2][MaxTypes]float64
	// AtLeast[side][type][k-1] is P(at least k ships of the type survive)
	// (S8 reports it).
	AtLeast  [2][MaxTypes][MaxShips]float64
	Material [2]float64
}

// AttackerShare is the attacker's expected win share: eliminating the
// defender, plus the stalemate share (Q4).
func (o *Outcome) AttackerShare(r *Rules) float64 {
	return o.AttackerWins + o.DefenderLeaves + r.StalemateShare*o.Stalemate
}

// Result is an exact study of one battle.
type Result struct {
	Outcome
	// Policies are the assignment rules each role played: the player
	// policy asked for, or the NPC rule for an NPC force.
	Policies [2]Policy
	// States is the number of damage states times slots the table held.
	States int
}

// ErrTooLarge is the study's answer above its state budget: the battle
// must be played by Monte Carlo (the paired runner) instead.
var ErrTooLarge = errors.New("eclipse: the battle is above the exact study's state budget")

// StudySize is the number of damage states times (round slots + 1) that
// the study of b would tabulate.
func StudySize(b *Battle) float64 {
	n := 1.0
	for s := range b.Forces {
		for _, t := range b.Forces[s].Types {
			n *= binom(t.Count+t.Hull+1, t.Hull+1)
		}
	}
	return n * float64(len(b.Order)+1)
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return math.Round(r)
}

// Solve studies b exactly with player playing the players' hit assignment
// (an NPC force always plays b.Rules.NPCPolicy). Above budget states it
// returns ErrTooLarge.
func Solve(b *Battle, player Policy, budget int) (*Result, error) {
	return solveWith(b, player, 0, budget)
}

func solveWith(b *Battle, player Policy, theta float64, budget int) (*Result, error) {
	if err := optimalFits(b, budget); err != nil {
		return nil, fmt.Errorf("eclipse: %w", err)
	}
	size := StudySize(b)
	st := newStudy(b, player)
	if theta > 0 {
		st.withRetreat(theta)
	}
	v := st.startValue()
	res := &Result{States: int(size)}
	for s := range b.Forces {
		res.Policies[s] = st.pol[s]
	}
	res.AttackerWins, res.DefenderWins, res.Stalemate, res.Rounds = v[0], v[1], v[2], v[3]
	res.AttackerLeaves, res.DefenderLeaves = v[st.q-2], v[st.q-1]
	k := 4
	for s := range b.Forces {
		for t, ty := range b.Forces[s].Types {
			res.Survivors[s][t] = v[k]
			res.Material[s] += v[k] * float64(ty.Cost)
			k++
		}
	}
	for s := range b.Forces {
		for t, ty := range b.Forces[s].Types {
			for j := 0; j < ty.Count; j++ {
				res.AtLeast[s][t][j] = v[k]
				k++
			}
		}
	}
	return res, nil
}

// MaxStudyBytes caps the study's value table whatever the state budget:
// a state-slot holds a float per quantity (outcomes, rounds, survivors,
// P(≥k survive)), so a fleet of many ships needs more per state.
const MaxStudyBytes = 256 << 20

// quantities is the number of values the study keeps per state and slot:
// the three ends, rounds, survivors, P(≥k survive) and, last, the two
// leaving ends (qLeaves).
func quantities(b *Battle) int {
	q := 4 + qLeaves
	for s := range b.Forces {
		for _, ty := range b.Forces[s].Types {
			q += 1 + ty.Count
		}
	}
	return q
}

// typeTable indexes one type's multisets of damage levels (count vectors
// with at most Count ships over levels 0..Hull).
type typeTable struct {
	vecs   [][MaxHull + 1]uint8
	index  map[[MaxHull + 1]uint8]int
	stride int
}

type study struct {
	b      *Battle
	pol    [2]Policy
	tables [2][MaxTypes]typeTable
	ntypes [2]int
	n      int // damage states
	k      int // round slots
	q      int // quantities a value holds
	vals   []float64
	done   []bool
	memo   map[int]int // missile-phase (slot, state) → offset in mvals
	mvals  []float64
	rc     reacher
	hits   []hit
	// ret is the retreat policy's part (retreat.go); nil: never.
	ret *retreatPart
}

func newStudy(b *Battle, player Policy) *study {
	st := &study{b: b, k: len(b.Order), memo: map[int]int{}}
	for s := range b.Forces {
		st.pol[s] = player
		if b.Forces[s].NPC {
			st.pol[s] = b.Rules.NPCPolicy
		}
	}
	st.n = 1
	for s := range b.Forces {
		st.ntypes[s] = len(b.Forces[s].Types)
		for t, ty := range b.Forces[s].Types {
			tb := &st.tables[s][t]
			tb.index = map[[MaxHull + 1]uint8]int{}
			var v [MaxHull + 1]uint8
			var rec func(lv, left int)
			rec = func(lv, left int) {
				if lv > ty.Hull {
					tb.index[v] = len(tb.vecs)
					tb.vecs = append(tb.vecs, v)
					return
				}
				for c := 0; c <= left; c++ {
					v[lv] = uint8(c)
					rec(lv+1, left-c)
				}
				v[lv] = 0
			}
			rec(0, ty.Count)
			tb.stride = st.n
			st.n *= len(tb.vecs)
		}
	}
	st.q = quantities(b)
	st.vals = make([]float64, st.n*(st.k+1)*st.q)
	st.done = make([]bool, st.n)
	return st
}

func (st *study) encode(x *sides) int {
	idx := 0
	for s := 0; s < 2; s++ {
		for t := 0; t < st.ntypes[s]; t++ {
			tb := &st.tables[s][t]
			idx += tb.index[x[s][t]] * tb.stride
		}
	}
	return idx
}

func (st *study) decode(idx int) sides {
	var x sides
	for s := 0; s < 2; s++ {
		for t := 0; t < st.ntypes[s]; t++ {
			tb := &st.tables[s][t]
			x[s][t] = tb.vecs[(idx/tb.stride)%len(tb.vecs)]
		}
	}
	return x
}

// value is the quantities of state idx with slot i about to act; slot k is
// the start of the next round.
func (st *study) value(idx, i int) []float64 {
	off := (idx*(st.k+1) + i) * st.q
	return st.vals[off : off+st.q]
}

// fixed fills v with an ended battle's quantities at x: win is 0 (attacker
// eliminates), 1 (defender) or 2 (stalemate).
func (st *study) fixed(v []float64, x *sides, win int) {
	clear(v)
	v[win] = 1
	k := 4
	for s := 0; s < 2; s++ {
		for t := 0; t < st.ntypes[s]; t++ {
			v[k] = float64(x[s].alive(t))
			k++
		}
	}
	for s := 0; s < 2; s++ {
		for t := 0; t < st.ntypes[s]; t++ {
			n := x[s].alive(t)
			for j := 0; j < st.b.Forces[s].Types[t].Count; j++ {
				if n > j {
					v[k] = 1
				}
				k++
			}
		}
	}
}

// ended reports the outcome at x, or -1 while both sides fight.
func ended(x *sides) int {
	switch {
	case !x[Defender].anyAlive():
		return 0
	case !x[Attacker].anyAlive():
		return 1
	}
	return -1
}

// score is the attacker's expected share, what the optimal players fight
// over (the attacker maximises it, the defender minimises it).
func (st *study) score(v []float64) float64 {
	return v[0] + v[st.q-1] + st.b.Rules.StalemateShare*v[2]
}

func (st *study) solve(idx int) {
	if st.done[idx] {
		return
	}
	st.done[idx] = true
	x := st.decode(idx)
	if w := ended(&x); w >= 0 || st.b.stalemate(&x) {
		if w < 0 {
			w = 2
		}
		for i := 0; i <= st.k; i++ {
			st.fixed(st.value(idx, i), &x, w)
		}
		return
	}
	q := make([]float64, st.k)
	a := make([][]float64, st.k)
	for i, sl := range st.b.Order {
		a[i] = make([]float64, st.q)
		if st.ret != nil && st.ret.declares(&x, nil, sl, i) {
			// The type declares its retreat: the round moves on, for
			// certain, to a state with a retreat flag.
			var f flags
			copy(a[i], st.ret.value(&x, f.with(sl, declared), i+1))
			continue
		}
		q[i] = st.volleyValue(&x, sl, false, a[i], func(nidx int) []float64 {
			st.solve(nidx)
			return st.value(nidx, i+1)
		})
	}
	// The round's closed form (see the file comment).
	v0 := st.value(idx, 0)
	clear(v0)
	prod := 1.0
	for i := 0; i < st.k; i++ {
		for j := range v0 {
			v0[j] += prod * a[i][j]
		}
		prod *= q[i]
	}
	v0[3] += prod // the next round begun
	for j := range v0 {
		v0[j] /= 1 - prod
	}
	r := st.value(idx, st.k)
	copy(r, v0)
	r[3]++
	for i := st.k - 1; i >= 1; i-- {
		vi, next := st.value(idx, i), st.value(idx, i+1)
		for j := range vi {
			vi[j] = q[i]*next[j] + a[i][j]
		}
	}
}

// volleyValue adds to acc the value of slot sl firing at x, weighted by
// each outcome's chance, over the outcomes that change the state, and
// returns the chance of the others (the slot changes nothing). next(idx)
// is the value of the following slot at damage state idx.
func (st *study) volleyValue(x *sides, sl Slot, missiles bool, acc []float64, next func(int) []float64) float64 {
	s, t := int(sl.Side), int(sl.Type)
	f, e := &st.b.Forces[s], &st.b.Forces[1-s]
	ty := &f.Types[t]
	n := x[s].alive(t)
	dice := ty.Cannons
	if missiles {
		dice = ty.Missiles
	}
	if n == 0 || dice.Total() == 0 {
		return 1
	}
	// The enemy's live shield classes, ascending; a face's class is how
	// many of them it beats.
	var shields []int
	for u, et := range e.Types {
		if x[1-s].alive(u) == 0 {
			continue
		}
		at := len(shields)
		for at > 0 && shields[at-1] > et.Shield {
			at--
		}
		if at > 0 && shields[at-1] == et.Shield {
			continue
		}
		shields = append(shields, 0)
		copy(shields[at+1:], shields[at:])
		shields[at] = et.Shield
	}
	m := len(shields)
	pc := make([]float64, m+1)
	for face := 1; face <= 6; face++ {
		ms := int(st.b.maxShield[s][t][face])
		c := 0
		for c < m && shields[c] <= ms {
			c++
		}
		pc[c] += 1.0 / 6
	}
	var counts [NumColours]int
	for c := range dice {
		counts[c] = n * dice[c]
	}
	stay := 0.0
	var hits []hit
	// Enumerate the compositions of each colour's dice over the classes:
	// the multinomial n!/Π k_i! Π p_i^k_i, colour by colour.
	var rec func(c, cls, left int, p float64)
	rec = func(c, cls, left int, p float64) {
		if c == int(NumColours) {
			st.outcome(x, s, f, e, hits, p, &stay, acc, next)
			return
		}
		if cls == m {
			// The rest of colour c's dice land in the top class.
			mark := len(hits)
			for j := 0; j < left && m > 0; j++ {
				hits = append(hits, hit{uint8(st.b.Rules.Damage[c]), int8(shields[m-1])})
			}
			p *= math.Pow(pc[m], float64(left)) / fact(left) * fact(counts[c])
			nextLeft := 0
			if c+1 < int(NumColours) {
				nextLeft = counts[c+1]
			}
			rec(c+1, 0, nextLeft, p)
			hits = hits[:mark]
			return
		}
		for k := 0; k <= left; k++ {
			mark := len(hits)
			for j := 0; j < k && cls > 0; j++ {
				hits = append(hits, hit{uint8(st.b.Rules.Damage[c]), int8(shields[cls-1])})
			}
			rec(c, cls+1, left-k, p*math.Pow(pc[cls], float64(k))/fact(k))
			hits = hits[:mark]
		}
	}
	rec(0, 0, counts[0], 1)
	return stay
}

var factorials = func() [MaxVolley + 1]float64 {
	var f [MaxVolley + 1]float64
	f[0] = 1
	for i := 1; i <= MaxVolley; i++ {
		f[i] = f[i-1] * float64(i)
	}
	return f
}()

func fact(n int) float64 { return factorials[n] }

// outcome adds one dice outcome's value: the firing side's policy picks
// the enemy's next state among those its hits can reach.
func (st *study) outcome(x *sides, s int, f, e *Force, hits []hit, p float64, stay *float64, acc []float64, next func(int) []float64) {
	if p == 0 {
		return
	}
	st.hits = sortHits(append(st.hits[:0], hits...))
	reach := st.rc.reach(e, x[1-s], st.hits, st.b.Rules.AllowWaste)
	best := 0
	var bestV []float64
	y := *x
	if st.pol[s] == Optimal && len(reach) > 1 {
		// The firing side picks the state best for it; the values are of
		// states with more damage, solved first (next recurses).
		cands := append([]levels(nil), reach...)
		for i := range cands {
			y[1-s] = cands[i]
			v := next(st.encode(&y))
			if bestV == nil {
				best, bestV = i, v
				continue
			}
			a, b := st.score(v), st.score(bestV)
			better := a > b
			if s == Defender {
				better = a < b
			}
			if better || (a == b && less(&cands[i], &cands[best])) {
				best, bestV = i, v
			}
		}
		reach = cands
	} else if len(reach) > 1 {
		pol := st.pol[s]
		if pol == Optimal {
			pol = KillLargest
		}
		best = choose(pol, e, &st.b.Rules, &x[1-s], reach)
	}
	if reach[best] == x[1-s] {
		*stay += p
		return
	}
	y[1-s] = reach[best]
	if bestV == nil {
		bestV = next(st.encode(&y))
	}
	for j := range acc {
		acc[j] += p * bestV[j]
	}
}

// sortHits orders a volley's hits canonically, the most restricted first
// (lowest shield beaten, then the heaviest): the study and the engine
// enumerate assignments in this order (combat.go).
func sortHits(h []hit) []hit {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && hitBefore(h[j], h[j-1]); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
	return h
}

func hitBefore(a, b hit) bool {
	if a.maxShield != b.maxShield {
		return a.maxShield < b.maxShield
	}
	return a.dmg > b.dmg
}

// startValue is the battle's value from its start: the missile volley
// (R5), then round 1.
func (st *study) startValue() []float64 {
	x := st.b.start()
	return st.missileValue(&x, 0)
}

func (st *study) missileValue(x *sides, j int) []float64 {
	idx := st.encode(x)
	if j == len(st.b.Missiles) {
		st.solve(idx)
		return st.value(idx, st.k)
	}
	key := j*st.n + idx
	if off, ok := st.memo[key]; ok {
		return st.mvals[off : off+st.q]
	}
	v := make([]float64, st.q)
	if w := ended(x); w >= 0 {
		st.fixed(v, x, w)
	} else {
		stay := st.volleyValue(x, st.b.Missiles[j], true, v, func(nidx int) []float64 {
			y := st.decode(nidx)
			return st.missileValue(&y, j+1)
		})
		if stay > 0 {
			w := st.missileValue(x, j+1)
			for i := range v {
				v[i] += stay * w[i]
			}
		}
	}
	off := len(st.mvals)
	st.mvals = append(st.mvals, v...)
	st.memo[key] = off
	return st.mvals[off : off+st.q]
}
