package engine

import (
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Reading the table, and hidden information.
//
// A viewer sees every face-up card, every discard pile, every target, the
// backs of face-down cards (so their owner), its own hand, its own
// face-down cards (a player remembers what it placed), and any hand shown to
// it by a Spy until that hand changes. Everything else is hidden; Determinize
// reshuffles exactly that.

// Omniscient is the viewer that sees everything (traces, tests, metrics).
const Omniscient = -1

// SlotInfo describes a card on the table as a viewer sees it.
type SlotInfo struct {
	Card     int // card definition, -1 when hidden from the viewer
	Owner    int
	FaceUp   bool
	Shielded bool
	// Active reports whether the card's effect is active now; Blocked says
	// why not (only for face-up cards with an effect).
	Active     bool
	Blocked    Reason
	Weakened   int
	PowerCover bool // a Deactivated marker covers its power
}

// NumRows returns the number of rows this round.
func (s *State) NumRows() int { return int(s.nrows) }

// RowTarget returns the target index heading row r, or -1 once taken.
func (s *State) RowTarget(r int) int { return int(s.rows[r].target) }

// RowLen returns the number of cards in row r.
func (s *State) RowLen(r int) int { return int(s.rows[r].n) }

// HeldTargets returns the targets seat p holds (bit t: target index t; they
// lie face up), so a caller can tell when ProvisionalScore(p) may have
// changed without recomputing it.
func (s *State) HeldTargets(p int) uint64 { return s.players[p].won }

// Slot describes the card at position k of row r as viewer sees it.
func (s *State) Slot(viewer, r, k int) SlotInfo {
	sl := &s.rows[r].s[k]
	owner := s.ownerOf(sl.inst)
	up := sl.flags&fFaceUp != 0
	info := SlotInfo{Card: -1, Owner: owner, FaceUp: up, Shielded: sl.shield != noInst && s.phase == Deployment,
		Weakened: int(sl.weaken), PowerCover: sl.flags&fDeactPower != 0}
	if up || viewer == Omniscient || viewer == owner {
		info.Card = s.defOf(sl.inst)
	}
	if up {
		info.Active = s.effectActive(r, k)
		if !info.Active && s.fx.defSpec[s.defOf(sl.inst)] != nil {
			info.Blocked = s.blockReason(r, k)
		}
	}
	return info
}

// SlotCard is what Slot reports of the card's identity, Card and Owner,
// without working out its effect's state.
func (s *State) SlotCard(viewer, r, k int) (card, owner int) {
	sl := &s.rows[r].s[k]
	owner, card = s.ownerOf(sl.inst), -1
	if sl.flags&fFaceUp != 0 || viewer == Omniscient || viewer == owner {
		card = s.defOf(sl.inst)
	}
	return card, owner
}

// HandLen returns the number of cards in p's hand (public).
func (s *State) HandLen(p int) int { return int(s.players[p].hand.n) }

// HandCard returns the definition of p's k-th hand card as viewer sees it,
// -1 when hidden.
func (s *State) HandCard(viewer, p, k int) int {
	i := s.players[p].hand.c[k]
	if viewer == Omniscient || viewer == p || s.players[viewer].spied[p]&(1<<uint(int(i)-s.fx.base[p])) != 0 {
		return s.defOf(i)
	}
	return -1
}

// DrawLen and DiscardLen return pile sizes (public).
func (s *State) DrawLen(p int) int    { return int(s.players[p].draw.n) }
func (s *State) DiscardLen(p int) int { return int(s.players[p].discard.n) }

// DiscardCard returns the definition of the k-th card of p's discard pile
// (the pile is face up).
func (s *State) DiscardCard(p, k int) int { return s.defOf(s.players[p].discard.c[k]) }

// TargetsLeft returns the number of targets in the target pile.
func (s *State) TargetsLeft() int { return int(s.targets.n) }

// Determinize makes s a state that viewer cannot tell apart from the real
// one: every card it cannot see is dealt again at random from the cards it
// could be, using rng (never the game's own chance stream, which is reseeded
// from rng because the future shuffles are unknown too).
func (s *State) Determinize(viewer int, rng *RNG) {
	fx := s.fx
	decided := s.bidDecided()
	for q := 0; q < fx.players; q++ {
		if q == viewer {
			continue
		}
		pl := &s.players[q]
		base := uint8(fx.base[q])
		// q's hidden cards as a set of its deck positions (bit i: instance
		// base+i): hand (bar spied ones), draw pile, face-down cards on the
		// table and a sealed bid. Reading the set in order makes the result
		// depend on which cards are hidden, never on where they really are:
		// two states the viewer cannot tell apart determinize alike. (A
		// seat's deck holds at most 64 cards; "& 63" spares the check Go
		// makes for longer shifts.)
		var hand uint64
		for _, i := range pl.hand.cards() {
			hand |= 1 << ((i - base) & 63)
		}
		known := s.players[viewer].spied[q]
		hidden := hand &^ known
		for _, i := range pl.draw.cards() {
			hidden |= 1 << ((i - base) & 63)
		}
		need := 0
		for r := range s.rows[:s.nrows] {
			row := &s.rows[r]
			for k := range row.s[:row.n] {
				if sl := &row.s[k]; sl.flags&fFaceUp == 0 && s.ownerOf(sl.inst) == q {
					hidden |= 1 << ((sl.inst - base) & 63)
					need++
				}
			}
		}
		var pool [64]uint8
		n := bits.OnesCount64(hidden)
		readSet(pool[:n], hidden, base)
		rng.Shuffle(pool[:n])
		// A face-down card on the table is never a shield or a scout (no
		// route plays those face down), so the table's share is the first
		// cards of the shuffle that may lie face down — uniform among
		// them — and the rest go, in shuffled order, to the other places.
		var down [maxDeck]uint8
		nd, no := 0, 0
		if need > 0 {
			k := 0
			for ; k < n && nd < need; k++ {
				if i := pool[k]; s.mayLieFaceDown(i) {
					down[nd] = i
					nd++
				} else {
					pool[no] = i
					no++
				}
			}
			no += copy(pool[no:n], pool[k:n])
			for nd < need { // only a hand-made setup can get here
				no--
				down[nd] = pool[no]
				nd++
			}
		}
		// Deal back into the same places in the same order.
		n, nd = 0, 0
		for k, i := range pl.hand.cards() {
			if known&(1<<((i-base)&63)) == 0 {
				pl.hand.c[k] = pool[n]
				n++
			}
		}
		n += copy(pl.draw.cards(), pool[n:])
		for r := range s.rows[:s.nrows] {
			row := &s.rows[r]
			for k := range row.s[:row.n] {
				if sl := &row.s[k]; sl.flags&fFaceUp == 0 && s.ownerOf(sl.inst) == q {
					sl.inst = down[nd]
					nd++
				}
			}
		}
		// A sealed Negotiations decision already made (the bid card is
		// still in the hand) is unknown to the viewer — whether q takes
		// part as much as with which card — so it is drawn again, as the
		// random bot would make it: no bid or one of the hand's cards,
		// uniformly. It depends on the hand's size alone.
		if decided&(1<<uint(q)) != 0 {
			pl.bid = noInst
			if k := rng.Intn(int(pl.hand.n) + 1); k < int(pl.hand.n) {
				pl.bid = pl.hand.c[k]
			}
		}
	}
	if viewer >= 0 {
		sortFrom(s.players[viewer].draw.cards(), uint8(fx.base[viewer]))
		rng.Shuffle(s.players[viewer].draw.cards())
	}
	sortFrom(s.targets.cards(), 0)
	rng.Shuffle(s.targets.cards())
	s.rng = NewRNG(rng.Uint64())
	s.epoch = newEpoch() // face-down cards changed: no row view stays true
}

// mayLieFaceDown reports whether card instance i could be a face-down card
// of a row: shields never lie in a row and scouts are always face up.
func (s *State) mayLieFaceDown(i uint8) bool {
	d := s.def8(i)
	return s.placeableAlone(int(d)) && s.fx.defPlace[d] != handlers.PlaceScout
}

// sortFrom sorts b, whose values are distinct and lie in [lo, lo+64) (one
// seat's card instances, or target indices), by marking them in a 64-bit
// set and reading it back in order: linear, where the insertion sort it
// replaced moved ~n²/4 bytes and took the better part of Determinize.
func sortFrom(b []uint8, lo uint8) {
	var set uint64
	for _, v := range b {
		set |= 1 << ((v - lo) & 63)
	}
	readSet(b, set, lo)
}

// readSet fills b with lo+i for the len(b) lowest bits i of set, in order.
func readSet(b []uint8, set uint64, lo uint8) {
	for k := range b {
		b[k] = lo + uint8(bits.TrailingZeros64(set))
		set &= set - 1
	}
}

// RowView is a cheap summary of a row as one viewer sees it, for agents that
// evaluate many positions: base powers of the cards the viewer can identify
// and counts of those it cannot.
//
// Its fields are 32-bit, the booleans last, so that the struct, which agents
// fill for every row at every decision, stays small (64 bytes).
type RowView struct {
	Len    int32
	Target int32 // target index, -1 if taken
	Known  [maxPlayers]int32
	Hidden [maxPlayers]int32
	// Top is the position of each player's topmost card, -1 if none.
	Top [maxPlayers]int32
	// Bottom is the card definition of the bottom card if the viewer can
	// identify it, -1 otherwise; BottomDown reports it face down (the next
	// placement reveals it).
	Bottom     int32
	Open       bool // a card may be placed here now
	BottomDown bool
}

// ViewRow fills rv for row r as viewer sees it. It reads only what viewer
// may know.
func (s *State) ViewRow(viewer, r int, rv *RowView) {
	var t rowTotals
	s.countRow(r, &t)
	s.viewRow(viewer, r, s.openRows(), &t, rv)
}

// ViewRows fills rv[r] for every row r < NumRows() as ViewRow does, in one
// call (agents read every row at every decision).
func (s *State) ViewRows(viewer int, rv *[rules.MaxRows]RowView) {
	open := s.openRows()
	var t rowTotals
	for r := range rv[:s.nrows] {
		s.countRow(r, &t)
		s.viewRow(viewer, r, open, &t, &rv[r])
	}
}

// LineOfPlay identifies the state's line of play: New, Reset, Rebind,
// CopyInto and Determinize start a new one (unique across states), so an
// agent may keep what depends only on the seats and their factions while
// it is unchanged.
func (s *State) LineOfPlay() uint64 { return s.epoch }

// ViewStamp records what a RowView array shows — which state's line of
// play, which viewer, which version of each row — so ViewRowsSince can
// skip the rows that have not changed. The zero value shows nothing.
type ViewStamp struct {
	epoch  uint64
	viewer int
	valid  uint8 // bit r: rv[r] shows version ver[r] of row r
	ver    [rules.MaxRows]uint32
}

// viewTotals is ViewRowsSince's count of each row for every viewer at once
// (State.views): a row changed by one seat is read by every other seat's
// agent, and counted once between them.
type viewTotals struct {
	epoch uint64 // the line of play counted (a copy or a redeal starts over)
	valid uint8  // bit r: row[r] counts version ver[r] of row r
	ver   [rules.MaxRows]uint32
	row   [rules.MaxRows]rowTotals
}

// rowTotals is a row as no particular viewer sees it: per owner, the power
// of its face-up and of its face-down cards, how many lie face down, and its
// topmost card's position (-1 if none); and the bottom card. Counts and
// positions are below MaxRowLen, so a byte holds them.
type rowTotals struct {
	up, down    [maxPlayers]int32
	ndown, top  [maxPlayers]int8
	bottom      int16 // the bottom card's definition, -1 for an empty row
	bottomOwner int8
	bottomDown  bool
}

var _ [127 - MaxRowLen]struct{} // ndown and top fit an int8

// ViewRowsSince is ViewRows for an array filled by earlier calls with the
// same stamp: only the rows changed since are read again (an agent deciding
// again after one or two placements rereads one or two rows, not all), and
// those counted once for every viewer.
// It returns the rows it read again (bit r for row r), so that a caller can
// keep what it derives from a row's view as long as the row is unchanged.
// It keeps those counts in s, so, unlike the other views, it must not be
// called on one state from two goroutines at once.
func (s *State) ViewRowsSince(viewer int, rv *[rules.MaxRows]RowView, st *ViewStamp) (changed uint32) {
	if st.epoch != s.epoch || st.viewer != viewer {
		st.epoch, st.viewer, st.valid = s.epoch, viewer, 0
	}
	tot := &s.views
	if tot.epoch != s.epoch {
		tot.epoch, tot.valid = s.epoch, 0
	}
	// The changed rows as bits first, without a branch per row: which rows
	// changed is unpredictable.
	for r := range s.rows[:s.nrows] {
		changed |= uint32(oneIf(st.ver[r] != s.rows[r].ver)) << uint(r)
	}
	changed |= ^uint32(st.valid) & (1<<s.nrows - 1)
	open := s.openRows()
	for m := changed; m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m) & (rules.MaxRows - 1)
		v := s.rows[r].ver
		if tot.valid&(1<<uint(r)) == 0 || tot.ver[r] != v {
			s.countRow(r, &tot.row[r])
			tot.ver[r] = v
			tot.valid |= 1 << uint(r)
		}
		s.viewRow(viewer, r, open, &tot.row[r], &rv[r])
		st.ver[r] = v
	}
	st.valid |= uint8(changed)
	return changed
}

