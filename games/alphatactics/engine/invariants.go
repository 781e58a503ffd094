package engine

import (
	"fmt"
	"slices"
)

// CheckInvariants verifies what must hold in every reachable state: each
// physical card is in exactly one place (draw pile, hand, discard pile, row,
// under a shield; a sealed bid stays in its hand), each target is in exactly one place (the
// pile, a row, or one player's won targets, or unclaimed), rows fit.
// Property tests call it after every action.
func (s *State) CheckInvariants() error {
	var seen [256]uint8
	n := s.fx.ninst
	mark := func(i uint8, where string, at int) error {
		if int(i) >= n {
			return fmt.Errorf("game: bad card instance %d in %s %d", i, where, at)
		}
		seen[i]++
		if seen[i] > 1 {
			return fmt.Errorf("game: card instance %d (%s) in two places, second: %s %d", i, s.card(s.defOf(i)).ID, where, at)
		}
		return nil
	}
	for p := 0; p < s.fx.players; p++ {
		pl := &s.players[p]
		for _, pile := range [3]*pile{&pl.draw, &pl.hand, &pl.discard} {
			for _, i := range pile.cards() {
				if int(i) < n && s.ownerOf(i) != p {
					return fmt.Errorf("game: seat %d holds seat %d's card", p, s.ownerOf(i))
				}
				if err := mark(i, "pile of seat", p); err != nil {
					return err
				}
			}
		}
		if pl.bid != noInst && !slices.Contains(pl.hand.cards(), pl.bid) {
			// A sealed bid stays in its owner's hand until the reveal.
			return fmt.Errorf("game: seat %d's sealed bid %d is not in its hand", p, pl.bid)
		}
	}
	var tseen [64]int
	shields := 0
	open := s.openRows()
	for r := 0; r < int(s.nrows); r++ {
		row := &s.rows[r]
		if row.n > MaxRowLen {
			return fmt.Errorf("game: row %d overflows", r)
		}
		// The cached masks, kept up to date incrementally, agree with the
		// rules read afresh.
		closed := s.closed(r)
		if want := int(row.n) < MaxRowLen && !closed; (open&(1<<uint(r)) != 0) != want {
			return fmt.Errorf("game: row %d cached as open=%v, is %v", r, !want, want)
		}
		if want := int(row.n) >= s.fx.cardsToEnd || closed; (s.completeRows()&(1<<uint(r)) != 0) != want {
			return fmt.Errorf("game: row %d cached as complete=%v, is %v", r, !want, want)
		}
		// The Reveal Phase's cursor never skips a face-down card.
		for k := 0; s.phase == Reveal && r < int(s.revealFrom) && k < int(row.n); k++ {
			if row.s[k].flags&fFaceUp == 0 {
				return fmt.Errorf("game: row %d has a face-down card but the reveal resumes at row %d", r, s.revealFrom)
			}
		}
		if row.target >= 0 {
			tseen[row.target]++
		}
		var rules uint64
		for k := 0; k < int(row.n); k++ {
			sl := &row.s[k]
			if sl.flags&fFaceUp != 0 && s.fx.defPerm[s.def8(sl.inst)] != 0 {
				rules |= 1 << uint(k)
			}
			if err := mark(sl.inst, "row", r); err != nil {
				return err
			}
			// A shield lies only on the card it protects, never as a
			// card of the row, and only in the Deployment Phase.
			if !s.placeableAlone(s.defOf(sl.inst)) {
				return fmt.Errorf("game: shield %s lies in row %d as a card of its own", s.card(s.defOf(sl.inst)).ID, r)
			}
			if sl.flags&fFaceUp == 0 && !s.mayLieFaceDown(sl.inst) {
				return fmt.Errorf("game: scout %s lies face down in row %d", s.card(s.defOf(sl.inst)).ID, r)
			}
			if sh := sl.shield; sh != noInst {
				shields++
				if err := mark(sh, "shield in row", r); err != nil {
					return err
				}
				if s.placeableAlone(s.defOf(sh)) {
					return fmt.Errorf("game: %s lies on row %d card %d as a shield", s.card(s.defOf(sh)).ID, r, k)
				}
				if s.ownerOf(sh) != s.ownerOf(sl.inst) {
					return fmt.Errorf("game: seat %d's shield protects seat %d's card", s.ownerOf(sh), s.ownerOf(sl.inst))
				}
				if s.phase != Deployment {
					return fmt.Errorf("game: a shield is still on row %d card %d in the %v phase", r, k, s.phase)
				}
			}
		}
		if rules != row.rules {
			return fmt.Errorf("game: row %d's face-up row-rule cards are %b, kept as %b", r, rules, row.rules)
		}
	}
	if shields != int(s.shields) {
		return fmt.Errorf("game: %d shields lie on the table, counted %d", shields, s.shields)
	}
	for i, c := range seen[:n] {
		if c == 0 {
			return fmt.Errorf("game: card instance %d (%s) lost", i, s.card(s.defOf(uint8(i))).ID)
		}
	}
	for _, t := range s.targets.cards() {
		tseen[t]++
	}
	for p := 0; p < s.fx.players; p++ {
		for t := range s.fx.rs.Targets {
			if s.players[p].won&(1<<uint(t)) != 0 {
				tseen[t]++
			}
		}
	}
	lost := 0
	for t := range s.fx.rs.Targets {
		if tseen[t] > 1 {
			return fmt.Errorf("game: target %s in %d places", s.fx.rs.Targets[t].ID, tseen[t])
		}
		if tseen[t] == 0 {
			lost++
		}
	}
	// Targets taken by Negotiations leave their row (target -1) and are
	// counted in won; the only targets in no place are the unclaimed ones.
	if lost != int(s.unclaimed) {
		return fmt.Errorf("game: %d targets missing, %d unclaimed", lost, s.unclaimed)
	}
	if s.nframes > maxFrames {
		return fmt.Errorf("game: decision stack overflow")
	}
	return nil
}
