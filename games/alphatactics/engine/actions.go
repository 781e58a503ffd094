package engine

import (
	"fmt"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// Action is a legal move of the deciding player, packed in 32 bits:
// kind | a<<8 | b<<16 | c<<24. Hand cards are named by card definition, not
// by physical copy, so identical copies give one action and actions mean the
// same in every determinization of a player's information set.
type Action uint32

// ActionKind is the kind of an Action.
type ActionKind uint8

const (
	ActPlace   ActionKind = iota + 1 // a=card b=row: play to the bottom of the row
	ActPlaceAt                       // a=card b=row c=pos: Teleport / Gravitational Wave insertion
	ActWave                          // a=card: play a Gravitational Wave
	ActShield                        // a=card: play a shield (the protected card follows)
	ActPass                          // pass (discards follow)
	ActDiscard                       // a=card: discard it (after passing)
	ActDone                          // stop discarding / decline / bid nothing
	ActSlot                          // b=row c=pos: choose a card on the table
	ActRow                           // b=row: choose a row
	ActHand                          // a=card: choose a hand card (Distress Signal, bids)
)

func mk(k ActionKind, a, b, c int) Action {
	return Action(uint32(k) | uint32(a)<<8 | uint32(b)<<16 | uint32(c)<<24)
}

// Kind returns the action's kind.
func (a Action) Kind() ActionKind { return ActionKind(a & 0xff) }

// Card returns the card definition the action names.
func (a Action) Card() int { return int(a >> 8 & 0xff) }

// Row returns the row the action names.
func (a Action) Row() int { return int(a >> 16 & 0xff) }

// Pos returns the position the action names.
func (a Action) Pos() int { return int(a >> 24 & 0xff) }

// PlaceAction, … build actions (for tests, scenarios and tools).
func PlaceAction(card, row int) Action        { return mk(ActPlace, card, row, 0) }
func PlaceAtAction(card, row, pos int) Action { return mk(ActPlaceAt, card, row, pos) }
func WaveAction(card int) Action              { return mk(ActWave, card, 0, 0) }
func ShieldAction(card int) Action            { return mk(ActShield, card, 0, 0) }
func PassAction() Action                      { return mk(ActPass, 0, 0, 0) }
func DiscardAction(card int) Action           { return mk(ActDiscard, card, 0, 0) }
func DoneAction() Action                      { return mk(ActDone, 0, 0, 0) }
func SlotAction(row, pos int) Action          { return mk(ActSlot, 0, row, pos) }
func RowAction(row int) Action                { return mk(ActRow, 0, row, 0) }
func HandAction(card int) Action              { return mk(ActHand, card, 0, 0) }

var actionNames = [...]string{"", "place", "place_at", "wave", "shield", "pass", "discard", "done", "slot", "row", "hand"}

func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return "unknown"
}

func (a Action) String() string {
	switch a.Kind() {
	case ActPlace:
		return fmt.Sprintf("place(card %d, row %d)", a.Card(), a.Row())
	case ActPlaceAt:
		return fmt.Sprintf("place_at(card %d, row %d, pos %d)", a.Card(), a.Row(), a.Pos())
	case ActWave, ActShield, ActDiscard, ActHand:
		return fmt.Sprintf("%s(card %d)", a.Kind(), a.Card())
	case ActSlot:
		return fmt.Sprintf("slot(row %d, pos %d)", a.Row(), a.Pos())
	case ActRow:
		return fmt.Sprintf("row(%d)", a.Row())
	}
	return a.Kind().String()
}

func choiceAction(c handlers.Choice) Action {
	switch c.Kind {
	case handlers.ChooseSlot:
		return SlotAction(c.Row, c.Pos)
	case handlers.ChooseRow:
		return RowAction(c.Row)
	case handlers.ChooseHand:
		return HandAction(c.Card)
	}
	return DoneAction()
}

