package engine

import (
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// Choices is the deciding player's legal actions exactly as LegalActions
// lists them — the same count, the same order — without building the list
// where that can be avoided. The commonest decisions are described by the
// hand's distinct cards: a Deployment turn (for each card its special
// actions if it is a special (X) card — a shield's, a Gravitational Wave's,
// a place-anywhere card's insertions — then a placement in each open row;
// then Pass), a discard after passing (each card, then Done) and a sealed
// bid (each card, then Done); At decodes the k-th action from that. Every
// other decision (an effect's options, a shield's card, a wave's insertion)
// is listed into the caller's buffer. An agent that scores a Deployment
// turn card by card (greedy) fills a Choices instead of calling
// LegalActions; the random bot does not even need that (RandomAction).
//
// A Choices is filled in place (FillChoices) and kept by its agent: it is
// too large to build per decision for what it saves.
type Choices struct {
	s    *State
	n    int
	kind uint8
	turn deployTurn // the hand's cards (every kind but chList) and a turn's counts
	list []Action   // the listed actions when kind == chList
}

const (
	chNone    = iota // no decision (game over)
	chList           // list holds the actions
	chDeploy         // a Deployment turn: each card's actions, then Pass
	chDiscard        // after passing: a Discard per distinct card, then Done
	chBid            // a sealed bid: a Hand action per distinct card, then Done
)

// handCards is a hand's distinct cards in first-copy order, the order
// LegalActions lists them in.
type handCards struct {
	nd   int
	defs [64]uint8 // a power of two above maxDeck: indexed by nd&63 without a bounds check
}

// scan collects hand h's distinct cards and returns their defBit set. A
// drawn hand is in random order, so whether a card is a copy of an earlier
// one is a coin flip for the branch predictor: every card is written at
// the end, and the end moves on only past a new one (a conditional move).
func (hc *handCards) scan(fx *fixed, h *pile) uint64 {
	defBit, instDef := &fx.defBit, &fx.instDef
	var seen uint64
	nd := 0
	for _, inst := range h.c[:h.n] {
		b := defBit[inst]
		fresh := 0
		if seen&b == 0 {
			fresh = 1
		}
		seen |= b
		hc.defs[nd&63] = instDef[inst]
		nd += fresh
	}
	hc.nd = nd
	return seen
}

// deployTurn counts a Deployment turn's actions as LegalActions lists
// them: for each distinct hand card its special actions, then a placement
// in each open row (lowest first; none for a shield), then Pass. How many
// of each a card has depends on its placement alone.
type deployTurn struct {
	handCards
	n       int // actions, Pass included
	open    uint32
	nopen   int
	special bool // a special (X) card with actions of its own is in hand
	// By placement (handlers.Placement), when special.
	nspec, nplace [8]uint16
	// floor[r] is open row r's insertion floor (State.insertFloor), when a
	// place-anywhere card is in hand.
	floor [maxRows]uint8
}

// start looks at the deciding player's Deployment turn: its open rows,
// its hand's distinct cards and whether a special card is among them. It
// returns the hand's defBit set.
func (t *deployTurn) start(s *State) uint64 {
	fx := s.fx
	p := int(s.turn)
	t.open = s.openRows() & (1<<maxRows - 1)
	t.nopen = int(rowCounts[t.open])
	seen := t.scan(fx, &s.players[p].hand)
	pb := &fx.placeBits[p]
	t.special = seen&^(pb[handlers.PlaceNormal]|pb[handlers.PlaceScout]) != 0
	return seen
}

// describe counts the deciding player's Deployment turn.
func (t *deployTurn) describe(s *State) {
	if seen := t.start(s); t.special {
		t.countSpecial(s, seen)
		return
	}
	t.n = t.nd*t.nopen + 1
}

// countSpecial counts a turn whose hand (defBit set seen) holds a special
// card, as LegalActions's specialActions lists them.
func (t *deployTurn) countSpecial(s *State, seen uint64) {
	pb := &s.fx.placeBits[s.turn]
	nopen := t.nopen
	t.nspec = [8]uint16{}
	// A shield is never a card of its own (placeableAlone).
	b := uint16(nopen)
	t.nplace = [8]uint16{handlers.PlaceNormal: b, handlers.PlaceScout: b, handlers.PlaceAnywhere: b, handlers.PlaceInsertOther: b}
	shields := bits.OnesCount64(seen & pb[handlers.PlaceShieldOther])
	n := 1 + (t.nd-shields)*nopen
	// A shield needs an open row and a card it may protect.
	if shields != 0 && nopen != 0 && s.hasShieldable(int(s.turn), seen) {
		t.nspec[handlers.PlaceShieldOther] = 1
		n += shields
	}
	if waves := seen & pb[handlers.PlaceInsertOther]; waves != 0 && s.canInsertBeside(int(s.turn), seen) {
		t.nspec[handlers.PlaceInsertOther] = 1
		n += bits.OnesCount64(waves)
	}
	if anywhere := seen & pb[handlers.PlaceAnywhere]; anywhere != 0 {
		m := 0
		for o := t.open; o != 0; o &= o - 1 {
			r := bits.TrailingZeros32(o) & (maxRows - 1)
			f := s.insertFloor(r)
			t.floor[r] = uint8(f)
			m += int(s.rows[r].n) - f
		}
		t.nspec[handlers.PlaceAnywhere] = uint16(m)
		n += bits.OnesCount64(anywhere) * m
	}
	t.n = n
}

// divBy[m] is 2^16/m rounded up: k*divBy[m]>>16 is k/m for every k the
// turn of a plain hand can ask for (k < 64*maxRows), without a division's
// latency.
var divBy = func() (t [16]uint32) {
	for m := 1; m <= maxRows; m++ {
		t[m] = 1<<16/uint32(m) + 1
	}
	return
}()

// at returns the turn's k-th action, 0 <= k < n-1 (the last is Pass).
func (t *deployTurn) at(s *State, k int) Action {
	if t.special {
		return t.specialAt(s, k)
	}
	return t.plainAt(k)
}

// plainAt is at for a hand without special cards: card k/nopen in its
// (k%nopen)-th open row.
func (t *deployTurn) plainAt(k int) Action {
	i := uint32(k) * divBy[t.nopen&15] >> 16
	r := uint32(k) - i*uint32(t.nopen)
	return PlaceAction(int(t.defs[i&63]), 0) | rowLists[t.open&(1<<maxRows-1)][r&(maxRows-1)]
}

// specialAt is at for a hand with a special card: each card's special
// actions, then its placements.
func (t *deployTurn) specialAt(s *State, k int) Action {
	fx := s.fx
	for _, d := range t.defs[:t.nd] {
		pl := fx.defPlace[d] & 7
		m := int(t.nspec[pl])
		if k >= m+int(t.nplace[pl]) {
			k -= m + int(t.nplace[pl])
			continue
		}
		if k >= m {
			return PlaceAction(int(d), 0) | rowLists[t.open&(1<<maxRows-1)][(k-m)&(maxRows-1)]
		}
		switch handlers.Placement(pl) {
		case handlers.PlaceShieldOther:
			return ShieldAction(int(d))
		case handlers.PlaceInsertOther:
			return WaveAction(int(d))
		}
		return t.insertionAt(s, int(d), k)
	}
	return PassAction() // not reached: k < n-1
}

// insertionAt is the k-th insertion of place-anywhere card d: open rows in
// order, positions from the row's insertion floor down.
func (t *deployTurn) insertionAt(s *State, d, k int) Action {
	for o := t.open; o != 0; o &= o - 1 {
		r := bits.TrailingZeros32(o) & (maxRows - 1)
		floor := int(t.floor[r])
		if m := int(s.rows[r].n) - floor; k < m {
			return PlaceAtAction(d, r, floor+k)
		} else {
			k -= m
		}
	}
	return PassAction() // not reached: k < the card's insertions
}

// Len returns the number of legal actions.
func (c *Choices) Len() int { return c.n }

// Listed returns the legal actions if they were listed (nil when the
// decision is described), so a caller can keep a buffer that grew.
func (c *Choices) Listed() []Action { return c.list }

// FillChoices describes the deciding player's legal actions in c; buf is
// scratch for the decisions that are listed (it allocates only if buf is
// too small).
func (s *State) FillChoices(c *Choices, buf []Action) {
	c.s = s
	c.list = nil
	c.n = 0
	c.kind = chNone
	if s.phase == GameOver || s.phase == Scoring {
		return
	}
	if s.nframes > 0 {
		f := &s.frames[s.nframes-1]
		if drawsFromHand(f) {
			c.turn.scan(s.fx, &s.players[f.Player].hand)
			c.kind = chDiscard
			if f.Step == fkBid {
				c.kind = chBid
			}
			c.n = c.turn.nd + 1
			return
		}
		c.kind = chList
		c.list = s.frameOptions(buf[:0])
		c.n = len(c.list)
		return
	}
	c.kind = chDeploy
	c.turn.describe(s)
	c.n = c.turn.n
}

// Deploy reports whether the decision is a Deployment turn described card
// by card: its actions are, for each of the NumCards distinct hand cards in
// turn (DeployCard), the card's special actions, then its placements in
// the first nplace open rows (OpenRows, lowest first: every open row, or
// none for a shield), then Pass last.
func (c *Choices) Deploy() bool { return c.kind == chDeploy }

// NumCards is the number of distinct hand cards a discard, bid or
// Deployment turn is described by.
func (c *Choices) NumCards() int { return c.turn.nd }

// Cards returns the distinct hand cards a discard, bid or Deployment turn
// is described by, in turn (read only: FillChoices overwrites them).
func (c *Choices) Cards() []uint8 { return c.turn.defs[:c.turn.nd] }

// Insertions returns the positions a place-anywhere card of a Deployment
// turn may be inserted at in open row r: floor (State.InsertFloor) up to
// end (State.RowLen), excluded.
func (c *Choices) Insertions(r int) (floor, end int) {
	return int(c.turn.floor[r&(maxRows-1)]), int(c.s.rows[r].n)
}

// OpenRows returns the rows open to a placement in a Deployment turn.
func (c *Choices) OpenRows() uint32 { return c.turn.open }

// DeployCard returns the j-th distinct hand card of a Deployment turn, the
// kind and number of its special actions (ActShield or ActWave: one;
// ActPlaceAt: its insertions, open rows lowest first, positions from
// State.InsertFloor down) and the number of its placements.
func (c *Choices) DeployCard(j int) (def int, spec ActionKind, nspec, nplace int) {
	t := &c.turn
	d := t.defs[j&63]
	if !t.special {
		return int(d), ActPlace, 0, t.nopen
	}
	pl := c.s.fx.defPlace[d] & 7
	return int(d), specKind[pl], int(t.nspec[pl]), int(t.nplace[pl])
}

// specKind is the kind of a special card's own actions by its placement
// (a table: which kind of card comes next is unpredictable).
var specKind = func() (k [8]ActionKind) {
	for pl := range k {
		k[pl] = ActPlace
	}
	k[handlers.PlaceShieldOther], k[handlers.PlaceInsertOther], k[handlers.PlaceAnywhere] = ActShield, ActWave, ActPlaceAt
	return
}()

// At returns the k-th legal action, 0 <= k < Len(): LegalActions(nil)[k].
func (c *Choices) At(k int) Action {
	switch c.kind {
	case chDeploy:
		if k == c.n-1 {
			return PassAction()
		}
		return c.turn.at(c.s, k)
	case chList:
		return c.list[k]
	case chDiscard:
		if k == c.turn.nd {
			return DoneAction()
		}
		return DiscardAction(int(c.turn.defs[k&63]))
	case chBid:
		if k == c.turn.nd {
			return DoneAction()
		}
		return HandAction(int(c.turn.defs[k&63]))
	}
	return DoneAction()
}

// RandomAction draws, with rng, the random bot's action (ai.Random): in
// a Deployment turn Pass with probability 1/passOdds if another action is
// legal, else one of the others uniformly; after passing Done with
// probability 1/2, else one of the discards uniformly; any other decision
// uniformly among the legal actions. It makes the same draws as that rule
// applied to LegalActions's list and returns the same action, but lists
// only an effect's options (into *buf, which it grows if needed) and
// decodes only the action drawn. ok is false when no action is legal.
func (s *State) RandomAction(rng *RNG, passOdds int, buf *[]Action) (a Action, ok bool) {
	if s.phase == GameOver || s.phase == Scoring {
		return 0, false
	}
	if s.nframes == 0 {
		// Hands with and without special cards are counted and decoded
		// apart, so whether one is in hand is a single branch.
		var t deployTurn
		if seen := t.start(s); t.special {
			t.countSpecial(s, seen)
			if passes(rng, passOdds, t.n-1) {
				return PassAction(), true
			}
			return t.specialAt(s, rng.Intn(t.n-1)), true
		}
		if others := t.nd * t.nopen; !passes(rng, passOdds, others) {
			return t.plainAt(rng.Intn(others)), true
		}
		return PassAction(), true
	}
	f := &s.frames[s.nframes-1]
	if drawsFromHand(f) {
		h := &s.players[f.Player].hand
		if f.Step == fkDiscard && (h.n == 0 || rng.Intn(2) == 0) {
			return DoneAction(), true
		}
		var hc handCards
		hc.scan(s.fx, h)
		if f.Step == fkDiscard {
			return DiscardAction(int(hc.defs[rng.Intn(hc.nd)&63])), true
		}
		if k := rng.Intn(hc.nd + 1); k < hc.nd {
			return HandAction(int(hc.defs[k&63])), true
		}
		return DoneAction(), true
	}
	*buf = s.frameOptions((*buf)[:0])
	if len(*buf) == 0 {
		return 0, false
	}
	return (*buf)[rng.Intn(len(*buf))], true
}

// drawsFromHand reports whether f is the engine's frame (Def < 0) of a
// discard or a bid, the decisions described by the hand's cards. One
// branch for the caller rather than three: which kind of frame is up is
// anybody's guess.
func drawsFromHand(f *handlers.Frame) bool {
	const byHand = 1<<fkDiscard | 1<<fkBid
	return uint(f.Def)>>63<<uint(f.Step&7)&byHand != 0
}

// passes draws the random bot's choice to pass a Deployment turn with
// others actions besides Pass.
func passes(rng *RNG, passOdds, others int) bool {
	return others == 0 || rng.Intn(passOdds) == 0
}
