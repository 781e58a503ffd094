package spacetrace

import "github.com/cardlab/cardlab/game"

// The full game's parts (variant full): commanders (C1, T6), tactics with
// their windows and the reaction stack (K1–K4, T2, T3), damage cards (C7).
// Like the rest of the engine every choice is an action of the deciding
// player and nothing allocates: the stack is a fixed array in the state.

// MaxStack bounds the reaction stack; a tactic is not offered when the
// stack could not take it and the payment's damage reinforcements.
const MaxStack = 32

// entry is one card on the stack: seat played card with target tgt (a
// unit, packed seat<<7 | fleet<<6 | index) that held card unit when it was
// chosen; reinf marks a damage reinforcement (only its damage is on the
// stack, its MP came at once, T3).
type entry struct {
	seat, card, tgt uint8
	reinf           bool
	unit            int16
}

// Window kinds (K1): after an action in the main phase, before a fleet
// battle, before a class battle.
const (
	winMain = iota
	winFleet
	winClass
)

// What follows a window once its stack has resolved.
const (
	contMain   = iota // the active player's main phase
	contEnd           // the end of the turn (the window before restoration)
	contBattle        // the battle cursor (drive.go)
)

func packTgt(seat, fleet, i int) int { return seat<<7 | fleet<<6 | i }

// unitAt is the unit tgt names, or nil.
func (s *State) unitAt(tgt int) *Unit {
	f := &s.P[tgt>>7&1].Army.Fleets[tgt>>6&1]
	if i := tgt & 63; i < f.N {
		return &f.U[i]
	}
	return nil
}

// ---- Commanders (C1, T6) ----

// commanderInPlay reports whether seat p has a commander on one of its
// cards ("nur eine Commanderkarte zur Zeit … im Spiel").
func (s *State) commanderInPlay(p int) bool {
	for fi := range s.P[p].Army.Fleets {
		f := &s.P[p].Army.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if f.U[i].Cmd != 0 && !f.U[i].Dead {
				return true
			}
		}
	}
	return false
}

// canHost reports whether commander ci may be played on unit u (C1): an
// own card in play of a listed class, the Base only with
// commander.base_host, one commander a card.
func (s *State) canHost(ci int, u *Unit) bool {
	c := &s.rs.Defs[ci]
	if u.Dead || u.Alive == 0 || u.Cmd != 0 || c.Host&(1<<(u.Class-1)) == 0 {
		return false
	}
	return !u.IsBase() || s.rs.Rules.CommanderBaseHost
}

// canCommand reports whether the active player may play commander ci now
// (T6: at most one a turn and one in play).
func (s *State) canCommand(ci int) bool {
	c := &s.rs.Defs[ci]
	pl := &s.P[s.Active]
	return c.Type == Commander && !c.Blank && pl.Hand[ci] > 0 && !pl.CmdPlayed && pl.MP >= c.MP && !s.commanderInPlay(s.Active)
}

func (s *State) appendCommands(buf []game.Action) []game.Action {
	pl := &s.P[s.Active]
	for ci := range s.rs.Defs {
		if pl.Hand[ci] == 0 || s.rs.Defs[ci].Type != Commander || !s.canCommand(ci) {
			continue
		}
		for fi := range pl.Army.Fleets {
			f := &pl.Army.Fleets[fi]
			for i := 0; i < f.N; i++ {
				if s.canHost(ci, &f.U[i]) {
					buf = append(buf, mk(actCommand, ci<<7|fi<<6|i))
				}
			}
		}
	}
	return buf
}

// command plays commander ci on the active player's unit i of fleet fi.
func (s *State) command(ci, fi, i int) {
	pl := &s.P[s.Active]
	c := &s.rs.Defs[ci]
	pl.Hand[ci]--
	pl.HandN--
	pl.Played++
	pl.CmdPlayed = true
	pl.MP -= c.MP
	if s.rs.Rules.MPPool == PoolPerPlay {
		pl.MP = 0
	}
	s.active = true
	if t := s.tally; t != nil {
		t.card[ci].played++
		t.spent += int64(c.MP)
		t.card[ci].mp += int64(c.MP)
	}
	pl.Army.Fleets[fi].U[i].Cmd = int16(ci + 1)
	s.applyAuras(s.Active)
}

