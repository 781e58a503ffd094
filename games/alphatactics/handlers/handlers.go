package handlers

import (
	"math/bits"

	"github.com/cardlab/cardlab/effects"
)

// Behaviour of every declared handler. Argument indices follow the order of
// the parameters in declare.go.

// behaviors maps every declared handler to its behaviour; init in
// declare.go attaches them before registering, so file order cannot matter.
func behaviors() map[string]any {
	return map[string]any{
		"admiral":            admiral{},
		"armada":             armada{},
		"blockade":           permanent(ClosesRow),
		"deflector":          deflector{},
		"blocker_ship":       permanent(BlocksBelow),
		"distress_signal":    distressSignal{},
		"weapon_purge":       weaponPurge{},
		"diplomat_combo":     diplomatCombo{},
		"gravitational_wave": special(PlaceInsertOther),
		"scout_ship":         special(PlaceScout),
		"negotiations":       negotiations{},
		"strike_ship":        strikeShip{},
		"spy":                spy{},
		"flagship":           flagship{},
		"space_mines":        spaceMines{},
		"bomb":               bomb{},
		"teleport":           special(PlaceAnywhere),
		"shield":             special(PlaceShieldOther),
		"modify_power":       modifyPower{},
		"weaken_above":       weakenAbove{},
		"deactivate_above":   deactivateAbove{},
		"bonus_vs_target":    bonusVsTarget{},
		"power_per_card":     powerPerCard{},
		"draw_cards":         drawCards{},
		"vp_per_target":      vpPerTarget{},
		"vp_if_held":         vpIfHeld{},
		"vp_if_count":        vpIfCount{},
	}
}

// matchType reports whether a card type matches a card_type filter value
// (0 is "any", otherwise the CardTypes index + 1).
func matchType(filter, typ int) bool { return filter == 0 || filter-1 == typ }

func matchOwner(who, src, owner int) bool {
	switch who {
	case WhoOwn:
		return owner == src
	case WhoOpponent:
		return owner != src
	}
	return true
}

type permanent PermanentFlags

func (p permanent) Flags() PermanentFlags { return PermanentFlags(p) }

type special Placement

func (p special) Placement() Placement { return Placement(p) }

// --- scoring ---

type admiral struct{}

func (admiral) Stage() ScoringStage { return StageAdd }
func (admiral) Score(r *RowScore, i int, p *Params) {
	r.Cards[i].Bonus += p.Int[0] * (r.N - 1)
}

type armada struct{}

func (armada) Stage() ScoringStage { return StageCopy }
func (armada) Score(r *RowScore, i int, p *Params) {
	c := &r.Cards[i]
	if c.Stolen {
		// Rulebook: if an opponent steals the Armada's power, it has 0 itself.
		c.Base, c.Mod, c.Bonus = 0, 0, 0
		return
	}
	best := 0
	for q := 0; q < r.Players; q++ {
		if q != c.Owner && r.HasCards[q] && r.Total[q] > best {
			best = r.Total[q]
		}
	}
	c.Bonus = best - c.Base - c.Mod
}

type deflector struct{}

func (deflector) Stage() ScoringStage { return StageSteal }
func (deflector) Score(r *RowScore, i int, p *Params) {
	if i == 0 {
		return // directly above is the target card
	}
	above := &r.Cards[i-1]
	above.Stolen = true
	if above.Copier {
		return // the Armada's power is 0 once stolen: nothing to take
	}
	r.Cards[i].Bonus += above.Base
	above.Base = 0
}

type diplomatCombo struct{}

func (diplomatCombo) Stage() ScoringStage { return StageAdd }
func (diplomatCombo) Score(r *RowScore, i int, p *Params) {
	owner := r.Cards[i].Owner
	for k := range r.Cards[:r.N] {
		// The partner counts even without effect or blocked (rulebook).
		if c := &r.Cards[k]; k != i && c.Owner == owner && p.HasTag(0, c.Def) {
			r.Combo[owner] = true
			return
		}
	}
}

type bonusVsTarget struct{}

func (bonusVsTarget) Stage() ScoringStage { return StageAdd }
func (bonusVsTarget) Score(r *RowScore, i int, p *Params) {
	tt, q := p.Int[1], p.Int[2]
	if r.TargetType < 0 {
		return
	}
	if (tt == 0 || tt-1 == r.TargetType) && (q == 0 || q == r.Quadrant) {
		r.Cards[i].Bonus += p.Int[0]
	}
}

type powerPerCard struct{}

func (powerPerCard) Stage() ScoringStage { return StageAdd }
func (powerPerCard) Score(r *RowScore, i int, p *Params) {
	owner, who, typ, n := r.Cards[i].Owner, p.Int[1], p.Int[2], 0
	for k := range r.Cards[:r.N] {
		if c := &r.Cards[k]; k != i && matchOwner(who, owner, c.Owner) && matchType(typ, c.Type) {
			n++
		}
	}
	r.Cards[i].Bonus += p.Int[0] * n
}

