package spacetrace

import (
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// The engine: one two-player game on game.State. Every choice is an action
// of the deciding player; the state is a flat value (no pointer but the
// shared ruleset), so Clone and CopyInto are a copy and a decision
// allocates nothing. It plays every variant: the first game, the second
// (extra fleets) and the full game (tactics and the reaction stack,
// commanders: full.go; the battle cursor with its windows: drive.go).

// Action kinds, packed as kind<<16 | argument.
const (
	actEnd         = iota // end the turn ("Fertig!")
	actPlay               // play card index arg from hand
	actAttack             // attack
	actDiscardMP          // start a 3-card discard for discard3.mp MP
	actDiscardDraw        // start a 3-card discard for a card
	actDiscardPick        // discard card index arg from hand (in a 3-card discard)
	actOrder              // put unit arg next in its class's battle order
	actSacrifice          // sacrifice unit arg (or, arg ≥ sacHand, card arg-sacHand from hand)
	actMove               // move unit arg&0xff of fleet arg>>8 to the other fleet
	actJoin               // the extra fleet's part in the attack: Join(arg)
	actCommand            // play commander arg>>7 on unit arg&63 of fleet arg>>6&1
	actTactic             // put card arg>>8 on the stack with target arg&0xff (full.go)
	actPass               // pass priority in a tactic window
	actPay                // pay the pending tactic with reinforcement arg>>8 (target arg&0xff)
	actDiscard1           // opt.discard1_mp: discard card arg from hand for MP (E5)
	actDiscard2           // opt.discard2_draw: start a 2-card discard for a card (E5)
	actDrawFrom           // opt.split_reinf: draw from the pile arg (0 the deck, 1 the reinforcements)
)

const sacHand = 1 << 12

func mk(kind, arg int) game.Action { return game.Action(kind<<16 | arg) }

// phases.
const (
	phMain = iota
	phDiscard
	phOrder
	phSacrifice
	phJoin
	phOver
	phStack   // a tactic window: the seat with priority plays or passes
	phPay     // the payer plays reinforcements for its tactic (T2)
	phBattle  // the battle cursor runs (never a decision)
	phHandMax // the active player discards down to hand.max at the end of its turn
	phDraw    // a draw's pile is chosen (opt.split_reinf); then the phase saved resumes
)

// Player is one player's cards.
type Player struct {
	Army Army
	// Library is the draw pile, Library[:LibN] with the top at LibN-1.
	Library [MaxDeck]uint8
	LibN    int
	// RLib is the reinforcement pile under opt.split_reinf (E5),
	// RLib[:RLibN]; PendDraw counts draws waiting on the choice of pile.
	RLib            [MaxDeck]uint8
	RLibN, PendDraw int
	// Hand counts the cards in hand by card index.
	Hand  [MaxDefs]uint8
	HandN int
	MP    int
	// WreckMP is the MP of this player's ship cards in the discard pile
	// (E4); Removed counts cards removed from game (T4).
	WreckMP, Removed int
	Played, Discards int  // cards played, 3-card discards made (the records)
	CmdPlayed        bool // a commander played this turn (T6)
}

// State is one Spacetrace game; it implements game.State.
type State struct {
	rs   *Ruleset
	bt   Battle
	rng  game.RNG
	deck [2]int // the side (deck) each seat plays
	P    [2]Player
	// Turn counts turns from 0; Active is the active seat, First the seat
	// that started.
	Turn, Active, First int
	phase               int
	attacked            bool
	// discard: the 3-card discard in progress (picks left, for MP or draw).
	discLeft int
	discDraw bool
	discTwo  bool // the 2-card discard (E5): ships so discarded are wrecks
	// order: the seat ordering, its fleet and class, and the next position.
	orderSeat, orderFleet, orderClass, orderPos int
	// joins: each seat's extra-fleet choice for the attack (B4); joinSeat
	// decides now.
	joins    [2]Join
	joinSeat int
	// sacrifice: picks left for the ship being played.
	sacLeft    int
	sacClasses uint8
	pending    int // the card waiting on its sacrifice
	// activity this turn, quiet turns so far (E2), and how the game ended.
	active  bool
	quiet   int
	timeout bool
	winner  int // 0, 1, or -1 for a draw (once over)
	// tactics: a deck in play holds stack cards (so windows can open);
	// cmds: one holds commanders.
	tactics, cmds bool
	// The battle cursor (drive.go): the attack's fleet battles, the one
	// being fought, its class and stage, the Base damage before it.
	inAttack, emp, blasted bool // emp, blasted: a tactic's jam or removal to clear
	pairs                  [4][2]int
	pairN, pairI, k, stage int
	before                 [2]int
	// The tactic window (full.go): its stack, the seat with priority,
	// whether the last priority action was a pass, its kind and what
	// follows it; the tactic waiting on its payment.
	stack                  [MaxStack]entry
	stackN, prio, cont     int
	win                    int
	passed                 bool
	payer, payCard, payTgt int
	// resume is the phase a draw's choice of pile interrupted.
	resume int
	// tally, when a Counter is attached, counts the economy and the cards
	// (counter.go); clones and copies never carry it.
	tally *tally
}

// NewState implements game.Ruleset: seats[i] is the deck seat i plays.
func (rs *Ruleset) NewState(seats []int, seed uint64) (game.State, error) {
	if len(seats) != 2 {
		return nil, errorf("%d seats; Spacetrace is played by 2 (three-player rules are not modelled)", len(seats))
	}
	for i, d := range seats {
		if d < 0 || d >= len(rs.Decks) {
			return nil, errorf("seat %d plays deck %d; the ruleset has %d", i+1, d, len(rs.Decks))
		}
	}
	if err := rs.Playable(); err != nil {
		return nil, err
	}
	s := &State{rs: rs, deck: [2]int{seats[0], seats[1]}}
	s.bt = Battle{R: &rs.Rules, Defs: rs.Defs}
	for _, d := range s.deck {
		for _, ci := range rs.Decks[d].List {
			c := &rs.Defs[ci]
			s.tactics = s.tactics || stackCard(c)
			s.cmds = s.cmds || c.Type == Commander
		}
	}
	s.Reset(seed)
	return s, nil
}

// Playable says why the engine cannot play rs, or nil: every variant,
// reading and option loaded is played (kept so callers need not change
// when a new key comes before its engine).
func (rs *Ruleset) Playable() error { return nil }

func errorf(format string, args ...any) error {
	return &stError{msg: "spacetrace: " + sprintf(format, args...)}
}

type stError struct{ msg string }

func (e *stError) Error() string { return e.msg }

// Reset implements game.State: libraries shuffled from seed, 4 cards each,
// the starting seat drawn (S3) and its first draw (S4).
func (s *State) Reset(seed uint64) {
	*s = State{rs: s.rs, bt: s.bt, deck: s.deck, tally: s.tally, tactics: s.tactics, cmds: s.cmds}
	s.rng = game.NewRNG(seed)
	r := &s.rs.Rules
	for p := 0; p < 2; p++ {
		pl := &s.P[p]
		*pl = Player{}
		d := &s.rs.Decks[s.deck[p]]
		pl.LibN = copy(pl.Library[:], d.List)
		s.rng.Shuffle(pl.Library[:pl.LibN])
		if r.SplitReinf {
			// E5: "Man darf seine Reinforcements aussortieren und auf
			// einen extra-Haufen legen" — in their shuffled order.
			n := 0
			for _, ci := range pl.Library[:pl.LibN] {
				if s.rs.Defs[ci].Type == Reinforcement {
					pl.RLib[pl.RLibN] = ci
					pl.RLibN++
				} else {
					pl.Library[n] = ci
					n++
				}
			}
			pl.LibN = n
		}
		pl.Army.Fleets[BaseFleet].U[0] = BaseUnit(r, 0)
		pl.Army.Fleets[BaseFleet].N = 1
		for i := 0; i < r.HandStart; i++ {
			s.draw(p)
		}
	}
	s.First = 0
	if r.Start == StartRandom {
		s.First = s.rng.Intn(2)
	}
	s.Turn, s.Active, s.phase, s.attacked = 0, s.First, phMain, false
	s.quiet, s.active, s.timeout, s.winner = 0, false, false, 0
	if r.DrawFirstTurn {
		for i := 0; i < r.DrawPerTurn; i++ {
			s.draw(s.First)
		}
	}
	s.pendingDraws()
}

// libLeft is the cards seat p can still draw.
func (s *State) libLeft(p int) int { return s.P[p].LibN + s.P[p].RLibN }

// pendingDraws interrupts the phase for draws whose pile is a choice
// (opt.split_reinf): phDraw until they are drawn, the active seat first.
func (s *State) pendingDraws() {
	if s.phase == phOver || s.phase == phDraw || s.P[0].PendDraw+s.P[1].PendDraw == 0 {
		return
	}
	s.resume, s.phase = s.phase, phDraw
}

// drawer is the seat whose draw waits on its choice of pile.
func (s *State) drawer() int {
	if s.P[s.Active].PendDraw > 0 {
		return s.Active
	}
	return 1 - s.Active
}

// drawFrom draws seat p's card from pile (0 the deck, 1 the
// reinforcements); when the other pile is empty a waiting draw needs no
// choice.
func (s *State) drawFrom(p, pile int) {
	pl := &s.P[p]
	if pile == 1 {
		pl.RLibN--
		pl.Hand[pl.RLib[pl.RLibN]]++
	} else {
		pl.LibN--
		pl.Hand[pl.Library[pl.LibN]]++
	}
	pl.HandN++
}

func (s *State) draw(p int) {
	pl := &s.P[p]
	switch {
	case pl.LibN+pl.RLibN <= pl.PendDraw:
		// S6: nothing to draw, no reshuffle
	case pl.RLibN > 0 && pl.LibN > 0:
		pl.PendDraw++ // E5: "darf man wählen, von welchem Nachziehstapel man zieht"
	case pl.LibN > 0:
		s.drawFrom(p, 0)
	default:
		s.drawFrom(p, 1)
	}
}

// NumSeats implements game.State.
func (s *State) NumSeats() int { return 2 }

// CurrentPlayer implements game.State.
func (s *State) CurrentPlayer() int {
	switch s.phase {
	case phOver:
		return -1
	case phOrder:
		return s.orderSeat
	case phJoin:
		return s.joinSeat
	case phStack:
		return s.prio
	case phPay:
		return s.payer
	case phDraw:
		return s.drawer()
	}
	return s.Active
}

// IsTerminal implements game.State.
func (s *State) IsTerminal() bool { return s.phase == phOver }

// Ruleset is the state's ruleset.
func (s *State) Ruleset() *Ruleset { return s.rs }

// BaseDamageOf is seat p's Base damage.
func (s *State) BaseDamageOf(p int) int {
	if u := s.P[p].Army.Base(); u != nil {
		return BaseDamage(u)
	}
	return s.rs.Rules.BaseLP
}

// canAttack: one attack a turn (B2), not in the starting player's first
// turn (B1).
func (s *State) canAttack() bool {
	return !s.attacked && !(s.rs.Rules.FirstTurnBan && s.Turn == 0)
}

// canPlay reports whether the active player may play card ci now.
func (s *State) canPlay(ci int) bool {
	c := &s.rs.Defs[ci]
	pl := &s.P[s.Active]
	if c.Blank {
		return false
	}
	switch c.Type {
	case Reinforcement:
		return !c.Has(Damage) // a damage reinforcement goes on the stack (actTactic, T3)
	case Ship:
		if pl.MP < c.MP || pl.Army.Fleets[s.fleetFor(s.Active, ci)].N >= MaxUnits {
			return false
		}
		if e := c.Effect(SacrificeCost); e != nil {
			return s.sacrificeable(ci, e) >= e.Count
		}
		return true
	}
	return false // tactics and commanders: actTactic, actCommand
}

// sacrificeable counts what the active player could sacrifice for card
// ci's cost (A7): own ship cards in play of the classes (never the Base),
// and/or ship cards in hand other than ci itself.
func (s *State) sacrificeable(ci int, e *Effect) int {
	pl := &s.P[s.Active]
	n := 0
	from := s.rs.Rules.SacrificeFrom
	if from != FromHand {
		for fi := range pl.Army.Fleets {
			f := &pl.Army.Fleets[fi]
			for i := 0; i < f.N; i++ {
				if u := &f.U[i]; !u.IsBase() && !u.Dead && e.Classes&(1<<(u.Class-1)) != 0 {
					n++
				}
			}
		}
	}
	if from != FromPlay {
		for cj := range s.rs.Defs {
			c := &s.rs.Defs[cj]
			if c.Type == Ship && e.Classes&(1<<(c.Class-1)) != 0 {
				k := int(pl.Hand[cj])
				if cj == ci {
					k--
				}
				n += max(k, 0)
			}
		}
	}
	return n
}

// LegalActions implements game.State, in a fixed order.
func (s *State) LegalActions(buf []game.Action) []game.Action {
	buf = buf[:0]
	pl := &s.P[s.Active]
	switch s.phase {
	case phOver:
		return buf
	case phMain:
		buf = append(buf, mk(actEnd, 0))
		for ci := range s.rs.Defs {
			if pl.Hand[ci] > 0 && s.canPlay(ci) {
				buf = append(buf, mk(actPlay, ci))
			}
		}
		if s.canAttack() {
			buf = append(buf, mk(actAttack, 0))
		}
		if r := &s.rs.Rules; r.Discard1MP > 0 {
			for ci := range s.rs.Defs {
				if pl.Hand[ci] > 0 {
					buf = append(buf, mk(actDiscard1, ci))
				}
			}
		}
		if s.rs.Rules.Discard2Draw && pl.HandN >= 2 && s.libLeft(s.Active) > 0 {
			buf = append(buf, mk(actDiscard2, 0))
		}
		if pl.HandN >= 3 {
			buf = append(buf, mk(actDiscardMP, 0))
			if s.libLeft(s.Active) > 0 {
				buf = append(buf, mk(actDiscardDraw, 0))
			}
		}
		if s.cmds {
			buf = s.appendCommands(buf)
		}
		if s.tactics {
			buf = s.appendPlays(buf, s.Active, false)
		}
		if pl.Army.Fleets[ExtraFleet].N > 0 {
			for fi := range pl.Army.Fleets {
				f := &pl.Army.Fleets[fi]
				for i := 0; i < f.N; i++ {
					if s.canMove(s.Active, fi, i) {
						buf = append(buf, mk(actMove, fi<<8|i))
					}
				}
			}
		}
	case phJoin:
		buf = append(buf, mk(actJoin, int(Stay)), mk(actJoin, int(Before)), mk(actJoin, int(After)))
	case phStack:
		buf = append(buf, mk(actPass, 0))
		if s.mayStack(s.prio) {
			buf = s.appendPlays(buf, s.prio, false)
		}
	case phPay:
		buf = s.appendPays(buf)
	case phDraw:
		buf = append(buf, mk(actDrawFrom, 0), mk(actDrawFrom, 1))
	case phDiscard, phHandMax:
		for ci := range s.rs.Defs {
			if pl.Hand[ci] > 0 {
				buf = append(buf, mk(actDiscardPick, ci))
			}
		}
	case phOrder:
		f := &s.P[s.orderSeat].Army.Fleets[s.orderFleet]
		for i := s.orderPos; i < f.N && int(f.U[i].Class) == s.orderClass; i++ {
			buf = append(buf, mk(actOrder, i))
		}
	case phSacrifice:
		e := s.rs.Defs[s.pending].Effect(SacrificeCost)
		from := s.rs.Rules.SacrificeFrom
		if from != FromHand {
			for fi := range pl.Army.Fleets {
				f := &pl.Army.Fleets[fi]
				for i := 0; i < f.N; i++ {
					if u := &f.U[i]; !u.IsBase() && !u.Dead && e.Classes&(1<<(u.Class-1)) != 0 {
						buf = append(buf, mk(actSacrifice, fi<<8|i))
					}
				}
			}
		}
		if from != FromPlay {
			for cj := range s.rs.Defs {
				if c := &s.rs.Defs[cj]; c.Type == Ship && pl.Hand[cj] > 0 && e.Classes&(1<<(c.Class-1)) != 0 {
					buf = append(buf, mk(actSacrifice, sacHand+cj))
				}
			}
		}
	}
	return buf
}

// Apply implements game.State. It panics on an illegal action (a bot's bug,
// never a designer's input).
func (s *State) Apply(a game.Action) {
	kind, arg := int(a>>16), int(a&0xffff)
	pl := &s.P[s.Active]
	switch {
	case s.phase == phMain && kind == actEnd:
		// K1: the other player's window at the end of the turn, before
		// the restoration.
		if !s.openWindow(1-s.Active, true, contEnd, winMain) {
			s.endTurn()
		}
	case s.phase == phMain && kind == actPlay && arg < len(s.rs.Defs) && pl.Hand[arg] > 0 && s.canPlay(arg):
		s.play(arg)
		s.afterAction()
	case s.phase == phMain && kind == actAttack && s.canAttack():
		s.attacked = true
		s.startOrder(s.Active)
	case s.phase == phMain && (kind == actDiscardMP || kind == actDiscardDraw) && pl.HandN >= 3 && (kind == actDiscardMP || s.libLeft(s.Active) > 0):
		s.phase, s.discLeft, s.discDraw, s.discTwo = phDiscard, 3, kind == actDiscardDraw, false
	case s.phase == phDiscard && kind == actDiscardPick && arg < len(s.rs.Defs) && pl.Hand[arg] > 0:
		if s.discTwo {
			s.discardCard(arg)
		} else {
			pl.Hand[arg]--
			pl.HandN--
			if s.rs.Defs[arg].Type == Ship {
				pl.Removed++ // T4: ships so discarded are removed from game
			}
			if s.tally != nil {
				s.tally.card[arg].removed++
			}
		}
		if s.discLeft--; s.discLeft == 0 {
			if s.discTwo {
				s.phase = phMain
				s.draw(s.Active)
				s.afterAction()
				break
			}
			pl.Discards++
			s.phase = phMain
			if s.discDraw {
				s.draw(s.Active)
			} else {
				pl.MP += s.rs.Rules.Discard3MP
			}

			if t := s.tally; t != nil {
				if s.discDraw {
					t.discardsDraw++
				} else {
					t.discardsMP++
					t.gained += int64(s.rs.Rules.Discard3MP)
				}
			}
			s.afterAction()
		}
	case s.phase == phOrder && kind == actOrder:
		s.orderPick(arg)
	case s.phase == phSacrifice && kind == actSacrifice:
		s.sacrifice(arg)
	case s.phase == phMain && kind == actMove && s.canMove(s.Active, arg>>8, arg&0xff):
		s.move(arg>>8, arg&0xff)
		s.afterAction()
	case s.phase == phJoin && kind == actJoin && arg <= int(After):
		s.joins[s.joinSeat] = Join(arg)
		s.nextJoin()
	case s.phase == phMain && kind == actCommand && arg>>7 < len(s.rs.Defs) && s.canCommand(arg>>7) && arg>>6&1 <= ExtraFleet &&
		arg&63 < pl.Army.Fleets[arg>>6&1].N && s.canHost(arg>>7, &pl.Army.Fleets[arg>>6&1].U[arg&63]):
		s.command(arg>>7, arg>>6&1, arg&63)
		s.afterAction()
	case s.phase == phMain && kind == actTactic && s.canPlayStack(s.Active, a):
		s.cont, s.win, s.stackN, s.prio, s.passed = contMain, winMain, 0, s.Active, false
		s.playStack(s.Active, arg>>8, arg&0xff)
	case s.phase == phStack && kind == actPass:
		s.pass()
	case s.phase == phStack && kind == actTactic && s.canPlayStack(s.prio, a):
		s.playStack(s.prio, arg>>8, arg&0xff)
	case s.phase == phPay && kind == actPay && arg>>8 < len(s.rs.Defs) && s.P[s.payer].Hand[arg>>8] > 0 &&
		s.rs.Defs[arg>>8].Type == Reinforcement && s.rs.Defs[arg>>8].Has(MP) &&
		(!s.rs.Defs[arg>>8].Has(Damage) || s.hasTarget(s.payer, arg>>8, arg&0xff, actPay)):
		s.payWith(arg>>8, arg&0xff)
	case s.phase == phMain && kind == actDiscard1 && s.rs.Rules.Discard1MP > 0 && arg < len(s.rs.Defs) && pl.Hand[arg] > 0:
		s.discardCard(arg)
		pl.MP += s.rs.Rules.Discard1MP
		if t := s.tally; t != nil {
			t.gained += int64(s.rs.Rules.Discard1MP)
		}
		s.afterAction()
	case s.phase == phMain && kind == actDiscard2 && s.rs.Rules.Discard2Draw && pl.HandN >= 2 && s.libLeft(s.Active) > 0:
		s.phase, s.discLeft, s.discDraw, s.discTwo = phDiscard, 2, true, true
	case s.phase == phHandMax && kind == actDiscardPick && arg < len(s.rs.Defs) && pl.Hand[arg] > 0:
		s.discardCard(arg)
		if pl.HandN <= s.rs.Rules.HandMax {
			s.phase = phMain
			s.endTurn()
		}
	case s.phase == phDraw && kind == actDrawFrom && arg <= 1:
		q := s.drawer()
		s.P[q].PendDraw--
		s.drawFrom(q, arg)
		for q := 0; q < 2; q++ {
			// A pile emptied: the draws left need no choice.
			for p := &s.P[q]; p.PendDraw > 0 && (p.RLibN == 0 || p.LibN == 0); {
				p.PendDraw--
				switch {
				case p.LibN > 0:
					s.drawFrom(q, 0)
				case p.RLibN > 0:
					s.drawFrom(q, 1)
				}
			}
		}
		if s.P[0].PendDraw+s.P[1].PendDraw == 0 {
			s.phase = s.resume
		}
		return
	default:
		panic("spacetrace: illegal action " + s.ActionString(a))
	}
	if s.P[0].PendDraw+s.P[1].PendDraw > 0 {
		s.pendingDraws()
	}
}

// play puts card ci from the active player's hand into play (T1, T7).
func (s *State) play(ci int) {
	pl := &s.P[s.Active]
	c := &s.rs.Defs[ci]
	pl.Hand[ci]--
	pl.HandN--
	pl.Played++
	s.active = true
	if s.tally != nil {
		s.tally.card[ci].played++
	}
	if c.Type == Reinforcement {
		for _, e := range c.Effects {
			switch e.Do {
			case MP:
				pl.MP += e.Amount
				if t := s.tally; t != nil {
					t.gained += int64(e.Amount)
					t.card[ci].mp += int64(e.Amount)
				}
			case Draw:
				for i := 0; i < e.Count; i++ {
					s.draw(s.Active)
				}
			}
		}
		return
	}
	pl.MP -= c.MP
	if t := s.tally; t != nil {
		t.spent += int64(c.MP)
		t.card[ci].mp += int64(c.MP)
	}
	if s.rs.Rules.MPPool == PoolPerPlay {
		pl.MP = 0 // T1 per_play: change does not stay
	}
	if e := c.Effect(SacrificeCost); e != nil {
		s.phase, s.sacLeft, s.sacClasses, s.pending = phSacrifice, e.Count, e.Classes, ci
		return
	}
	s.enter(ci)
}

// fleetFor is the fleet card ci enters for seat p: a Mothership opens the
// extra fleet and sits in it when none is open (C2); every other card
// enters the Base fleet (T7).
func (s *State) fleetFor(p, ci int) int {
	if s.rs.Defs[ci].Opens() && s.rs.Rules.MaxExtraFleets > 0 && s.P[p].Army.Fleets[ExtraFleet].N == 0 {
		return ExtraFleet
	}
	return BaseFleet
}

// canMove: the active player may move a card between its fleets outside
// the attack when it has an extra fleet (T8: "nicht während des Angriffs
// und nur wenn man mehr als eine Flotte im Spiel hat"), never the Base nor
// the Mothership that holds the extra fleet open. Each card moves at most
// once a turn: moving it back would only undo the move, so every layout of
// unlimited moving is still reachable, and a game cannot loop.
func (s *State) canMove(p, fi, i int) bool {
	a := &s.P[p].Army
	f := &a.Fleets[fi]
	if a.Fleets[ExtraFleet].N == 0 || i >= f.N || a.Fleets[1-fi].N >= MaxUnits {
		return false
	}
	u := &f.U[i]
	if u.IsBase() || u.Dead || u.Moved {
		return false
	}
	return !(fi == ExtraFleet && s.rs.Defs[u.Card].Opens() && s.openers(a) <= 1)
}

// openers counts the Motherships in the extra fleet.
func (s *State) openers(a *Army) int {
	f := &a.Fleets[ExtraFleet]
	n := 0
	for i := 0; i < f.N; i++ {
		if u := &f.U[i]; !u.IsBase() && s.rs.Defs[u.Card].Opens() {
			n++
		}
	}
	return n
}

// move moves unit i of the active player's fleet fi to the other fleet,
// last in its class.
func (s *State) move(fi, i int) {
	a := &s.P[s.Active].Army
	f, g := &a.Fleets[fi], &a.Fleets[1-fi]
	u := f.U[i]
	u.Moved = true
	copy(f.U[i:f.N-1], f.U[i+1:f.N])
	f.N--
	g.U[g.N] = u
	g.N++
	g.Sort()
	s.active = true
	s.applyAuras(s.Active)
}

// enter puts ship card ci into the active player's fleet (fleetFor), in
// its class, last (T7), with its on-play effects (C6).
func (s *State) enter(ci int) {
	pl := &s.P[s.Active]
	f := &pl.Army.Fleets[s.fleetFor(s.Active, ci)]
	f.U[f.N] = ShipUnit(s.rs.Defs, ci)
	f.U[f.N].Fresh = true
	f.N++
	f.Sort()
	if s.rs.Rules.DoomstarWhen == OnPlay {
		for _, e := range s.rs.Defs[ci].Effects {
			if e.Do == SelfDamage {
				DamageBase(pl.Army.Base(), e.Amount)
			}
		}
		s.checkBases()
	}
}

// sacrifice pays one pick of the pending card's sacrifice (A7): a ship card
// in play (a wreck) or from hand (discarded, a wreck too).
func (s *State) sacrifice(arg int) {
	pl := &s.P[s.Active]
	e := s.rs.Defs[s.pending].Effect(SacrificeCost)
	if arg >= sacHand {
		cj := arg - sacHand
		if cj >= len(s.rs.Defs) || pl.Hand[cj] == 0 || s.rs.Defs[cj].Type != Ship || e.Classes&(1<<(s.rs.Defs[cj].Class-1)) == 0 || s.rs.Rules.SacrificeFrom == FromPlay {
			panic("spacetrace: illegal sacrifice from hand")
		}
		pl.Hand[cj]--
		pl.HandN--
		pl.WreckMP += s.rs.Defs[cj].MP
		s.countWreck(int(cj))
	} else {
		fi, i := arg>>8, arg&0xff
		if fi > ExtraFleet {
			panic("spacetrace: illegal sacrifice")
		}
		f := &pl.Army.Fleets[fi]
		if i >= f.N || f.U[i].IsBase() || f.U[i].Dead || e.Classes&(1<<(f.U[i].Class-1)) == 0 || s.rs.Rules.SacrificeFrom == FromHand {
			panic("spacetrace: illegal sacrifice")
		}
		s.wreckUnit(s.Active, &f.U[i])
		opener := fi == ExtraFleet && s.rs.Defs[f.U[i].Card].Opens() && s.openers(&pl.Army) == 1
		copy(f.U[i:f.N-1], f.U[i+1:f.N])
		f.N--
		if opener {
			// A7: sacrificing the Mothership discards its extra fleet (C2).
			for j := 0; j < f.N; j++ {
				s.wreckUnit(s.Active, &f.U[j])
			}
			f.N = 0
		}
	}
	if s.sacLeft--; s.sacLeft == 0 {
		s.phase = phMain
		s.enter(s.pending)
		s.afterAction()
	}
}

// startOrder begins seat p's battle order (B3): fleet by fleet, class by
// class, the next card of each class with two or more cards.
func (s *State) startOrder(p int) {
	s.phase, s.orderSeat, s.orderFleet, s.orderClass, s.orderPos = phOrder, p, BaseFleet, 1, 0
	s.advanceOrder()
}

// nextJoin asks the next seat with an extra fleet for its choice (B4: the
// attacker first), then fights.
func (s *State) nextJoin() {
	for {
		if s.phase != phJoin {
			s.phase, s.joinSeat = phJoin, s.Active
			s.joins = [2]Join{}
		} else if s.joinSeat == s.Active {
			s.joinSeat = 1 - s.Active
		} else {
			s.fight()
			return
		}
		if s.P[s.joinSeat].Army.Fleets[ExtraFleet].N > 0 {
			return // a choice
		}
	}
}

// advanceOrder skips to the next class with a choice left; after the
// defender's order the attack is fought.
func (s *State) advanceOrder() {
	for {
		f := &s.P[s.orderSeat].Army.Fleets[s.orderFleet]
		for s.orderPos < f.N && int(f.U[s.orderPos].Class) < s.orderClass {
			s.orderPos++
		}
		end := s.orderPos
		for end < f.N && int(f.U[end].Class) == s.orderClass {
			end++
		}
		if end-s.orderPos >= 2 {
			return // a choice
		}
		s.orderPos = end
		if s.orderClass++; s.orderClass <= NumClasses {
			continue
		}
		if s.orderFleet == BaseFleet {
			s.orderFleet, s.orderClass, s.orderPos = ExtraFleet, 1, 0
			continue
		}
		if s.orderSeat == s.Active {
			s.orderSeat, s.orderFleet, s.orderClass, s.orderPos = 1-s.Active, BaseFleet, 1, 0
			continue
		}
		s.nextJoin()
		return
	}
}

// orderPick puts unit i next in its class.
func (s *State) orderPick(i int) {
	f := &s.P[s.orderSeat].Army.Fleets[s.orderFleet]
	if i < s.orderPos || i >= f.N || int(f.U[i].Class) != s.orderClass {
		panic("spacetrace: illegal order pick")
	}
	u := f.U[i]
	copy(f.U[s.orderPos+1:i+1], f.U[s.orderPos:i])
	f.U[s.orderPos] = u
	s.orderPos++
	s.advanceOrder()
}

// afterAction is the other player's tactic window after an action of the
// active player in the main phase (K1, K4).
func (s *State) afterAction() {
	if s.phase == phMain {
		s.openWindow(1-s.Active, true, contMain, winMain)
	}
}

func setFresh(a *Army, removed bool) {
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if f.U[i].Fresh {
				f.U[i].Removed = removed
			}
		}
	}
}

