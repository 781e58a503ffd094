package goofspiel

import (
	"fmt"
	"slices"

	"github.com/cardlab/cardlab/game"
)

// Knobs are what a sweep may change in a Goofspiel ruleset: a prize card's
// value (the prize cards follow the bid cards in Cards()) and the hand of
// bid cards. ties is an enum, not an integer, so it is no knob.
func (rs *Ruleset) Knobs() []game.Knob {
	return []game.Knob{
		{
			Name: "value", Scope: game.OnCard, Doc: "a prize card's points", Min: 0, Max: MaxPrize,
			Applies: func(r game.Ruleset, c int) bool { p := prizeOf(r, c); return p >= 0 },
			Get:     func(r game.Ruleset, c int) int { return r.(*Ruleset).Prizes[prizeOf(r, c)] },
			With: func(r game.Ruleset, c, v int) (game.Ruleset, error) {
				old := r.(*Ruleset)
				i := prizeOf(r, c)
				if i < 0 {
					return nil, fmt.Errorf("goofspiel: card %d is not a prize card", c)
				}
				if v < 0 || v > MaxPrize {
					return nil, fmt.Errorf("value %d is out of range (0 to %d)", v, MaxPrize)
				}
				x := *old
				x.Prizes = slices.Clone(old.Prizes)
				x.Prizes[i] = v
				sum := 0
				for _, p := range x.Prizes {
					sum += p
				}
				if sum == 0 {
					return nil, fmt.Errorf("value %d makes every prize worth 0; nobody could win a point", v)
				}
				return &x, nil
			},
		},
		{
			Name: "cards", Scope: game.OnRules, Doc: "the bid cards in each hand (1..cards)", Min: 1, Max: MaxCards,
			Get: func(r game.Ruleset, _ int) int { return r.(*Ruleset).HandSize },
			With: func(r game.Ruleset, _, v int) (game.Ruleset, error) {
				old := r.(*Ruleset)
				if v < 1 || v > MaxCards {
					return nil, fmt.Errorf("cards %d is out of range (1 to %d)", v, MaxCards)
				}
				if v < len(old.Prizes) {
					return nil, fmt.Errorf("cards %d: %d prizes but %d bid cards; each prize takes a bid card from every hand, so at least %d", v, len(old.Prizes), v, len(old.Prizes))
				}
				x := *old
				x.HandSize = v
				return &x, nil
			},
		},
	}
}

// prizeOf is the prize index of card c of Cards() (bid cards first), or -1.
func prizeOf(r game.Ruleset, c int) int {
	rs := r.(*Ruleset)
	if i := c - rs.HandSize; c >= 0 && i >= 0 && i < len(rs.Prizes) {
		return i
	}
	return -1
}
