package engine

import (
	"math/bits"

	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// table is the State as effect handlers see it (handlers.Table). Converting
// *State to *table is free, so calling a handler allocates nothing.
type table State

var _ handlers.Table = (*table)(nil)

func (t *table) st() *State { return (*State)(t) }

func (t *table) Players() int         { return t.fx.players }
func (t *table) Rows() int            { return int(t.nrows) }
func (t *table) RowLen(r int) int     { return int(t.rows[r].n) }
func (t *table) HasTarget(r int) bool { return t.rows[r].target >= 0 }

func (t *table) TargetType(r int) int {
	if t.rows[r].target < 0 {
		return -1
	}
	return t.fx.tgt[t.rows[r].target].typ
}

func (t *table) TargetQuadrant(r int) int {
	if t.rows[r].target < 0 {
		return 0
	}
	return t.fx.tgt[t.rows[r].target].quad
}

func quadrantIndex(q string) int {
	for i, s := range handlers.Quadrants {
		if s == q {
			return i + 1
		}
	}
	return 0
}

func (t *table) slot(s handlers.Slot) *slot { return &t.rows[s.Row].s[s.Pos] }

func (t *table) Owner(s handlers.Slot) int   { return t.st().ownerOf(t.slot(s).inst) }
func (t *table) Def(s handlers.Slot) int     { return t.st().defOf(t.slot(s).inst) }
func (t *table) FaceUp(s handlers.Slot) bool { return t.slot(s).flags&fFaceUp != 0 }

func (t *table) Match(r int, q handlers.SlotQuery) uint64 {
	var f slotFilter
	f.set(t, q)
	return f.match(&t.rows[r])
}

// slotFilter is a SlotQuery compiled for one state's phase and shields, so
// that a query over every row sets it up once.
type slotFilter struct {
	fx *fixed
	// anyCard: the query selects every card but, with shields, protected
	// ones (a strike).
	anyCard, prot bool
	// Each test yields a nonzero byte for a card it rejects, masked off when
	// the query does not ask it: no branch per card and test (which cards a
	// query picks is anybody's guess).
	// key and keyMask test owner and type at once (fixed.instKey).
	key, keyMask, upMask, shieldMask uint
}

// set compiles q for t into f, in place (a slotFilter is too large to
// return in registers) and with masks rather than branches.
func (f *slotFilter) set(t *table, q handlers.SlotQuery) {
	f.fx = t.fx
	own, typ := uint(q.Owner), uint(q.Type)
	f.key = own&0xff<<8 | typ&0xff
	// Only shields, which are rare, can protect a card.
	f.prot = q.Unprotected && t.phase == Deployment && t.shields != 0
	f.anyCard = q.Owner < 0 && q.Type < 0 && !q.FaceUp
	// 0xff for a test the query asks (a wildcard is negative), 0 otherwise.
	f.keyMask = (^own>>63)*0xff00 | (^typ>>63)*0xff
	f.upMask = uint(oneIf(q.FaceUp)) * uint(fFaceUp)
	f.shieldMask = uint(oneIf(f.prot)) * 0xff
}

// match returns the positions of row's cards that f selects.
func (f *slotFilter) match(row *row) uint64 {
	if f.anyCard {
		m := uint64(1)<<uint(row.n&63) - 1
		for k := 0; f.prot && k < int(row.n); k++ {
			if row.s[k].shield != noInst {
				m &^= 1 << uint(k)
			}
		}
		return m
	}
	fx := f.fx
	var m uint64
	for k := range row.s[:row.n] {
		sl := &row.s[k]
		reject := (uint(fx.instKey[sl.inst])^f.key)&f.keyMask |
			uint(^sl.flags)&f.upMask | uint(^sl.shield)&f.shieldMask // shield noInst: none
		m |= uint64((reject-1)>>63) << uint(k&63)
	}
	return m
}

func (t *table) Info(s handlers.Slot) handlers.CardInfo {
	sl := t.slot(s)
	d := t.fx.instDef[sl.inst]
	return handlers.CardInfo{
		Owner: int(t.fx.instOwn[sl.inst]), Def: int(d), Type: int(t.fx.defType[d]),
		FaceUp: sl.flags&fFaceUp != 0, Protected: t.phase == Deployment && sl.shield != noInst,
	}
}

func (t *table) DefType(d int) int                  { return int(t.fx.defType[uint8(d)]) }
func (t *table) DefPower(d int) int                 { return int(t.fx.defPower[uint8(d)]) }
func (t *table) DefHasTag(d int, tag string) bool   { return t.fx.rs.Cards[d].HasTag(tag) }
func (t *table) DefHandler(d int) *effects.Spec     { return t.fx.defSpec[d] }
func (t *table) OpenRows() uint64                   { return uint64(t.st().openRows()) }
func (t *table) Remove(s handlers.Slot) bool        { return t.st().remove(s.Row, s.Pos) }
func (t *table) Move(s handlers.Slot, row int) bool { return t.st().move(s.Row, s.Pos, row) }
func (t *table) Fizzle()                            { t.fizzled = true }
func (t *table) Push(f handlers.Frame)              { t.st().push(f) }
func (t *table) Offer(c handlers.Choice)            { t.offer = append(t.offer, choiceAction(c)) }
func (t *table) BlockAbove(s handlers.Slot)         { t.st().scoutBlock(s.Row, s.Pos) }
func (t *table) Negotiate(p, row int)               { t.st().negotiate(p, row) }

func (t *table) OfferMatches(q handlers.SlotQuery, except handlers.Slot, offer bool) int {
	// The bits except leaves out of its row: one card, or all of them.
	drop := uint64(1) << uint(except.Pos&63)
	if except.Pos < 0 {
		drop = ^uint64(0)
	}
	var f slotFilter
	f.set(t, q)
	n := 0
	for r := range int(t.nrows) {
		m := f.match(&t.rows[r])
		if r == except.Row {
			m &^= drop
		}
		if !offer {
			if m != 0 {
				return bits.OnesCount64(m)
			}
			continue
		}
		for ; m != 0; m &= m - 1 {
			t.offer = append(t.offer, SlotAction(r, bits.TrailingZeros64(m)))
			n++
		}
	}
	return n
}

func (t *table) HandOfType(p, typ int, offer bool) int {
	fx := t.fx
	h := &t.players[p].hand
	var seen defSet
	n := 0
	for _, inst := range h.c[:h.n] {
		d := fx.instDef[inst]
		if int(fx.defType[d]) != typ || !seen.add(fx, inst) {
			continue
		}
		n++
		if offer {
			t.offer = append(t.offer, HandAction(int(d)))
		}
	}
	return n
}

func (t *table) Weaken(s handlers.Slot, amount int) bool {
	if t.st().protected(s.Row, s.Pos) {
		return false
	}
	sl := t.slot(s)
	w := int(sl.weaken) + amount
	if w > 255 {
		w = 255
	}
	sl.weaken = uint8(w)
	t.rows[s.Row].ver++
	return true
}

func (t *table) Deactivate(s handlers.Slot, what int) bool {
	if t.st().protected(s.Row, s.Pos) {
		return false
	}
	sl := t.slot(s)
	switch what {
	case handlers.DeactivateEffect:
		sl.flags |= fDeactEffect
	case handlers.DeactivatePower:
		sl.flags |= fDeactPower
	default:
		sl.flags |= fDeactEffect | fDeactPower
	}
	t.st().flagsChanged(s.Row)
	// Deactivating a blocker ship can wake a Blockade beneath it.
	t.st().checkEnd()
	return true
}

func (t *table) Draw(p, n int) int {
	last := -1
	for k := 0; k < n; k++ {
		i, ok := t.st().draw1(p)
		if !ok {
			break
		}
		last = t.st().defOf(i)
	}
	return last
}

func (t *table) RefillAll() {
	for p := 0; p < t.fx.players; p++ {
		t.st().refill(p)
	}
}

func (t *table) PlaceFromHand(p, def, row int, faceUpNoEffect bool) bool {
	s := t.st()
	if !s.canPlace(row) || !s.placeableAlone(def) {
		return false
	}
	i, ok := s.takeFromHand(p, def)
	if !ok {
		return false
	}
	s.refill(p)
	mode := placeDown
	if faceUpNoEffect {
		mode = placeUpNoEff
	}
	s.put(i, row, int(s.rows[row].n), noInst, mode)
	return true
}

func (t *table) ShowHands(p int) {
	s := t.st()
	for q := 0; q < s.fx.players; q++ {
		if q == p {
			continue
		}
		var bits uint64
		h := &s.players[q].hand
		for k := range h.c[:h.n] {
			bits |= 1 << uint(int(h.c[k])-s.fx.base[q])
		}
		s.players[p].spied[q] = bits
	}
	if s.obs != nil {
		s.emit(ev(EvSpied, p))
	}
}

// negotiate starts the sealed bid for row's target. The engine asks the
// bidders one seat after another starting with p, but every decision —
// whether to take part, and with which card — is sealed until all have
// decided (the rulebook: "All cards are played face down and revealed
// simultaneously"): a bid card stays in its owner's hand, counted there,
// until the reveal, and no view or event tells the others who took part.
func (s *State) negotiate(p, row int) {
	f := handlers.Frame{Player: p, Def: -1, Step: fkBid}
	f.Data[0] = row
	f.Data[1] = (1 << uint(s.fx.players)) - 1 // who takes part
	f.Data[2] = p                             // bidding order starts here
	s.push(f)
}

// bidDecided is the set of seats that have made their sealed decision in
// the bid under way (0 when no bid is): those of the bidding set before
// the current bidder in the bidding order.
func (s *State) bidDecided() uint {
	if s.nframes == 0 {
		return 0
	}
	f := &s.frames[s.nframes-1]
	if f.Def >= 0 || f.Step != fkBid {
		return 0
	}
	n, start := s.fx.players, f.Data[2]
	var seats uint
	for k := 0; k < (f.Player-start+n)%n; k++ {
		if r := (start + k) % n; f.Data[1]&(1<<uint(r)) != 0 {
			seats |= 1 << uint(r)
		}
	}
	return seats
}

// bid records the current bidder's sealed decision and moves on; after the
// last bidder it reveals the bids: the highest base power takes the target,
// tied players alone bid again.
func (s *State) bid(f *handlers.Frame, a Action) bool {
	n, q, start := s.fx.players, f.Player, f.Data[2]
	e := ev(EvBid, q)
	s.players[q].bid = noInst
	if a.Kind() == ActHand {
		// The card stays in the hand (its count is public) until the
		// reveal: taking it out now would tell the others that q bid.
		h := &s.players[q].hand
		for _, i := range h.cards() {
			if int(s.fx.instDef[i]) == a.Card() {
				s.players[q].bid = i
				e.Card = int16(a.Card())
				break
			}
		}
	}
	s.emit(e)
	order := func(r int) int { return (r - start + n) % n }
	for k := order(q) + 1; k < n; k++ {
		r := (start + k) % n
		if f.Data[1]&(1<<uint(r)) != 0 {
			f.Player = r
			return false
		}
	}
	// All have decided: the bids leave their hands and are shown at once.
	for r := 0; r < n; r++ {
		if i := s.players[r].bid; i != noInst {
			h := &s.players[r].hand
			for k, c := range h.cards() {
				if c == i {
					h.removeAt(k)
					s.handChanged(r)
					break
				}
			}
		}
	}
	best, winners := -1, 0
	for r := 0; r < n; r++ {
		i := s.players[r].bid
		if i == noInst {
			continue
		}
		// Only the printed base power counts (rulebook).
		switch pw := s.card(s.defOf(i)).Power; {
		case pw > best:
			best, winners = pw, 1<<uint(r)
		case pw == best:
			winners |= 1 << uint(r)
		}
	}
	for r := 0; r < n; r++ {
		if s.obs != nil && f.Data[1]&(1<<uint(r)) != 0 {
			e := ev(EvBidRevealed, r)
			if i := s.players[r].bid; i != noInst {
				e.Card = int16(s.defOf(i))
			}
			s.emit(e)
		}
		if i := s.players[r].bid; i != noInst {
			s.players[r].discard.push(i)
			s.players[r].bid = noInst
			s.refill(r)
		}
	}
	row := f.Data[0]
	switch {
	case winners == 0:
		return true
	case winners&(winners-1) == 0:
		w := 0
		for winners>>uint(w) != 1 {
			w++
		}
		t := s.rows[row].target
		s.players[w].won |= 1 << uint(t)
		s.rows[row].target = -1
		s.rows[row].ver++
		if tl := s.tally; tl != nil {
			tl.Negotiated[uint8(t)&63]++
			s.tallyCapture(tl, int(t), w)
			tl.rowTaken(row, w)
		}
		e := ev(EvNegotiated, w)
		e.Row, e.Target, e.Value = int8(row), int16(t), int32(best)
		s.emit(e)
		return true
	case f.Data[3] >= maxRebids:
		return true // endless ties: nobody takes the target this way
	}
	f.Data[1], f.Data[3] = winners, f.Data[3]+1
	for k := 0; k < n; k++ {
		if r := (start + k) % n; winners&(1<<uint(r)) != 0 {
			f.Player = r
			break
		}
	}
	return false
}