// --- permanent ---

type modifyPower struct{}

func (modifyPower) Flags() PermanentFlags { return 0 }
func (modifyPower) ModifyRow(r *RowScore, i int, p *Params) {
	amount, who, typ, self := p.Int[0], p.Int[1], p.Int[2], p.Int[3] != 0
	owner := r.Cards[i].Owner
	for k := range r.Cards[:r.N] {
		if c := &r.Cards[k]; (k != i || self) && matchOwner(who, owner, c.Owner) && matchType(typ, c.Type) {
			c.Mod += amount
		}
	}
}

// --- one-time ---

type weaponPurge struct{}

func (weaponPurge) candidates(t Table, src Slot, typ int, offer bool) (n int, only Slot) {
	m := t.Match(src.Row, SlotQuery{Owner: AnyOwner, Type: typ - 1, FaceUp: true, Unprotected: true})
	m &^= 1 << uint(src.Pos)
	for ; m != 0; m &= m - 1 {
		s := Slot{src.Row, bits.TrailingZeros64(m)}
		n++
		only = s
		if offer {
			t.Offer(Choice{Kind: ChooseSlot, Row: s.Row, Pos: s.Pos})
		}
	}
	return n, only
}

func (w weaponPurge) Reveal(t Table, src Slot, args []effects.Value) {
	switch n, only := w.candidates(t, src, args[0].Int, false); n {
	case 0:
		t.Fizzle()
	case 1:
		t.Remove(only) // not optional, even if it is the owner's own weapon
	default:
		t.Push(Frame{Player: t.Owner(src), Src: src, Def: t.Def(src)})
	}
}
func (w weaponPurge) Options(t Table, f *Frame, args []effects.Value) {
	w.candidates(t, f.Src, args[0].Int, true)
}
func (weaponPurge) Choose(t Table, f *Frame, args []effects.Value, c Choice) bool {
	t.Remove(Slot{c.Row, c.Pos})
	return true
}

type strikeShip struct{}

// strikable selects the cards a strike could remove (all but the striker).
var strikable = SlotQuery{Owner: AnyOwner, Type: AnyType, Unprotected: true}

func (k strikeShip) Reveal(t Table, src Slot, args []effects.Value) {
	if t.OfferMatches(strikable, src, false) == 0 {
		t.Fizzle()
		return
	}
	t.Push(Frame{Player: t.Owner(src), Src: src, Def: t.Def(src)})
}
func (k strikeShip) Options(t Table, f *Frame, args []effects.Value) {
	t.OfferMatches(strikable, f.Src, true)
	t.Offer(Choice{Kind: ChooseDone}) // optional: only Mines and EMP say otherwise
}
func (strikeShip) Choose(t Table, f *Frame, args []effects.Value, c Choice) bool {
	if c.Kind == ChooseSlot {
		t.Remove(Slot{c.Row, c.Pos})
	}
	return true
}

type distressSignal struct{}

const shipType = 0 // index of "ship" in CardTypes

// offer lists the options (offer) or, without offering, counts them (Reveal
// and Choose only need to know if there is any).
func (distressSignal) offer(t Table, f *Frame, args []effects.Value, offer bool) int {
	owner, n := f.Player, 0
	if f.Step == 0 && args[1].Bool() && t.OpenRows()&(1<<uint(f.Src.Row)) != 0 {
		if n = t.HandOfType(owner, shipType, offer); n != 0 && !offer {
			return n
		}
	}
	// The owner's face-up ships in the other rows.
	q := SlotQuery{Owner: owner, Type: shipType, FaceUp: true, Unprotected: true}
	n += t.OfferMatches(q, Slot{Row: f.Src.Row, Pos: -1}, offer)
	if offer {
		t.Offer(Choice{Kind: ChooseDone})
	}
	return n
}

func (d distressSignal) Reveal(t Table, src Slot, args []effects.Value) {
	f := Frame{Player: t.Owner(src), Src: src, Def: t.Def(src)}
	if d.offer(t, &f, args, false) == 0 {
		t.Fizzle()
		return
	}
	t.Push(f)
}
func (d distressSignal) Options(t Table, f *Frame, args []effects.Value) { d.offer(t, f, args, true) }
func (d distressSignal) Choose(t Table, f *Frame, args []effects.Value, c Choice) bool {
	switch c.Kind {
	case ChooseHand:
		t.PlaceFromHand(f.Player, c.Card, f.Src.Row, true)
		return true
	case ChooseSlot:
		t.Move(Slot{c.Row, c.Pos}, f.Src.Row)
		f.Step++
		return f.Step >= args[0].Int || d.offer(t, f, args, false) == 0
	}
	return true
}

type negotiations struct{}

func (negotiations) Reveal(t Table, src Slot, args []effects.Value) {
	if !t.HasTarget(src.Row) {
		t.Fizzle()
		return
	}
	t.Negotiate(t.Owner(src), src.Row)
}

type spy struct{}

