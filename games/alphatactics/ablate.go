package alphatactics

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Ablation modes of Alpha Tactics' impact (game.Ablator).
const (
	// ModeBlank replaces the card by a blank: same type, kind N, no effect,
	// power 0.
	ModeBlank = "blank"
	// ModeEffectOff removes only the card's effect (kind N, power kept).
	ModeEffectOff = "effect-off"
	// ModeBlankCopy replaces one copy of the card by a blank (Blank: same
	// type, power 0, no effect, no tags): the estimand of card values.
	ModeBlankCopy = "blank-copy"
)

// AblationModes implements game.Ablator: blank-copy, blank and effect-off;
// blank when none is given.
func (Ruleset) AblationModes() ([]string, string) {
	return []string{ModeBlankCopy, ModeBlank, ModeEffectOff}, ModeBlank
}

// Ablate implements game.Ablator with Ablate.
func (r Ruleset) Ablate(d int, mode string) (game.Ruleset, string, string) {
	v, desc, skip := Ablate(r.RS, d, mode)
	if v == nil {
		return nil, desc, skip
	}
	return Ruleset{RS: v}, desc, skip
}

// Variant returns a copy of rs changed by edit, with its own Cards slice and
// a Hash derived from rs.Hash and desc (so results never mistake it for
// rs). edit may change the copy's Rules and Cards elements; every other
// slice and map is shared with rs and must not be modified.
func Variant(rs *rules.Ruleset, desc string, edit func(*rules.Ruleset)) *rules.Ruleset {
	v := *rs
	v.Cards = slices.Clone(rs.Cards)
	edit(&v)
	v.Hash = variantHash(rs, desc)
	return &v
}

// Ablate returns the variant of rs in which card index d is ablated by mode,
// and a description of the change; skip is set (and the variant nil) when
// the ablation would change nothing.
func Ablate(rs *rules.Ruleset, d int, mode string) (v *rules.Ruleset, desc, skip string) {
	c := &rs.Cards[d]
	var parts []string
	switch mode {
	case ModeBlank, "":
		if c.Power != 0 {
			parts = append(parts, fmt.Sprintf("power %d → 0", c.Power))
		}
		if c.Kind != rules.KindNone {
			parts = append(parts, fmt.Sprintf("kind %s → N", c.Kind))
		}
		if c.Effect != nil {
			parts = append(parts, "effect "+c.Effect.Handler+" removed")
		}
		if len(parts) == 0 {
			return nil, "", "already blank (power 0, no effect)"
		}
		desc = "blank (" + strings.Join(parts, ", ") + ")"
	case ModeBlankCopy:
		if !Blankable(c) {
			return nil, "", "already blank (power 0, no effect, no tags)"
		}
		desc = fmt.Sprintf("one of %d copies blank (power %d → 0", c.Copies, c.Power)
		if c.Effect != nil {
			desc += ", effect " + c.Effect.Handler + " removed"
		}
		v = Variant(rs, c.ID+": "+desc, func(v *rules.Ruleset) {
			b := Blank(c)
			b.Index = len(v.Cards)
			v.Cards = append(v.Cards, b)
			v.Factions = slices.Clone(v.Factions)
			f := &v.Factions[c.Faction]
			f.Deck = slices.Clone(f.Deck)
			if v.Cards[d].Copies--; v.Cards[d].Copies == 0 {
				f.Deck = slices.DeleteFunc(f.Deck, func(x int) bool { return x == d })
			}
			f.Deck = append(f.Deck, b.Index)
		})
		return v, desc + ")", ""
	case ModeEffectOff:
		if c.Effect == nil && c.Kind == rules.KindNone {
			return nil, "", "no effect to remove (kind N)"
		}
		if c.Kind != rules.KindNone {
			parts = append(parts, fmt.Sprintf("kind %s → N", c.Kind))
		}
		if c.Effect != nil {
			parts = append(parts, "effect "+c.Effect.Handler+" removed")
		}
		desc = "effect off (" + strings.Join(parts, ", ") + ")"
	default:
		return nil, "", "unknown mode " + mode
	}
	v = Variant(rs, c.ID+": "+desc, func(v *rules.Ruleset) {
		k := &v.Cards[d]
		k.Effect, k.Kind = nil, rules.KindNone
		if mode != ModeEffectOff {
			k.Power = 0
		}
	})
	return v, desc, ""
}

// CardHash implements game.CardHasher with rules.Ruleset.PlayHash.
func (r Ruleset) CardHash(d int) string { return r.RS.PlayHash(&r.RS.Cards[d]) }
