package spacetrace

// The battle resolution (seed 003 "Kampf", the brief's §2.4–2.5 and its
// pseudocode §2.8), pure: it reads the rules and the card definitions and
// changes only the fleets it is given. It allocates nothing, so the engine
// and the class-matrix study call it in their loops.
//
// Damage model. Every shot focuses the front-most ship that still has LP
// (B8), so of a card's alive ships only the front ones can be hurt: a card
// is Weak ships at 1 LP (reconstructed, A5) in front, then one lead ship
// with Lead damage, then ships at full LP. Down ships are destroyed but
// recoverable until the card is discarded (A5, A6); Over of them went
// below 0 LP (recover.overkill_blocks); Gone ships are killed.

// MaxUnits bounds the cards of one fleet (a deck's ship cards and the Base).
const MaxUnits = 48

// NoCard marks the Base's Unit.Card.
const NoCard = -1

// Unit is one ship card (or the Base) in a fleet.
type Unit struct {
	Card int16 // index into Ruleset.Defs; NoCard for the Base
	// Cmd is the commander on the card, its card index + 1 (0: none; C1).
	Cmd                      int16
	Class                    int8
	Ships, AP, LP            int32 // printed: ships, AP and LP per ship
	Alive, Weak, Lead        int32
	Down, Over, Gone, Jammed int32
	// Emp of the Jammed ships are jammed by a tactic until the end of the
	// class battle (EMP Burst), whatever jam.until says.
	Emp int32
	// BuffShips of the card's alive ships fire with BuffMult × AP (A1, C5).
	BuffShips, BuffMult int32
	Fired               bool // acted in this fleet battle (own-fleet effects skip it)
	Involved            bool // took part in the current class battle (A8)
	Removed             bool // out of the current battle (Psionic Blast; a fresh ship under ship.summoning_sickness)
	Fresh               bool // played this turn
	Moved               bool // moved between fleets this turn
	Dead                bool // discarded: no longer in the fleet
	// Swapped marks a card the other player owns (Deserter, C3): its
	// wreck goes to its owner's discard pile.
	Swapped bool
}

// IsBase reports whether u is the Base.
func (u *Unit) IsBase() bool { return u.Card == NoCard }

// Damaged reports whether the card has lost ships or holds a hurt one (C4).
func (u *Unit) Damaged() bool { return u.Alive < u.Ships || u.Lead > 0 || u.Weak > 0 }

// live reports whether u can be fired at or act.
func (u *Unit) live() bool { return !u.Dead && !u.Removed && u.Alive > 0 }

// Restore is the end of turn (E1): every ship back at full strength; the
// Base keeps its damage.
func (u *Unit) Restore() {
	if u.IsBase() {
		u.Jammed, u.Emp, u.Removed, u.Fired, u.Involved, u.BuffShips = 0, 0, false, false, false, 0
		return
	}
	*u = Unit{Card: u.Card, Cmd: u.Cmd, Class: u.Class, Ships: u.Ships, AP: u.AP, LP: u.LP, Alive: u.Ships, Dead: u.Dead, Swapped: u.Swapped}
}

// Fleet is one fleet's cards in battle order: class I cards in their
// owner's order, then class II, III and IV (B3). The Base is a class-IV card
// of the Base fleet (B11).
type Fleet struct {
	N int
	U [MaxUnits]Unit
}

// Add appends a unit at full strength; it reports false when the fleet is
// full. Units must be added class by class (Sort restores that order).
func (f *Fleet) Add(card int16, class int8, ships, ap, lp int) bool {
	if f.N == MaxUnits {
		return false
	}
	f.U[f.N] = Unit{Card: card, Class: class, Ships: int32(ships), AP: int32(ap), LP: int32(lp), Alive: int32(ships)}
	f.N++
	return true
}

// ShipUnit is card ci of defs as a unit at full strength.
func ShipUnit(defs []Card, ci int) Unit {
	c := &defs[ci]
	return Unit{Card: int16(ci), Class: int8(c.Class), Ships: int32(c.Ships), AP: int32(c.AP), LP: int32(c.LP), Alive: int32(c.Ships)}
}