func actionChoice(a Action) handlers.Choice {
	switch a.Kind() {
	case ActSlot:
		return handlers.Choice{Kind: handlers.ChooseSlot, Row: a.Row(), Pos: a.Pos()}
	case ActRow:
		return handlers.Choice{Kind: handlers.ChooseRow, Row: a.Row()}
	case ActHand:
		return handlers.Choice{Kind: handlers.ChooseHand, Card: a.Card()}
	}
	return handlers.Choice{Kind: handlers.ChooseDone}
}

// defSet collects the card definitions of one player's hand: copies of a
// card give one action. Each instance carries its definition's bit among its
// owner's deck (fixed.defBit; a deck has at most 64 cards, and a hand only
// ever holds its owner's cards), so the set is one register.
type defSet uint64

// add reports whether inst's definition was new.
func (ds *defSet) add(fx *fixed, inst uint8) bool {
	b := fx.defBit[inst]
	if uint64(*ds)&b != 0 {
		return false
	}
	*ds |= defSet(b)
	return true
}

// InsertFloor is the first position of row r a card may be inserted at
// (a place-anywhere card's insertions go from it to the row's last card).
func (s *State) InsertFloor(r int) int { return s.insertFloor(r) }

// insertFloor is the first position of row r a card may be inserted at:
// inserting shifts every card below, and a shielded card cannot be moved.
func (s *State) insertFloor(r int) int {
	if s.shields == 0 {
		return 0 // most of the time: no scan of the row
	}
	row := &s.rows[r]
	for k := int(row.n) - 1; k >= 0; k-- {
		if row.s[k].shield != noInst {
			return k + 1
		}
	}
	return 0
}

// rowLists[m] lists the rows of bit set m as action bits, lowest first:
// LegalActions copies them instead of testing every row for every card.
var rowLists, rowCounts = func() (l [1 << maxRows][maxRows]Action, c [1 << maxRows]uint8) {
	for m := range l {
		for r := 0; r < maxRows; r++ {
			if m&(1<<r) != 0 {
				l[m][c[m]] = Action(r) << 16
				c[m]++
			}
		}
	}
	return
}()

// LegalActions appends the deciding player's legal actions to buf[:0] and
// returns it. It allocates only if buf is too small.
func (s *State) LegalActions(buf []Action) []Action {
	buf = buf[:0]
	if s.phase == GameOver || s.phase == Scoring {
		return buf
	}
	if s.nframes > 0 {
		return s.frameOptions(buf)
	}
	fx := s.fx
	p := int(s.turn)
	h := &s.players[p].hand
	open := s.openRows() & (1<<maxRows - 1)
	rows := rowLists[open][:rowCounts[open]]
	n := int(h.n)
	var seen defSet
	for k := 0; k < n; k++ {
		inst := h.c[k]
		if !seen.add(fx, inst) { // copies give one action
			continue
		}
		d8 := fx.instDef[inst]
		if pl := fx.defPlace[d8]; pl != handlers.PlaceNormal {
			if buf = s.specialActions(buf, pl, int(d8), open, len(rows)); pl == handlers.PlaceShieldOther {
				continue // never a card of its own (placeableAlone)
			}
		}
		a := PlaceAction(int(d8), 0)
		if len(buf)+len(rows) > cap(buf) {
			buf = append(buf, make([]Action, len(rows))...)[:len(buf)]
		}
		out := buf[len(buf) : len(buf)+len(rows)]
		for i, rb := range rows {
			out[i] = a | rb
		}
		buf = buf[:len(buf)+len(rows)]
	}
	return append(buf, PassAction())
}

