package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// resolveCardRefs turns what a designer typed after a card flag (--card,
// --cards) into card ids: each ref is a card id or a card name, compared
// case-insensitively ("kl-warriors", "Klingon Warriors", "klingon
// warriors"). An exact id wins over a name. nil refs (all cards) stay nil.
//
// A name shared by several cards (the factions' Deflector Shields) is
// ambiguous and answered with their ids; an unknown ref with the three
// closest cards, never the whole card list.
func resolveCardRefs(rs game.Ruleset, refs []string) ([]string, error) {
	if refs == nil {
		return nil, nil
	}
	cs := rs.Cards()
	out := make([]string, 0, len(refs))
	for _, ref := range refs {
		id, err := resolveCardRef(rs, cs, ref)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

func resolveCardRef(rs game.Ruleset, cs []game.Card, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	for i := range cs {
		if cs[i].ID == ref {
			return ref, nil
		}
	}
	for i := range cs {
		if strings.EqualFold(cs[i].ID, ref) {
			return cs[i].ID, nil
		}
	}
	var named []*game.Card
	for i := range cs {
		if strings.EqualFold(cs[i].Name, ref) {
			named = append(named, &cs[i])
		}
	}
	switch len(named) {
	case 1:
		return named[0].ID, nil
	case 0:
		return "", unknownCardError(cs, ref)
	}
	sides := rs.Sides()
	ids := make([]string, len(named))
	for i, c := range named {
		ids[i] = c.ID
		if c.Side >= 0 && c.Side < len(sides) {
			ids[i] = fmt.Sprintf("%s (%s)", c.ID, sides[c.Side].ID)
		}
	}
	return "", fmt.Errorf("card name %q is ambiguous: %d cards have it, %s; give the id", ref, len(named), strings.Join(ids, ", "))
}

// closestCards is how many cards an unknown ref is offered.
const closestCards = 3

// unknownCardError names the cards closest to ref by id or name: edit
// distance, with a card whose id or name contains ref counting as one edit
// away (so "warriors" finds Klingon Warriors).
func unknownCardError(cs []game.Card, ref string) error {
	type scored struct {
		c *game.Card
		d int
	}
	r := strings.ToLower(ref)
	list := make([]scored, 0, len(cs))
	for i := range cs {
		c := &cs[i]
		d := 1 << 30
		for _, s := range []string{strings.ToLower(c.ID), strings.ToLower(c.Name)} {
			e := editDistance(r, s)
			if r != "" && strings.Contains(s, r) {
				e = min(e, 1)
			}
			d = min(d, e)
		}
		list = append(list, scored{c, d})
	}
	slices.SortStableFunc(list, func(a, b scored) int { return a.d - b.d })
	var near []string
	for _, s := range list[:min(closestCards, len(list))] {
		near = append(near, fmt.Sprintf("%q (%s)", s.c.Name, s.c.ID))
	}
	msg := fmt.Sprintf("unknown card %q", ref)
	if len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, ", ") + "? ('cardlab cards' lists every card)"
	}
	return fmt.Errorf("%s", msg)
}