// applyAuras sets every ship card's AP and LP of seat p from its printed
// values and the auras of the commanders in play (C1: "selbst wenn das
// Schiff des Commanders nicht am Kampf teilnimmt" — an aura needs no
// battle). The Base keeps its own. A lead ship whose LP an aura's end
// leaves at or below its damage keeps 1 LP.
func (s *State) applyAuras(p int) {
	if !s.cmds {
		return
	}
	a := &s.P[p].Army
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; !u.IsBase() {
				c := &s.rs.Defs[u.Card]
				u.AP, u.LP = int32(c.AP), int32(c.LP)
			}
		}
	}
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			h := &f.U[i]
			if h.Cmd == 0 || h.Dead {
				continue
			}
			for _, e := range s.rs.Defs[h.Cmd-1].Effects {
				if e.Do != Aura {
					continue
				}
				for gi := range a.Fleets {
					g := &a.Fleets[gi]
					for j := 0; j < g.N; j++ {
						u := &g.U[j]
						in := e.Scope == ScopeAll || (e.Scope == ScopeFleetAura && gi == fi) || (gi == fi && j == i)
						if in && !u.IsBase() {
							u.AP += int32(e.APAdd)
							u.LP += int32(e.LPAdd)
						}
					}
				}
			}
		}
	}
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; !u.IsBase() && u.Lead >= u.LP {
				u.Lead = u.LP - 1
			}
		}
	}
}

// income is the start of seat p's turn: each commander in play with an
// income gives its MP.
func (s *State) income(p int) {
	if !s.cmds {
		return
	}
	pl := &s.P[p]
	for fi := range pl.Army.Fleets {
		f := &pl.Army.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if u := &f.U[i]; u.Cmd != 0 && !u.Dead {
				for _, e := range s.rs.Defs[u.Cmd-1].Effects {
					if e.Do == Income {
						pl.MP += e.IncomeMP
						if t := s.tally; t != nil {
							// MP gained, not paid: the card's mp column is
							// what was paid for it (CheckCounts).
							t.gained += int64(e.IncomeMP)
						}
					}
				}
			}
		}
	}
}

// ---- Tactics: what may be played, on what ----

// stackCard reports whether card c goes on the stack when played: a tactic,
// or a reinforcement with damage (T3).
func stackCard(c *Card) bool {
	return !c.Blank && (c.Type == Tactic || (c.Type == Reinforcement && c.Has(Damage)))
}

// reinfMP is the MP seat p could raise now from the reinforcements in its
// hand (T2: the non-active player pays a tactic with them).
func (s *State) reinfMP(p int) int {
	pl := &s.P[p]
	n := 0
	for ci := range s.rs.Defs {
		if c := &s.rs.Defs[ci]; pl.Hand[ci] > 0 && c.Type == Reinforcement {
			if e := c.Effect(MP); e != nil {
				n += e.Amount * int(pl.Hand[ci])
			}
		}
	}
	return n
}

// mayStack reports whether seat p may put a card on the stack now (K2): never
// two of its own in a row (tactic.self_stack: false), at most
// tactic.max_depth cards.
func (s *State) mayStack(p int) bool {
	r := &s.rs.Rules
	if s.stackN > 0 && int(s.stack[s.stackN-1].seat) == p && !r.TacticSelfStack {
		return false
	}
	if r.TacticMaxDepth > 0 && s.stackN >= r.TacticMaxDepth {
		return false
	}
	return s.stackN < MaxStack-4
}

// targeting is the first effect of c that needs a target, or nil.
func targeting(c *Card) *Effect {
	for i := range c.Effects {
		switch c.Effects[i].Do {
		case Damage, Kill, Repair, Jam, RemoveFromBattle, SwapHighestMP:
			return &c.Effects[i]
		}
	}
	return nil
}

