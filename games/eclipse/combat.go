package eclipse

import (
	"fmt"
	"sort"
)

// Type is one ship type in a battle: its count and combat profile, compiled
// from a blueprint (or written directly, as the reference battles are).
type Type struct {
	Name                         string
	Count                        int
	Init, Hull, Computer, Shield int
	Size, Cost                   int
	Reputation                   int // tiles drawn for destroying one
	Cannons, Missiles            Dice
}

// Force is one side of a battle.
type Force struct {
	Name  string
	Types []Type
	// NPC assigns its hits by the rules' NPC rule, inside the engine.
	NPC bool
}

// Role indexes: the attacker is seat 0, the defender seat 1.
const (
	Attacker = 0
	Defender = 1
)

// Slot is one type's activation: side and type index.
type Slot struct{ Side, Type uint8 }

// Battle is a compiled battle: two forces, the rules, and the activation
// orders, shared read-only by the study and every engine state.
type Battle struct {
	Forces [2]Force
	Rules  Rules
	// Order is the activation order of a round (R3, R4, Q6); Missiles the
	// order of the missile volley (R5): the types with missiles, by the
	// same order.
	Order, Missiles []Slot
	// hits[side][type][face] is the largest enemy shield the face beats for
	// the type's computer, or -1 for a miss (R7).
	maxShield [2][MaxTypes][7]int8
}