// BaseUnit is the Base as a unit with damage taken so far.
func BaseUnit(r *Rules, damage int) Unit {
	return Unit{Card: NoCard, Class: 4, Ships: 1, AP: int32(r.BaseAP), LP: int32(r.BaseLP), Alive: 1, Lead: int32(damage)}
}

// Sort orders the units by class, keeping each class's order (a stable
// insertion sort: no allocation).
func (f *Fleet) Sort() {
	for i := 1; i < f.N; i++ {
		for j := i; j > 0 && f.U[j].Class < f.U[j-1].Class; j-- {
			f.U[j], f.U[j-1] = f.U[j-1], f.U[j]
		}
	}
}

// HasClass reports whether the fleet has a live card of class k.
func (f *Fleet) HasClass(k int) bool {
	for i := 0; i < f.N; i++ {
		if u := &f.U[i]; int(u.Class) == k && u.live() {
			return true
		}
	}
	return false
}

// Battle resolves battles under one ruleset.
type Battle struct {
	R    *Rules
	Defs []Card
}

// TargetClass is the class a side's class-k ships fire at in class battle
// k (B9): the opponent's lowest non-empty class ≥ k (pairing:
// lowest_nonempty) or, with next_only, k or else k+1 only; 0 when the side
// has no live class-k card or nothing to fire at.
func (b *Battle) TargetClass(own, opp *Fleet, k int) int {
	if !own.HasClass(k) {
		return 0
	}
	hi := NumClasses
	if b.R.Pairing == PairNextOnly && k+1 < hi {
		hi = k + 1
	}
	for t := k; t <= hi; t++ {
		if opp.HasClass(t) {
			return t
		}
	}
	return 0
}

// front is the index of opp's front live unit of class t, or -1.
func front(opp *Fleet, t int) int {
	for i := 0; i < opp.N; i++ {
		if u := &opp.U[i]; int(u.Class) == t && u.live() {
			return i
		}
	}
	return -1
}

// down takes the front ship of u out with the shot that killed it; over
// marks a kill below 0 LP.
func down(u *Unit, over bool) {
	u.Alive--
	u.Down++
	if over {
		u.Over++
	}
	if u.Jammed > 0 {
		u.Jammed-- // jammed ships are the front ones (A4)
	}
}

// fire shoots n shots of ap each at opp's class t, front card first, each
// at its front ship until it is down (B8); excess damage on a ship is lost
// (B7). It stops when class t has no live card left (B10) and returns the
// shots it did not fire.
func fire(opp *Fleet, t int, n, ap int32) int32 {
	for n > 0 {
		i := front(opp, t)
		if i < 0 {
			return n
		}
		u := &opp.U[i]
		u.Involved = true
		if ap <= 0 {
			return 0 // shots without strength hit nothing
		}
		// Reconstructed ships at 1 LP are in front: one shot each.
		if u.Weak > 0 {
			k := min(n, u.Weak)
			u.Weak -= k
			n -= k
			for j := int32(0); j < k; j++ {
				down(u, ap > 1)
			}
			continue
		}
		need := (u.LP - u.Lead + ap - 1) / ap
		if n < need {
			u.Lead += n * ap
			return 0
		}
		n -= need
		over := u.Lead+need*ap > u.LP
		u.Lead = 0
		down(u, over)
		if u.IsBase() {
			u.Lead = u.LP // the Base's damage is its record (E3)
			continue
		}
		if u.Alive == 0 || n == 0 {
			continue
		}
		per := (u.LP + ap - 1) / ap
		k := min(n/per, u.Alive)
		if k > 0 {
			over := per*ap > u.LP
			u.Alive -= k
			u.Down += k
			if over {
				u.Over += k
			}
			u.Jammed = max(0, u.Jammed-k)
			n -= k * per
		}
		if u.Alive > 0 && n > 0 {
			u.Lead = n * ap // n < per: the lead ship survives
			n = 0
		}
	}
	return 0
}

// BaseDamage is the damage on a Base unit.
func BaseDamage(u *Unit) int {
	if u.Alive == 0 {
		return int(u.LP)
	}
	return int(u.Lead)
}