func hasDead(a *Army) bool {
	for fi := range a.Fleets {
		f := &a.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if f.U[i].Dead && !f.U[i].IsBase() {
				return true
			}
		}
	}
	return false
}

// checkBases ends the game when a Base has 1000 or more damage (E3): the
// other player wins; both at once is a draw (B12).
func (s *State) checkBases() {
	d0, d1 := s.BaseDamageOf(0) >= s.rs.Rules.BaseLP, s.BaseDamageOf(1) >= s.rs.Rules.BaseLP
	if !d0 && !d1 {
		return
	}
	s.collectWrecks()
	s.over()
}

// collectWrecks moves dead ship cards to their owners' discard piles
// (wrecks, E4) and out of the fleets.
func (s *State) collectWrecks() {
	for p := 0; p < 2; p++ {
		pl := &s.P[p]
		for fi := range pl.Army.Fleets {
			f := &pl.Army.Fleets[fi]
			n := 0
			for i := 0; i < f.N; i++ {
				u := &f.U[i]
				if u.Dead && !u.IsBase() {
					s.wreckUnit(p, u)
					continue
				}
				f.U[n] = *u
				n++
			}
			f.N = n
		}
		if s.cmds {
			s.applyAuras(p) // C1: a commander falls with its host
		}
	}
}