// countRow fills t for row r, field by field: a composite literal is built
// on the stack and copied, which cost more than scanning the row.
func (s *State) countRow(r int, t *rowTotals) {
	row := &s.rows[r]
	own, def, pow := &s.fx.instOwn, &s.fx.instDef, &s.fx.defPower
	t.up, t.down = [maxPlayers]int32{}, [maxPlayers]int32{}
	t.ndown, t.top = [maxPlayers]int8{}, [maxPlayers]int8{-1, -1, -1, -1}
	t.bottom, t.bottomOwner, t.bottomDown = -1, -1, false
	sl := row.s[:row.n]
	// Bottom up, so that the last store to top[o] is o's topmost card, and
	// branch-free: which cards lie face down is unpredictable.
	for k := len(sl) - 1; k >= 0; k-- {
		i, f := sl[k].inst, int32(sl[k].flags)
		o := own[i] & (maxPlayers - 1) // an owner is a seat: no bounds check
		t.top[o] = int8(k)
		up := -(f & faceUpBit) // all ones when face up
		p := int32(pow[def[i]]) - int32(sl[k].weaken)
		p &^= p >> 31                 // at least 0
		p &= f>>deactPowerShift&1 - 1 // 0 under a Deactivated marker
		t.up[o] += p & up
		t.down[o] += p &^ up
		t.ndown[o] += int8(1 + up)
	}
	if len(sl) > 0 {
		b := &sl[len(sl)-1]
		t.bottom, t.bottomOwner, t.bottomDown = int16(def[b.inst]), int8(own[b.inst]), b.flags&fFaceUp == 0
	}
}

