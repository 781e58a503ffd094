package spacetrace

import (
	"testing"
)

// fleet builds a fleet of the reference set's cards by id, in the order
// given (classes must ascend); "base" is the Base with damage 0.
func fleet(t *testing.T, b *Battle, ids ...string) *Fleet {
	t.Helper()
	rs := Embedded(ReferenceRuleset)
	f := &Fleet{}
	for _, id := range ids {
		if id == "base" {
			f.U[f.N] = BaseUnit(b.R, 0)
			f.N++
			continue
		}
		ci := rs.CardIndex(id)
		if ci < 0 {
			t.Fatalf("no card %s", id)
		}
		f.U[f.N] = ShipUnit(rs.Defs, ci)
		f.N++
	}
	return f
}

func newBattle(edit func(*Rules)) *Battle {
	rs := Embedded(ReferenceRuleset)
	r := rs.Rules
	if edit != nil {
		edit(&r)
	}
	return &Battle{R: &r, Defs: rs.Defs}
}

// customUnit is a class-k card of ships × ap/lp with no effects (a card of
// the set with its numbers changed).
func customUnit(card string, class, ships, ap, lp int) Unit {
	rs := Embedded(ReferenceRuleset)
	return Unit{Card: int16(rs.CardIndex(card)), Class: int8(class), Ships: int32(ships), AP: int32(ap), LP: int32(lp), Alive: int32(ships)}
}

// TestRulebook100Fighters: seed 003, "Spieler 1: 100 Fighter (100 x 1/1)
// gegen Spieler 2: 100 Fighter — Beide Karten werden zerstört … alle
// Schiffe feuern!" (B6: simultaneous volleys).
func TestRulebook100Fighters(t *testing.T) {
	for _, withBase := range []bool{false, true} {
		b := newBattle(nil)
		ids := []string{"fighters"}
		if withBase {
			ids = append(ids, "base")
		}
		p1, p2 := fleet(t, b, ids...), fleet(t, b, ids...)
		b.FleetBattle(p1, p2)
		if !p1.U[0].Dead || !p2.U[0].Dead || p1.U[0].Down != 100 || p2.U[0].Down != 100 {
			t.Fatalf("base %v: fighters %+v vs %+v; both must be destroyed", withBase, p1.U[0], p2.U[0])
		}
		if withBase && (BaseDamage(&p1.U[1]) != 0 || BaseDamage(&p2.U[1]) != 0) {
			t.Fatalf("a Base took damage from fighters whose class battle was I")
		}
	}
}

// TestRulebookDestroyersVsFighters: "10 Destroyer (10 x 10/10) gegen 100
// Fighter: Die Destroyer werden zerstört, die Fighter bleiben … enthält
// die Fighter-Karte jetzt nur noch die restlichen 90 Schiffe" (B7: no spill,
// one shot one ship; B6).
func TestRulebookDestroyersVsFighters(t *testing.T) {
	b := newBattle(nil)
	p1, p2 := fleet(t, b, "destroyers"), fleet(t, b, "fighters")
	b.FleetBattle(p1, p2)
	if d := p1.U[0]; !d.Dead || d.Alive != 0 {
		t.Fatalf("destroyers %+v: must be destroyed", d)
	}
	if f := p2.U[0]; f.Dead || f.Alive != 90 || f.Down != 10 {
		t.Fatalf("fighters %+v: 90 must be left", f)
	}
	// And restored at the end of the turn (E1): "erhält jetzt ihre
	// gesamten 100 Fighter zurück".
	p2.U[0].Restore()
	if p2.U[0].Alive != 100 || p2.U[0].Down != 0 {
		t.Fatalf("restored fighters %+v", p2.U[0])
	}
}