// endTurn is "Fertig!": wrecks to the discard piles, every surviving card
// restored (E1), the MP pools emptied (T1), the end conditions (E2), the
// next player's draw (S4).
func (s *State) endTurn() {
	if m := s.rs.Rules.HandMax; m > 0 && s.P[s.Active].HandN > m {
		s.phase = phHandMax // S5: down to hand.max, card by card
		return
	}
	s.collectWrecks()
	for p := 0; p < 2; p++ {
		pl := &s.P[p]
		if s.tally != nil {
			s.tally.expired += int64(pl.MP)
		}
		pl.MP = 0
		for fi := range pl.Army.Fleets {
			f := &pl.Army.Fleets[fi]
			for i := 0; i < f.N; i++ {
				f.U[i].Restore()
			}
		}
	}
	if s.libLeft(0) == 0 && s.libLeft(1) == 0 && !s.active {
		s.quiet++
	} else {
		s.quiet = 0
	}
	s.active, s.attacked = false, false
	s.P[0].CmdPlayed, s.P[1].CmdPlayed = false, false
	s.Turn++
	if s.quiet >= s.rs.Rules.QuietTurns {
		s.over()
		return
	}
	if s.Turn >= s.rs.Rules.TurnCap {
		s.timeout = true
		s.over()
		return
	}
	s.Active = 1 - s.Active
	for i := 0; i < s.rs.Rules.DrawPerTurn; i++ {
		s.draw(s.Active)
	}
	s.income(s.Active)
}