// specialActions adds the actions of a special (X) card other than its
// placement at the bottom of an open row.
func (s *State) specialActions(buf []Action, pl handlers.Placement, d int, open uint32, nopen int) []Action {
	p := int(s.turn)
	switch pl {
	case handlers.PlaceShieldOther:
		if nopen != 0 && s.hasShieldable(p, s.handBits(p)) {
			buf = append(buf, ShieldAction(d))
		}
	case handlers.PlaceInsertOther:
		if s.canInsertBeside(p, s.handBits(p)) {
			buf = append(buf, WaveAction(d))
		}
	case handlers.PlaceAnywhere:
		for r := 0; r < int(s.nrows); r++ {
			if open&(1<<uint(r)) != 0 {
				for pos := s.insertFloor(r); pos < int(s.rows[r].n); pos++ {
					buf = append(buf, PlaceAtAction(d, r, pos))
				}
			}
		}
	}
	return buf
}

func (s *State) frameOptions(buf []Action) []Action {
	f := &s.frames[s.nframes-1]
	if f.Def >= 0 {
		s.offer = buf
		s.fx.defCh[f.Def].Options((*table)(s), f, s.fx.defArgs[f.Def])
		buf = s.offer
		s.offer = nil
		return buf
	}
	p := f.Player
	h := &s.players[p].hand
	var seen defSet
	switch f.Step {
	case fkDiscard:
		for k := range h.c[:h.n] {
			if seen.add(s.fx, h.c[k]) {
				buf = append(buf, DiscardAction(s.defOf(h.c[k])))
			}
		}
		buf = append(buf, DoneAction())
	case fkShield:
		for k := range h.c[:h.n] {
			d := s.def8(h.c[k])
			if !s.shieldable(int(d)) || !seen.add(s.fx, h.c[k]) {
				continue
			}
			for r := 0; r < int(s.nrows); r++ {
				if s.canPlace(r) {
					buf = append(buf, PlaceAction(int(d), r))
				}
			}
		}
	case fkWave:
		for k := range h.c[:h.n] {
			d := s.def8(h.c[k])
			if !s.placeableAlone(int(d)) || !seen.add(s.fx, h.c[k]) {
				continue
			}
			for r := 0; r < int(s.nrows); r++ {
				if !s.canPlace(r) {
					continue
				}
				for pos := s.insertFloor(r); pos <= int(s.rows[r].n); pos++ {
					buf = append(buf, PlaceAtAction(int(d), r, pos))
				}
			}
		}
		if len(buf) == 0 {
			buf = append(buf, DoneAction())
		}
	case fkBid:
		for k := range h.c[:h.n] {
			if seen.add(s.fx, h.c[k]) {
				buf = append(buf, HandAction(s.defOf(h.c[k])))
			}
		}
		buf = append(buf, DoneAction())
	}
	return buf
}

// placeableAlone reports whether d may arrive in a row as a card of its own.
// A shield may not: it is only ever played on top of the card it protects
// ("two cards are played: First, a card is played normally (face down), then
// the Transphasic Shields on top of this card"), and it is not a card of the
// row. Every route from a hand into a row asks this (a turn's placement,
// Gravitational Wave's insertion, Table.PlaceFromHand).
func (s *State) placeableAlone(d int) bool {
	return s.fx.defPlace[d] != handlers.PlaceShieldOther
}

// canInsertBeside reports whether seat p's Gravitational Wave has another
// card to insert besides one copy of itself: two hand cards that may arrive
// alone (placeableAlone). hand is the hand's defBit set (handBits); two
// such definitions settle it without counting copies.
func (s *State) canInsertBeside(p int, hand uint64) bool {
	alone := hand &^ s.fx.placeBits[p][handlers.PlaceShieldOther]
	if alone&(alone-1) != 0 {
		return true
	}
	n := 0
	for _, inst := range s.players[p].hand.cards() {
		if s.placeableAlone(s.defOf(inst)) {
			n++
		}
	}
	return n >= 2
}

// shieldable reports whether def may be the card a shield protects: it must
// be playable face down in the usual way (not a shield, not a scout).
func (s *State) shieldable(d int) bool {
	pl := s.fx.defPlace[d]
	return pl != handlers.PlaceShieldOther && pl != handlers.PlaceScout
}