// suppressed reports whether u's ability is jammed away (A4).
func (b *Battle) suppressed(u *Unit) bool {
	if u.Jammed == 0 {
		return false
	}
	return b.R.JamAbilityIf == JamAny || u.Jammed >= u.Alive
}

// effects are u's card's effects (none for the Base).
func (b *Battle) effects(u *Unit) []Effect {
	if u.IsBase() {
		return nil
	}
	return b.Defs[u.Card].Effects
}

func (b *Battle) has(u *Unit, h Handler) bool {
	for _, e := range b.effects(u) {
		if e.Do == h {
			return true
		}
	}
	return false
}

// times is how often an ability of u acts: once per card, or once per
// alive ship with effect.per: ship (A1).
func (b *Battle) times(u *Unit, alive int32) int32 {
	if b.R.EffectPer == PerShip {
		return alive
	}
	return 1
}

// FleetBattle resolves one fleet battle of a against d (B5): the four
// class battles, then the discard of cards without alive ships (A6). It
// returns whether a Base died; the damage stays on the units (B5: damage
// persists for the turn). Fired flags and buffs start afresh: a fleet that
// fights twice fires in each battle.
func (b *Battle) FleetBattle(a, d *Fleet) (baseDied bool) {
	fleetBegin(a, d)
	for k := 1; k <= NumClasses; k++ {
		b.ClassBattle(a, d, k)
		baseDied = b.classEnd(a, d) || baseDied
	}
	return fleetEnd(a, d) || baseDied
}

// fleetBegin starts a fleet battle: fired flags and buffs afresh. The
// engine's battle cursor (drive.go) calls the three steps of FleetBattle
// with its tactic windows between them.
func fleetBegin(a, d *Fleet) {
	for _, f := range [2]*Fleet{a, d} {
		for i := 0; i < f.N; i++ {
			u := &f.U[i]
			u.Fired, u.BuffShips, u.BuffMult = false, 0, 0
		}
	}
}

// classEnd is the bookkeeping after a class battle: the discard under
// discard.when: class_battle, the jams under jam.until: class.
func (b *Battle) classEnd(a, d *Fleet) (baseDied bool) {
	if b.R.DiscardWhen == WhenClassBattle {
		baseDied = discard(a) || baseDied
		baseDied = discard(d) || baseDied
	}
	if b.R.JamUntil == UntilClass {
		clearJams(a)
		clearJams(d)
	}
	return baseDied
}

// fleetEnd ends a fleet battle: the discard (A6), the jams cleared.
func fleetEnd(a, d *Fleet) (baseDied bool) {
	baseDied = discard(a) || baseDied
	baseDied = discard(d) || baseDied
	clearJams(a)
	clearJams(d)
	return baseDied
}

func clearJams(f *Fleet) {
	for i := 0; i < f.N; i++ {
		f.U[i].Jammed = 0
	}
}

// discard marks the cards without alive ships as discarded (A6); a dead
// Base takes the rest of its fleet with it (errata). It reports whether the
// fleet's Base died.
func discard(f *Fleet) (baseDied bool) {
	for i := 0; i < f.N; i++ {
		u := &f.U[i]
		if !u.Dead && u.Alive == 0 {
			u.Dead = true
			if u.IsBase() {
				baseDied = true
			}
		}
	}
	if baseDied {
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; !u.Dead {
				u.Alive, u.Gone, u.Dead = 0, u.Gone+u.Alive, true
			}
		}
	}
	return baseDied
}

