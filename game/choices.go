package game

import "github.com/cardlab/cardlab/effects"

// Choices is the deciding player's legal actions exactly as LegalActions
// lists them — the same count, the same order — without building the list
// where that can be avoided. The commonest decisions are described by the
// hand's distinct cards: a Deployment turn (for each card its special
// actions if it is a special (X) card — a shield's, a Gravitational Wave's,
// a place-anywhere card's insertions — then a placement in each open row;
// then Pass), a discard after passing (each card, then Done) and a sealed
// bid (each card, then Done); At decodes the k-th action from that. Every
// other decision (an effect's options, a shield's card, a wave's insertion)
// is listed into the caller's buffer. Agents that choose by index — the random
// bot, random rollouts — fill a Choices instead of calling LegalActions, so
// a random game builds almost no lists (issue 16).
//
// A Choices is filled in place (FillChoices) and kept by its agent: it is
// too large to build per decision for what it saves.
type Choices struct {
	s     *State
	n     int
	kind  uint8
	nd    uint8 // distinct hand cards in defs
	nopen uint8
	// special: a Deployment turn's hand holds a special (X) card; then
	// nspec and nplace count each card's special actions and placements.
	special bool
	open    uint32
	defs    [maxChoiceDefs]uint8
	nspec   [maxChoiceDefs]uint8
	nplace  [maxChoiceDefs]uint8
	list    []Action // the listed actions when kind == chList
}

// maxChoiceDefs bounds the distinct hand cards a Choices describes; a hand
// with more (hands hold four to six cards) is listed.
const maxChoiceDefs = 12

const (
	chNone    = iota // no decision (game over)
	chList           // list holds the actions
	chDeploy         // a Deployment turn: each card's actions, then Pass
	chDiscard        // after passing: a Discard per distinct card, then Done
	chBid            // a sealed bid: a Hand action per distinct card, then Done
)

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
		if f.Def < 0 && (f.Step == fkDiscard || f.Step == fkBid) && c.handDefs(s, f.Player, false) {
			c.kind = chDiscard
			if f.Step == fkBid {
				c.kind = chBid
			}
			c.n = int(c.nd) + 1
			return
		}
		c.kind = chList
		c.list = s.frameOptions(buf[:0])
		c.n = len(c.list)
		return
	}
	open := s.openRows() & (1<<maxRows - 1)
	c.open = open
	c.nopen = rowCounts[open]
	if c.handDefs(s, int(s.turn), true) {
		c.kind = chDeploy
		if !c.special {
			c.n = int(c.nd)*int(c.nopen) + 1
			return
		}
		n := 1
		for i := range c.defs[:c.nd] {
			n += int(c.nspec[i]) + int(c.nplace[i])
		}
		c.n = n
		return
	}
	c.kind = chList
	c.list = s.LegalActions(buf)
	c.n = len(c.list)
}

// handDefs lists the distinct cards of p's hand in hand order and reports
// false if there are too many. In a Deployment turn (deploy) it also counts
// each card's actions: the special actions of a special (X) card first (a
// shield's, a Gravitational Wave's, a place-anywhere card's insertions),
// then a placement per open row (none for a shield), as LegalActions lists
// them.
func (c *Choices) handDefs(s *State, p int, deploy bool) bool {
	fx := s.fx
	h := &s.players[p].hand
	var seen uint64
	nd := 0
	// One pass collects the distinct cards; only a hand with a special card
	// (fixed.specialBits) needs the counts per card, in a second pass.
	for _, inst := range h.c[:h.n] {
		b := fx.defBit[inst]
		if seen&b != 0 {
			continue
		}
		seen |= b
		if uint(nd) >= maxChoiceDefs {
			return false
		}
		c.defs[nd] = fx.instDef[inst]
		nd++
	}
	c.nd = uint8(nd)
	c.special = deploy && seen&fx.specialBits[p] != 0
	if !c.special {
		return true
	}
	for i, d := range c.defs[:nd] {
		c.nplace[i], c.nspec[i] = c.nopen, 0
		if pl := fx.defPlace[d]; pl != effects.PlaceNormal && pl != effects.PlaceScout {
			if !c.countSpecial(s, p, i, pl) {
				return false
			}
		}
	}
	return true
}

