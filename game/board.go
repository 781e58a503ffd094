package game

import "github.com/cardlab/cardlab/effects"

// Row rules. Effects are never stored as "on" or "off": whether a card's
// effect is active is derived from the row as it is now, so blocking and
// unblocking as cards come and go (blocker ships, scouts) needs no
// bookkeeping beyond the scout link in each slot.

func (s *State) protected(r, k int) bool {
	return s.phase == Deployment && s.rows[r].s[k].shield != noInst
}

// selfActive: face up, no Deactivated marker on the effect, not revealed
// without effect by a scout still in the row.
func (s *State) selfActive(sl *slot) bool {
	return sl.flags&fFaceUp != 0 && sl.flags&fDeactEffect == 0 && sl.blockedBy == noInst
}

// underBlocker reports whether an active blocker ship lies above position k.
// The topmost self-active blocker cannot itself be blocked, so the first one
// found decides.
func (s *State) underBlocker(r, k int) bool {
	row := &s.rows[r]
	if row.perm == 0 {
		return false
	}
	for j := range row.s[:k] {
		sl := &row.s[j]
		if s.fx.defPerm[s.def8(sl.inst)]&effects.BlocksBelow != 0 && s.selfActive(sl) {
			return true
		}
	}
	return false
}

func (s *State) effectActive(r, k int) bool {
	return s.selfActive(&s.rows[r].s[k]) && !s.underBlocker(r, k)
}

// blockReason explains why the card's effect is not active.
func (s *State) blockReason(r, k int) Reason {
	sl := &s.rows[r].s[k]
	switch {
	case sl.flags&fDeactEffect != 0:
		return ReasonDeactivated
	case sl.blockedBy != noInst:
		return ReasonScout
	case s.underBlocker(r, k):
		return ReasonUnderBlocker
	}
	return ReasonNone
}

// closed reports an active Blockade in the row. One pass top to bottom: a
// card is under a blocker once any self-active blocker lies above it (as
// underBlocker decides).
func (s *State) closed(r int) bool {
	row := &s.rows[r]
	if row.perm == 0 {
		return false
	}
	blocked := false
	for k := range row.s[:row.n] {
		sl := &row.s[k]
		perm := s.fx.defPerm[s.def8(sl.inst)]
		if perm == 0 || !s.selfActive(sl) {
			continue
		}
		if perm&effects.ClosesRow != 0 && !blocked {
			return true
		}
		if perm&effects.BlocksBelow != 0 {
			blocked = true
		}
	}
	return false
}

func (s *State) canPlace(r int) bool {
	return s.openRows()&(1<<uint(r)) != 0
}

// openRows returns a bit set of the rows a card may be placed in.
func (s *State) openRows() uint32 {
	if s.dirty != 0 {
		s.computeMasks()
	}
	return s.openMask
}

// computeMasks recomputes the cached bits of the rows that changed.
func (s *State) computeMasks() {
	all := uint32(1)<<uint(s.nrows) - 1
	d := s.dirty & all
	s.openMask &= all &^ d
	s.completeMask &= all &^ d
	for r := 0; d != 0; r++ {
		if d&1 != 0 {
			closed := s.closed(r)
			n := int(s.rows[r].n)
			if n < MaxRowLen && !closed {
				s.openMask |= 1 << uint(r)
			}
			if n >= s.fx.cardsToEnd || closed {
				s.completeMask |= 1 << uint(r)
			}
		}
		d >>= 1
	}
	s.dirty = 0
}

// rowResized keeps the cached masks of row r right after its card count
// changed. Without a row rule in it only the count matters, so the bits are
// set here at once; otherwise computeMasks re-derives them when asked.
func (s *State) rowResized(r int) {
	row := &s.rows[r]
	row.ver++
	bit := uint32(1) << uint(r)
	if row.perm != 0 {
		s.dirty |= bit
		return
	}
	n := int(row.n)
	if n < MaxRowLen {
		s.openMask |= bit
	} else {
		s.openMask &^= bit
	}
	if n >= s.fx.cardsToEnd {
		s.completeMask |= bit
	} else {
		s.completeMask &^= bit
	}
}

// flagsChanged notes that a card in row r changed face, marker or scout
// link: that can only open or close the row if a row rule lies in it.
func (s *State) flagsChanged(r int) {
	s.rows[r].ver++
	if s.rows[r].perm != 0 {
		s.dirty |= 1 << uint(r)
	}
}

