package goofspiel

import (
	"math/bits"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// State is one Goofspiel game; it implements game.State. It is a flat value
// (no pointers but the shared ruleset and an attached Counter's tally, which
// a copy drops), so Clone and CopyInto are a copy and a decision allocates
// nothing.
//
// The simultaneous bid of a turn is played as one action per seat in seat
// order; a bid stays hidden from the other seats until the last seat of the
// turn has bid, when all are revealed at once and the prize is settled.
type State struct {
	rs    *Ruleset
	n     int // seats
	turns int // len(rs.Prizes)
	rng   game.RNG
	// deck is the prize deck's order (indices into rs.Prizes), shuffled at
	// Reset; deck[turn] is the prize turned up.
	deck   [MaxCards]uint8
	turn   int
	player int // the seat to bid; -1 once the game is over
	pot    int // the prize points at stake this turn (carried ones included)
	// hand[p] bit v-1 is set while p still holds bid card v; bid[p] is p's
	// bid this turn (0 = none yet).
	hand   [game.MaxSeats]uint64
	bid    [game.MaxSeats]uint8
	points [game.MaxSeats]int
	// last are the bids revealed at the end of the previous turn.
	last [game.MaxSeats]uint8
	// taken[p] counts the prizes p took; ties the turns whose highest bid
	// was tied (the game records).
	taken [game.MaxSeats]uint8
	ties  uint8
	// tally, when a Counter is attached, counts every settled turn
	// (counter.go); clones and copies never carry it.
	tally *tally
	// bids, in a game of the card-value experiment (value.go), is what each
	// seat's bid cards bid: bids[p][v] for card v (0: a blank); nil, a card
	// bids its face. Clones and copies share it, as they share the ruleset.
	bids *[game.MaxSeats][MaxCards + 1]uint8
}

// New starts a game of rs for n seats, its prize deck shuffled by seed.
func New(rs *Ruleset, n int, seed uint64) *State {
	s := &State{rs: rs, n: n, turns: len(rs.Prizes)}
	s.Reset(seed)
	return s
}

// Reset implements game.State: every hand full, the prize deck shuffled
// from seed, the first prize turned up.
func (s *State) Reset(seed uint64) {
	s.rng = game.NewRNG(seed)
	for i := 0; i < s.turns; i++ {
		s.deck[i] = uint8(i)
	}
	s.rng.Shuffle(s.deck[:s.turns])
	full := ^uint64(0) >> (64 - s.rs.HandSize)
	for p := range s.hand {
		s.hand[p], s.bid[p], s.points[p], s.last[p], s.taken[p] = 0, 0, 0, 0, 0
		if p < s.n {
			s.hand[p] = full
		}
	}
	s.turn, s.player, s.ties = 0, 0, 0
	s.pot = s.rs.Prizes[s.deck[0]]
}

// Ruleset is the state's ruleset.
func (s *State) Ruleset() *Ruleset { return s.rs }

// Turn is the current turn, from 0 (Turns() once the game is over).
func (s *State) Turn() int { return s.turn }

// Prize is the value of the prize turned up this turn (public).
func (s *State) Prize() int { return s.rs.Prizes[s.deck[s.turn]] }

// Pot is the points at stake this turn: the prize and what ties carried.
func (s *State) Pot() int { return s.pot }

// Hand is seat p's bid cards as a set (bit v-1 for card v), as viewer
// sees it: a bid made this turn and not yet revealed is still in the hand
// to every other viewer (the hand before the bid is public: the cards
// played in earlier turns were all revealed). viewer -1 sees everything.
func (s *State) Hand(viewer, p int) uint64 {
	h := s.hand[p]
	if viewer != -1 && viewer != p && s.bid[p] != 0 {
		h |= 1 << (s.bid[p] - 1)
	}
	return h
}

// LastBids are the bids revealed at the end of the previous turn (0 before
// the first).
func (s *State) LastBids() [game.MaxSeats]uint8 { return s.last }

// NumSeats implements game.State.
func (s *State) NumSeats() int { return s.n }

// CurrentPlayer implements game.State.
func (s *State) CurrentPlayer() int { return s.player }

// IsTerminal implements game.State.
func (s *State) IsTerminal() bool { return s.player < 0 }

// LegalActions implements game.State: the bid cards in the deciding seat's
// hand, lowest first. An action is a bid card's value.
func (s *State) LegalActions(buf []game.Action) []game.Action {
	buf = buf[:0]
	if s.player < 0 {
		return buf
	}
	for h := s.hand[s.player]; h != 0; h &= h - 1 {
		buf = append(buf, game.Action(bits.TrailingZeros64(h)+1))
	}
	return buf
}

// Apply implements game.State: the deciding seat bids card a. It panics on
// an illegal action (a bot's bug, never a designer's input).
func (s *State) Apply(a game.Action) {
	p := s.player
	if p < 0 || a < 1 || int(a) > s.rs.HandSize || s.hand[p]&(1<<(a-1)) == 0 {
		panic("goofspiel: illegal action " + s.ActionString(a))
	}
	s.hand[p] &^= 1 << (a - 1)
	s.bid[p] = uint8(a)
	if p+1 < s.n {
		s.player = p + 1
		return
	}
	s.settle()
}

// settle reveals the turn's bids, awards or discards (or carries) the pot,
// and turns up the next prize.
func (s *State) settle() {
	best, winner := uint8(0), -1
	for q := 0; q < s.n; q++ {
		b := s.bid[q]
		if s.bids != nil {
			b = s.bids[q][b]
		}
		switch {
		case b > best:
			best, winner = b, q
		case b == best:
			winner = -1
		}
	}
	if s.tally != nil {
		s.tally.settle(s, winner, best)
	}
	if winner >= 0 {
		s.points[winner] += s.pot
		s.taken[winner]++
		s.pot = 0
	} else {
		s.ties++
		if s.rs.Ties == Discard {
			s.pot = 0
		}
	}
	s.last, s.bid = s.bid, [game.MaxSeats]uint8{}
	s.turn++
	if s.turn == s.turns {
		s.player = -1
		return
	}
	s.player = 0
	s.pot += s.rs.Prizes[s.deck[s.turn]]
}

// Returns implements game.State: the players with the most points share the
// win equally; all zero until the game is over.
func (s *State) Returns() [game.MaxSeats]float64 {
	var r [game.MaxSeats]float64
	if s.player >= 0 {
		return r
	}
	best, k := -1, 0
	for q := 0; q < s.n; q++ {
		switch {
		case s.points[q] > best:
			best, k = s.points[q], 1
		case s.points[q] == best:
			k++
		}
	}
	for q := 0; q < s.n; q++ {
		if s.points[q] == best {
			r[q] = 1 / float64(k)
		}
	}
	return r
}

// Score implements game.State: the prize points seat has taken.
func (s *State) Score(seat int) int { return s.points[seat] }

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	c.tally = nil
	return &c
}