// TestRulebookCruisers: "Spieler 1 hat 4 Cruiser, Spieler 2 hat nur 1
// Cruiser … Jeder Spieler verliert einen Cruiser. Die restlichen 3 Cruiser
// kämpfen nicht weiter gegen das Base-Schiff …, weil ihr Ziel bereits auf
// Klasse III eingestellt wurde." (B10: the target class is fixed.) Base
// AP is swept too: the Bases only ever fire at each other in class IV.
func TestRulebookCruisers(t *testing.T) {
	for _, ap := range []int{0, 50} {
		b := newBattle(func(r *Rules) { r.BaseAP = ap })
		p1 := fleet(t, b, "cruiser", "cruiser", "cruiser", "cruiser", "base")
		p2 := fleet(t, b, "cruiser", "base")
		b.FleetBattle(p1, p2)
		if !p1.U[0].Dead || !p2.U[0].Dead {
			t.Fatalf("base ap %d: the front cruisers %+v %+v must die", ap, p1.U[0], p2.U[0])
		}
		for i := 1; i < 4; i++ {
			if u := p1.U[i]; u.Dead || u.Alive != 2 || u.Damaged() || u.Fired != true {
				t.Fatalf("base ap %d: cruiser %d %+v: must be untouched (and stopped)", ap, i, u)
			}
		}
		if got := BaseDamage(&p2.U[1]); got != ap {
			t.Fatalf("base ap %d: P2's Base took %d; only P1's Base (AP %d) hits it, in class IV", ap, got, ap)
		}
	}
}

// TestRulebookPairing: "Spieler 1 hat Schiffe in Klasse I, II und IV und
// Spieler 2 hat Schiffe in Klasse I, III und IV … I gegen I; II gegen III;
// III gegen IV; IV gegen IV." (B9) and the tip: P1's class II destroys
// P2's class III, P2 destroys nothing of P1's class II.
func TestRulebookPairing(t *testing.T) {
	b := newBattle(nil)
	p1 := fleet(t, b, "fighters", "campaign-ship", "base")
	p2 := fleet(t, b, "fighters", "cruiser", "base")
	want := [][2]int{{1, 1}, {3, 0}, {0, 4}, {4, 4}} // {P1 fires at, P2 fires at}; 0: does not fire
	for k := 1; k <= 4; k++ {
		got := [2]int{b.TargetClass(p1, p2, k), b.TargetClass(p2, p1, k)}
		if got != want[k-1] {
			t.Errorf("class battle %d: targets %v, want %v", k, got, want[k-1])
		}
	}
	b.FleetBattle(p1, p2)
	if !p2.U[1].Dead {
		t.Fatalf("P2's cruiser %+v: P1's class II must destroy it", p2.U[1])
	}
	if u := p1.U[1]; u.Dead || u.Damaged() {
		t.Fatalf("P1's campaign ship %+v: nothing fires at it", u)
	}
	// Once P2's cruiser is gone, class battle III has no shooter on
	// either side: emptiness is judged at the start of each class battle.
	if got := b.TargetClass(p2, p1, 3); got != 0 {
		t.Fatalf("P2 fires in class battle III after losing its class III: %d", got)
	}
	// pairing: next_only — a class-I ship facing only class III fires at nothing.
	bn := newBattle(func(r *Rules) { r.Pairing = PairNextOnly })
	q1, q2 := fleet(t, bn, "fighters"), fleet(t, bn, "cruiser")
	if got := bn.TargetClass(q1, q2, 1); got != 0 {
		t.Fatalf("next_only: class I fires at %d", got)
	}
	if got := b.TargetClass(q1, q2, 1); got != 3 {
		t.Fatalf("lowest_nonempty: class I fires at %d", got)
	}
}

// TestRulebookFourBattles: "Extraflotte Spieler 1 gegen Extraflotte
// Spieler 2; Extraflotte Spieler 1 - Base-Flotte Spieler 2; Base-Flotte
// Spieler 1 - Extraflotte Spieler 2; Base-Flotte Spieler 1 - Base-Flotte
// Spieler 2" (B5), and the two-battle example before it.
func TestRulebookFourBattles(t *testing.T) {
	pairs, n := Sequence(Before, Before)
	want := [4][2]int{{ExtraFleet, ExtraFleet}, {ExtraFleet, BaseFleet}, {BaseFleet, ExtraFleet}, {BaseFleet, BaseFleet}}
	if n != 4 || pairs != want {
		t.Fatalf("four battles %v (%d), want %v", pairs, n, want)
	}
	pairs, n = Sequence(Before, Stay)
	if n != 2 || pairs[0] != [2]int{ExtraFleet, BaseFleet} || pairs[1] != [2]int{BaseFleet, BaseFleet} {
		t.Fatalf("two battles %v (%d)", pairs, n)
	}
	pairs, n = Sequence(Stay, After)
	if n != 2 || pairs[0] != [2]int{BaseFleet, BaseFleet} || pairs[1] != [2]int{BaseFleet, ExtraFleet} {
		t.Fatalf("defender after %v (%d)", pairs, n)
	}
}