// over settles the winner under the scoring rule (E3, E4).
func (s *State) over() {
	s.phase = phOver
	a, b := s.Score(0), s.Score(1)
	switch {
	case a > b:
		s.winner = 0
	case b > a:
		s.winner = 1
	default:
		s.winner = -1
	}
}

// Score implements game.State: under base_damage the damage seat dealt to
// the opponent's Base (the least damaged Base wins, E3); under wrecked the
// MP of the opponent's wrecks, and 500 for a destroyed opponent Base (E4).
func (s *State) Score(seat int) int {
	opp := 1 - seat
	if s.rs.Rules.Scoring == ScoreWrecked {
		pts := s.P[opp].WreckMP
		if s.BaseDamageOf(opp) >= s.rs.Rules.BaseLP {
			pts += 500
		}
		return pts
	}
	return s.BaseDamageOf(opp)
}

// Returns implements game.State.
func (s *State) Returns() [game.MaxSeats]float64 {
	var r [game.MaxSeats]float64
	if s.phase != phOver {
		return r
	}
	switch s.winner {
	case 0, 1:
		r[s.winner] = 1
	default:
		r[0], r[1] = 0.5, 0.5
	}
	return r
}

// Timeout reports whether the game ended at end.turn_cap (E2).
func (s *State) Timeout() bool { return s.timeout }

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	c.tally = nil
	return &c
}