// viewRow fills rv for row r from its totals t as viewer sees it: a viewer
// knows its own face-down cards (the omniscient viewer only the face-up
// ones, as every other viewer).
func (s *State) viewRow(viewer, r int, open uint32, t *rowTotals, rv *RowView) {
	row := &s.rows[r]
	rv.Len, rv.Target = int32(row.n), int32(row.target)
	rv.Known = t.up
	rv.Hidden = [maxPlayers]int32{int32(t.ndown[0]), int32(t.ndown[1]), int32(t.ndown[2]), int32(t.ndown[3])}
	rv.Top = [maxPlayers]int32{int32(t.top[0]), int32(t.top[1]), int32(t.top[2]), int32(t.top[3])}
	if uint(viewer) < maxPlayers {
		rv.Known[viewer] += t.down[viewer]
		rv.Hidden[viewer] = 0
	}
	// Branch-free: -1 unless face up or the viewer's.
	seen := oneIf(!t.bottomDown) | oneIf(int(t.bottomOwner) == viewer)
	rv.Bottom = (int32(t.bottom)+1)*seen - 1
	rv.Open, rv.BottomDown = open&(1<<uint(r)) != 0, t.bottomDown
}

// The slot flags as bits of an int32, for countRow's arithmetic (checked
// against the flags below at compile time).
const (
	faceUpBit       = int32(fFaceUp) // 1, so that its negation is a mask
	deactPowerShift = 2              // fDeactPower's bit
)