// TestDamagePersistsAcrossFleetBattles: "behalten beschädigte Schiffe
// ihren Schaden bis zum Ende des Zuges. Ein Schiff kann also mit Schiffen
// aus zwei Flotten zerstört werden." A fleet that fights twice fires in
// each (B5).
func TestDamagePersistsAcrossFleetBattles(t *testing.T) {
	b := newBattle(nil)
	var att, def Army
	att.Fleets[ExtraFleet] = *fleet(t, b, "destroyers") // 10 × 10/10
	att.Fleets[BaseFleet] = *fleet(t, b, "base")
	d := &def.Fleets[BaseFleet]
	*d = *fleet(t, b, "base")
	d.U[1] = d.U[0]
	d.U[0] = customUnit("dreadnought", 1, 1, 0, 150) // one 0/150 class-I ship
	d.N = 2
	b.Attack(&att, &def, Before, Stay)
	// The extra fleet deals 100 of 150; the Base fleet (AP 0) adds nothing.
	if u := def.Fleets[BaseFleet].U[0]; u.Dead || u.Lead != 100 {
		t.Fatalf("after one battle %+v", u)
	}
	b2 := newBattle(nil)
	var att2 Army
	att2.Fleets[ExtraFleet] = *fleet(t, b2, "destroyers")
	att2.Fleets[BaseFleet] = *fleet(t, b2, "destroyers", "base")
	b2.Attack(&att2, &def, Before, Stay)
	if u := def.Fleets[BaseFleet].U[0]; !u.Dead {
		t.Fatalf("a ship hit by two fleets %+v: 100 + 100 ≥ 150 must destroy it", u)
	}
}

// TestPreemptive: an Interceptor's shots come before the normal step, so
// the ships it destroys do not fire (A3); two preemptive cards both fire
// on the same state.
func TestPreemptive(t *testing.T) {
	b := newBattle(nil)
	// Interceptors 4 × 10/10 against Destroyers 10 × 10/10: 4 destroyers
	// die first, the other 6 fire back and kill all 4 interceptors.
	p1, p2 := fleet(t, b, "interceptors"), fleet(t, b, "destroyers")
	b.FleetBattle(p1, p2)
	if p2.U[0].Alive != 6 || !p1.U[0].Dead {
		t.Fatalf("interceptors %+v destroyers %+v: want 6 destroyers left, interceptors gone", p1.U[0], p2.U[0])
	}
	// Interceptors against Interceptors: both preemptive, both fire: both
	// cards die ("werden beide Effekte ausgeführt").
	p1, p2 = fleet(t, b, "interceptors"), fleet(t, b, "interceptors")
	b.FleetBattle(p1, p2)
	if !p1.U[0].Dead || !p2.U[0].Dead {
		t.Fatalf("two preemptive cards: %+v %+v", p1.U[0], p2.U[0])
	}
}

// TestKamikazeSelfDestructs: "Eine Schiffskarte mit Selbstzerstörung wird
// gekillt, nachdem sie in einen Class-Battle miteinbezogen wurde" (A8):
// gone, not recoverable.
func TestKamikazeSelfDestructs(t *testing.T) {
	b := newBattle(nil)
	p1, p2 := fleet(t, b, "kamikaze"), fleet(t, b, "fighters")
	b.FleetBattle(p1, p2)
	if u := p1.U[0]; !u.Dead || u.Gone != 20 || u.Down != 0 {
		t.Fatalf("kamikaze %+v: all 20 must be killed", u)
	}
	// 20 preemptive shots of 10 AP kill 20 fighters before they fire; the
	// other 80 fire (the kamikaze has only 20 ships of 1 LP).
	if u := p2.U[0]; u.Alive != 80 {
		t.Fatalf("fighters %+v", u)
	}
}

