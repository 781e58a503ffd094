package spacetrace

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
)

// BotNames implements game.Botter: Spacetrace's own bot, beside the core's
// random and ismcts.
func (rs *Ruleset) BotNames() []string { return []string{"greedy"} }

// NewBot implements game.Botter.
func (rs *Ruleset) NewBot(name string, params map[string]string, spec string, _ uint64) (game.Agent, error) {
	if name != "greedy" {
		return nil, fmt.Errorf("spacetrace: no bot %q", name) // not reached: BotNames is the list
	}
	if len(params) > 0 {
		return nil, fmt.Errorf("spacetrace: %s takes no parameters (got %q)", name, spec)
	}
	return Greedy{}, nil
}

// Greedy is a rule of thumb that previews its attack exactly (battles have
// no dice): it plays the dearest ship it can pay for, plays reinforcements
// only when they make a ship in hand affordable this turn (MP expires at the
// end of the turn, T1), attacks when the previewed attack gains more than it
// costs (MP of cards destroyed and Base damage, each side), and otherwise
// ends its turn. It orders each class with its toughest card in front and
// its Base last, and sacrifices its cheapest card. In the full game it
// plays a commander on the card it helps most, and plays a tactic (or a
// damage reinforcement) when an exact preview of its effect — with the
// stack below it and the rest of the attack fought out — gains more MP
// than the card costs; it pays with the plain reinforcement that covers
// the cost with the least waste. It reads only its own hand and the public
// table, and keeps no state.
type Greedy struct{}

// Choose implements game.Agent.
func (Greedy) Choose(st game.State, legal []game.Action) game.Action {
	s := st.(*State)
	switch s.phase {
	case phOrder:
		return s.greedyOrder(legal)
	case phJoin:
		return s.greedyJoin()
	case phSacrifice:
		return s.cheapest(legal)
	case phDiscard, phHandMax:
		return s.greedyDiscard(legal)
	case phStack:
		if a, ok := s.greedyStack(legal, s.prio); ok {
			return a
		}
		return mk(actPass, 0)
	case phPay:
		return s.greedyPay(legal)
	case phDraw:
		return s.greedyDraw()
	}
	return s.greedyMain(legal)
}

func has(legal []game.Action, a game.Action) bool {
	for _, b := range legal {
		if a == b {
			return true
		}
	}
	return false
}

func (s *State) greedyMain(legal []game.Action) game.Action {
	pl := &s.P[s.Active]
	defs := s.rs.Defs
	// 1. The dearest ship it can pay for now (not a Doomstar that would
	// destroy its own Base).
	best, bestMP := -1, -1
	for _, a := range legal {
		if int(a>>16) != actPlay {
			continue
		}
		ci := int(a & 0xffff)
		if c := &defs[ci]; c.Type == Ship && c.MP > bestMP && s.safe(ci) {
			best, bestMP = ci, c.MP
		}
	}
	if best >= 0 {
		return mk(actPlay, best)
	}
	// 1′. A commander on the card it helps most; a tactic that pays.
	if a, ok := s.greedyCommand(legal); ok {
		return a
	}
	if a, ok := s.greedyStack(legal, s.Active); ok {
		return a
	}
	// 2. A reinforcement, if the reinforcements in hand make a ship
	// affordable.
	reinf, bigR, bigMP := 0, -1, 0
	for ci := range defs {
		// A damage reinforcement is played through greedyStack (its
		// damage needs a target).
		if defs[ci].Type == Reinforcement && pl.Hand[ci] > 0 && !defs[ci].Has(Damage) {
			if e := defs[ci].Effect(MP); e != nil {
				reinf += e.Amount * int(pl.Hand[ci])
				if e.Amount > bigMP {
					bigR, bigMP = ci, e.Amount
				}
			}
		}
	}
	if bigR >= 0 {
		for ci := range defs {
			if c := &defs[ci]; c.Type == Ship && pl.Hand[ci] > 0 && c.MP <= pl.MP+reinf && s.safe(ci) && s.sacrificeOK(ci) {
				return mk(actPlay, bigR)
			}
			if c := &defs[ci]; c.Type == Commander && pl.Hand[ci] > 0 && c.MP <= pl.MP+reinf && !pl.CmdPlayed && !s.commanderInPlay(s.Active) && s.hostFor(ci) >= 0 {
				return mk(actPlay, bigR)
			}
		}
	}
	// 3. A single discard for MP (opt.discard1_mp, E5), if discards of
	// that kind make a ship affordable with fewer cards than the 3-card
	// discard would take; else a 3-card discard for MP, if it makes a ship
	// affordable with three other non-reinforcement cards to spare (T4).
	if ci := s.discard1Pick(reinf); ci >= 0 && has(legal, mk(actDiscard1, ci)) {
		return mk(actDiscard1, ci)
	}
	if has(legal, mk(actDiscardMP, 0)) && s.discardTarget(reinf) >= 0 {
		return mk(actDiscardMP, 0)
	}
	// 4. An attack that gains.
	if att := mk(actAttack, 0); has(legal, att) && s.bestAttack() > 0 {
		return att
	}
	// The 2-card discard for a draw (opt.discard2_draw) is never chosen:
	// traded when the hand was stuck (no MP in it, no ship the pool pays
	// for) it gained nothing measurable (50.0% ± 0.6 against the greedy
	// without it, 8000 games; rules-spacetrace.md "Status").
	return mk(actEnd, 0)
}