// ClassBattle resolves class battle k of a against d (A2): jam,
// preemptive step, normal step, recovery, self-destruction. Both sides act
// on the same state in each step (B6, A3).
func (b *Battle) ClassBattle(a, d *Fleet, k int) {
	ta, td := b.TargetClass(a, d, k), b.TargetClass(d, a, k)
	for _, f := range [2]*Fleet{a, d} {
		for i := 0; i < f.N; i++ {
			f.U[i].Involved = false
		}
	}
	// 1. Jam: both sides on the state before any jam.
	var ja, jd [MaxUnits]int32
	b.count(a, k, &ja, jamStep)
	b.count(d, k, &jd, jamStep)
	b.jam(a, d, k, td, &ja)
	b.jam(d, a, k, ta, &jd)
	// 2. Preemptive: both sides' shots counted on the state after jams.
	var na, nd [MaxUnits]int32
	b.count(a, k, &na, preStep)
	b.count(d, k, &nd, preStep)
	b.volley(a, d, k, ta, &na, true)
	b.volley(d, a, k, td, &nd, true)
	// 3. Normal step: counted after the preemptive step (its casualties do
	// not act), then both volleys.
	// Own-fleet buffs first, so each side's go to its cards as they stood
	// before the volleys.
	b.count(a, k, &na, normalStep)
	b.count(d, k, &nd, normalStep)
	b.buffs(a, &na)
	b.buffs(d, &nd)
	b.volley(a, d, k, ta, &na, false)
	b.volley(d, a, k, td, &nd, false)
	// 4. Recovery, by the cards that acted in the normal step.
	b.recover(a, k, &na)
	b.recover(d, k, &nd)
	// 5. Self-destruction (A8).
	for _, f := range [2]*Fleet{a, d} {
		for i := 0; i < f.N; i++ {
			u := &f.U[i]
			if int(u.Class) == k && !u.Dead && u.Involved && b.has(u, SelfDestruct) {
				u.Gone += u.Alive + u.Down
				u.Alive, u.Down, u.Over, u.Weak, u.Lead, u.Jammed = 0, 0, 0, 0, 0, 0
			}
		}
	}
}

type step uint8

const (
	jamStep step = iota
	preStep
	normalStep
)

// count records, for each class-k unit of f that acts in step s, the ships
// that act (0 for the others).
func (b *Battle) count(f *Fleet, k int, n *[MaxUnits]int32, s step) {
	for i := 0; i < f.N; i++ {
		u := &f.U[i]
		n[i] = 0
		if int(u.Class) != k || !u.live() {
			continue
		}
		switch s {
		case jamStep:
			if b.has(u, Jam) && !b.suppressed(u) {
				n[i] = u.Alive
			}
		case preStep:
			if b.has(u, Preemptive) {
				n[i] = u.Alive - u.Jammed
			}
		case normalStep:
			if !u.Fired && !b.has(u, Preemptive) {
				n[i] = u.Alive - u.Jammed
			}
		}
		if n[i] < 0 {
			n[i] = 0
		}
	}
}

// jam applies f's jam abilities counted in n to opp's target class t: each
// jams its ships from the current target on (A4).
func (b *Battle) jam(f, opp *Fleet, k, t int, n *[MaxUnits]int32) {
	for i := 0; i < f.N; i++ {
		if n[i] == 0 {
			continue
		}
		u := &f.U[i]
		u.Involved = true
		if t == 0 {
			continue
		}
		for _, e := range b.effects(u) {
			if e.Do != Jam {
				continue
			}
			left := int32(e.Ships) * b.times(u, n[i])
			for j := 0; j < opp.N && left > 0; j++ {
				v := &opp.U[j]
				if int(v.Class) != t || !v.live() {
					continue
				}
				x := min(left, v.Alive-v.Jammed)
				v.Jammed += x
				v.Involved = true
				left -= x
			}
		}
	}
}

// volley is f's step into opp's class t: each acting card in order uses its
// abilities and fires its counted ships (n[i]), with its buff.
func (b *Battle) volley(f, opp *Fleet, k, t int, n *[MaxUnits]int32, pre bool) {
	for i := 0; i < f.N; i++ {
		if n[i] == 0 {
			continue
		}
		u := &f.U[i]
		u.Fired, u.Involved = true, true
		if !b.suppressed(u) {
			b.abilities(f, opp, i, t, n[i])
		}
		if t == 0 {
			continue
		}
		ships := n[i]
		if u.BuffShips > 0 {
			bs := min(u.BuffShips, ships)
			fire(opp, t, bs, u.AP*u.BuffMult)
			ships -= bs
		}
		fire(opp, t, ships, u.AP)
	}
}

