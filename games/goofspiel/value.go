package goofspiel

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
)

// Goofspiel's side of the card-value experiment (game.Valuer). The unit is
// one bid point: a bid card's face value. A blank bid card is one that bids
// 0: it loses to every card, and two blanks tie as any equal bids do (the
// prize is discarded, or carried with ties: carry). A card moved by +1
// bids its face plus one, tying with the other seats' next card; by −1,
// its face minus one (card 1 then bids 0, as a blank does). Each seat's
// cards are perturbed apart, so the two seats of a mirror differ. Only the
// settlement reads the perturbed bids: a bot sees its cards' faces (the
// greedy rule still bids the card that matches the prize), so a value is
// what the card is worth to the bots' play as it is. rules-goofspiel.md,
// "Card values", has the reading.

// ValueUnit implements game.Valuer.
func (*Ruleset) ValueUnit() game.Unit {
	return game.Unit{Name: "bid point", Plural: "bid points", Short: "bid"}
}

// ValueCards implements game.Valuer: the bid cards 1..cards, each one copy,
// valued at its face; none has text.
func (rs *Ruleset) ValueCards(side int) []game.ValueCard {
	if side != 0 {
		return nil
	}
	out := make([]game.ValueCard, rs.HandSize)
	for v := 1; v <= rs.HandSize; v++ {
		out[v-1] = game.ValueCard{Index: v - 1, Blankable: true, Lower: true, Value: v, Plain: true}
	}
	return out
}

// NewVariants implements game.Valuer.
func (rs *Ruleset) NewVariants() game.Variants { return &Variants{rs: rs} }

// Variants is one worker's states (one per seat count, reset each game)
// and the perturbed bids they settle with.
type Variants struct {
	rs    *Ruleset
	state [game.MaxSeats + 1]*State
	bids  [game.MaxSeats][MaxCards + 1]uint8
}

// Variant implements game.Variants: seat q plays position (q+rot) mod n,
// its bid card v bidding 0 if blanked, else v plus its shift.
func (vs *Variants) Variant(sides []int, rot int, pert [][]game.Perturb, seed uint64) (game.State, error) {
	n := len(sides)
	if n < vs.rs.MinPlayers || n > vs.rs.MaxPlayers {
		return nil, fmt.Errorf("goofspiel: %d seats, the ruleset allows %d..%d", n, vs.rs.MinPlayers, vs.rs.MaxPlayers)
	}
	for q := 0; q < n; q++ {
		k := (q + rot) % n
		if sides[k] != 0 {
			return nil, fmt.Errorf("goofspiel: seat %d plays side %d; there is one side, 0", q+1, sides[k])
		}
		b := &vs.bids[q]
		for v := 1; v <= vs.rs.HandSize; v++ {
			p := pert[k][v-1]
			switch {
			case p.Blank:
				b[v] = 0
			default:
				b[v] = uint8(v + int(p.Shift))
			}
		}
	}
	s := vs.state[n]
	if s == nil {
		s = &State{rs: vs.rs, n: n, turns: len(vs.rs.Prizes)}
		vs.state[n] = s
	}
	s.Reset(seed)
	s.bids = &vs.bids
	return s, nil
}