// safe: a ship whose on-play self-damage would not destroy its own Base.
func (s *State) safe(ci int) bool {
	e := s.rs.Defs[ci].Effect(SelfDamage)
	if e == nil || s.rs.Rules.DoomstarWhen != OnPlay {
		return true
	}
	return s.BaseDamageOf(s.Active)+e.Amount < s.rs.Rules.BaseLP
}

func (s *State) sacrificeOK(ci int) bool {
	e := s.rs.Defs[ci].Effect(SacrificeCost)
	return e == nil || s.sacrificeable(ci, e) >= e.Count
}

// joinsOf is the joins seat p may choose: Stay only without an extra fleet.
func (s *State) joinsOf(p int) Join {
	if s.P[p].Army.Fleets[ExtraFleet].N == 0 {
		return Stay
	}
	return After
}

// bestAttack is the active player's gain from attacking now with its best
// join against the defender's best answer (fleets in their present order).
func (s *State) bestAttack() int {
	best := -(1 << 31)
	for ja := Stay; ja <= s.joinsOf(s.Active); ja++ {
		worst := 1 << 31
		for jd := Stay; jd <= s.joinsOf(1-s.Active); jd++ {
			worst = min(worst, s.AttackGain(s.Active, ja, jd))
		}
		best = max(best, worst)
	}
	return best
}

// greedyJoin: the attacker's join that gains most against the defender's
// best answer; the defender's that lets the attacker gain least.
func (s *State) greedyJoin() game.Action {
	if s.joinSeat == s.Active {
		best, bestJ := -(1 << 31), Stay
		for ja := Stay; ja <= After; ja++ {
			worst := 1 << 31
			for jd := Stay; jd <= s.joinsOf(1-s.Active); jd++ {
				worst = min(worst, s.AttackGain(s.Active, ja, jd))
			}
			if worst > best {
				best, bestJ = worst, ja
			}
		}
		return mk(actJoin, int(bestJ))
	}
	best, bestJ := 1<<31, Stay
	for jd := Stay; jd <= After; jd++ {
		if g := s.AttackGain(s.Active, s.joins[s.Active], jd); g < best {
			best, bestJ = g, jd
		}
	}
	return mk(actJoin, int(bestJ))
}