// checkEnd is the Deployment Phase's end latch: it ends the phase as soon as
// every row is complete. Every primitive that changes the table (put,
// reveal, scoutBlock, remove, move, Deactivate) calls it when it is done, so
// the end is noticed at the first moment it holds, whatever changed the
// table — a placement, the reveal it causes, or an effect's removal or move —
// and the player whose turn it is ends it. Once set it stays set: a later
// removal of the triggering card does not undo it (rulebook).
func (s *State) checkEnd() {
	if s.phase != Deployment || s.deployEnded {
		return
	}
	if s.dirty != 0 {
		s.computeMasks()
	}
	if s.completeMask != 1<<uint(s.nrows)-1 {
		return
	}
	s.endDeployment()
}

// insertSlot makes room at pos of row r for inst and returns the slot for
// the caller to fill. (Filling it in place rather than passing a slot value
// avoids a store-forwarding stall that cost more than the rest of the
// function.)
func (s *State) insertSlot(r, pos int, inst uint8) *slot {
	row := &s.rows[r]
	if pos < int(row.n) {
		copy(row.s[pos+1:row.n+1], row.s[pos:row.n])
	}
	row.n++
	if s.fx.defPerm[s.def8(inst)] != 0 {
		row.perm++
	}
	s.rowResized(r)
	return &row.s[pos]
}

func (s *State) deleteSlot(r, pos int) slot {
	row := &s.rows[r]
	sl := row.s[pos]
	copy(row.s[pos:row.n-1], row.s[pos+1:row.n])
	row.n--
	if s.fx.defPerm[s.def8(sl.inst)] != 0 {
		row.perm--
	}
	s.rowResized(r)
	return sl
}

func (s *State) cardEvent(k EventKind, inst uint8, r, pos int, faceUp bool) Event {
	e := ev(k, s.ownerOf(inst))
	e.Card = int16(s.defOf(inst))
	e.Row, e.Pos, e.FaceUp = int8(r), int8(pos), faceUp
	return e
}

// How a card arrives in a row from a hand.
type placeMode uint8

const (
	placeDown    placeMode = iota // face down; reveals the card above
	placeUpNoEff                  // face up without its one-time effect (Distress Signal)
)

// place puts inst face down at pos of row r (pos == len: the bottom), with
// shield sh on it if sh != noInst, then reveals the card above as the
// rulebook's placement rule says.
func (s *State) place(inst uint8, r, pos int, sh uint8) { s.put(inst, r, pos, sh, placeDown) }

// put is every placement from a hand, whatever route it takes (a turn,
// Teleport, Gravitational Wave, Flagship, Distress Signal). Beneath an
// active blocker ship a card is played face up and without effect whatever
// the mode, and only the usual reveal of the card above follows. A scout is
// played face up and reveals the card above without effect by every route:
// that is its own special (X) rule, which Distress Signal's "one-time
// effects … are not executed" does not touch, so the card decides, not the
// route.
func (s *State) put(inst uint8, r, pos int, sh uint8, mode placeMode) {
	under := s.underBlocker(r, pos)
	scout := s.fx.defPlace[s.def8(inst)] == effects.PlaceScout
	up := under || scout || mode != placeDown
	var flags uint8
	if up {
		flags = fFaceUp
	} else if uint8(r) < s.revealFrom {
		s.revealFrom = uint8(r)
	}
	*s.insertSlot(r, pos, inst) = slot{inst: inst, flags: flags, blockedBy: noInst, shield: sh}
	s.stats.Placements++
	if t := s.tally; t != nil {
		t.placed(s.def8(inst), r, s.ownerOf(inst))
		if sh != noInst {
			t.placed(s.def8(sh), r, s.ownerOf(sh))
		}
	}
	if s.obs != nil {
		e := s.cardEvent(EvPlaced, inst, r, pos, up)
		if under || (mode == placeUpNoEff && !scout) {
			e.Value = 1 // played without effect
		}
		s.emit(e)
		if sh != noInst {
			s.emit(s.cardEvent(EvShielded, sh, r, pos, true))
		}
	}
	s.checkEnd()
	if scout && !under {
		s.scoutBlock(r, pos)
		return
	}
	if pos > 0 {
		s.revealIfHidden(r, pos-1)
	}
}

