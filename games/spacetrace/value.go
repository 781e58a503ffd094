package spacetrace

import (
	"fmt"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// Spacetrace's side of the card-value experiment (game.Valuer; issue 28,
// brief §4a.1: "plays like a 140-MP card"). The unit is one step of MP
// (Ruleset.valueStep): a card moved by +1 unit is worth a step more to its
// holder — a ship, tactic or commander costs a step less, a reinforcement
// gives a step more (one without MP, a draw card, gives a step beside its
// draw) — and by −1 the reverse (a reinforcement's MP not below 0). One MP
// is too small a step to move play (costs and amounts are multiples of 10,
// the pool is spent in 50s and 100s): the first and second games' step is
// 10 MP; the full game's is 50 MP, since its pool is richer (21% expires)
// and 10 MP more moved its greedy games by 0.04 pts [CI across 0], an
// unreadable price, where 50 MP moves them by 0.67 pts. A value of v units
// is step·v MP. A blank copy is a card that can never be played, only
// discarded (as a 3-card discard pick); for a tactic or commander this is
// also what a copy that costs its MP and does nothing would be, since no
// player pays for nothing. A card's value is then what the card is worth
// to its holder beside its price: a ship card worth +4 units at 100 MP
// plays like a 140-MP card. Only the variant's card definitions
// differ; the bots see them as they are (a perturbed copy is its own
// definition, so a bot plays it at its perturbed cost). Under scoring:
// wrecked a ship moved by ±1 also scores its perturbed MP as a wreck.
// rules-spacetrace.md, "Card values", has the reading.

// ValueStep is the MP of one unit of value in the first and second games;
// FullValueStep in the full game.
const (
	ValueStep     = 10
	FullValueStep = 50
)

// valueStep is the MP of one unit of value under rs's variant.
func (rs *Ruleset) valueStep() int {
	if rs.Rules.Variant == Full {
		return FullValueStep
	}
	return ValueStep
}

// ValueUnit implements game.Valuer.
func (rs *Ruleset) ValueUnit() game.Unit {
	k := rs.valueStep()
	n := strconv.Itoa(k)
	return game.Unit{Name: "step of " + n + " MP", Plural: "steps of " + n + " MP", Short: "MP/" + n, Scale: k, Currency: "MP"}
}

// ValueCards implements game.Valuer: side's cards (those Cards() gives to
// side), each valued at its printed MP in units — a ship's, tactic's or
// commander's cost, a reinforcement's MP — rounded to the nearest unit.
// Every card type of the full game is valued against the same blank (a
// card that can never be played): a tactic or commander, like a ship, is
// worth what playing it when it pays adds beside its price. A reinforcement that
// only gives MP is plain: the reference for what other cards' text is
// worth.
func (rs *Ruleset) ValueCards(side int) []game.ValueCard {
	var out []game.ValueCard
	for _, gc := range rs.Cards() {
		if gc.Side != side {
			continue
		}
		c := &rs.Defs[gc.Index]
		vc := game.ValueCard{Index: gc.Index, Blankable: true, Lower: true, Value: rs.printedUnits(c)}
		switch c.Type {
		case Ship, Tactic, Commander:
			// Each is bought with MP: its printed value is its price,
			// and a unit move makes it 10 MP cheaper or dearer.
		case Reinforcement:
			mp, other := reinforcementMP(c)
			vc.Lower = mp >= rs.valueStep()
			vc.Plain = !other && mp > 0
		default:
			continue
		}
		out = append(out, vc)
	}
	return out
}

// printedUnits is card c's printed MP in units, rounded: a ship's,
// tactic's or commander's cost, a reinforcement's MP (Cards' column
// "mp/STEP", the price curve's x; the column "mp" keeps the exact cost).
func (rs *Ruleset) printedUnits(c *Card) int {
	mp := c.MP
	if c.Type == Reinforcement {
		mp, _ = reinforcementMP(c)
	}
	k := rs.valueStep()
	return (mp + k/2) / k
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
			defs = append(defs, shifted(&rs.Defs[i], sign, rs.valueStep()))
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

// shifted is card c worth sign steps of step MP more to its holder.
func shifted(c *Card, sign, step int) Card {
	d := *c
	d.Effects = append([]Effect(nil), c.Effects...)
	switch c.Type {
	case Ship, Tactic, Commander:
		d.MP = max(0, c.MP-sign*step)
	case Reinforcement:
		for i := range d.Effects {
			if d.Effects[i].Do == MP {
				d.Effects[i].Amount = max(0, d.Effects[i].Amount+sign*step)
				return d
			}
		}
		if sign > 0 {
			d.Effects = append(d.Effects, Effect{Do: MP, Amount: step})
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
	// As NewState: the windows and auras are on when a deck holds a card
	// for them (without this the full game's variants played no tactic
	// and applied no commander).
	st := vs.state
	st.tactics, st.cmds = false, false
	for q := range vs.vr.Decks {
		for _, ci := range vs.vr.Decks[q].List {
			c := &vs.vr.Defs[ci]
			st.tactics = st.tactics || stackCard(c)
			st.cmds = st.cmds || c.Type == Commander
		}
	}
	st.Reset(seed)
	return st, nil
}