// AttackGain previews seat p attacking now with the fleets in their
// present order and the joins given: the MP of the opponent's cards
// destroyed plus the damage dealt to its Base, minus the same for p; a Base
// destroyed counts as everything. The preview works on copies of the two
// armies.
func (s *State) AttackGain(p int, ja, jd Join) int {
	att, def := s.P[p].Army, s.P[1-p].Army
	before := [2]int{BaseDamage(att.Base()), BaseDamage(def.Base())}
	bt := Battle{R: &s.rs.Rules, Defs: s.rs.Defs}
	if s.rs.Rules.SummoningSickness {
		setFresh(&att, true)
	}
	attDied, defDied := bt.Attack(&att, &def, ja, jd)
	switch {
	case defDied && !attDied:
		return 1 << 30
	case attDied:
		return -(1 << 30)
	}
	gain := BaseDamage(def.Base()) - before[1] - (BaseDamage(att.Base()) - before[0])
	gain += s.deadMP(&def) - s.deadMP(&att)
	return gain
}

func (s *State) deadMP(a *Army) int {
	n := 0
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; u.Dead && !u.IsBase() {
				n += s.rs.Defs[u.Card].MP
			}
		}
	}
	return n
}

// greedyOrder puts the card with the most total LP next, the Base last.
func (s *State) greedyOrder(legal []game.Action) game.Action {
	f := &s.P[s.orderSeat].Army.Fleets[s.orderFleet]
	best, bestLP := legal[0], int32(-1)
	for _, a := range legal {
		u := &f.U[int(a&0xffff)]
		lp := u.Alive * u.LP
		if u.IsBase() {
			lp = -1
		}
		if lp > bestLP {
			best, bestLP = a, lp
		}
	}
	return best
}

// cheapest is the legal sacrifice or discard of the lowest MP.
func (s *State) cheapest(legal []game.Action) game.Action {
	best, bestMP := legal[0], 1<<30
	for _, a := range legal {
		arg := int(a & 0xffff)
		var mp int
		switch {
		case int(a>>16) == actDiscardPick:
			mp = s.rs.Defs[arg].MP
			if s.rs.Defs[arg].Type == Reinforcement {
				mp = s.rs.Defs[arg].Effect(MP).Amount
			}
		case arg >= sacHand:
			mp = s.rs.Defs[arg-sacHand].MP
		default:
			// fleet<<8 | index: a sacrifice may come from the extra fleet.
			mp = s.rs.Defs[s.P[s.Active].Army.Fleets[arg>>8&1].U[arg&0xff].Card].MP
		}
		if mp < bestMP {
			best, bestMP = a, mp
		}
	}
	return best
}

// discardTarget is the dearest ship in the active player's hand that a
// 3-card discard for MP would make affordable (with reinf MP of
// reinforcements in hand, counting the discards left to pay for it),
// keeping it and the reinforcements; -1 if none.
func (s *State) discardTarget(reinf int) int {
	pl := &s.P[s.Active]
	defs := s.rs.Defs
	left := 3
	if s.phase == phDiscard {
		left = s.discLeft
	}
	best, bestMP := -1, -1
	for ci := range defs {
		c := &defs[ci]
		if c.Type != Ship || pl.Hand[ci] == 0 || c.MP <= bestMP || !s.safe(ci) || !s.sacrificeOK(ci) {
			continue
		}
		if c.MP > pl.MP+reinf+s.rs.Rules.Discard3MP {
			continue
		}
		spare := 0 // non-reinforcement cards other than one copy of ci
		for cj := range defs {
			if defs[cj].Type != Reinforcement {
				spare += int(pl.Hand[cj])
			}
		}
		if spare-1 >= left {
			best, bestMP = ci, c.MP
		}
	}
	return best
}