// NewBattle checks and compiles a battle of attacker against defender
// under rules. The attacker must not be an NPC force (R2: NPCs always
// defend).
func NewBattle(attacker, defender Force, rules Rules) (*Battle, error) {
	b := &Battle{Forces: [2]Force{attacker, defender}, Rules: rules}
	if attacker.NPC {
		return nil, fmt.Errorf("eclipse: %s is an NPC force; NPCs always defend", attacker.Name)
	}
	for s := range b.Forces {
		f := &b.Forces[s]
		if len(f.Types) == 0 || len(f.Types) > MaxTypes {
			return nil, fmt.Errorf("eclipse: %s has %d ship types (1..%d)", f.Name, len(f.Types), MaxTypes)
		}
		for t, ty := range f.Types {
			if ty.Count < 1 || ty.Count > MaxShips || ty.Hull < 0 || ty.Hull > MaxHull || ty.Size < 0 || ty.Size > maxSize ||
				ty.Count*ty.Cannons.Total() > MaxVolley || ty.Count*ty.Missiles.Total() > MaxVolley {
				return nil, fmt.Errorf("eclipse: %s's %s: %d ships of hull %d out of the engine's bounds", f.Name, ty.Name, ty.Count, ty.Hull)
			}
			for face := 1; face <= 6; face++ {
				b.maxShield[s][t][face] = int8(rules.maxShieldBeaten(face, ty.Computer))
			}
		}
	}
	var all []Slot
	for s := range b.Forces {
		for t := range b.Forces[s].Types {
			all = append(all, Slot{uint8(s), uint8(t)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, c := all[i], all[j]
		ta, tc := &b.Forces[a.Side].Types[a.Type], &b.Forces[c.Side].Types[c.Type]
		if ta.Init != tc.Init {
			return ta.Init > tc.Init
		}
		if a.Side != c.Side {
			if rules.DefenderFirst {
				return a.Side == Defender
			}
			return a.Side == Attacker
		}
		if ta.Size != tc.Size {
			return (ta.Size > tc.Size) == rules.LargerFirst
		}
		return a.Type < c.Type
	})
	b.Order = all
	for _, sl := range all {
		if b.Forces[sl.Side].Types[sl.Type].Missiles.Total() > 0 {
			b.Missiles = append(b.Missiles, sl)
		}
	}
	return b, nil
}

// maxShieldBeaten is the largest shield a roll of face beats with computer
// comp (R7): a face of AlwaysHit or more hits any shield (127), one of
// AlwaysMiss or less none (-1); otherwise face + comp - shield >= target.
func (r *Rules) maxShieldBeaten(face, comp int) int {
	switch {
	case face >= r.AlwaysHit:
		return 127
	case face <= r.AlwaysMiss:
		return -1
	}
	s := face + comp - r.HitTarget
	if s < 0 {
		return -1
	}
	if s > 126 {
		s = 126
	}
	return s
}

// HitChance is the chance that one die with computer comp hits shield (R7).
func (r *Rules) HitChance(comp, shield int) float64 {
	n := 0
	for face := 1; face <= 6; face++ {
		if r.maxShieldBeaten(face, comp) >= shield {
			n++
		}
	}
	return float64(n) / 6
}

// Battle compiles the battle of fleet attacker against fleet defender
// (indexes in Fleets) under the ruleset's rules.
func (rs *Ruleset) Battle(attacker, defender int) (*Battle, error) {
	key := [2]int{attacker, defender}
	if rs.battles != nil {
		if b, ok := rs.battles.Load(key); ok {
			return b.(*Battle), nil
		}
	}
	b, err := NewBattle(rs.Force(attacker), rs.Force(defender), rs.Rules)
	if err == nil && rs.battles != nil {
		v, _ := rs.battles.LoadOrStore(key, b)
		b = v.(*Battle)
	}
	return b, err
}

// Force compiles fleet f into a battle force.
func (rs *Ruleset) Force(f int) Force {
	fl := &rs.Fleets[f]
	out := Force{Name: fl.Name, NPC: fl.NPC}
	for _, s := range fl.Ships {
		b := &rs.Blueprints[s.Blueprint]
		out.Types = append(out.Types, TypeOf(b, s.Count))
	}
	return out
}

// TypeOf is count ships of blueprint b as a battle type.
func TypeOf(b *Blueprint, count int) Type {
	st := &b.Stats
	return Type{Name: b.Name, Count: count, Init: st.Init, Hull: st.Hull, Computer: st.Computer,
		Shield: st.Shield, Size: b.Size, Cost: b.Cost, Reputation: b.Reputation, Cannons: st.Cannons, Missiles: st.Missiles}
}

// levels is one side's damage state: per type, the number of live ships at
// each damage level 0..hull. Ships of a type are interchangeable, so this
// multiset is all the rules need (the design's §3.5 state).
type levels [MaxTypes][MaxHull + 1]uint8

// sides is both sides' damage state.
type sides [2]levels

func (l *levels) alive(t int) int {
	n := 0
	for _, c := range l[t] {
		n += int(c)
	}
	return n
}

func (l *levels) anyAlive() bool {
	for t := range l {
		if l.alive(t) > 0 {
			return true
		}
	}
	return false
}

// start is the battle's opening damage state: every ship undamaged.
func (b *Battle) start() sides {
	var s sides
	for side := range b.Forces {
		for t, ty := range b.Forces[side].Types {
			s[side][t][0] = uint8(ty.Count)
		}
	}
	return s
}

// hit is one die that hit something: its damage and the largest shield it
// beats.
type hit struct {
	dmg       uint8
	maxShield int8
}

// canHit reports whether h may be assigned to a live ship of type t of f.
func canHit(f *Force, t int, h hit) bool { return int(h.maxShield) >= f.Types[t].Shield }

// applyHit puts h on a ship of type t at damage level lv of l.
func applyHit(f *Force, l *levels, t, lv int, h hit) {
	l[t][lv]--
	if n := lv + int(h.dmg); n <= f.Types[t].Hull {
		l[t][n]++
	}
}

// canFire reports whether some live type of side s has a cannon that can
// hit some live enemy (the negation is the stalemate of R15, generalised to
// shields no roll beats).
func (b *Battle) canFire(st *sides, s int, missiles bool) bool {
	f, e := &b.Forces[s], &b.Forces[1-s]
	for t := range f.Types {
		d := f.Types[t].Cannons
		if missiles {
			d = f.Types[t].Missiles
		}
		if st[s].alive(t) == 0 || d.Total() == 0 {
			continue
		}
		for u := range e.Types {
			if st[1-s].alive(u) > 0 && int(b.maxShield[s][t][6]) >= e.Types[u].Shield {
				return true
			}
		}
	}
	return false
}

// stalemate: neither side's cannons can hit the other (R15).
func (b *Battle) stalemate(st *sides) bool {
	return !b.canFire(st, 0, false) && !b.canFire(st, 1, false)
}

// reacher enumerates the enemy damage states a volley of hits can leave,
// assigning each hit to one live ship it can hit (R9, R10; a hit is lost
// only when no live ship can take it, Q5). Scratch is reused, so a warm
// reacher does not allocate.
type reacher struct {
	cur, next []levels
	seen      map[levels]struct{}
}

// MaxReach bounds the states one hit's enumeration keeps: past it the
// rest are dropped in the enumeration's fixed order, so a giant volley
// (dozens of hits on a fleet of many damaged ships) stays fast and still
// plays the same in the study and the engine. No battle of the embedded
// rulesets comes near it.
const MaxReach = 4096

// reach returns the distinct states hits can leave of from (in a fixed
// order: the enumeration's), valid until the next call.
func (rc *reacher) reach(f *Force, from levels, hits []hit, allowWaste bool) []levels {
	rc.cur = append(rc.cur[:0], from)
	for _, h := range hits {
		rc.next = rc.next[:0]
		if rc.seen != nil {
			clear(rc.seen)
		}
		for i := range rc.cur {
			l := &rc.cur[i]
			placed := false
			for t := range f.Types {
				if !canHit(f, t, h) {
					continue
				}
				for lv := 0; lv <= f.Types[t].Hull; lv++ {
					if l[t][lv] == 0 {
						continue
					}
					placed = true
					n := *l
					applyHit(f, &n, t, lv, h)
					rc.add(&n)
				}
			}
			if !placed || allowWaste {
				rc.add(l)
			}
		}
		rc.cur, rc.next = rc.next, rc.cur
	}
	return rc.cur
}

// add puts l in next unless it is there (a linear scan while next is
// small, a set beyond) or next is full.
func (rc *reacher) add(l *levels) {
	if len(rc.next) >= MaxReach {
		return
	}
	if len(rc.next) < 32 {
		for i := range rc.next {
			if rc.next[i] == *l {
				return
			}
		}
		rc.next = append(rc.next, *l)
		return
	}
	if rc.seen == nil {
		rc.seen = map[levels]struct{}{}
	}
	if len(rc.seen) == 0 {
		for i := range rc.next {
			rc.seen[rc.next[i]] = struct{}{}
		}
	}
	if _, ok := rc.seen[*l]; ok {
		return
	}
	rc.seen[*l] = struct{}{}
	rc.next = append(rc.next, *l)
}

// less orders damage states totally (a tie-break every policy shares, so
// the study and the engine pick the same state).
func less(a, b *levels) bool {
	for t := range a {
		for lv := range a[t] {
			if a[t][lv] != b[t][lv] {
				return a[t][lv] < b[t][lv]
			}
		}
	}
	return false
}
