package rules

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// Catalog renders the ruleset as a Markdown card catalog: the rule
// parameters, one table per faction deck with its totals, the target cards,
// and the end-of-game planet bonus per faction. The output depends only on the
// ruleset's content, so it can be kept as a golden file (docs/cards.md for
// the embedded default). Free text is escaped: names and card texts never
// become Markdown markup.
func Catalog(rs *Ruleset) []byte {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	w("# %s %s — card catalog\n\n", catalogEscape(rs.Name), catalogEscape(rs.Version))
	w("Generated from the ruleset's YAML files; do not edit by hand. ")
	w("Kinds: N none, O one-time, P permanent, X special, S scoring. ")
	w("Power is the base combat power; totals count copies. ")
	w("Effect parameters are shown with their defaults filled in.\n\n")

	catalogRules(&b, rs)
	catalogFactions(&b, rs)
	for i := range rs.Factions {
		catalogDeck(&b, rs, &rs.Factions[i])
	}
	catalogTargets(&b, rs)
	catalogPlanetBonus(&b, rs)
	return b.Bytes()
}

func catalogRules(b *bytes.Buffer, rs *Ruleset) {
	r := rs.Rules
	fmt.Fprintf(b, "## Rules\n\n| parameter | value |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(b, "| %s | %s |\n", k, v) }
	row("players", fmt.Sprintf("%d–%d", r.MinPlayers, r.MaxPlayers))
	row("hand size", strconv.Itoa(r.HandSize))
	row("targets per round (rows)", strconv.Itoa(r.TargetsPerRound))
	row("cards per row to end the Deployment Phase", strconv.Itoa(r.CardsToEnd))
	row("deck size", strconv.Itoa(r.DeckSize))
	row("rounds", strconv.Itoa(r.Rounds))
	row("targets", fmt.Sprintf("%d", len(rs.Targets)))
	row("planet bonus (VP per own planet)", strconv.Itoa(r.PlanetBonus))
	if r.FederationAffiliation != "" {
		row("federation planets", fmt.Sprintf("%s planets also score the planet bonus for %s",
			catalogCode(r.FederationAffiliation), catalogCodes(r.FederationFactions)))
	} else {
		row("federation planets", "—")
	}
	if r.StartingFaction != "" {
		row("starting faction", catalogCode(r.StartingFaction)+" (else a random player)")
	} else {
		row("starting faction", "random player")
	}
	tb := "shared victory"
	if len(r.TieBreak) > 0 {
		tb = catalogCodes(r.TieBreak) + ", then shared victory"
	}
	row("tie-break after VP", tb)
	row("affiliations", catalogCodes(rs.Affiliations))
	b.WriteString("\n")
}

// catalogTotals are a deck's card counts by type and its base power, copies
// counted.
type catalogTotals struct {
	cards, power, effectCards int
	byType                    []int
}

func catalogDeckTotals(rs *Ruleset, f *Faction) catalogTotals {
	t := catalogTotals{byType: make([]int, len(handlers.CardTypes))}
	for _, ci := range f.Deck {
		c := &rs.Cards[ci]
		t.cards += c.Copies
		t.power += c.Power * c.Copies
		if c.Kind != KindNone {
			t.effectCards += c.Copies
		}
		if int(c.Type) < len(t.byType) {
			t.byType[c.Type] += c.Copies
		}
	}
	return t
}

func catalogFactions(b *bytes.Buffer, rs *Ruleset) {
	b.WriteString("## Factions\n\n| faction | id | colour | own planets | cards |")
	for _, t := range handlers.CardTypes {
		fmt.Fprintf(b, " %s |", t)
	}
	b.WriteString(" effect cards | total power |\n|---|---|---|---|---:|")
	for range handlers.CardTypes {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---:|\n")
	for i := range rs.Factions {
		f := &rs.Factions[i]
		t := catalogDeckTotals(rs, f)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d |", catalogEscape(f.Name), catalogCode(f.ID),
			catalogCode(f.Color), catalogCodes(f.Planets), t.cards)
		for _, n := range t.byType {
			fmt.Fprintf(b, " %d |", n)
		}
		fmt.Fprintf(b, " %d | %d |\n", t.effectCards, t.power)
	}
	b.WriteString("\n")
}

func catalogDeck(b *bytes.Buffer, rs *Ruleset, f *Faction) {
	fmt.Fprintf(b, "## %s (%s)\n\n", catalogEscape(f.Name), catalogCode(f.ID))
	if f.File != "" {
		fmt.Fprintf(b, "Deck file %s.\n\n", catalogCode(f.File))
	}
	b.WriteString("| id | name | type | kind | power | copies | effect | tags | text |\n")
	b.WriteString("|---|---|---|---|---:|---:|---|---|---|\n")
	for _, ci := range f.Deck {
		c := &rs.Cards[ci]
		effect := "—"
		if c.Effect != nil {
			effect = catalogBinding(c.Effect)
		}
		tags := ""
		if len(c.Tags) > 0 {
			tags = catalogCodes(c.Tags)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %d | %s | %s | %s |\n",
			catalogCode(c.ID), catalogEscape(c.Name), c.Type, c.Kind, c.Power, c.Copies,
			effect, tags, catalogEscape(c.Text))
	}
	t := catalogDeckTotals(rs, f)
	parts := make([]string, 0, len(handlers.CardTypes))
	for i, n := range t.byType {
		parts = append(parts, fmt.Sprintf("%d %s", n, handlers.CardTypes[i]))
	}
	fmt.Fprintf(b, "\nDeck totals: %d cards (%s); %d with an effect, %d without; total base power %d.\n\n",
		t.cards, strings.Join(parts, ", "), t.effectCards, t.cards-t.effectCards, t.power)
}

func catalogTargets(b *bytes.Buffer, rs *Ruleset) {
	b.WriteString("## Targets\n\n")
	b.WriteString("| id | name | type | affiliation | quadrant | VP | bonuses | text |\n")
	b.WriteString("|---|---|---|---|---|---:|---|---|\n")
	byType := make([]int, len(handlers.TargetTypes))
	vp, withBonus := 0, 0
	for i := range rs.Targets {
		t := &rs.Targets[i]
		quadrant := "—"
		if t.Quadrant != "" {
			quadrant = catalogEscape(t.Quadrant)
		}
		bonuses := "—"
		if len(t.Bonuses) > 0 {
			parts := make([]string, len(t.Bonuses))
			for j := range t.Bonuses {
				parts[j] = catalogBinding(&t.Bonuses[j])
			}
			bonuses = strings.Join(parts, "<br>")
			withBonus++
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %d | %s | %s |\n",
			catalogCode(t.ID), catalogEscape(t.Name), t.Type, catalogCode(t.Affiliation),
			quadrant, t.VP, bonuses, catalogEscape(t.Text))
		if int(t.Type) < len(byType) {
			byType[t.Type]++
		}
		vp += t.VP
	}
	parts := make([]string, 0, len(byType))
	for i, n := range byType {
		parts = append(parts, fmt.Sprintf("%d %s", n, handlers.TargetTypes[i]))
	}
	fmt.Fprintf(b, "\nTarget totals: %d targets (%s); %d with combination bonuses; %d printed VP.\n\n",
		len(rs.Targets), strings.Join(parts, ", "), withBonus, vp)
}

// catalogPlanetBonus documents the end-of-game planet bonus: which
// affiliations' planets score it for each faction. Because the Federation
// factions share the Federation planets, the planet count per affiliation is
// a balance lever.
func catalogPlanetBonus(b *bytes.Buffer, rs *Ruleset) {
	r := rs.Rules
	b.WriteString("## Planet bonus\n\n")
	fmt.Fprintf(b, "At the end of the game every player scores %d VP per planet of their own faction",
		r.PlanetBonus)
	if r.FederationAffiliation != "" && len(r.FederationFactions) > 0 {
		fmt.Fprintf(b, "; the %s planets score it for %s alike", catalogCode(r.FederationAffiliation),
			catalogCodes(r.FederationFactions))
	}
	b.WriteString(". The number of planets each faction can score this way is therefore a balance lever.\n\n")

	b.WriteString("| affiliation | planets | alpha | beta | printed VP | planet bonus for |\n")
	b.WriteString("|---|---:|---:|---:|---:|---|\n")
	for _, a := range rs.Affiliations {
		n, alpha, beta, vp := catalogPlanets(rs, []string{a})
		var scorers []string
		for i := range rs.Factions {
			if slices.Contains(catalogScoringAffiliations(rs, &rs.Factions[i]), a) {
				scorers = append(scorers, rs.Factions[i].ID)
			}
		}
		who := "—"
		if len(scorers) > 0 {
			who = catalogCodes(scorers)
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %s |\n", catalogCode(a), n, alpha, beta, vp, who)
	}

	b.WriteString("\n| faction | scores planets of | planets | printed VP of those planets | max planet bonus |\n")
	b.WriteString("|---|---|---:|---:|---:|\n")
	for i := range rs.Factions {
		f := &rs.Factions[i]
		affs := catalogScoringAffiliations(rs, f)
		n, _, _, vp := catalogPlanets(rs, affs)
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d |\n", catalogEscape(f.Name), catalogCodes(affs), n, vp, n*r.PlanetBonus)
	}
	b.WriteString("\n")
}

// catalogScoringAffiliations lists the affiliations whose planets score the
// planet bonus for f: its own planets plus the Federation planets if f is a
// Federation faction.
func catalogScoringAffiliations(rs *Ruleset, f *Faction) []string {
	affs := slices.Clone(f.Planets)
	fed := rs.Rules.FederationAffiliation
	if fed != "" && slices.Contains(rs.Rules.FederationFactions, f.ID) && !slices.Contains(affs, fed) {
		affs = append(affs, fed)
	}
	return affs
}

func catalogPlanets(rs *Ruleset, affs []string) (n, alpha, beta, vp int) {
	for i := range rs.Targets {
		t := &rs.Targets[i]
		if t.Type != Planet || !slices.Contains(affs, t.Affiliation) {
			continue
		}
		n++
		vp += t.VP
		switch t.Quadrant {
		case "alpha":
			alpha++
		case "beta":
			beta++
		}
	}
	return
}

// catalogBinding renders a handler binding as `name(param=value, …)`.
func catalogBinding(bd *Binding) string {
	if bd.Spec == nil || len(bd.Spec.Params) == 0 {
		return catalogCode(bd.Handler)
	}
	parts := make([]string, 0, len(bd.Spec.Params))
	for i, p := range bd.Spec.Params {
		var v effects.Value
		if i < len(bd.Args) {
			v = bd.Args[i]
		}
		parts = append(parts, p.Name+"="+catalogValue(p, v))
	}
	return catalogCode(bd.Handler + "(" + strings.Join(parts, ", ") + ")")
}

func catalogValue(p effects.Param, v effects.Value) string {
	switch p.Type {
	case effects.Int:
		return strconv.Itoa(v.Int)
	case effects.Bool:
		return strconv.FormatBool(v.Bool())
	case effects.Enum:
		if v.Str == "" && v.Int >= 0 && v.Int < len(p.Values) {
			return p.Values[v.Int]
		}
	}
	return v.Str
}

// catalogCode renders an identifier as a code span. Identifiers of the
// ruleset format cannot hold backticks; any other text is escaped.
func catalogCode(s string) string {
	if s == "" {
		return ""
	}
	if strings.ContainsAny(s, "`\n\r") {
		return catalogEscape(s)
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

func catalogCodes(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = catalogCode(s)
	}
	return strings.Join(out, ", ")
}

// catalogEscape makes free text safe for a Markdown table cell: it escapes
// the characters that start markup or end the cell and turns line breaks
// into <br>.
func catalogEscape(s string) string {
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimRight(s, "\n")
	for _, r := range s {
		switch r {
		case '\\', '|', '*', '_', '`', '[', ']', '<', '>', '#', '&':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r':
			b.WriteString("<br>")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
