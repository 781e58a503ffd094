package alphatactics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Changes is Alpha Tactics' change list for `cardlab diff` (game.Differ):
// every field of its rules, factions, cards and targets by name, each at
// its line in the variant (r) when it is written out.
func (r Ruleset) Changes(base game.Ruleset) []game.Change {
	return Changes(base.(Ruleset).RS, r.RS)
}

// Changes lists the definition differences between rulesets a and b:
// rule parameters, factions, then player cards and targets by id.
func Changes(a, b *rules.Ruleset) []game.Change {
	out := []game.Change{}
	add := func(kind, id, field, va, vb, pos string) {
		if va != vb {
			out = append(out, game.Change{Kind: kind, ID: id, Change: "changed", Field: field, Base: va, Variant: vb, Pos: pos})
		}
	}
	// addAt is add for a field of the list item at p in b: the change points
	// at the field's own line when it is written out.
	addAt := func(kind, id, field, va, vb string, p cards.Pos) {
		pos := posString(p)
		if va != vb {
			if l := cards.FindKeyLine(b.Files[p.File], p.Line, field, true); l > 0 {
				pos = fmt.Sprintf("%s:%d", p.File, l)
			}
		}
		add(kind, id, field, va, vb, pos)
	}
	itoa := strconv.Itoa
	ra, rb := &a.Rules, &b.Rules
	rulesPos := "rules.yaml"
	add("rules", "", "name", a.Name, b.Name, rulesPos)
	add("rules", "", "version", a.Version, b.Version, rulesPos)
	add("rules", "", "players.min", itoa(ra.MinPlayers), itoa(rb.MinPlayers), rulesPos)
	add("rules", "", "players.max", itoa(ra.MaxPlayers), itoa(rb.MaxPlayers), rulesPos)
	add("rules", "", "hand_size", itoa(ra.HandSize), itoa(rb.HandSize), rulesPos)
	add("rules", "", "targets_per_round", itoa(ra.TargetsPerRound), itoa(rb.TargetsPerRound), rulesPos)
	add("rules", "", "cards_to_end", itoa(ra.CardsToEnd), itoa(rb.CardsToEnd), rulesPos)
	add("rules", "", "deck_size", itoa(ra.DeckSize), itoa(rb.DeckSize), rulesPos)
	add("rules", "", "rounds", itoa(ra.Rounds), itoa(rb.Rounds), rulesPos)
	add("rules", "", "planet_bonus", itoa(ra.PlanetBonus), itoa(rb.PlanetBonus), rulesPos)
	add("rules", "", "federation.affiliation", ra.FederationAffiliation, rb.FederationAffiliation, rulesPos)
	add("rules", "", "federation.factions", listString(ra.FederationFactions), listString(rb.FederationFactions), rulesPos)
	add("rules", "", "starting_faction", ra.StartingFaction, rb.StartingFaction, rulesPos)
	add("rules", "", "tie_break", listString(ra.TieBreak), listString(rb.TieBreak), rulesPos)
	add("rules", "", "affiliations", listString(a.Affiliations), listString(b.Affiliations), rulesPos)
	for i := range out {
		if l := cards.FindKeyLine(b.Files["rules.yaml"], 1, strings.SplitN(out[i].Field, ".", 2)[0], false); l > 0 {
			out[i].Pos = fmt.Sprintf("rules.yaml:%d", l)
		}
	}
	// Factions.
	for _, fa := range a.Factions {
		fb, ok := b.FactionByID(fa.ID)
		if !ok {
			out = append(out, game.Change{Kind: "faction", ID: fa.ID, Change: "removed", Pos: posString(fa.Pos)})
			continue
		}
		addAt("faction", fa.ID, "name", fa.Name, fb.Name, fb.Pos)
		addAt("faction", fa.ID, "planets", listString(fa.Planets), listString(fb.Planets), fb.Pos)
		addAt("faction", fa.ID, "deck", deckIDs(a, &fa), deckIDs(b, fb), fb.Pos)
	}
	for _, fb := range b.Factions {
		if _, ok := a.FactionByID(fb.ID); !ok {
			out = append(out, game.Change{Kind: "faction", ID: fb.ID, Change: "added", Pos: posString(fb.Pos)})
		}
	}
	// Cards.
	for i := range a.Cards {
		ca := &a.Cards[i]
		cb, ok := b.CardByID(ca.ID)
		if !ok {
			out = append(out, game.Change{Kind: "card", ID: ca.ID, Change: "removed", Base: ca.Name, Pos: posString(ca.Pos)})
			continue
		}
		addAt("card", ca.ID, "name", ca.Name, cb.Name, cb.Pos)
		addAt("card", ca.ID, "faction", a.Factions[ca.Faction].ID, b.Factions[cb.Faction].ID, cb.Pos)
		addAt("card", ca.ID, "type", ca.Type.String(), cb.Type.String(), cb.Pos)
		addAt("card", ca.ID, "kind", ca.Kind.String(), cb.Kind.String(), cb.Pos)
		addAt("card", ca.ID, "power", itoa(ca.Power), itoa(cb.Power), cb.Pos)
		addAt("card", ca.ID, "copies", itoa(ca.Copies), itoa(cb.Copies), cb.Pos)
		addAt("card", ca.ID, "effect", bindingString(ca.Effect), bindingString(cb.Effect), cb.Pos)
		addAt("card", ca.ID, "tags", listString(ca.Tags), listString(cb.Tags), cb.Pos)
		addAt("card", ca.ID, "text", ca.Text, cb.Text, cb.Pos)
	}
	for i := range b.Cards {
		if _, ok := a.CardByID(b.Cards[i].ID); !ok {
			out = append(out, game.Change{Kind: "card", ID: b.Cards[i].ID, Change: "added", Variant: b.Cards[i].Name, Pos: posString(b.Cards[i].Pos)})
		}
	}
	// Targets.
	for i := range a.Targets {
		ta := &a.Targets[i]
		tb, ok := b.TargetByID(ta.ID)
		if !ok {
			out = append(out, game.Change{Kind: "target", ID: ta.ID, Change: "removed", Base: ta.Name, Pos: posString(ta.Pos)})
			continue
		}
		addAt("target", ta.ID, "name", ta.Name, tb.Name, tb.Pos)
		addAt("target", ta.ID, "type", ta.Type.String(), tb.Type.String(), tb.Pos)
		addAt("target", ta.ID, "affiliation", ta.Affiliation, tb.Affiliation, tb.Pos)
		addAt("target", ta.ID, "quadrant", ta.Quadrant, tb.Quadrant, tb.Pos)
		addAt("target", ta.ID, "vp", itoa(ta.VP), itoa(tb.VP), tb.Pos)
		var ba, bb []string
		for k := range ta.Bonuses {
			ba = append(ba, bindingString(&ta.Bonuses[k]))
		}
		for k := range tb.Bonuses {
			bb = append(bb, bindingString(&tb.Bonuses[k]))
		}
		addAt("target", ta.ID, "bonuses", strings.Join(ba, "; "), strings.Join(bb, "; "), tb.Pos)
		addAt("target", ta.ID, "text", ta.Text, tb.Text, tb.Pos)
	}
	for i := range b.Targets {
		if _, ok := a.TargetByID(b.Targets[i].ID); !ok {
			out = append(out, game.Change{Kind: "target", ID: b.Targets[i].ID, Change: "added", Variant: b.Targets[i].Name, Pos: posString(b.Targets[i].Pos)})
		}
	}
	return out
}

func listString(s []string) string { return "[" + strings.Join(s, ", ") + "]" }

func posString(p cards.Pos) string {
	if p.File == "" {
		return ""
	}
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// deckIDs lists a faction's deck as card ids with copies.
func deckIDs(rs *rules.Ruleset, f *rules.Faction) string {
	ids := make([]string, 0, len(f.Deck))
	for _, d := range f.Deck {
		ids = append(ids, rs.Cards[d].ID)
	}
	slices.Sort(ids)
	return listString(ids)
}

// bindingString renders an effect binding as "handler(param=value, …)".
func bindingString(b *rules.Binding) string {
	if b == nil {
		return "none"
	}
	if b.Spec == nil || len(b.Args) == 0 {
		return b.Handler
	}
	var ps []string
	for i, p := range b.Spec.Params {
		if i >= len(b.Args) {
			break
		}
		v := b.Args[i]
		s := v.Str
		switch p.Type {
		case effects.Int:
			s = strconv.Itoa(v.Int)
		case effects.Bool:
			s = strconv.FormatBool(v.Bool())
		}
		ps = append(ps, p.Name+"="+s)
	}
	return b.Handler + "(" + strings.Join(ps, ", ") + ")"
}