// CopyInto implements game.State; dst must be a Spacetrace state.
func (s *State) CopyInto(dst game.State) {
	d := dst.(*State)
	*d = *s
	d.tally = nil
}

// discardCard discards card ci from the active player's hand to the
// discard pile: a ship so discarded is a wreck (E5's reading: no removal
// is stated, unlike the 3-card discard's).
func (s *State) discardCard(ci int) {
	pl := &s.P[s.Active]
	pl.Hand[ci]--
	pl.HandN--
	if s.rs.Defs[ci].Type == Ship {
		pl.WreckMP += s.rs.Defs[ci].MP
		s.countWreck(ci)
	}
}

// wreckUnit puts seat p's unit u in its owner's discard pile as a wreck
// (E4; C3: a swapped card's owner is the other seat).
func (s *State) wreckUnit(p int, u *Unit) {
	if u.Swapped {
		p = 1 - p
	}
	s.P[p].WreckMP += s.rs.Defs[u.Card].MP
	s.countWreck(int(u.Card))
}

// countWreck counts card ci gone to the discard pile as a wreck.
func (s *State) countWreck(ci int) {
	if s.tally != nil {
		s.tally.card[ci].wrecked++
	}
}

// Determinize implements game.State: the opponent's hand and both libraries
// are what viewer cannot see: the opponent's hand and library are pooled,
// sorted, shuffled and dealt again; viewer's own library is shuffled. The
// state's chance stream is reseeded from rng.
func (s *State) Determinize(viewer int, rng *game.RNG) {
	if viewer < 0 || viewer > 1 {
		return
	}
	opp := &s.P[1-viewer]
	var pool [MaxDeck + MaxDeck]uint8
	n := 0
	for ci := range s.rs.Defs {
		for k := 0; k < int(opp.Hand[ci]); k++ {
			pool[n] = uint8(ci)
			n++
		}
		opp.Hand[ci] = 0
	}
	// The library's cards, sorted, so the deal does not depend on their order.
	lib := opp.Library[:opp.LibN]
	for i := 1; i < len(lib); i++ {
		for j := i; j > 0 && lib[j] < lib[j-1]; j-- {
			lib[j], lib[j-1] = lib[j-1], lib[j]
		}
	}
	n += copy(pool[n:], lib)
	n += copy(pool[n:], opp.RLib[:opp.RLibN])
	sortBytes(pool[:n])
	rng.Shuffle(pool[:n])
	h := opp.HandN
	if s.phase == phPay && s.payer == 1-viewer && !s.rs.Rules.SplitReinf {
		// The payer is known to hold the reinforcements its tactic still
		// needs: the first of the pool that cover it are dealt first.
		need := s.rs.Defs[s.payCard].MP - opp.MP
		k := 0
		for i := 0; i < n && need > 0; i++ {
			if c := &s.rs.Defs[pool[i]]; c.Type == Reinforcement && c.Has(MP) {
				need -= c.Effect(MP).Amount
				pool[k], pool[i] = pool[i], pool[k]
				k++
			}
		}
	}
	if s.rs.Rules.SplitReinf {
		// The piles are known to hold only reinforcements and only the
		// rest: the shuffled pool fills them by type (after the payer's
		// reinforcements), the hand takes what is left.
		k := 0
		if s.phase == phPay && s.payer == 1-viewer {
			// The largest first: no more cards than the payer holds, so
			// the pile keeps its reinforcements.
			need := s.rs.Defs[s.payCard].MP - opp.MP
			for ; k < n && need > 0; k++ {
				best, amt := -1, 0
				for i := k; i < n; i++ {
					if c := &s.rs.Defs[pool[i]]; c.Type == Reinforcement && c.Has(MP) && c.Effect(MP).Amount > amt {
						best, amt = i, c.Effect(MP).Amount
					}
				}
				if best < 0 {
					break
				}
				pool[k], pool[best] = pool[best], pool[k]
				need -= amt
				opp.Hand[pool[k]]++
			}
		}
		ln, rn := 0, 0
		for _, ci := range pool[k:n] {
			switch {
			case s.rs.Defs[ci].Type == Reinforcement && rn < opp.RLibN:
				opp.RLib[rn] = ci
				rn++
			case s.rs.Defs[ci].Type != Reinforcement && ln < opp.LibN:
				opp.Library[ln] = ci
				ln++
			default:
				opp.Hand[ci]++
			}
		}
	} else {
		for i := 0; i < h; i++ {
			opp.Hand[pool[i]]++
		}
		copy(opp.Library[:opp.LibN], pool[h:n])
	}
	own := &s.P[viewer]
	mine := own.Library[:own.LibN]
	sortBytes(mine)
	rng.Shuffle(mine)
	mine = own.RLib[:own.RLibN]
	sortBytes(mine)
	rng.Shuffle(mine)
	s.rng = game.NewRNG(rng.Uint64())
}