// abilities are u's (f.U[i]'s) normal-step abilities, before its shots.
func (b *Battle) abilities(f, opp *Fleet, i, t int, alive int32) {
	u := &f.U[i]
	for _, e := range b.effects(u) {
		switch e.Do {
		case DestroyCard:
			if t == 0 {
				continue
			}
			left := int32(e.Count) * b.times(u, alive)
			for j := 0; j < opp.N && left > 0; j++ {
				v := &opp.U[j]
				if int(v.Class) != t || !v.live() || v.IsBase() || e.Classes&(1<<(v.Class-1)) == 0 {
					continue
				}
				if e.Requires == RequiresDamaged && !v.Damaged() {
					continue
				}
				v.Involved = true
				if e.Mode == ModeKill {
					v.Gone += v.Alive
				} else {
					v.Down += v.Alive
				}
				v.Alive, v.Weak, v.Lead, v.Jammed = 0, 0, 0, 0
				left--
			}
		}
	}
}

// buffs are f's buff_following abilities of the cards counted in n.
func (b *Battle) buffs(f *Fleet, n *[MaxUnits]int32) {
	for i := 0; i < f.N; i++ {
		if n[i] == 0 || b.suppressed(&f.U[i]) {
			continue
		}
		for _, e := range b.effects(&f.U[i]) {
			if e.Do == BuffFollowing {
				b.buff(f, i, &e, b.times(&f.U[i], n[i]))
			}
		}
	}
}

// buff gives the next own cards that have not yet acted in this fleet
// battle (A1: the fleet's order, or only class k with effect.own_scope:
// class) e.APMult × AP; with commando.unit: ship it counts ships, not cards
// (C5).
func (b *Battle) buff(f *Fleet, i int, e *Effect, times int32) {
	u := &f.U[i]
	left := int32(e.Cards) * times
	for j := i + 1; j < f.N && left > 0; j++ {
		v := &f.U[j]
		if v.Fired || !v.live() {
			continue
		}
		if b.R.OwnScope == ScopeClass && v.Class != u.Class {
			break
		}
		mult := int32(max(e.APMult, 1))
		if e.APAdd > 0 && v.AP > 0 {
			mult = (v.AP*mult + int32(e.APAdd)) / v.AP
		}
		if b.R.CommandoUnit == PerShip {
			x := min(left, v.Alive-v.BuffShips)
			v.BuffShips += x
			v.BuffMult = mult
			left -= x
			continue
		}
		v.BuffShips, v.BuffMult = v.Alive, mult
		left--
	}
}

// recover is f's recovery step (A2.4) by its class-k cards that acted in
// the normal step: reconstruct and repair of own cards (A5).
func (b *Battle) recover(f *Fleet, k int, n *[MaxUnits]int32) {
	for i := 0; i < f.N; i++ {
		if n[i] == 0 {
			continue
		}
		u := &f.U[i]
		if b.suppressed(u) {
			continue
		}
		for _, e := range b.effects(u) {
			switch e.Do {
			case Reconstruct:
				left := int32(e.Ships) * b.times(u, n[i])
				for j := 0; j < f.N && left > 0; j++ {
					v := &f.U[j]
					if v.Dead || v.Removed || v.IsBase() || e.Classes&(1<<(v.Class-1)) == 0 {
						continue
					}
					can := v.Down
					if b.R.OverkillBlocks {
						can -= v.Over
					}
					x := min(left, can)
					if x <= 0 {
						continue
					}
					v.Down -= x
					if over := v.Over - v.Down; over > 0 {
						v.Over -= over // the recoverable were taken last
					}
					v.Alive += x
					v.Weak += x
					left -= x
				}
			case Repair:
				if e.Target != RepairNext {
					continue
				}
				left := int32(e.NextCards) * b.times(u, n[i])
				for j := i + 1; j < f.N && left > 0; j++ {
					v := &f.U[j]
					if v.Dead || v.Removed {
						continue
					}
					if b.R.OwnScope == ScopeClass && v.Class != u.Class {
						break
					}
					if !v.IsBase() && v.Alive > 0 { // the Base is immune to repair (A10)
						v.Weak, v.Lead = 0, 0
					}
					left--
				}
			}
		}
	}
}