func (spy) Reveal(t Table, src Slot, args []effects.Value) {
	t.RefillAll()
	t.ShowHands(t.Owner(src))
}

type flagship struct{}

// Reveal draws the card the owner must then play. "The card played through
// this effect is played face down into any row as in a normal turn": the
// card is played, so the owner chooses a row but cannot decline — a decline
// would make the effect a free draw the text does not give. With no row
// open nothing could be played, so nothing is drawn. Only a drawn
// Transphasic Shields / Cloaking Device "cannot be played" and stays in hand
// (the card text says so).
func (flagship) Reveal(t Table, src Slot, args []effects.Value) {
	owner := t.Owner(src)
	if t.OpenRows() == 0 {
		t.Fizzle()
		return
	}
	d := t.Draw(owner, 1)
	if d < 0 {
		t.Fizzle()
		return
	}
	if sp := t.DefHandler(d); sp != nil {
		if b, ok := sp.Behavior.(SpecialBehavior); ok && b.Placement() == PlaceShieldOther {
			return // shields cannot be played this way: the card stays in hand
		}
	}
	f := Frame{Player: owner, Src: src, Def: t.Def(src)}
	f.Data[0] = d
	t.Push(f)
}

// PendingCard is the card drawn, which the owner is placing.
func (flagship) PendingCard(f *Frame) int { return f.Data[0] }

// Options offers the open rows and no decline. The frame is resolved right
// after Reveal pushed it, with a row open; Done stands in only should no row
// be open, so that the owner is never left without an action.
func (flagship) Options(t Table, f *Frame, args []effects.Value) {
	open := t.OpenRows()
	if open == 0 {
		t.Offer(Choice{Kind: ChooseDone})
		return
	}
	for ; open != 0; open &= open - 1 {
		t.Offer(Choice{Kind: ChooseRow, Row: bits.TrailingZeros64(open)})
	}
}
func (flagship) Choose(t Table, f *Frame, args []effects.Value, c Choice) bool {
	if c.Kind == ChooseRow {
		t.PlaceFromHand(f.Player, f.Data[0], c.Row, false)
	}
	return true
}

type spaceMines struct{}

func (spaceMines) Reveal(t Table, src Slot, args []effects.Value) {
	for p := src.Pos - 1; p >= 0; p-- {
		s := Slot{src.Row, p}
		if c := t.Info(s); c.FaceUp && matchType(args[0].Int, c.Type) {
			if !t.Remove(s) {
				t.Fizzle() // the nearest ship is shielded
			}
			return
		}
	}
	t.Fizzle()
}

type bomb struct{}

func (bomb) Reveal(t Table, src Slot, args []effects.Value) {
	removed := 0
	// Nearest first: removing index p only shifts the cards below p.
	for p := src.Pos - 1; p >= 0 && p >= src.Pos-args[0].Int; p-- {
		if t.Remove(Slot{src.Row, p}) {
			removed++
		}
	}
	if removed == 0 {
		t.Fizzle()
	}
}

type weakenAbove struct{}

func (weakenAbove) Reveal(t Table, src Slot, args []effects.Value) {
	if src.Pos == 0 || !t.Weaken(Slot{src.Row, src.Pos - 1}, args[0].Int) {
		t.Fizzle()
	}
}

type deactivateAbove struct{}

func (deactivateAbove) Reveal(t Table, src Slot, args []effects.Value) {
	if src.Pos == 0 || !t.Deactivate(Slot{src.Row, src.Pos - 1}, args[0].Int) {
		t.Fizzle()
	}
}

type drawCards struct{}

func (drawCards) Reveal(t Table, src Slot, args []effects.Value) {
	if t.Draw(t.Owner(src), args[0].Int) < 0 {
		t.Fizzle()
	}
}

// --- target bonuses ---

type vpPerTarget struct{}

func (vpPerTarget) Compile(self int, args []effects.Value, targets []TargetInfo) Bonus {
	b := Bonus{PerTarget: args[0].Int}
	for t, ti := range targets {
		if t == self && !args[3].Bool() {
			continue
		}
		if (args[1].Int == 0 || args[1].Int-1 == ti.Type) && (args[2].Int == 0 || args[2].Int == ti.Quadrant) {
			b.Counted |= 1 << uint(t)
		}
	}
	return b
}

type vpIfHeld struct{}

func (vpIfHeld) Compile(self int, args []effects.Value, targets []TargetInfo) Bonus {
	b := Bonus{VP: args[0].Int, AtLeast: 1}
	if t := args[1].Int; t < len(targets) {
		b.Counted = 1 << uint(t)
	}
	return b
}

type vpIfCount struct{}

func (vpIfCount) Compile(self int, args []effects.Value, targets []TargetInfo) Bonus {
	b := Bonus{VP: args[0].Int, AtLeast: args[2].Int}
	for t, ti := range targets {
		if args[1].Int == 0 || args[1].Int-1 == ti.Type {
			b.Counted |= 1 << uint(t)
		}
	}
	return b
}