// CopyInto implements game.State; dst must be a Goofspiel state.
func (s *State) CopyInto(dst game.State) {
	d := dst.(*State)
	*d = *s
	d.tally = nil
}

// Determinize implements game.State: what viewer cannot see is dealt again
// from rng — each other seat's bid of this turn (from the hand it held
// before, which is public) and the order of the prize cards not yet turned
// up. The state's own chance stream is reseeded from rng too. What is drawn
// depends only on what viewer sees, never on the hidden truth.
func (s *State) Determinize(viewer int, rng *game.RNG) {
	for q := 0; q < s.n; q++ {
		if q == viewer || s.bid[q] == 0 {
			continue
		}
		held := s.hand[q] | 1<<(s.bid[q]-1) // q's hand before its bid
		h := held
		for k := rng.Intn(bits.OnesCount64(h)); k > 0; k-- {
			h &= h - 1
		}
		b := bits.TrailingZeros64(h)
		s.hand[q] = held &^ (1 << b)
		s.bid[q] = uint8(b + 1)
	}
	if s.turn+1 < s.turns {
		// Sort the unseen prizes first, so the deal does not depend on
		// their real order.
		rest := s.deck[s.turn+1 : s.turns]
		for i := 1; i < len(rest); i++ {
			for j := i; j > 0 && rest[j] < rest[j-1]; j-- {
				rest[j], rest[j-1] = rest[j-1], rest[j]
			}
		}
		rng.Shuffle(rest)
	}
	s.rng = game.NewRNG(rng.Uint64())
}

// Observation implements game.State: the turn, the seat to bid, the prizes
// turned up so far in order, the pot, every seat's points, hand (as seat
// sees it) and last revealed bids, and seat's own bid this turn.
func (s *State) Observation(seat int, buf []byte) []byte {
	buf = append(buf, byte(s.n), byte(s.turn), byte(s.player+1))
	upto := s.turn + 1
	if upto > s.turns {
		upto = s.turns
	}
	buf = append(buf, s.deck[:upto]...)
	buf = appendInt(buf, s.pot)
	for q := 0; q < s.n; q++ {
		h := s.Hand(seat, q)
		for k := 0; k < 8; k++ {
			buf = append(buf, byte(h>>(8*k)))
		}
		buf = appendInt(buf, s.points[q])
		buf = append(buf, s.last[q])
	}
	if seat >= 0 && seat < s.n {
		buf = append(buf, s.bid[seat])
	}
	return buf
}

func appendInt(buf []byte, v int) []byte {
	return append(buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// ActionString implements game.State.
func (s *State) ActionString(a game.Action) string { return "bid " + strconv.Itoa(int(a)) }

// Rewind implements game.Simultaneous: the bids of this turn made before
// viewer's go back into their hands and the first seat is to bid again.
// Every bid of the turn before viewer's is hidden from viewer; viewer's own
// and later ones stay.
func (s *State) Rewind(viewer int) {
	if s.player < 0 || viewer != s.player {
		return
	}
	for q := 0; q < viewer; q++ {
		if s.bid[q] != 0 {
			s.hand[q] |= 1 << (s.bid[q] - 1)
			s.bid[q] = 0
		}
	}
	s.player = 0
}
