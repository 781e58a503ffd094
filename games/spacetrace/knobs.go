package spacetrace

import (
	"fmt"
	"slices"

	"github.com/cardlab/cardlab/game"
)

// Knobs implements game.Knobbed: what sweep and diff may change — a card's
// printed numbers (mp, ap, lp, ships, class; a reinforcement's gives), each
// effect parameter as handler.param (self_damage.amount), and the rules'
// numbers by their rules.yaml name (base.ap, base.lp, hand.start, …). Deck
// counts and copy limits are deck rules, not knobs; enum and true/false
// readings are no integers.
func (rs *Ruleset) Knobs() []game.Knob {
	var out []game.Knob
	stat := func(name, doc string, lo, hi int, applies func(*Card) bool, get func(*Card) *int) game.Knob {
		return game.Knob{Name: name, Scope: game.OnCard, Doc: doc, Min: lo, Max: hi,
			Applies: func(r game.Ruleset, c int) bool { return applies(&r.(*Ruleset).Defs[c]) },
			Get:     func(r game.Ruleset, c int) int { return *get(&r.(*Ruleset).Defs[c]) },
			With: func(r game.Ruleset, c, v int) (game.Ruleset, error) {
				old := r.(*Ruleset)
				if v < lo || v > hi {
					return nil, fmt.Errorf("%s %d is out of range (%d to %d)", name, v, lo, hi)
				}
				x := *old
				x.Defs = slices.Clone(old.Defs)
				*get(&x.Defs[c]) = v
				if err := x.checkCard(c); err != nil {
					return nil, err
				}
				return &x, nil
			},
			Where: func(r game.Ruleset, c int) (string, int) {
				return CardsFile, r.(*Ruleset).Defs[c].Lines[name]
			},
		}
	}
	isShip := func(c *Card) bool { return c.Type == Ship }
	out = append(out,
		stat("mp", "the card's cost in MP", 0, MaxStat, func(c *Card) bool { return c.Type != Reinforcement }, func(c *Card) *int { return &c.MP }),
		stat("ap", "AP of each ship", 0, MaxStat, isShip, func(c *Card) *int { return &c.AP }),
		stat("lp", "LP of each ship", 1, MaxStat, isShip, func(c *Card) *int { return &c.LP }),
		stat("ships", "ships on the card", 1, MaxShips, isShip, func(c *Card) *int { return &c.Ships }),
		stat("class", "the ship class (1..4)", 1, NumClasses, isShip, func(c *Card) *int { return &c.Class }),
	)
	for h := range handlers {
		spec := &handlers[h]
		for _, p := range spec.params {
			if p.kind != pInt {
				continue
			}
			out = append(out, effectKnob(Handler(h), p))
		}
	}
	for _, k := range ruleKeys {
		if k.isBool || k.enum != nil {
			continue
		}
		switch k.group {
		case "first_game", "second_game", "deck", "tactic", "opt":
			continue // deck rules, or readings the engine does not play yet
		}
		if k.group == "hand" && k.key == "max" {
			continue // refused by NewState until a hand limit is played
		}
		out = append(out, ruleKnob(k))
	}
	return out
}

// effectKnob is parameter p of handler h on the cards that have it (the
// first such effect of the card).
func effectKnob(h Handler, p param) game.Knob {
	name := handlers[h].name + "." + p.key
	get := func(e *Effect) int {
		var probe Effect
		p.set(&probe, 1) // find which field p sets
		switch {
		case probe.Amount == 1:
			return e.Amount
		case probe.Count == 1:
			return e.Count
		case probe.Ships == 1:
			return e.Ships
		case probe.Cards == 1:
			return e.Cards
		case probe.NextCards == 1:
			return e.NextCards
		case probe.APMult == 1:
			return e.APMult
		case probe.APAdd == 1:
			return e.APAdd
		case probe.LPAdd == 1:
			return e.LPAdd
		case probe.IncomeMP == 1:
			return e.IncomeMP
		}
		return 0
	}
	return game.Knob{Name: name, Scope: game.OnCard, Doc: handlers[h].doc + ": " + p.key, Min: p.lo, Max: p.hi,
		Applies: func(r game.Ruleset, c int) bool { return r.(*Ruleset).Defs[c].Has(h) },
		Get:     func(r game.Ruleset, c int) int { return get(r.(*Ruleset).Defs[c].Effect(h)) },
		With: func(r game.Ruleset, c, v int) (game.Ruleset, error) {
			old := r.(*Ruleset)
			if v < p.lo || v > p.hi {
				return nil, fmt.Errorf("%s %d is out of range (%d to %d)", name, v, p.lo, p.hi)
			}
			if !old.Defs[c].Has(h) {
				return nil, fmt.Errorf("card %q has no %s effect", old.Defs[c].ID, handlers[h].name)
			}
			x := *old
			x.Defs = slices.Clone(old.Defs)
			card := &x.Defs[c]
			card.Effects = slices.Clone(card.Effects)
			p.set(card.Effect(h), v)
			return &x, nil
		},
		Where: func(r game.Ruleset, c int) (string, int) {
			return CardsFile, r.(*Ruleset).Defs[c].Effect(h).Pos.Line
		},
	}
}

// ruleKnob is the integer reading k of rules.yaml.
func ruleKnob(k ruleKey) game.Knob {
	name := k.key
	if k.group != "" {
		name = k.group + "." + k.key
	}
	return game.Knob{Name: name, Scope: game.OnRules, Doc: "rules.yaml " + name, Min: k.lo, Max: k.hi,
		Get: func(r game.Ruleset, _ int) int { return *(k.ptr(&r.(*Ruleset).Rules).(*int)) },
		With: func(r game.Ruleset, _, v int) (game.Ruleset, error) {
			if v < k.lo || v > k.hi {
				return nil, fmt.Errorf("%s %d is out of range (%d to %d)", name, v, k.lo, k.hi)
			}
			x := *r.(*Ruleset)
			*(k.ptr(&x.Rules).(*int)) = v
			return &x, nil
		},
		Where: func(r game.Ruleset, _ int) (string, int) { return RulesFile, r.(*Ruleset).ruleLines[name] },
	}
}

// checkCard re-checks the rules a card's numbers must keep after a knob
// changed one: the first game sorts out class-II ships, the second game's
// and the first game's decks count ship cards by type only.
func (rs *Ruleset) checkCard(c int) error {
	card := &rs.Defs[c]
	if rs.Rules.Variant != FirstGame || card.Type != Ship || card.Class != 2 {
		return nil
	}
	for _, d := range rs.Decks {
		for _, e := range d.Entries {
			if e.Card == c {
				return fmt.Errorf("class 2: %q is in deck %q, and the first game sorts out class II ships", card.ID, d.ID)
			}
		}
	}
	return nil
}