// enemyFleet is the fleet seat p fights in the current fleet battle.
func (s *State) enemyFleet(p int) (seat, fleet int) {
	pr := s.pairs[s.pairI]
	if p == s.Active {
		return 1 - s.Active, pr[1]
	}
	return s.Active, pr[0]
}

// appendPlays appends seat p's legal stack plays (actTactic, card<<8 |
// target) to buf; with one it stops at the first. In the main phase and
// in the windows: tactics ("jederzeit", K1) paid from the pool and the
// reinforcements in hand (T2); damage reinforcements by the active player,
// by the other only with reinf.special_anytime (T3).
func (s *State) appendPlays(buf []game.Action, p int, one bool) []game.Action {
	pl := &s.P[p]
	budget := -1
	for ci := range s.rs.Defs {
		c := &s.rs.Defs[ci]
		if pl.Hand[ci] == 0 || !stackCard(c) {
			continue
		}
		if c.Type == Reinforcement {
			if p != s.Active && !s.rs.Rules.SpecialAnytime {
				continue
			}
		} else {
			if budget < 0 {
				budget = pl.MP + s.reinfMP(p)
			}
			if budget < c.MP {
				continue
			}
		}
		n := len(buf)
		buf = s.appendTargets(buf, p, ci, targeting(c))
		if one && len(buf) > n {
			return buf
		}
	}
	return buf
}

// appendUnits appends card ci played on each live unit of seat: Bases
// with base, ship cards with ships, only damaged ones with damaged.
func (s *State) appendUnits(buf []game.Action, ci, seat int, base, ships, damaged bool) []game.Action {
	a := &s.P[seat].Army
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			u := &f.U[i]
			if !u.live() || (u.IsBase() && !base) || (!u.IsBase() && !ships) {
				continue
			}
			if damaged && u.Lead == 0 && u.Weak == 0 {
				continue
			}
			buf = append(buf, mk(actTactic, ci<<8|packTgt(seat, fi, i)))
		}
	}
	return buf
}

// appendTargets appends card ci's plays by seat p, one per legal target of
// e (K3: targets are chosen on play).
func (s *State) appendTargets(buf []game.Action, p, ci int, e *Effect) []game.Action {
	if e == nil {
		return append(buf, mk(actTactic, ci<<8))
	}
	switch e.Do {
	case Damage:
		switch e.Target {
		case TargetAny:
			buf = s.appendUnits(buf, ci, 1-p, true, true, false)
			buf = s.appendUnits(buf, ci, p, true, true, false)
		case TargetEnemyCard:
			buf = s.appendUnits(buf, ci, 1-p, false, true, false)
		case TargetOwnCard:
			buf = s.appendUnits(buf, ci, p, false, true, false)
		case TargetBase:
			buf = s.appendUnits(buf, ci, 1-p, true, false, false)
			buf = s.appendUnits(buf, ci, p, true, false, false)
		case TargetEnemyBase:
			buf = s.appendUnits(buf, ci, 1-p, true, false, false)
		}
	case Kill:
		buf = s.appendUnits(buf, ci, 1-p, false, true, false) // A10: the Base is immune to kill
	case Repair:
		if e.Target == RepairOwnCard {
			buf = s.appendUnits(buf, ci, p, false, true, true) // A10: not the Base
		}
	case Jam:
		// EMP Burst: the enemy's ships of the class about to fight, in
		// the current fleet battle.
		if s.inAttack && s.win == winClass {
			seat, fleet := s.enemyFleet(p)
			f := &s.P[seat].Army.Fleets[fleet]
			for i := 0; i < f.N; i++ {
				if u := &f.U[i]; int(u.Class) == s.k && u.live() && u.Alive > u.Jammed {
					return append(buf, mk(actTactic, ci<<8))
				}
			}
		}
	case RemoveFromBattle:
		// Psionic Blast (C8): an enemy card of the current fleet battle,
		// never the Base ("kann nicht aus dem Kampf entfernt werden").
		if s.inAttack && s.win != winMain {
			seat, fleet := s.enemyFleet(p)
			f := &s.P[seat].Army.Fleets[fleet]
			for i := 0; i < f.N; i++ {
				if u := &f.U[i]; u.live() && !u.IsBase() {
					buf = append(buf, mk(actTactic, ci<<8|packTgt(seat, fleet, i)))
				}
			}
		}
	case SwapHighestMP:
		// Deserter (C3): outside the attack (a swap mid-battle would
		// change fleets whose orders are fixed, B3); one play per pair of
		// tied dearest cards (the caster chooses among ties), packed as
		// own index<<4 | enemy index into highest's lists.
		if !s.inAttack {
			var a, b [16]int
			na, nb := s.highest(p, &a), s.highest(1-p, &b)
			for x := 0; x < na; x++ {
				for y := 0; y < nb; y++ {
					buf = append(buf, mk(actTactic, ci<<8|x<<4|y))
				}
			}
		}
	}
	return buf
}