// discard1Pick is the card a single discard for MP (opt.discard1_mp)
// should give up, or -1: for the dearest ship in hand that k such discards
// make affordable (with reinf MP of reinforcements in hand) with k spare
// cards other than the ship (not an MP reinforcement), when k is below the
// three cards a 3-card discard takes or that discard would not reach it;
// the cheapest spare card goes (the value experiment's blank, a dead card,
// first).
func (s *State) discard1Pick(reinf int) int {
	d1 := s.rs.Rules.Discard1MP
	if d1 <= 0 {
		return -1
	}
	pl := &s.P[s.Active]
	defs := s.rs.Defs
	spare := 0
	for cj := range defs {
		if defs[cj].Type != Reinforcement || defs[cj].Blank {
			spare += int(pl.Hand[cj])
		}
	}
	target, targetMP := -1, -1
	for ci := range defs {
		c := &defs[ci]
		if c.Type != Ship || pl.Hand[ci] == 0 || c.MP <= targetMP || !s.safe(ci) || !s.sacrificeOK(ci) {
			continue
		}
		gap := c.MP - pl.MP - reinf
		if gap <= 0 {
			continue // affordable without a discard
		}
		k := (gap + d1 - 1) / d1
		if k > spare-1 {
			continue
		}
		if k >= 3 && pl.HandN >= 3 && gap <= s.rs.Rules.Discard3MP {
			continue // the 3-card discard reaches it with no more cards
		}
		target, targetMP = ci, c.MP
	}
	if target < 0 {
		return -1
	}
	best, bestMP := -1, 1<<30
	for ci := range defs {
		c := &defs[ci]
		if pl.Hand[ci] == 0 || (c.Type == Reinforcement && !c.Blank) || (ci == target && pl.Hand[ci] == 1) {
			continue
		}
		if c.MP < bestMP {
			best, bestMP = ci, c.MP
		}
	}
	return best
}

// greedyDiscard discards, for its target ship, the cheapest card that is
// neither a reinforcement nor the target; else the cheapest.
func (s *State) greedyDiscard(legal []game.Action) game.Action {
	pl := &s.P[s.Active]
	reinf := 0
	for ci := range s.rs.Defs {
		if e := s.rs.Defs[ci].Effect(MP); s.rs.Defs[ci].Type == Reinforcement && e != nil {
			reinf += e.Amount * int(pl.Hand[ci])
		}
	}
	target := s.discardTarget(reinf)
	best, bestMP := game.Action(0), 1<<30
	for _, a := range legal {
		ci := int(a & 0xffff)
		c := &s.rs.Defs[ci]
		if c.Type == Reinforcement || (ci == target && pl.Hand[ci] == 1) {
			continue
		}
		if c.MP < bestMP {
			best, bestMP = a, c.MP
		}
	}
	if bestMP == 1<<30 {
		return s.cheapest(legal)
	}
	return best
}

// hostFor is the best host of commander ci among the active player's cards
// (packed fleet<<6 | index), or -1: an aura on the card with the most alive
// ships (each gets its AP and LP), an income on the card with the most
// total LP (the likeliest to survive).
func (s *State) hostFor(ci int) int {
	a := &s.P[s.Active].Army
	aura := s.rs.Defs[ci].Has(Aura)
	best, bestV := -1, int32(-1)
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			u := &f.U[i]
			if !s.canHost(ci, u) {
				continue
			}
			v := u.Alive
			if !aura {
				v = u.Alive * u.LP
			}
			if v > bestV {
				best, bestV = fi<<6|i, v
			}
		}
	}
	return best
}

func (s *State) greedyCommand(legal []game.Action) (game.Action, bool) {
	for _, a := range legal {
		if int(a>>16) != actCommand {
			continue
		}
		ci := int(a&0xffff) >> 7
		if h := s.hostFor(ci); h >= 0 {
			return mk(actCommand, ci<<7|h), true
		}
	}
	return 0, false
}