var _ [int(fDeactPower) - 1<<deactPowerShift]struct{}
var _ [1<<deactPowerShift - int(fDeactPower)]struct{}
var _ [int(fFaceUp) - 1]struct{}
var _ [1 - int(fFaceUp)]struct{}

// oneIf is 1 if b, else 0 (compiled without a branch).
func oneIf(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// DeploymentTurn reports whether the decision up is a Deployment turn (a
// card to place, or Pass) rather than an effect's, a discard or a bid.
func (s *State) DeploymentTurn() bool {
	return s.phase != GameOver && s.phase != Scoring && s.nframes == 0
}

// PendingCard returns the card definition a pending effect decision is
// about (the card a Flagship drew), or -1.
func (s *State) PendingCard() int {
	if s.nframes == 0 {
		return -1
	}
	f := &s.frames[s.nframes-1]
	if f.Def >= 0 {
		if pc, ok := s.fx.defCh[uint8(f.Def)].(handlers.PendingCarder); ok {
			return pc.PendingCard(f)
		}
	}
	return -1
}

// PendingRow returns the row of the card whose effect is being decided, or
// -1 (in a Deployment turn).
func (s *State) PendingRow() int {
	if s.nframes == 0 {
		return -1
	}
	f := &s.frames[s.nframes-1]
	if f.Def >= 0 {
		return f.Src.Row
	}
	if f.Step == fkBid {
		return f.Data[0]
	}
	return -1
}

// PendingHandler returns the handler name of the effect being decided ("" in
// a Deployment turn or an engine step such as discarding).
func (s *State) PendingHandler() string {
	if s.nframes == 0 {
		return ""
	}
	f := &s.frames[s.nframes-1]
	if f.Def >= 0 && s.fx.defSpec[uint8(f.Def)] != nil {
		return s.fx.defSpec[uint8(f.Def)].Name
	}
	if f.Step == fkBid {
		return "negotiations"
	}
	return ""
}

// OpenRows returns the rows a card may be placed in now (bit r: row r).
func (s *State) OpenRows() uint32 { return s.openRows() }

// CompleteRows returns the rows that count as complete for the end of the
// Deployment Phase (bit r: row r), which ends when every row is.
func (s *State) CompleteRows() uint32 { return s.completeRows() }

// RowVersion returns row r's version, which changes whenever a card enters
// or leaves the row or changes in it (what the row views show); between a
// state and its copies, an unchanged version means an unchanged row.
func (s *State) RowVersion(r int) uint32 { return s.rows[r].ver }