// canPlayStack reports whether seat p may play a = actTactic now.
func (s *State) canPlayStack(p int, a game.Action) bool {
	ci, tgt := int(a&0xffff)>>8, int(a&0xff)
	if ci >= len(s.rs.Defs) || s.P[p].Hand[ci] == 0 || !stackCard(&s.rs.Defs[ci]) || !s.mayStack(p) {
		return false
	}
	c := &s.rs.Defs[ci]
	if c.Type == Tactic && s.P[p].MP+s.reinfMP(p) < c.MP {
		return false
	}
	if c.Type == Reinforcement && p != s.Active && !s.rs.Rules.SpecialAnytime {
		return false
	}
	return s.hasTarget(p, ci, tgt, actTactic)
}

// hasTarget reports whether tgt is among card ci's legal targets for p.
func (s *State) hasTarget(p, ci, tgt, kind int) bool {
	var scratch [2*2*MaxUnits + 1]game.Action
	e := targeting(&s.rs.Defs[ci])
	if kind == actPay {
		e = s.rs.Defs[ci].Effect(Damage)
	}
	for _, a := range s.appendTargets(scratch[:0], p, ci, e) {
		if int(a&0xff) == tgt {
			return true
		}
	}
	return false
}

// ---- The window and the stack (K1, K2) ----

// openWindow opens a tactic window with first to act; passed says the other
// seat has passed already (after an active-player action only the other
// player answers, K1). It reports whether a seat has a choice; if not the
// window is over with nothing played.
func (s *State) openWindow(first int, passed bool, cont, win int) bool {
	if !s.tactics {
		return false
	}
	s.cont, s.win, s.stackN, s.prio, s.passed = cont, win, 0, first, passed
	return s.priority()
}

// canAct reports whether seat p, with priority, has a play.
func (s *State) canAct(p int) bool {
	if !s.mayStack(p) {
		return false
	}
	var scratch [2*2*MaxUnits + 1]game.Action // one card's targets at most
	return len(s.appendPlays(scratch[:0], p, true)) > 0
}

// priority gives the seat with priority its choice, passing for a seat
// that has none; two passes in a row end the window (K2: the stack resolves
// when the player with priority passes and the other has nothing to add).
// It reports whether a seat has a choice.
func (s *State) priority() bool {
	for {
		if s.canAct(s.prio) {
			s.phase = phStack
			return true
		}
		if s.passed {
			return false
		}
		s.passed, s.prio = true, 1-s.prio
	}
}

// pass is a pass by the seat with priority.
func (s *State) pass() {
	if s.passed {
		s.closeWindow()
		return
	}
	s.passed, s.prio = true, 1-s.prio
	if !s.priority() {
		s.closeWindow()
	}
}