// TestCommandoDoublesNextCards: "Deine 2 folgenden Schiffe im Kampf
// erhalten doppelte Feuerkraft" — the next 2 own cards not yet fired
// (C5, A1: own scope is the fleet), at ×2 AP.
func TestCommandoDoublesNextCards(t *testing.T) {
	b := newBattle(nil)
	target := func() *Fleet {
		f := &Fleet{N: 1}
		f.U[0] = customUnit("battleship", 1, 1, 0, 1000)
		return f
	}
	p1 := fleet(t, b, "commando-fighters", "destroyers", "destroyers", "destroyers")
	p2 := target()
	b.FleetBattle(p1, p2)
	// 25 × 1 + 2 × (10 × 20) + 1 × (10 × 10) = 525.
	if got := p2.U[0].Lead; got != 525 {
		t.Fatalf("damage %d, want 525", got)
	}
	bs := newBattle(func(r *Rules) { r.CommandoUnit = PerShip })
	p1 = fleet(t, bs, "commando-fighters", "destroyers", "destroyers")
	p2 = target()
	bs.FleetBattle(p1, p2)
	// commando.unit: ship: 2 ships at ×2: 25 + 2×20 + 8×10 + 10×10 = 245.
	if got := p2.U[0].Lead; got != 245 {
		t.Fatalf("per ship: damage %d, want 245", got)
	}
}

// TestBountyHunter: it destroys the next enemy class I–III card in its
// class battle only if that card already holds damaged ships (C4, errata);
// destroyed ships are down (recoverable), not killed.
func TestBountyHunter(t *testing.T) {
	b := newBattle(nil)
	p1, p2 := fleet(t, b, "destroyers", "bounty-hunter"), fleet(t, b, "fighters", "penguins")
	b.FleetBattle(p1, p2)
	// Destroyers kill 10 fighters; the hunter finds the fighters damaged
	// and destroys the card, then its 5 ships fire at the penguins.
	if u := p2.U[0]; !u.Dead || u.Down != 100 || u.Gone != 0 {
		t.Fatalf("fighters %+v: destroyed by the hunter", u)
	}
	if u := p2.U[1]; u.Alive != 195 {
		t.Fatalf("penguins %+v: 5 shots must kill 5", u)
	}
	p1, p2 = fleet(t, b, "bounty-hunter"), fleet(t, b, "fighters")
	b.FleetBattle(p1, p2)
	if u := p2.U[0]; u.Dead || u.Alive != 95 {
		t.Fatalf("undamaged fighters %+v: only the 5 shots", u)
	}
}

// TestReconstructAndRepair: Reconstruct gives a destroyed ship 1 LP back,
// Repair restores an alive ship to full LP (A5); the online rule that
// overkill blocks reconstruction is recover.overkill_blocks.
func TestReconstructAndRepair(t *testing.T) {
	b := newBattle(nil)
	// 10 destroyers kill 10 fighters in class battle I; the class-II
	// reconstructor brings 10 back (A6: the card stays until the end of the
	// fleet battle).
	p1, p2 := fleet(t, b, "fighters", "combat-reconstructor"), fleet(t, b, "destroyers")
	p1.U[0].Alive, p1.U[0].Ships = 1000, 1000 // survive the destroyers' answer
	b.FleetBattle(p1, p2)
	if u := p1.U[0]; u.Alive != 1000 || u.Weak != 10 || u.Down != 0 {
		t.Fatalf("reconstructed fighters %+v", u)
	}
	bo := newBattle(func(r *Rules) { r.OverkillBlocks = true })
	p1, p2 = fleet(t, bo, "fighters", "combat-reconstructor"), fleet(t, bo, "destroyers")
	p1.U[0].Alive, p1.U[0].Ships = 1000, 1000
	bo.FleetBattle(p1, p2)
	if u := p1.U[0]; u.Alive != 990 || u.Weak != 0 {
		t.Fatalf("overkill_blocks: fighters hit by 10 AP are below 0 LP: %+v", u)
	}
	// discard.when: class_battle — the fighters card wiped in class battle
	// I is discarded before the reconstructor acts.
	bc := newBattle(func(r *Rules) { r.DiscardWhen = WhenClassBattle })
	p1, p2 = fleet(t, bc, "fighters", "combat-reconstructor"), fleet(t, bc, "fighters")
	bc.FleetBattle(p1, p2)
	if u := p1.U[0]; !u.Dead || u.Alive != 0 {
		t.Fatalf("class_battle discard: %+v", u)
	}
	p1, p2 = fleet(t, b, "fighters", "combat-reconstructor"), fleet(t, b, "fighters")
	b.FleetBattle(p1, p2)
	if u := p1.U[0]; u.Dead || u.Alive != 10 {
		t.Fatalf("fleet_battle discard: the wiped fighters come back with 10: %+v", u)
	}
	// Apollo repairs the next own card in the recovery step: the hurt
	// cruiser behind it.
	p1 = &Fleet{}
	p1.U[0] = ShipUnit(b.Defs, Embedded(ReferenceRuleset).CardIndex("apollo"))
	p1.U[1] = customUnit("cruiser", 3, 2, 0, 100)
	p1.N = 2
	p2 = &Fleet{N: 1}
	p2.U[0] = customUnit("cruiser", 3, 1, 30, 1000)
	b.FleetBattle(p1, p2)
	if u := p1.U[0]; u.Lead != 30 {
		t.Fatalf("apollo %+v: the one enemy shot hits it", u)
	}
	p1.U[1].Lead = 70
	b.FleetBattle(p1, p2)
	if u := p1.U[1]; u.Lead != 0 {
		t.Fatalf("repaired cruiser %+v", u)
	}
}

