package alphatactics

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Alpha Tactics' side of the card-value experiment (game.Valuer): the unit
// is one combat power point; a blank is a copy with power 0, no effect and
// no tags; a shifted copy is the card with its power moved by one. Each
// perturbed copy becomes a one-copy definition of its own in the game's
// variant ruleset, on which the engine is rebound.

// ValueUnit implements game.Valuer.
func (Ruleset) ValueUnit() game.Unit {
	return game.Unit{Name: "power point", Plural: "power points", Short: "power"}
}

// ValueCards implements game.Valuer: the faction's deck, in deck order; a
// card may be lowered while its power is above 0.
func (r Ruleset) ValueCards(side int) []game.ValueCard {
	var out []game.ValueCard
	for _, c := range r.RS.Factions[side].Deck {
		card := &r.RS.Cards[c]
		out = append(out, game.ValueCard{Index: c, Blankable: Blankable(card), Lower: card.Power > 0,
			Value: card.Power, Plain: isPlain(card)})
	}
	return out
}

// Blankable reports whether a blank in the card's place differs from it.
func Blankable(c *rules.Card) bool {
	return c.Power != 0 || c.Kind != rules.KindNone || c.Effect != nil || len(c.Tags) > 0
}

func isPlain(c *rules.Card) bool {
	return c.Kind == rules.KindNone && c.Effect == nil && len(c.Tags) == 0
}

// Blank returns the blank that stands in for a copy of c: same faction and
// type, power 0, no effect and no tags (a partner card's combo does not
// see a blank).
func Blank(c *rules.Card) rules.Card {
	return rules.Card{ID: c.ID + "~blank", Name: c.Name + " (blank)", Faction: c.Faction, Type: c.Type,
		Kind: rules.KindNone, Copies: 1, Pos: c.Pos}
}

// NewVariants implements game.Valuer.
func (r Ruleset) NewVariants() game.Variants {
	rs := r.RS
	v := &Variants{rs: rs, blanks: make([]rules.Card, len(rs.Cards)), shiftIDs: make([][2]string, len(rs.Cards)),
		decks: make([][]int, len(rs.Factions))}
	for c := range rs.Cards {
		v.blanks[c] = Blank(&rs.Cards[c])
		v.shiftIDs[c] = [2]string{rs.Cards[c].ID + "~-1", rs.Cards[c].ID + "~+1"}
	}
	return v
}

// Variants is one worker's memory for the variant rulesets of its games and
// the engine state rebound to each (engine.State.Rebind), so a game
// allocates no engine tables.
type Variants struct {
	rs *rules.Ruleset
	// blanks[c] stands in for a blanked copy of card c, and shiftIDs[c]
	// name its copy moved by −1 and by +1 (made once, not per game).
	blanks   []rules.Card
	shiftIDs [][2]string
	cards    []rules.Card
	facs     []rules.Faction
	decks    [][]int // per faction
	seats    []string
	state    *State // nil before the first game or after a failed Rebind
}

// MaxDefs is the engine's capacity for card definitions; each perturbed
// copy is a definition of its own in the game's variant.
const MaxDefs = 255

// Variant implements game.Variants. A faction plays one seat (Alpha Tactics
// has no mirrors), so position k's perturbations are its faction's.
func (vs *Variants) Variant(sides []int, rot int, pert [][]game.Perturb, seed uint64) (game.State, error) {
	n := len(sides)
	for k := range sides {
		for l := k + 1; l < n; l++ {
			if sides[k] == sides[l] {
				return nil, fmt.Errorf("%w: faction %s on two seats", errSide, vs.rs.Factions[sides[k]].ID)
			}
		}
	}
	vs.trim(sides, pert)
	v := vs.variant(sides, pert)
	vs.seats = vs.seats[:0]
	for q := 0; q < n; q++ {
		vs.seats = append(vs.seats, vs.rs.Factions[sides[(q+rot)%n]].ID)
	}
	cfg := engine.Config{Factions: vs.seats, Seed: seed}
	var err error
	if vs.state == nil {
		var e *engine.State
		if e, err = engine.New(v, cfg); err == nil {
			vs.state = &State{Contract: engine.Contract{S: e}}
		}
	} else if err = vs.state.S.Rebind(v, cfg); err != nil {
		vs.state = nil // a failed Rebind leaves it unusable
	}
	if err != nil {
		return nil, err
	}
	return vs.state, nil
}

// trim drops the game's last perturbations (in the lineup's deck order)
// that would take its variant past the engine's capacity for definitions.
// The drop depends only on the draws, never on play, so the design stays
// randomized; it touches only rulesets near the capacity, and with 4
// players.
func (vs *Variants) trim(sides []int, pert [][]game.Perturb) {
	room := MaxDefs - len(vs.rs.Cards)
	for k, f := range sides {
		pt := pert[k]
		for _, c := range vs.rs.Factions[f].Deck {
			if pt[c].Blank {
				if room > 0 {
					room--
				} else {
					pt[c].Blank = false
				}
			}
			if pt[c].Shift != 0 {
				if room > 0 {
					room--
				} else {
					pt[c].Shift = 0
				}
			}
		}
	}
}

// variant builds the ruleset of one game: rs with, for every perturbed
// definition, copies taken off it and put on new one-copy definitions (a
// blank, or the card with its power shifted). The new definitions keep the
// card's faction, type, effect and tags, so nothing but the perturbation
// changes. Only the lineup's decks change. Every game gets a new Ruleset:
// bots table a ruleset by its address (Greedy rebuilds its tables only when
// the state's *Ruleset changes), so reusing one would keep another game's
// tables for the new definitions. Its cards and decks live in vs's memory,
// which the next variant reuses: a game's ruleset lasts until then.
func (vs *Variants) variant(sides []int, pert [][]game.Perturb) *rules.Ruleset {
	rs := vs.rs
	v := new(rules.Ruleset)
	*v = *rs
	v.Cards = append(vs.cards[:0], rs.Cards...)
	v.Factions = append(vs.facs[:0], rs.Factions...)
	for k, f := range sides {
		pt := pert[k]
		fac := &v.Factions[f]
		deck := vs.decks[f][:0]
		for _, c := range fac.Deck {
			orig := &v.Cards[c]
			taken := 0
			if pt[c].Blank {
				b := vs.blanks[c]
				b.Index = len(v.Cards)
				v.Cards = append(v.Cards, b)
				deck = append(deck, b.Index)
				taken++
				orig = &v.Cards[c] // append may move the slice
			}
			if s := pt[c].Shift; s != 0 {
				m := *orig
				m.Index, m.Copies, m.Power = len(v.Cards), 1, orig.Power+int(s)
				m.ID = vs.shiftIDs[c][(s+1)/2]
				v.Cards = append(v.Cards, m)
				deck = append(deck, m.Index)
				taken++
				orig = &v.Cards[c]
			}
			if orig.Copies > taken {
				orig.Copies -= taken
				deck = append(deck, c)
			}
		}
		fac.Deck = deck
		vs.decks[f] = deck
	}
	vs.cards, vs.facs = v.Cards, v.Factions
	return v
}

// VariantRuleset is the ruleset of the game Variant made last (for tests).
func (vs *Variants) VariantRuleset() *rules.Ruleset {
	if vs.state == nil {
		return nil
	}
	return vs.state.S.Ruleset()
}