// pushed follows a card put on the stack: the other seat answers (or, with
// tactic.self_stack, the same seat may add another).
func (s *State) pushed() {
	s.passed = false
	if !s.rs.Rules.TacticSelfStack {
		s.prio = 1 - s.prio
	}
	if !s.priority() {
		s.closeWindow()
	}
}

func (s *State) push(p, ci, tgt int, reinf bool) {
	e := entry{seat: uint8(p), card: uint8(ci), tgt: uint8(tgt), reinf: reinf}
	if u := s.unitAt(tgt); u != nil {
		e.unit = u.Card
	}
	s.stack[s.stackN] = e
	s.stackN++
}

// playStack puts card ci from seat p's hand on the stack with target tgt;
// a tactic the pool cannot pay waits for p's reinforcements (phPay).
func (s *State) playStack(p, ci, tgt int) {
	pl := &s.P[p]
	c := &s.rs.Defs[ci]
	pl.Hand[ci]--
	pl.HandN--
	pl.Played++
	s.active = true
	if s.tally != nil {
		s.tally.card[ci].played++
	}
	if c.Type == Reinforcement {
		s.gainReinf(p, ci)
		s.push(p, ci, tgt, true)
		s.pushed()
		return
	}
	if pl.MP >= c.MP {
		s.payTactic(p, ci, tgt)
		return
	}
	s.phase, s.payer, s.payCard, s.payTgt = phPay, p, ci, tgt
}

// payTactic pays tactic ci from p's pool and puts it on the stack.
func (s *State) payTactic(p, ci, tgt int) {
	pl := &s.P[p]
	c := &s.rs.Defs[ci]
	pl.MP -= c.MP
	if s.rs.Rules.MPPool == PoolPerPlay {
		pl.MP = 0
	}
	if t := s.tally; t != nil {
		t.spent += int64(c.MP)
		t.card[ci].mp += int64(c.MP)
	}
	s.push(p, ci, tgt, false)
	s.phase = phStack
	s.pushed()
}

// gainReinf is reinforcement ci's MP and draws for seat p (T1).
func (s *State) gainReinf(p, ci int) {
	pl := &s.P[p]
	for _, e := range s.rs.Defs[ci].Effects {
		switch e.Do {
		case MP:
			pl.MP += e.Amount
			if t := s.tally; t != nil {
				t.gained += int64(e.Amount)
				t.card[ci].mp += int64(e.Amount)
			}
		case Draw:
			for i := 0; i < e.Count; i++ {
				s.draw(p)
			}
		}
	}
}

// appendPays is the payer's choices: each reinforcement in hand (a damage
// one once per target, its damage on the stack under the tactic, T3).
func (s *State) appendPays(buf []game.Action) []game.Action {
	p := s.payer
	pl := &s.P[p]
	for ci := range s.rs.Defs {
		c := &s.rs.Defs[ci]
		if pl.Hand[ci] == 0 || c.Type != Reinforcement || !c.Has(MP) {
			continue
		}
		if e := c.Effect(Damage); e != nil {
			n := len(buf)
			buf = s.appendTargets(buf, p, ci, e)
			for j := n; j < len(buf); j++ {
				buf[j] = mk(actPay, int(buf[j]&0xffff))
			}
			continue
		}
		buf = append(buf, mk(actPay, ci<<8))
	}
	return buf
}

// payWith plays reinforcement ci (target tgt for its damage) towards the
// pending tactic.
func (s *State) payWith(ci, tgt int) {
	p := s.payer
	pl := &s.P[p]
	c := &s.rs.Defs[ci]
	pl.Hand[ci]--
	pl.HandN--
	pl.Played++
	if s.tally != nil {
		s.tally.card[ci].played++
	}
	s.gainReinf(p, ci)
	if c.Has(Damage) {
		s.push(p, ci, tgt, true)
	}
	if pl.MP >= s.rs.Defs[s.payCard].MP {
		s.payTactic(p, s.payCard, s.payTgt)
	}
}

