package engine

import (
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// Row rules. Effects are never stored as "on" or "off": whether a card's
// effect is active is derived from the row as it is now, so blocking and
// unblocking as cards come and go (blocker ships, scouts) needs no
// bookkeeping beyond the scout link in each slot and the bit set of face-up
// row-rule cards (row.rules).

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
	m := s.rows[r].rules & (1<<uint(k&63) - 1)
	return m != 0 && s.blockerAmong(r, m)
}

// blockerAmong reports whether a self-active blocker ship lies at one of
// the positions m of row r.
func (s *State) blockerAmong(r int, m uint64) bool {
	row := &s.rows[r]
	for ; m != 0; m &= m - 1 {
		sl := &row.s[bits.TrailingZeros64(m)]
		if s.fx.defPerm[s.def8(sl.inst)]&handlers.BlocksBelow != 0 && s.selfActive(sl) {
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
	blocked := false
	for m := row.rules; m != 0; m &= m - 1 {
		sl := &row.s[bits.TrailingZeros64(m)]
		perm := s.fx.defPerm[s.def8(sl.inst)]
		if !s.selfActive(sl) {
			continue
		}
		if perm&handlers.ClosesRow != 0 && !blocked {
			return true
		}
		if perm&handlers.BlocksBelow != 0 {
			blocked = true
		}
	}
	return false
}

func (s *State) canPlace(r int) bool {
	return s.openRows()&(1<<uint(r&31)) != 0
}

// allRows has a bit for every row of the round. (Shift counts are masked
// throughout: the compiler then need not handle counts of 32 and more.)
func (s *State) allRows() uint32 { return 1<<(s.nrows&31) - 1 }

// openRows returns a bit set of the rows a card may be placed in.
func (s *State) openRows() uint32 { return s.allRows() &^ (s.fullMask | s.closedMask) }

// completeRows returns a bit set of the rows that count as complete.
func (s *State) completeRows() uint32 { return s.longMask | s.closedMask }

// rowResized keeps row r's bits of longMask and fullMask right after its
// card count changed. (Conditional moves, not branches: which rows are long
// is anybody's guess.)
func (s *State) rowResized(r int) {
	row := &s.rows[r]
	row.ver++
	n := int(row.n)
	bit := uint32(1) << uint(r&31)
	var long, full uint32
	if n >= s.fx.cardsToEnd {
		long = bit
	}
	if n >= MaxRowLen {
		full = bit
	}
	s.longMask = s.longMask&^bit | long
	s.fullMask = s.fullMask&^bit | full
}

// rulesChanged sets row r's bit of closedMask afresh after a row-rule card
// arrived, left, turned up or changed its activity.
func (s *State) rulesChanged(r int) {
	bit := uint32(1) << uint(r&31)
	var closed uint32
	if s.closed(r) {
		closed = bit
	}
	s.closedMask = s.closedMask&^bit | closed
}

// resetMasks derives the row masks afresh after the rows were laid out anew.
func (s *State) resetMasks() {
	s.longMask, s.fullMask, s.closedMask = 0, 0, 0
	for r := 0; r < int(s.nrows); r++ {
		s.rowResized(r)
		if s.rows[r].rules != 0 {
			s.rulesChanged(r)
		}
	}
}

// flagsChanged notes that a card in row r changed face, marker or scout
// link other than a row-rule card turning up (turnedUp): that can only open
// or close the row if a row rule lies in it.
func (s *State) flagsChanged(r int) {
	s.rows[r].ver++
	if s.rows[r].rules != 0 {
		s.rulesChanged(r)
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
	if s.allComplete() {
		s.endIfDeploying()
	}
}

// allComplete is checkEnd's test, which the hot callers (put, reveal) make
// themselves: checkEnd with its call exceeds the compiler's inlining budget.
func (s *State) allComplete() bool { return s.completeRows() == s.allRows() }

func (s *State) endIfDeploying() {
	if s.phase == Deployment {
		s.endDeployment()
	}
}

// turnedUp notes that the card at (r, k) now lies face up (or, already up,
// was revealed without effect).
func (s *State) turnedUp(r, k int) {
	row := &s.rows[r]
	row.ver++
	if s.fx.defPerm[s.def8(row.s[k].inst)] != 0 {
		s.ruleTurnedUp(r, k)
	}
}

func (s *State) ruleTurnedUp(r, k int) {
	s.rows[r].rules |= 1 << uint(k&63)
	s.rulesChanged(r)
}

// insertSlot puts a card at pos of row r, the cards from pos on moving one
// down. A card arrives never revealed by a scout. (Storing field by field
// rather than a slot value avoids a store-forwarding stall that cost more
// than the rest of the function.)
func (s *State) insertSlot(r, pos int, inst, flags, shield, weaken uint8) {
	row := &s.rows[r]
	if pos < int(row.n) {
		copy(row.s[pos+1:row.n+1], row.s[pos:row.n])
	}
	row.n++
	sl := &row.s[pos]
	sl.inst, sl.flags, sl.blockedBy, sl.shield, sl.weaken = inst, flags, noInst, shield, weaken
	if shield != noInst {
		s.shields++
	}
	s.rowResized(r)
	if above := row.rules & (1<<uint(pos&63) - 1); row.rules != above {
		row.rules = above | (row.rules^above)<<1 // the cards below moved down
	}
	if flags&fFaceUp != 0 && s.fx.defPerm[s.def8(inst)] != 0 {
		s.ruleTurnedUp(r, pos)
	}
}

func (s *State) deleteSlot(r, pos int) slot {
	row := &s.rows[r]
	sl := row.s[pos]
	// A loop, not copy: a runtime.memmove call costs more than moving the
	// few slots below.
	for j := pos + 1; j < int(row.n); j++ {
		row.s[j-1] = row.s[j]
	}
	row.n--
	if sl.shield != noInst {
		s.shields--
	}
	s.rowResized(r)
	if above := row.rules & (1<<uint(pos&63) - 1); row.rules != above {
		gone := row.rules >> uint(pos&63) & 1
		row.rules = above | row.rules>>1&^(1<<uint(pos&63)-1)
		if gone != 0 {
			s.rulesChanged(r)
		}
	}
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
	above := s.rows[r].rules & (1<<uint(pos&63) - 1)
	under := above != 0 && s.blockerAmong(r, above)
	scout := s.fx.defPlace[s.def8(inst)] == handlers.PlaceScout
	up := under || scout || mode != placeDown
	var flags uint8
	if up {
		flags = fFaceUp
	} else if uint8(r) < s.revealFrom {
		s.revealFrom = uint8(r)
	}
	atBottom := pos >= int(s.rows[r].n)
	s.insertSlot(r, pos, inst, flags, sh, 0)
	s.stats.Placements++
	if t := s.tally; t != nil {
		d := s.def8(inst)
		t.placed(d, r, s.ownerOf(inst))
		if sh != noInst {
			// A shield's effect is the protection: used once per shield.
			t.placed(s.def8(sh), r, s.ownerOf(sh))
			t.Fired[s.def8(sh)]++
		}
		// A card placed anywhere (Teleport) used its effect unless it went
		// to the bottom, where any card may go.
		if s.fx.defPlace[d] == handlers.PlaceAnywhere {
			t.Fired[d]++
			if atBottom {
				t.Fizzled[d]++
			}
		}
	}
	if s.obs != nil {
		s.reportPut(inst, r, pos, sh, up, under || (mode == placeUpNoEff && !scout))
	}
	if s.allComplete() {
		s.endIfDeploying()
	}
	if scout && !under {
		if t := s.tally; t != nil {
			t.Fired[s.def8(inst)]++
			if pos == 0 || s.protected(r, pos-1) {
				t.Fizzled[s.def8(inst)]++ // nothing above to reveal
			}
		}
		s.scoutBlock(r, pos)
		return
	}
	if pos > 0 {
		if sl := &s.rows[r].s[pos-1]; sl.flags&fFaceUp == 0 && (sl.shield == noInst || s.phase != Deployment) {
			s.reveal(r, pos-1)
		}
	}
}

// reportPut reports a placement to the observer (kept out of put, whose
// hot path it would only slow).
func (s *State) reportPut(inst uint8, r, pos int, sh uint8, up, noEffect bool) {
	e := s.cardEvent(EvPlaced, inst, r, pos, up)
	if noEffect {
		e.Value = 1 // played without effect
	}
	s.emit(e)
	if sh != noInst {
		s.emit(s.cardEvent(EvShielded, sh, r, pos, true))
	}
}

// scoutBlock: the scout at (r, pos) reveals the card above without effect.
func (s *State) scoutBlock(r, pos int) {
	if pos == 0 || s.protected(r, pos-1) {
		return
	}
	above := &s.rows[r].s[pos-1]
	wasDown := above.flags&fFaceUp == 0
	above.flags |= fFaceUp
	above.blockedBy = s.rows[r].s[pos].inst
	s.turnedUp(r, pos-1)
	// Only a one-time effect is blocked here: permanent and scoring ones
	// are counted where they act, when their row is scored (tallyRowWon).
	if s.tally != nil && s.fx.defOne[s.def8(above.inst)] != nil {
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

// reveal turns the card face up and, if its effect is active, runs a
// one-time effect. Permanent and scoring effects need no action: they are
// derived from the row whenever asked.
func (s *State) reveal(r, k int) {
	row := &s.rows[r]
	sl := &row.s[k]
	sl.flags |= fFaceUp
	row.ver++
	inst := sl.inst
	d := s.defOf(inst)
	if s.fx.defPerm[d] != 0 {
		s.ruleTurnedUp(r, k)
	}
	if s.obs != nil {
		s.emit(s.cardEvent(EvRevealed, inst, r, k, true))
	}
	// A revealed Blockade completes its row, a revealed blocker ship can
	// silence one beneath it: the table changed before any effect runs.
	if s.allComplete() {
		s.endIfDeploying()
	}
	if s.fx.defOne[d] == nil {
		// Permanent, scoring and special cards act through the row: only
		// a tally or an observer learns whether they are blocked.
		// Watchers first: that test is the same all game long, whether the
		// card has an effect at all is anybody's guess.
		if (s.tally != nil || s.obs != nil) && s.fx.defSpec[d] != nil && !s.effectActive(r, k) {
			s.reportBlocked(r, k)
		}
		return
	}
	// effectActive written out: the call would cost more than the test.
	if above := row.rules & (1<<uint(k&63) - 1); sl.flags&fDeactEffect != 0 || sl.blockedBy != noInst ||
		above != 0 && s.blockerAmong(r, above) {
		if s.tally != nil || s.obs != nil {
			s.reportBlocked(r, k)
		}
		return
	}
	s.fire(r, k)
}

// fire runs the one-time effect of the card revealed at (r, k).
func (s *State) fire(r, k int) {
	inst := s.rows[r].s[k].inst
	d := s.def8(inst)
	s.fizzled = false
	if s.tally != nil {
		s.tally.Fired[d]++
	}
	if s.obs != nil {
		s.emit(s.cardEvent(EvFired, inst, r, k, true))
	}
	s.fx.defOne[d].Reveal((*table)(s), handlers.Slot{Row: r, Pos: k}, s.fx.defArgs[d])
	if s.fizzled && s.tally != nil {
		s.tally.Fizzled[d]++
	}
	if s.fizzled && s.obs != nil {
		s.emit(s.cardEvent(EvFizzled, inst, r, k, true))
	}
}

// reportBlocked tallies and reports that the card revealed at (r, k) acts
// without effect.
func (s *State) reportBlocked(r, k int) {
	inst := s.rows[r].s[k].inst
	// Permanent and scoring effects are counted when their row is scored
	// (tallyRowWon), in rows, not reveals.
	if s.tally != nil && s.fx.defOne[s.def8(inst)] != nil {
		s.tally.Blocked[s.def8(inst)]++
	}
	if s.obs != nil {
		e := s.cardEvent(EvBlocked, inst, r, k, true)
		e.Reason = s.blockReason(r, k)
		s.emit(e)
	}
}

// unlinkScout releases the cards a departing scout had blocked.
func (s *State) unlinkScout(r int, inst uint8) {
	if s.fx.defPlace[s.def8(inst)] != handlers.PlaceScout {
		return // only a scout blocks
	}
	row := &s.rows[r]
	for k := range row.s[:row.n] {
		if row.s[k].blockedBy == inst {
			row.s[k].blockedBy = noInst
		}
	}
	s.flagsChanged(r)
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
	pos := int(s.rows[to].n)
	s.insertSlot(to, pos, sl.inst, sl.flags|fFaceUp, sl.shield, sl.weaken)
	if s.obs != nil {
		e := s.cardEvent(EvMoved, sl.inst, to, pos, true)
		e.Value = int32(r)
		s.emit(e)
	}
	s.checkEnd()
	// A scout moved beneath a face-down card reveals it without effect.
	if s.fx.defPlace[s.defOf(sl.inst)] == handlers.PlaceScout && pos > 0 &&
		s.rows[to].s[pos-1].flags&fFaceUp == 0 && !s.underBlocker(to, pos) {
		s.scoutBlock(to, pos)
	}
	return true
}
