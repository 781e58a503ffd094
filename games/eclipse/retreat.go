package eclipse

import "errors"

// The study's threshold retreat (design brief Q3, `threshold(θ)`): a
// player type, at its activation (R12), declares its retreat when its
// side's chance of winning — the never-retreating study's value of the
// state with that slot about to act — is below θ, or when another type
// of its side already did (a side that starts to retreat carries it
// through). A declared type fires no more, can be hit, and leaves at its
// next activation (R13, 2E: rules.yaml retreat.completes
// next_activation); its ships count as survivors. Only roles rules.yaml
// lets retreat do. RetreatBot plays the same rule in the engine.
//
// States with a retreat flag never return to the flag-free ones and, in
// every round, some type declares or leaves, so they need no closed form:
// they are solved by recursion over (damage state, flags, slot), memoised.

// qLeaves are the quantities of the two leaving ends, last in a value:
// attacker leaves (q−2), defender leaves (q−1).
const qLeaves = 2

type status uint8

const (
	fighting status = iota
	declared
	gone
)

// flags hold each type's status, two bits per side and type.
type flags uint32

func (f flags) of(s, t int) status { return status(f >> (2 * (s*MaxTypes + t)) & 3) }

func (f flags) with(sl Slot, st status) flags {
	sh := 2 * (int(sl.Side)*MaxTypes + int(sl.Type))
	return f&^(3<<sh) | flags(st)<<sh
}

// committed reports whether a type of side s declared or left.
func (f flags) committed(s int) bool {
	for t := 0; t < MaxTypes; t++ {
		if f.of(s, t) != fighting {
			return true
		}
	}
	return false
}

type retreatKey struct {
	idx  int
	f    flags
	slot int
}

// retreatPart is a study's retreat policy: the never-retreating study
// whose values set the threshold, and the flagged states' values.
type retreatPart struct {
	st    *study
	nr    *study
	theta float64
	memo  map[retreatKey][]float64
}

func (st *study) withRetreat(theta float64) {
	nr := newStudy(st.b, st.pol[Attacker])
	nr.pol = st.pol
	st.ret = &retreatPart{st: st, nr: nr, theta: theta, memo: map[retreatKey][]float64{}}
}

// winChance is side s's chance of winning, never retreating, from the
// flag-free state x with slot i about to act: the attacker's expected
// share, or one minus it.
func winChance(nr *study, x *sides, s, i int) float64 {
	idx := nr.encode(x)
	nr.solve(idx)
	a := nr.score(nr.value(idx, i))
	if s == Defender {
		return 1 - a
	}
	return a
}

// declares reports whether slot sl's type, alive and fighting at the
// battle state x (its ships in the battle) with flags f, declares its
// retreat at slot i.
func (r *retreatPart) declares(x *sides, f *flags, sl Slot, i int) bool {
	s := int(sl.Side)
	if !r.st.b.Rules.Retreat[s] || x[s].alive(int(sl.Type)) == 0 {
		return false
	}
	if f != nil && f.committed(s) {
		return true
	}
	return winChance(r.nr, x, s, i) < r.theta
}

// inBattle is x without the types that left.
func inBattle(x *sides, f flags) sides {
	y := *x
	for s := range y {
		for t := range y[s] {
			if f.of(s, t) == gone {
				y[s][t] = [MaxHull + 1]uint8{}
			}
		}
	}
	return y
}

// value is the quantities at the damage state x (the ships that left
// kept in it) with flags f and slot i about to act; slot k is the next
// round's start.
func (r *retreatPart) value(x *sides, f flags, i int) []float64 {
	st := r.st
	key := retreatKey{st.encode(x), f, i}
	if v, ok := r.memo[key]; ok {
		return v
	}
	v := make([]float64, st.q)
	y := inBattle(x, f)
	switch {
	case !y[Attacker].anyAlive() || !y[Defender].anyAlive():
		st.fixed(v, x, r.end(x, f, &y))
	case i == st.k && st.b.stalemate(&y):
		st.fixed(v, x, 2)
	case i == st.k:
		copy(v, r.value(x, f, 0))
		v[3]++
	default:
		sl := st.b.Order[i]
		s, t := int(sl.Side), int(sl.Type)
		switch {
		case y[s].alive(t) == 0:
			copy(v, r.value(x, f, i+1))
		case f.of(s, t) == declared:
			copy(v, r.value(x, f.with(sl, gone), i+1))
		case r.declares(&y, &f, sl, i):
			copy(v, r.value(x, f.with(sl, declared), i+1))
		default:
			stay := st.volleyValue(&y, sl, false, v, func(nidx int) []float64 {
				z := st.decode(nidx)
				for s := range z {
					for t := range z[s] {
						if f.of(s, t) == gone {
							z[s][t] = x[s][t]
						}
					}
				}
				return r.value(&z, f, i+1)
			})
			if stay > 0 {
				w := r.value(x, f, i+1)
				for j := range v {
					v[j] += stay * w[j]
				}
			}
		}
	}
	r.memo[key] = v
	return v
}

// end is how a battle with a side out of ships ends, as the engine's
// checkEnd decides it (the attacker first): a side with ships that left
// left, else it was eliminated.
func (r *retreatPart) end(x *sides, f flags, y *sides) int {
	for s := range y {
		if y[s].anyAlive() {
			continue
		}
		left := false
		for t := range x[s] {
			left = left || (f.of(s, t) == gone && x[s].alive(t) > 0)
		}
		switch {
		case s == Defender && left:
			return r.st.q - 1
		case s == Defender:
			return 0
		case left:
			return r.st.q - 2
		default:
			return 1
		}
	}
	return 2
}

// SolveRetreat studies b exactly as Solve does, with the players
// retreating by threshold θ (0 < θ ≤ 1) where rules.yaml lets their role
// retreat; the retreat must complete at the next activation (2E).
func SolveRetreat(b *Battle, player Policy, theta float64, budget int) (*Result, error) {
	if !(theta > 0 && theta <= 1) {
		return nil, errRetreatTheta
	}
	if b.Rules.RetreatCompletes != RetreatNextActivation {
		return nil, errRetreatRoundEnd
	}
	return solveWith(b, player, theta, budget)
}

var (
	errRetreatTheta    = errors.New("eclipse: a retreat threshold is a chance above 0, at most 1")
	errRetreatRoundEnd = errors.New("eclipse: the study's retreat needs retreat.completes: next_activation (a retreat completed at the round's end is not studied)")
)