// closeWindow resolves the stack, last in first out (K2), settles what it
// destroyed and goes on where the window opened.
func (s *State) closeWindow() {
	for s.stackN > 0 {
		s.stackN--
		s.resolve(&s.stack[s.stackN])
	}
	if s.inAttack {
		for p := 0; p < 2; p++ {
			if u := s.P[p].Army.Base(); u != nil && u.Alive == 0 {
				s.endAttack() // B12: the game is over at once
				return
			}
		}
		s.phase = phBattle
		s.runBattle()
		return
	}
	s.settle()
	if s.phase == phOver {
		return
	}
	switch s.cont {
	case contEnd:
		s.endTurn()
	default:
		s.phase = phMain
	}
}

// settle is the bookkeeping outside the attack after cards took effect:
// cards without alive ships discarded (A6), a fallen Mothership's fleet
// (C2), wrecks, auras, a destroyed Base (E3).
func (s *State) settle() {
	for p := 0; p < 2; p++ {
		a := &s.P[p].Army
		discard(&a.Fleets[BaseFleet])
		discard(&a.Fleets[ExtraFleet])
		s.bt.fallMothership(a)
	}
	s.collectWrecks()
	s.checkBases()
}

// resolve is one stack entry's effect (K3: a target no longer there, or no
// longer the card chosen, makes the card fizzle; it is discarded all the
// same and its MP stays spent).
func (s *State) resolve(en *entry) {
	c := &s.rs.Defs[en.card]
	var u *Unit
	if e := targeting(c); e != nil && e.Do != SwapHighestMP {
		u = s.unitAt(int(en.tgt))
		if u == nil || u.Card != en.unit || !u.live() {
			u = nil
		}
	}
	p := int(en.seat)
	for _, e := range c.Effects {
		switch e.Do {
		case Damage:
			if u != nil {
				s.damage(u, e.Amount)
			}
		case Kill:
			if u != nil && !u.IsBase() {
				killFront(u, int32(e.Ships))
			}
		case Repair:
			if u != nil && !u.IsBase() && e.Target == RepairOwnCard {
				u.Weak, u.Lead = 0, 0
			}
		case Jam:
			if !en.reinf && s.inAttack && s.win == winClass {
				seat, fleet := s.enemyFleet(p)
				empJam(&s.P[seat].Army.Fleets[fleet], s.k, int32(e.Ships))
				s.emp = true
			}
		case RemoveFromBattle:
			if u != nil && !u.IsBase() && s.inAttack {
				u.Removed = true
				s.blasted = true
			}
		case Draw:
			if !en.reinf {
				for i := 0; i < e.Count; i++ {
					s.draw(p)
				}
			}
		case SwapHighestMP:
			if !s.inAttack {
				s.desert(p, int(en.tgt))
			}
		}
	}
}

// damage deals amount to unit u (C7): a Base takes it all (A10: damage
// reaches it); a ship card takes it ship by ship from its front ship while
// damage is left (damage.spill: card) or on its front ship only (ship).
// Ships so destroyed are down, recoverable like battle losses (A5).
func (s *State) damage(u *Unit, amount int) {
	if u.IsBase() {
		DamageBase(u, amount)
		return
	}
	left := int32(amount)
	for left > 0 && u.Alive > 0 {
		hp := u.LP - u.Lead
		if u.Weak > 0 {
			hp = 1
		}
		if left < hp {
			u.Lead += left
			return
		}
		if u.Weak > 0 {
			u.Weak--
		} else {
			u.Lead = 0
		}
		spillShip := s.rs.Rules.DamageSpill == SpillShip
		down(u, spillShip && left > hp)
		if spillShip {
			return
		}
		left -= hp
	}
}

// killFront kills the front n ships of u (Antimatter Mine): gone, never
// recovered in the battle (A5).
func killFront(u *Unit, n int32) {
	for ; n > 0 && u.Alive > 0; n-- {
		if u.Weak > 0 {
			u.Weak--
		} else {
			u.Lead = 0
		}
		u.Alive--
		u.Gone++
		if u.Jammed > 0 {
			u.Jammed--
		}
		u.Emp = min(u.Emp, u.Jammed)
	}
}