func sortBytes(b []uint8) {
	for i := 1; i < len(b); i++ {
		for j := i; j > 0 && b[j] < b[j-1]; j-- {
			b[j], b[j-1] = b[j-1], b[j]
		}
	}
}

// Observation implements game.State: the public table (turn, phase, every
// fleet, Base damage, MP pools, hand and library sizes, wrecks) and seat's
// own hand.
func (s *State) Observation(seat int, buf []byte) []byte {
	buf = append(buf, byte(s.Turn), byte(s.Turn>>8), byte(s.Active), byte(s.phase), byte(s.CurrentPlayer()+1),
		byte(s.discLeft), b2(s.discTwo), byte(s.orderFleet), byte(s.orderClass), byte(s.orderPos), byte(s.sacLeft), byte(s.pending),
		byte(s.joins[0]), byte(s.joins[1]), byte(s.joinSeat),
		byte(s.pairI), byte(s.k), byte(s.stage), byte(s.win), byte(s.cont), b2(s.passed), byte(s.payCard), byte(s.payTgt), byte(s.stackN), byte(s.resume))
	for i := 0; i < s.stackN; i++ {
		e := &s.stack[i]
		buf = append(buf, e.seat, e.card, e.tgt, b2(e.reinf))
	}
	buf = append(buf, b2(s.P[0].CmdPlayed), b2(s.P[1].CmdPlayed))
	if s.attacked {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	for p := 0; p < 2; p++ {
		pl := &s.P[p]
		buf = appendInt(buf, pl.MP)
		buf = appendInt(buf, pl.WreckMP)
		buf = append(buf, byte(pl.HandN), byte(pl.LibN), byte(pl.Removed), byte(pl.RLibN), byte(pl.PendDraw))
		for fi := range pl.Army.Fleets {
			f := &pl.Army.Fleets[fi]
			buf = append(buf, byte(f.N))
			for i := 0; i < f.N; i++ {
				u := &f.U[i]
				buf = append(buf, byte(u.Card), byte(u.Class), b2(u.Moved), byte(u.Cmd), b2(u.Removed), b2(u.Swapped))
				buf = appendInt(buf, int(u.AP))
				buf = appendInt(buf, int(u.LP))
				buf = appendInt(buf, int(u.Jammed))
				buf = appendInt(buf, int(u.Weak))
				buf = appendInt(buf, int(u.Alive))
				buf = appendInt(buf, int(u.Lead))
				buf = appendInt(buf, int(u.Down))
				buf = appendInt(buf, int(u.Gone))
				if u.Dead {
					buf = append(buf, 1)
				} else {
					buf = append(buf, 0)
				}
			}
		}
	}
	if seat == 0 || seat == 1 {
		buf = append(buf, s.P[seat].Hand[:len(s.rs.Defs)]...)
	}
	return buf
}

func b2(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendInt(buf []byte, v int) []byte {
	return append(buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// ActionString implements game.State.
func (s *State) ActionString(a game.Action) string {
	kind, arg := int(a>>16), int(a&0xffff)
	card := func(ci int) string {
		if ci < len(s.rs.Defs) {
			return s.rs.Defs[ci].ID
		}
		return "#" + strconv.Itoa(ci)
	}
	switch kind {
	case actEnd:
		return "end turn"
	case actPlay:
		return "play " + card(arg)
	case actAttack:
		return "attack"
	case actDiscardMP:
		return "discard 3 for MP"
	case actDiscardDraw:
		return "discard 3 for a card"
	case actDiscardPick:
		return "discard " + card(arg)
	case actDiscard1:
		return "discard " + card(arg) + " for MP"
	case actDiscard2:
		return "discard 2 for a card"
	case actDrawFrom:
		return [2]string{"draw from the deck", "draw from the reinforcements"}[arg&1]
	case actOrder:
		return "order unit " + strconv.Itoa(arg)
	case actMove:
		return "move unit " + strconv.Itoa(arg&0xff) + " of fleet " + strconv.Itoa(arg>>8)
	case actCommand:
		return "commander " + card(arg>>7) + " on unit " + strconv.Itoa(arg&63) + " of fleet " + strconv.Itoa(arg>>6&1)
	case actTactic, actPay:
		verb := "play "
		if kind == actPay {
			verb = "pay with "
		}
		if c := arg >> 8; c < len(s.rs.Defs) && s.rs.Defs[c].Has(SwapHighestMP) {
			return verb + card(c) + " (own dearest #" + strconv.Itoa(arg>>4&15+1) + ", the opponent's #" + strconv.Itoa(arg&15+1) + ")"
		}
		if c := arg >> 8; c < len(s.rs.Defs) && targeting(&s.rs.Defs[c]) != nil && !(kind == actTactic && s.rs.Defs[c].Effect(Jam) != nil) {
			return verb + card(c) + " on seat " + strconv.Itoa(arg>>7&1+1) + "'s unit " + strconv.Itoa(arg&63) + " of fleet " + strconv.Itoa(arg>>6&1)
		}
		return verb + card(arg>>8)
	case actPass:
		return "pass"
	case actJoin:
		return "extra fleet: " + [3]string{"stays", "fights before the Base fleet", "fights after the Base fleet"}[min(arg, 2)]
	case actSacrifice:
		if arg >= sacHand {
			return "sacrifice " + card(arg-sacHand) + " from hand"
		}
		return "sacrifice unit " + strconv.Itoa(arg&0xff) + " of fleet " + strconv.Itoa(arg>>8)
	}
	return "action " + strconv.Itoa(int(a))
}