// hasShieldable reports whether seat p's hand, of defBit set hand
// (handBits), holds a card a shield may protect (shieldable).
func (s *State) hasShieldable(p int, hand uint64) bool {
	pb := &s.fx.placeBits[p]
	return hand&^(pb[handlers.PlaceShieldOther]|pb[handlers.PlaceScout]) != 0
}

// handBits is the defBit set of seat p's hand: its distinct cards.
func (s *State) handBits(p int) uint64 {
	var b uint64
	for _, inst := range s.players[p].hand.cards() {
		b |= s.fx.defBit[inst]
	}
	return b
}

// Apply plays a legal action of CurrentPlayer and runs the game forward to
// the next decision. Use ApplyChecked for actions of unknown origin.
func (s *State) Apply(a Action) {
	s.stats.Decisions++
	if s.nframes > 0 {
		// Resolved in its place: decisions its step starts go above it and
		// so resolve first; finished, it leaves from beneath them.
		k := s.nframes - 1
		if s.resolveFrame(&s.frames[k], a) {
			if s.nframes--; k < s.nframes { // it started decisions
				copy(s.frames[k:s.nframes], s.frames[k+1:s.nframes+1])
			}
		}
	} else {
		// A Deployment turn (written here rather than called: this is
		// most decisions).
		p := int(s.turn)
		s.turnOpen = true
		switch a.Kind() {
		case ActPlace:
			i, _ := s.takeFromHand(p, a.Card())
			s.passStreak = 0
			s.refill(p)
			s.place(i, a.Row(), int(s.rows[a.Row()].n), noInst) // a scout goes face up: put reads the card
		case ActPlaceAt:
			i, _ := s.takeFromHand(p, a.Card())
			s.passStreak = 0
			s.refill(p)
			s.place(i, a.Row(), a.Pos(), noInst)
		case ActWave:
			i, _ := s.takeFromHand(p, a.Card())
			s.passStreak = 0
			s.players[p].discard.push(i)
			if s.tally != nil {
				setBit(&s.tally.Played, s.def8(i))
				s.tally.Fired[s.def8(i)]++ // the Wave's effect is its play
			}
			if s.obs != nil {
				s.emit(s.cardEvent(EvPlaced, i, -1, -1, true))
			}
			s.pushEngine(fkWave, p)
		case ActShield:
			s.passStreak = 0
			f := handlers.Frame{Player: p, Def: -1, Step: fkShield}
			f.Data[0] = a.Card()
			s.push(f)
		case ActPass:
			s.passStreak++
			s.stats.Passes++
			if s.obs != nil {
				s.emit(ev(EvPass, p))
			}
			if s.players[p].hand.n > 0 {
				s.pushEngine(fkDiscard, p)
			} else {
				s.refill(p)
			}
		}
	}
	s.advance()
}

// ApplyChecked applies a after checking it is legal.
func (s *State) ApplyChecked(a Action) error {
	var buf [256]Action
	for _, l := range s.LegalActions(buf[:0]) {
		if l == a {
			s.Apply(a)
			return nil
		}
	}
	return fmt.Errorf("game: illegal action %v for player %d", a, s.CurrentPlayer())
}

func (s *State) pushEngine(kind, p int) {
	s.push(handlers.Frame{Player: p, Def: -1, Step: kind})
}

func (s *State) push(f handlers.Frame) {
	if s.nframes == maxFrames {
		return // nesting this deep cannot arise from real cards; drop rather than crash
	}
	s.frames[s.nframes] = f
	s.nframes++
}