// empJam jams the first n ships of f's class k (EMP Burst) for the class
// battle about to be fought.
func empJam(f *Fleet, k int, n int32) {
	for i := 0; i < f.N && n > 0; i++ {
		u := &f.U[i]
		if int(u.Class) != k || !u.live() {
			continue
		}
		x := min(n, u.Alive-u.Jammed)
		u.Jammed += x
		u.Emp += x
		n -= x
	}
}

// clearEmp ends the tactic jams after a class battle.
func clearEmp(f *Fleet) {
	for i := 0; i < f.N; i++ {
		if u := &f.U[i]; u.Emp > 0 {
			u.Jammed -= min(u.Emp, u.Jammed)
			u.Emp = 0
		}
	}
}

// ---- Deserter (C3) ----

// highest lists seat q's dearest ship cards in play (never the Base), tied
// at the highest MP, as fleet<<6 | index in fleet order (at most 16).
func (s *State) highest(q int, out *[16]int) (n int) {
	best := -1
	a := &s.P[q].Army
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			u := &f.U[i]
			if u.IsBase() || u.Dead {
				continue
			}
			mp := s.rs.Defs[u.Card].MP
			if mp > best {
				best, n = mp, 0
			}
			if mp == best && n < len(out) {
				out[n] = fi<<6 | i
				n++
			}
		}
	}
	return n
}

// desert swaps seat p's dearest card (own index tgt>>4 among the ties) with
// the opponent's (tgt&15): C3's reading — damage stays until the end of the
// turn, control changes, the discard pile (Unit.Swapped) does not; a
// swapped Mothership opens an extra fleet for its new controller when it
// has none (deserter.mothership_mode: open_fleet) or joins the Base fleet
// (join_base), and its former fleet falls back into its owner's Base fleet.
// With no card on a side, or a choice no longer there, it fizzles (K3).
func (s *State) desert(p, tgt int) {
	var a, b [16]int
	na, nb := s.highest(p, &a), s.highest(1-p, &b)
	x, y := tgt>>4, tgt&15
	if x >= na || y >= nb {
		return
	}
	mine := s.takeUnit(p, a[x]>>6, a[x]&63)
	theirs := s.takeUnit(1-p, b[y]>>6, b[y]&63)
	s.giveUnit(1-p, mine)
	s.giveUnit(p, theirs)
	s.applyAuras(0)
	s.applyAuras(1)
}

// takeUnit removes unit i of seat q's fleet fi; an extra fleet that loses
// its last Mothership falls back into the Base fleet.
func (s *State) takeUnit(q, fi, i int) Unit {
	a := &s.P[q].Army
	f := &a.Fleets[fi]
	u := f.U[i]
	copy(f.U[i:f.N-1], f.U[i+1:f.N])
	f.N--
	if fi == ExtraFleet && s.rs.Defs[u.Card].Opens() && s.openers(a) == 0 {
		g := &a.Fleets[BaseFleet]
		for j := 0; j < f.N && g.N < MaxUnits; j++ {
			g.U[g.N] = f.U[j]
			g.N++
		}
		f.N = 0
		g.Sort()
	}
	return u
}

// giveUnit puts u under seat q's control, in the fleet C3's reading says.
func (s *State) giveUnit(q int, u Unit) {
	u.Swapped = !u.Swapped
	a := &s.P[q].Army
	fi := BaseFleet
	if s.rs.Defs[u.Card].Opens() && s.rs.Rules.DeserterMothership == OpenFleet && s.rs.Rules.MaxExtraFleets > 0 && a.Fleets[ExtraFleet].N == 0 {
		fi = ExtraFleet
	}
	if a.Fleets[fi].N == MaxUnits {
		fi = 1 - fi
	}
	f := &a.Fleets[fi]
	f.U[f.N] = u
	f.N++
	f.Sort()
}
