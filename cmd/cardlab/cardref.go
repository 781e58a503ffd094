package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// resolveCardRefs turns what a designer typed after a card flag (--card,
// --cards) into card ids: each ref is a card id or a card name, compared
// case-insensitively ("kl-warriors", "Klingon Warriors", "klingon
// warriors"). An exact id wins over a name. nil refs (all cards) stay nil.
//
// A name shared by several cards (the factions' Deflector Shields) is
// ambiguous and answered with their ids; an unknown ref with the three
// closest cards, never the whole card list.
func resolveCardRefs(rs *rules.Ruleset, refs []string) ([]string, error) {
	if refs == nil {
		return nil, nil
	}
	out := make([]string, 0, len(refs))
	for _, ref := range refs {
		id, err := resolveCardRef(rs, ref)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

func resolveCardRef(rs *rules.Ruleset, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if c, ok := rs.CardByID(ref); ok {
		return c.ID, nil
	}
	for i := range rs.Cards {
		if strings.EqualFold(rs.Cards[i].ID, ref) {
			return rs.Cards[i].ID, nil
		}
	}
	var named []*rules.Card
	for i := range rs.Cards {
		if strings.EqualFold(rs.Cards[i].Name, ref) {
			named = append(named, &rs.Cards[i])
		}
	}
	switch len(named) {
	case 1:
		return named[0].ID, nil
	case 0:
		return "", unknownCardError(rs, ref)
	}
	ids := make([]string, len(named))
	for i, c := range named {
		ids[i] = fmt.Sprintf("%s (%s)", c.ID, rs.Factions[c.Faction].ID)
	}
	return "", fmt.Errorf("card name %q is ambiguous: %d cards have it, %s; give the id", ref, len(named), strings.Join(ids, ", "))
}

// closestCards is how many cards an unknown ref is offered.
const closestCards = 3

// unknownCardError names the cards closest to ref by id or name: edit
// distance, with a card whose id or name contains ref counting as one edit
// away (so "warriors" finds Klingon Warriors).
func unknownCardError(rs *rules.Ruleset, ref string) error {
	type scored struct {
		c *rules.Card
		d int
	}
	r := strings.ToLower(ref)
	list := make([]scored, 0, len(rs.Cards))
	for i := range rs.Cards {
		c := &rs.Cards[i]
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