// countSpecial sets the action counts of special card i (placement pl) as
// specialActions lists them.
func (c *Choices) countSpecial(s *State, p, i int, pl effects.Placement) bool {
	switch pl {
	case effects.PlaceShieldOther:
		c.nplace[i] = 0 // never a card of its own (placeableAlone)
		if c.nopen != 0 && s.hasShieldable(p) {
			c.nspec[i] = 1
		}
	case effects.PlaceInsertOther:
		if s.canInsertBeside(p, int(c.defs[i])) {
			c.nspec[i] = 1
		}
	case effects.PlaceAnywhere:
		m := 0
		for r := 0; r < int(s.nrows); r++ {
			if c.open&(1<<uint(r)) != 0 {
				m += int(s.rows[r].n) - s.insertFloor(r)
			}
		}
		if m > 255 {
			return false
		}
		c.nspec[i] = uint8(m)
	}
	return true
}

// Last returns the last legal action, At(Len()-1) for Len() > 0, without
// decoding: a Deployment turn ends with Pass, a discard or bid with Done.
// The random bot asks for it at every decision.
func (c *Choices) Last() Action {
	switch c.kind {
	case chDeploy:
		return PassAction()
	case chList:
		return c.list[c.n-1]
	}
	return DoneAction()
}

// Deploy reports whether the decision is a Deployment turn described card
// by card: its actions are, for each of the NumCards distinct hand cards in
// turn (DeployCard), the card's special actions, then its placements in
// the first nplace open rows (OpenRows, lowest first: every open row, or
// none for a shield), then Pass last.
func (c *Choices) Deploy() bool { return c.kind == chDeploy }

// NumCards is the number of distinct hand cards a discard, bid or
// Deployment turn is described by.
func (c *Choices) NumCards() int { return int(c.nd) }

// OpenRows returns the rows open to a placement in a Deployment turn.
func (c *Choices) OpenRows() uint32 { return c.open }

// DeployCard returns the j-th distinct hand card of a Deployment turn, the
// kind and number of its special actions (ActShield or ActWave: one;
// ActPlaceAt: its insertions, open rows lowest first, positions from
// State.InsertFloor down) and the number of its placements.
func (c *Choices) DeployCard(j int) (def int, spec ActionKind, nspec, nplace int) {
	d := c.defs[j]
	if !c.special {
		return int(d), ActPlace, 0, int(c.nopen)
	}
	switch c.s.fx.defPlace[d] {
	case effects.PlaceShieldOther:
		spec = ActShield
	case effects.PlaceInsertOther:
		spec = ActWave
	case effects.PlaceAnywhere:
		spec = ActPlaceAt
	default:
		spec = ActPlace
	}
	return int(d), spec, int(c.nspec[j]), int(c.nplace[j])
}

// At returns the k-th legal action, 0 <= k < Len(): LegalActions(nil)[k].
func (c *Choices) At(k int) Action {
	switch c.kind {
	case chDeploy:
		if k == c.n-1 {
			return PassAction()
		}
		if c.special {
			return c.specialAt(k)
		}
		i, m := 0, int(c.nopen)
		for k >= m {
			k -= m
			i++
		}
		return PlaceAction(int(c.defs[i]), 0) | rowLists[c.open&(1<<maxRows-1)][k]
	case chList:
		return c.list[k]
	case chDiscard:
		if k == int(c.nd) {
			return DoneAction()
		}
		return DiscardAction(int(c.defs[k]))
	case chBid:
		if k == int(c.nd) {
			return DoneAction()
		}
		return HandAction(int(c.defs[k]))
	}
	return DoneAction()
}

// specialAt is At in a Deployment turn whose hand holds a special card:
// each card's special actions, then its placements.
func (c *Choices) specialAt(k int) Action {
	for i := range c.defs[:c.nd] {
		d := int(c.defs[i])
		if m := int(c.nspec[i]); k < m {
			switch c.s.fx.defPlace[d] {
			case effects.PlaceShieldOther:
				return ShieldAction(d)
			case effects.PlaceInsertOther:
				return WaveAction(d)
			}
			return c.insertionAt(d, k)
		} else {
			k -= m
		}
		if m := int(c.nplace[i]); k < m {
			return PlaceAction(d, 0) | rowLists[c.open&(1<<maxRows-1)][k]
		} else {
			k -= m
		}
	}
	return PassAction()
}

// insertionAt is the k-th insertion of place-anywhere card d: open rows in
// order, positions from the row's insertion floor down.
func (c *Choices) insertionAt(d, k int) Action {
	s := c.s
	for r := 0; r < int(s.nrows); r++ {
		if c.open&(1<<uint(r)) == 0 {
			continue
		}
		floor := s.insertFloor(r)
		if m := int(s.rows[r].n) - floor; k < m {
			return PlaceAtAction(d, r, floor+k)
		} else {
			k -= m
		}
	}
	return PassAction() // not reached: k < the card's insertions
}
