package spacetrace

// BaseFleet and ExtraFleet index a player's fleets (C2: at most one extra
// fleet, opened by a Mothership).
const (
	BaseFleet  = 0
	ExtraFleet = 1
)

// Army is one player's fleets in an attack.
type Army struct {
	Fleets [2]Fleet
}

// Base is the army's Base unit, or nil once it is gone.
func (a *Army) Base() *Unit {
	f := &a.Fleets[BaseFleet]
	for i := 0; i < f.N; i++ {
		if f.U[i].IsBase() {
			return &f.U[i]
		}
	}
	return nil
}

// Join is a player's extra-fleet choice (B4): not fighting, fighting
// before the Base fleet, or after it.
type Join uint8

const (
	Stay Join = iota
	Before
	After
)

// FleetOrder is the player's fleets in the order they fight under join
// (the Base fleet always fights, B4); n is how many.
func FleetOrder(join Join) (order [2]int, n int) {
	switch join {
	case Before:
		return [2]int{ExtraFleet, BaseFleet}, 2
	case After:
		return [2]int{BaseFleet, ExtraFleet}, 2
	}
	return [2]int{BaseFleet, 0}, 1
}

// Sequence is the attack's fleet battles (B5): each attacker fleet in its
// order against each defender fleet in its order, "die erste Flotte des
// aktiven Spielers [kämpft] immer zuerst gegen die beiden Flotten des
// Gegners". Pairs are {attacker fleet, defender fleet}.
func Sequence(att, def Join) (pairs [4][2]int, n int) {
	ao, an := FleetOrder(att)
	do, dn := FleetOrder(def)
	for i := 0; i < an; i++ {
		for j := 0; j < dn; j++ {
			pairs[n] = [2]int{ao[i], do[j]}
			n++
		}
	}
	return pairs, n
}

// Attack resolves one attack (B2, B5): the fleet battles of Sequence in
// order, damage persisting between them; a destroyed Mothership destroys
// its extra fleet (C2). A fleet emptied by an earlier battle has nothing to
// fire and nothing to be fired at. It stops when a Base dies (B12) and
// reports which Bases did.
func (b *Battle) Attack(att, def *Army, attJoin, defJoin Join) (attBase, defBase bool) {
	pairs, n := Sequence(attJoin, defJoin)
	for i := 0; i < n; i++ {
		fa, fd := &att.Fleets[pairs[i][0]], &def.Fleets[pairs[i][1]]
		if b.R.DoomstarWhen == PerBattle {
			b.selfDamage(att, fa)
			b.selfDamage(def, fd)
		}
		b.FleetBattle(fa, fd)
		b.fallMothership(att)
		b.fallMothership(def)
		if u := att.Base(); u != nil && u.Dead {
			attBase = true
		}
		if u := def.Base(); u != nil && u.Dead {
			defBase = true
		}
		if attBase || defBase {
			return attBase, defBase
		}
	}
	return false, false
}

// selfDamage is doomstar.when: per_battle (C6): each self_damage card of
// fleet f that fights deals its amount to its owner's Base.
func (b *Battle) selfDamage(a *Army, f *Fleet) {
	base := a.Base()
	if base == nil {
		return
	}
	for i := 0; i < f.N; i++ {
		u := &f.U[i]
		if !u.live() {
			continue
		}
		for _, e := range b.effects(u) {
			if e.Do == SelfDamage {
				DamageBase(base, e.Amount)
			}
		}
	}
}

// DamageBase adds damage to the Base unit u (never repaired, A10); at LP
// or more it is destroyed.
func DamageBase(u *Unit, amount int) {
	if u.Alive == 0 {
		return
	}
	u.Lead += int32(amount)
	if u.Lead >= u.LP {
		u.Lead = u.LP
		u.Alive, u.Down = 0, 1
	}
}

// fallMothership destroys the extra fleet whose Mothership is discarded
// (C2: "Wird ein Mothership zerstört, werden alle Schiffe in der
// Extraflotte mit zerstört"); its ships count as wrecks.
func (b *Battle) fallMothership(a *Army) {
	f := &a.Fleets[ExtraFleet]
	dead := false
	for i := 0; i < f.N; i++ {
		if u := &f.U[i]; u.Dead && !u.IsBase() && b.Defs[u.Card].Opens() {
			dead = true
		}
	}
	if !dead {
		return
	}
	for i := 0; i < f.N; i++ {
		if u := &f.U[i]; !u.Dead {
			u.Down += u.Alive
			u.Alive, u.Dead = 0, true
		}
	}
}
