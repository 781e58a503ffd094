package spacetrace

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
)

// Spacetrace's side of the card-value experiment (game.Valuer; issue 28,
// brief §4a.1: "plays like a 140-MP card"). The unit is ValueStep MP: a
// card moved by +1 unit is worth ValueStep MP more to its holder — a ship
// card costs ValueStep MP less, a reinforcement gives ValueStep MP more
// (one without MP, a draw card, gives ValueStep MP beside its draw) — and
// by −1 the reverse (a reinforcement's MP not below 0). One MP is too small
// a step to move play (costs and amounts are multiples of 10, the pool is
// spent in 50s and 100s), so the step is 10 MP and a value of v units is
// 10·v MP. A blank copy is a card that can never be played, only
// discarded (as a 3-card discard pick). A card's value is then what the
// card is worth to its holder beside its price: a ship card worth +4 units
// at 100 MP plays like a 140-MP card. Only the variant's card definitions
// differ; the bots see them as they are (a perturbed copy is its own
// definition, so a bot plays it at its perturbed cost). Under scoring:
// wrecked a ship moved by ±1 also scores its perturbed MP as a wreck.
// rules-spacetrace.md, "Card values", has the reading.

// ValueStep is the MP of one unit of value.
const ValueStep = 10

// ValueUnit implements game.Valuer.
func (*Ruleset) ValueUnit() game.Unit {
	return game.Unit{Name: "step of 10 MP", Plural: "steps of 10 MP", Short: "MP/10", Scale: ValueStep, Currency: "MP"}
}

// ValueCards implements game.Valuer: side's cards (those Cards() gives to
// side), each valued at its printed MP in units — a ship's cost, a
// reinforcement's MP — rounded to the nearest unit. A reinforcement that
// only gives MP is plain: the reference for what other cards' text is
// worth.
func (rs *Ruleset) ValueCards(side int) []game.ValueCard {
	var out []game.ValueCard
	for _, gc := range rs.Cards() {
		if gc.Side != side {
			continue
		}
		c := &rs.Defs[gc.Index]
		vc := game.ValueCard{Index: gc.Index, Blankable: true, Lower: true, Value: printedUnits(c)}
		switch c.Type {
		case Ship:
		case Reinforcement:
			mp, other := reinforcementMP(c)
			vc.Lower = mp >= ValueStep
			vc.Plain = !other && mp > 0
		default:
			// Tactics and commanders are not valued: their printed MP
			// is a price, but no unit move of it is defined yet.
			continue
		}
		out = append(out, vc)
	}
	return out
}

// printedUnits is card c's printed MP in units, rounded: a ship's cost, a
// reinforcement's MP (Cards' column "mp/10", the price curve's x).
func printedUnits(c *Card) int {
	mp := c.MP
	if c.Type == Reinforcement {
		mp, _ = reinforcementMP(c)
	}
	return (mp + ValueStep/2) / ValueStep
}

// reinforcementMP is the MP reinforcement c gives, and whether it does
// anything else.
func reinforcementMP(c *Card) (mp int, other bool) {
	for _, e := range c.Effects {
		if e.Do == MP {
			mp += e.Amount
		} else {
			other = true
		}
	}
	return mp, other
}

// NewVariants implements game.Valuer.
func (rs *Ruleset) NewVariants() game.Variants {
	vs := &Variants{rs: rs, vr: *rs}
	n := len(rs.Defs)
	defs := make([]Card, 0, 3*n+1)
	defs = append(defs, rs.Defs...)
	defs = append(defs, Card{ID: "blank", Name: "Blank", Type: Reinforcement, Blank: true})
	for _, sign := range []int{+1, -1} {
		for i := range rs.Defs {
			defs = append(defs, shifted(&rs.Defs[i], sign))
		}
	}
	vs.vr.Defs = defs
	vs.vr.Decks = []Deck{{ID: "seat-1"}, {ID: "seat-2"}}
	for q := range vs.vr.Decks {
		vs.vr.Decks[q].List = make([]uint8, 0, MaxDeck)
	}
	vs.state = &State{rs: &vs.vr, deck: [2]int{0, 1}}
	vs.state.bt = Battle{R: &vs.vr.Rules, Defs: vs.vr.Defs}
	return vs
}

// shifted is card c worth sign units more to its holder.
func shifted(c *Card, sign int) Card {
	d := *c
	d.Effects = append([]Effect(nil), c.Effects...)
	switch c.Type {
	case Ship:
		d.MP = max(0, c.MP-sign*ValueStep)
	case Reinforcement:
		for i := range d.Effects {
			if d.Effects[i].Do == MP {
				d.Effects[i].Amount = max(0, d.Effects[i].Amount+sign*ValueStep)
				return d
			}
		}
		if sign > 0 {
			d.Effects = append(d.Effects, Effect{Do: MP, Amount: ValueStep})
		}
	}
	return d
}

// Variants is one worker's variant ruleset (the ruleset's definitions, a
// blank, and each definition moved by +1 and −1 unit, built once) and its
// state, reset each game: a game allocates nothing.
type Variants struct {
	rs    *Ruleset
	vr    Ruleset
	state *State
}

// Variant implements game.Variants: seat q plays the deck of lineup
// position k = (q+rot) mod 2 with pert[k] applied: the first copy of a
// blanked card in the deck list is the blank, the next copy (or the first)
// of a shifted card its shifted definition. A shift is cleared when the
// card has no copy left for it (one copy, blanked) or is not in the deck.
func (vs *Variants) Variant(sides []int, rot int, pert [][]game.Perturb, seed uint64) (game.State, error) {
	if len(sides) != 2 {
		return nil, errorf("%d seats; Spacetrace is played by 2 (three-player rules are not modelled)", len(sides))
	}
	if err := vs.rs.Playable(); err != nil {
		return nil, err
	}
	n := len(vs.rs.Defs)
	for q := 0; q < 2; q++ {
		k := (q + rot) % 2
		if sides[k] < 0 || sides[k] >= len(vs.rs.Decks) {
			return nil, errorf("seat %d plays deck %d; the ruleset has %d", q+1, sides[k], len(vs.rs.Decks))
		}
		if len(pert[k]) != n {
			return nil, fmt.Errorf("spacetrace: %d perturbations for %d cards", len(pert[k]), n)
		}
		src := vs.rs.Decks[sides[k]].List
		d := &vs.vr.Decks[q]
		d.List = append(d.List[:0], src...)
		var blanked, moved [MaxCards]bool
		for i, ci := range d.List {
			p := pert[k][ci]
			switch {
			case p.Blank && !blanked[ci]:
				blanked[ci] = true
				d.List[i] = uint8(n)
			case p.Shift > 0 && !moved[ci]:
				moved[ci] = true
				d.List[i] = uint8(n + 1 + int(ci))
			case p.Shift < 0 && !moved[ci]:
				moved[ci] = true
				d.List[i] = uint8(2*n + 1 + int(ci))
			}
		}
		for ci := range pert[k] {
			if pert[k][ci].Shift != 0 && !moved[ci] {
				pert[k][ci].Shift = 0
			}
			if pert[k][ci].Blank && !blanked[ci] {
				pert[k][ci].Blank = false
			}
		}
	}
	vs.state.Reset(seed)
	return vs.state, nil
}