// greedyStack is seat p's best stack play among legal and whether it gains
// more than it costs.
func (s *State) greedyStack(legal []game.Action, p int) (game.Action, bool) {
	if !s.tactics {
		return 0, false
	}
	base := s.preview(p, 0)
	best, bestGain := game.Action(0), 0
	for _, a := range legal {
		if int(a>>16) != actTactic {
			continue
		}
		c := &s.rs.Defs[int(a&0xffff)>>8]
		cost := c.MP
		if c.Type == Reinforcement {
			cost = 0 // its MP comes anyway; only its damage is the question
		}
		if g := s.preview(p, a) - base - cost; g > bestGain {
			best, bestGain = a, g
		}
	}
	return best, bestGain > 0
}

// preview is seat p's standing (the opponent's Base damage and wrecks less
// its own, plus its MP in play less the opponent's; a won or lost game
// counts as everything) after stack play a (0:
// none) and the stack below it resolve, and, inside an attack, the rest of
// the attack is fought without further tactics. It works on a copy.
func (s *State) preview(p int, a game.Action) int {
	t := *s
	t.tally, t.tactics = nil, false
	if a != 0 {
		ci, tgt := int(a&0xffff)>>8, int(a&0xff)
		t.push(p, ci, tgt, t.rs.Defs[ci].Type == Reinforcement)
	}
	for t.stackN > 0 {
		t.stackN--
		t.resolve(&t.stack[t.stackN])
	}
	if t.inAttack {
		died := false
		for q := 0; q < 2; q++ {
			if u := t.P[q].Army.Base(); u != nil && u.Alive == 0 {
				died = true
			}
		}
		if died {
			t.endAttack()
		} else {
			t.runBattle()
		}
	} else {
		t.settle()
	}
	if t.phase == phOver {
		switch t.winner {
		case p:
			return 1 << 30
		case 1 - p:
			return -(1 << 30)
		}
		return 0
	}
	return t.BaseDamageOf(1-p) - t.BaseDamageOf(p) + t.P[1-p].WreckMP - t.P[p].WreckMP + t.material(p) - t.material(1-p)
}

// material is the MP of the ship cards seat p controls in play (so a
// Deserter's swap counts, and a card destroyed counts twice: lost here,
// a wreck there).
func (s *State) material(p int) int {
	n := 0
	for fi := range s.P[p].Army.Fleets {
		f := &s.P[p].Army.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; !u.IsBase() && !u.Dead && u.Alive > 0 {
				n += s.rs.Defs[u.Card].MP
			}
		}
	}
	return n
}

// greedyPay pays with the plain reinforcement that covers what is left
// with the least waste, else the largest; a damage reinforcement only when
// nothing else is left (on the opponent's Base when it may).
func (s *State) greedyPay(legal []game.Action) game.Action {
	need := s.rs.Defs[s.payCard].MP - s.P[s.payer].MP
	best, bestKey := legal[0], 1<<30
	for _, a := range legal {
		c := &s.rs.Defs[int(a&0xffff)>>8]
		amt := c.Effect(MP).Amount
		key := amt - need // waste when it covers
		if amt < need {
			key = 1<<20 - amt // else the largest first
		}
		if len(c.Effects) > 1 {
			key += 1 << 25
			if u := s.unitAt(int(a & 0xff)); u != nil && u.IsBase() && int(a&0xff)>>7 != s.payer {
				key--
			}
		}
		if key < bestKey {
			best, bestKey = a, key
		}
	}
	return best
}

// greedyDraw draws a reinforcement when the reinforcements in hand and the
// pool do not pay for the dearest ship in hand, else from the deck.
func (s *State) greedyDraw() game.Action {
	p := s.drawer()
	pl := &s.P[p]
	dear := 0
	for ci := range s.rs.Defs {
		if c := &s.rs.Defs[ci]; pl.Hand[ci] > 0 && c.Type == Ship && c.MP > dear {
			dear = c.MP
		}
	}
	if dear > pl.MP+s.reinfMP(p) {
		return mk(actDrawFrom, 1)
	}
	return mk(actDrawFrom, 0)
}