// resolveFrame applies a to frame f (already popped) and reports whether the
// decision is finished.
func (s *State) resolveFrame(f *handlers.Frame, a Action) bool {
	if f.Def >= 0 {
		return s.fx.defCh[f.Def].Choose((*table)(s), f, s.fx.defArgs[f.Def], actionChoice(a))
	}
	p := f.Player
	switch f.Step {
	case fkDiscard:
		if a.Kind() == ActDiscard {
			i, _ := s.takeFromHand(p, a.Card())
			s.players[p].discard.push(i)
			if s.obs != nil {
				s.emit(s.cardEvent(EvDiscarded, i, -1, -1, true))
			}
			if s.players[p].hand.n > 0 {
				return false
			}
		}
		s.refill(p)
		return true
	case fkShield:
		if a.Kind() != ActPlace {
			return true
		}
		sh, _ := s.takeFromHand(p, f.Data[0])
		i, _ := s.takeFromHand(p, a.Card())
		s.refill(p)
		s.place(i, a.Row(), int(s.rows[a.Row()].n), sh)
		return true
	case fkWave:
		if a.Kind() == ActPlaceAt {
			i, _ := s.takeFromHand(p, a.Card())
			s.refill(p)
			s.place(i, a.Row(), a.Pos(), noInst)
		} else {
			s.refill(p)
		}
		return true
	case fkBid:
		return s.bid(f, a)
	}
	return true
}

// advance runs the game forward until a decision is pending or it ends.
func (s *State) advance() {
	for s.nframes == 0 {
		switch s.phase {
		case Deployment:
			if !s.turnOpen {
				return
			}
			s.turnOpen = false
			s.stats.DeployTurns++
			s.deployTurns++
			if !s.deployEnded && (int(s.passStreak) >= s.fx.players || s.deployTurns >= MaxDeployTurns) {
				// Everyone passed in turn, or the phase has run far too
				// long: it ends (docs/rules.md).
				s.endDeployment()
			}
			if s.deployEnded {
				s.startReveal()
				continue
			}
			// No modulo (an integer division here cost more than the rest
			// of the line) and no branch (seats take turns in a pattern):
			// the mask is all ones below the last seat, zero at it.
			next := int(s.turn) + 1
			s.turn = uint8(next & ((next - s.fx.players) >> 63))
			return
		case Reveal:
			r, pos, ok := s.nextFaceDown()
			if ok {
				s.reveal(r, pos)
				continue
			}
			if s.pauseScoring {
				s.phase = Scoring
				return
			}
			s.scoreRound()
			if s.phase == GameOver {
				return
			}
			s.startRound((int(s.ender) + 1) % s.fx.players)
			return
		default:
			return
		}
	}
}

// ResumeScoring runs the Scoring Phase of a setup paused before it and
// carries on with the game.
func (s *State) ResumeScoring() {
	if s.phase != Scoring {
		return
	}
	s.phase = Reveal
	s.revealFrom = 0
	s.pauseScoring = false
	s.advance()
}

func (s *State) endDeployment() {
	if !s.deployEnded {
		s.deployEnded = true
		s.ender = s.turn
		if s.obs != nil {
			s.emit(ev(EvDeploymentEnd, int(s.turn)))
		}
	}
}

func (s *State) startReveal() {
	s.phase = Reveal
	s.revealFrom = 0
	n := 0
	// Shields come off first; they go to their owners' discard piles.
	for r := 0; s.shields != 0 && r < int(s.nrows); r++ {
		row := &s.rows[r]
		for k := range row.s[:row.n] {
			if sh := row.s[k].shield; sh != noInst {
				s.players[s.ownerOf(sh)].discard.push(sh)
				row.s[k].shield = noInst
				s.shields--
				n++
			}
		}
	}
	e := ev(EvShieldsRemoved, -1)
	e.Value = int32(n)
	s.emit(e)
}

// nextFaceDown finds the Reveal Phase's next card. Rows before revealFrom
// are known to be all face up (put lowers it when a card goes face down), so
// the scan does not restart at the first row for every card.
func (s *State) nextFaceDown() (int, int, bool) {
	for r := int(s.revealFrom); r < int(s.nrows); r++ {
		row := &s.rows[r]
		for k := range row.s[:row.n] {
			if row.s[k].flags&fFaceUp == 0 {
				return r, k, true
			}
		}
		s.revealFrom = uint8(r + 1)
	}
	return 0, 0, false
}