// TestBaseDestroyed: a Base at ≥ LP damage dies and takes the rest of its
// fleet with it (errata, B12); its damage never heals (E1).
func TestBaseDestroyed(t *testing.T) {
	b := newBattle(func(r *Rules) { r.BaseAP = 0 })
	p1 := fleet(t, b, "fighters", "base")
	p2 := fleet(t, b, "dreadnought")
	p1.U[1].Lead = 900
	b.FleetBattle(p2, p1) // the dreadnought (class IV) fires at p1's lowest class ≥ IV: the Base
	if u := &p1.U[1]; !u.Dead || BaseDamage(u) != 1000 {
		t.Fatalf("base %+v", u)
	}
	if u := p1.U[0]; !u.Dead || u.Gone != 100 {
		t.Fatalf("the Base fleet's fighters %+v must go with it", u)
	}
	u := BaseUnit(b.R, 300)
	u.Restore()
	if BaseDamage(&u) != 300 {
		t.Fatalf("restored Base %+v", u)
	}
}

// TestMothershipTakesItsFleet: "Wird ein Mothership zerstört, werden alle
// Schiffe in der Extraflotte mit zerstört" (C2).
func TestMothershipTakesItsFleet(t *testing.T) {
	b := newBattle(nil)
	var att, def Army
	att.Fleets[BaseFleet] = *fleet(t, b, "base")
	att.Fleets[ExtraFleet] = *fleet(t, b, "dreadnought")
	def.Fleets[BaseFleet] = *fleet(t, b, "base")
	def.Fleets[ExtraFleet] = *fleet(t, b, "fighters", "mothership")
	def.Fleets[ExtraFleet].U[1].LP = 200 // the dreadnought's 200 AP kills it
	b.Attack(&att, &def, Before, Before)
	ef := &def.Fleets[ExtraFleet]
	if !ef.U[1].Dead || !ef.U[0].Dead {
		t.Fatalf("extra fleet %+v %+v", ef.U[0], ef.U[1])
	}
}

func BenchmarkFleetBattle(b *testing.B) {
	bt := newBattle(nil)
	rs := Embedded(ReferenceRuleset)
	var p1, p2 Fleet
	for _, id := range []string{"fighters", "destroyers", "interceptors", "commando-fighters", "cruiser", "dreadnought"} {
		p1.U[p1.N] = ShipUnit(rs.Defs, rs.CardIndex(id))
		p1.N++
	}
	p1.U[p1.N] = BaseUnit(bt.R, 0)
	p1.N++
	p2 = p1
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a, d := p1, p2
		bt.FleetBattle(&a, &d)
	}
}