// scoutBlock: the scout at (r, pos) reveals the card above without effect.
func (s *State) scoutBlock(r, pos int) {
	if pos == 0 || s.protected(r, pos-1) {
		return
	}
	above := &s.rows[r].s[pos-1]
	s.flagsChanged(r)
	wasDown := above.flags&fFaceUp == 0
	above.flags |= fFaceUp
	above.blockedBy = s.rows[r].s[pos].inst
	if s.tally != nil && s.fx.defSpec[s.defOf(above.inst)] != nil {
		s.tally.Blocked[s.def8(above.inst)]++
	}
	if s.obs != nil {
		if wasDown {
			if s.obs != nil {
				s.emit(s.cardEvent(EvRevealed, above.inst, r, pos-1, true))
			}
		}
		e := s.cardEvent(EvBlocked, above.inst, r, pos-1, true)
		e.Reason = ReasonScout
		if s.fx.defSpec[s.defOf(above.inst)] != nil {
			s.emit(e)
		}
	}
	s.checkEnd()
}

func (s *State) revealIfHidden(r, k int) {
	if s.rows[r].s[k].flags&fFaceUp == 0 && !s.protected(r, k) {
		s.reveal(r, k)
	}
}

// reveal turns the card face up and, if its effect is active, runs a
// one-time effect. Permanent and scoring effects need no action: they are
// derived from the row whenever asked.
func (s *State) reveal(r, k int) {
	sl := &s.rows[r].s[k]
	sl.flags |= fFaceUp
	s.flagsChanged(r)
	inst := sl.inst
	d := s.defOf(inst)
	if s.obs != nil {
		s.emit(s.cardEvent(EvRevealed, inst, r, k, true))
	}
	// A revealed Blockade completes its row, a revealed blocker ship can
	// silence one beneath it: the table changed before any effect runs.
	s.checkEnd()
	if s.fx.defSpec[d] == nil {
		return
	}
	if !s.effectActive(r, k) {
		if s.tally != nil {
			s.tally.Blocked[uint8(d)]++
		}
		if s.obs != nil {
			e := s.cardEvent(EvBlocked, inst, r, k, true)
			e.Reason = s.blockReason(r, k)
			s.emit(e)
		}
		return
	}
	ot := s.fx.defOne[d]
	if ot == nil {
		return // permanent, scoring and special cards act through the row
	}
	s.fizzled = false
	if s.tally != nil {
		s.tally.Fired[uint8(d)]++
	}
	if s.obs != nil {
		s.emit(s.cardEvent(EvFired, inst, r, k, true))
	}
	ot.Reveal((*table)(s), effects.Slot{Row: r, Pos: k}, s.fx.defArgs[d])
	if s.fizzled && s.tally != nil {
		s.tally.Fizzled[uint8(d)]++
	}
	if s.fizzled && s.obs != nil {
		if s.obs != nil {
			s.emit(s.cardEvent(EvFizzled, inst, r, k, true))
		}
	}
}

// unlinkScout releases the cards a departing scout had blocked.
func (s *State) unlinkScout(r int, inst uint8) {
	row := &s.rows[r]
	s.flagsChanged(r)
	for k := range row.s[:row.n] {
		if row.s[k].blockedBy == inst {
			row.s[k].blockedBy = noInst
		}
	}
}

func (s *State) remove(r, k int) bool {
	if s.protected(r, k) {
		return false
	}
	sl := s.deleteSlot(r, k)
	s.players[s.ownerOf(sl.inst)].discard.push(sl.inst)
	if sh := sl.shield; sh != noInst {
		s.players[s.ownerOf(sh)].discard.push(sh)
	}
	s.unlinkScout(r, sl.inst)
	if s.obs != nil {
		s.emit(s.cardEvent(EvRemoved, sl.inst, r, k, sl.flags&fFaceUp != 0))
	}
	// Removing a blocker ship or a scout can wake a Blockade.
	s.checkEnd()
	return true
}

// move takes the card to the bottom of row to, face up; its one-time effect
// does not run. It keeps its Deactivated markers; a scout link to or from it
// ends because it left the row.
func (s *State) move(r, k, to int) bool {
	if s.protected(r, k) || r == to || int(s.rows[to].n) >= MaxRowLen {
		return false
	}
	sl := s.deleteSlot(r, k)
	s.unlinkScout(r, sl.inst)
	sl.blockedBy = noInst
	sl.flags |= fFaceUp
	pos := int(s.rows[to].n)
	*s.insertSlot(to, pos, sl.inst) = sl
	if s.obs != nil {
		e := s.cardEvent(EvMoved, sl.inst, to, pos, true)
		e.Value = int32(r)
		s.emit(e)
	}
	s.checkEnd()
	// A scout moved beneath a face-down card reveals it without effect.
	if s.fx.defPlace[s.defOf(sl.inst)] == effects.PlaceScout && pos > 0 &&
		s.rows[to].s[pos-1].flags&fFaceUp == 0 && !s.underBlocker(to, pos) {
		s.scoutBlock(to, pos)
	}
	return true
}
