package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cardlab/cardlab/cards"
)

// List writes the player cards of factions (their decks in order) and, with
// withTargets, the target cards of rs: an aligned table ("table"),
// Markdown tables ("md") or JSON ("json") — cardlab cards, through the
// Game's game.Cataloger. Effects are shown as the handler and the
// parameters that differ from their defaults (JSON has every parameter).
func List(w io.Writer, rs *Ruleset, factions []*Faction, withTargets bool, format string) error {
	var buf bytes.Buffer
	var err error
	switch format {
	case "json":
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(cardsJSON(rs, factions, withTargets))
	case "md":
		writeCardsMarkdown(&buf, rs, factions, withTargets)
	case "table":
		err = writeCardsTable(&buf, rs, factions, withTargets)
	default:
		return fmt.Errorf("rules: no card list format %q (table, md, json)", format)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// --- JSON -----------------------------------------------------------------

type cardJSON struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Faction string       `json:"faction"`
	Type    string       `json:"type"`
	Kind    string       `json:"kind"`
	Power   int          `json:"power"`
	Copies  int          `json:"copies"`
	Effect  *bindingJSON `json:"effect"`
	Text    string       `json:"text"`
	Tags    []string     `json:"tags"`
}

type targetJSON struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Type        string        `json:"type"`
	Affiliation string        `json:"affiliation"`
	Quadrant    string        `json:"quadrant"`
	VP          int           `json:"vp"`
	Bonuses     []bindingJSON `json:"bonuses"`
	Text        string        `json:"text"`
}

type bindingJSON struct {
	Handler string     `json:"handler"`
	Params  paramsJSON `json:"params"`
}

// paramsJSON is a binding's arguments as a JSON object in declaration order.
type paramsJSON struct{ b *Binding }

func (p paramsJSON) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	if p.b != nil && p.b.Spec != nil {
		for i, par := range p.b.Spec.Params {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, err := json.Marshal(par.Name)
			if err != nil {
				return nil, err
			}
			v, err := json.Marshal(cards.ParamValue(par, p.b.Args[i]))
			if err != nil {
				return nil, err
			}
			buf.Write(k)
			buf.WriteByte(':')
			buf.Write(v)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func cardsJSON(rs *Ruleset, factions []*Faction, withTargets bool) any {
	out := struct {
		Cards   []cardJSON   `json:"cards"`
		Targets []targetJSON `json:"targets"`
	}{Cards: []cardJSON{}, Targets: []targetJSON{}}
	for _, f := range factions {
		for _, ci := range f.Deck {
			c := &rs.Cards[ci]
			cj := cardJSON{
				ID: c.ID, Name: c.Name, Faction: f.ID, Type: c.Type.String(), Kind: c.Kind.String(),
				Power: c.Power, Copies: c.Copies, Text: c.Text, Tags: c.Tags,
			}
			if cj.Tags == nil {
				cj.Tags = []string{}
			}
			if c.Effect != nil {
				cj.Effect = &bindingJSON{Handler: c.Effect.Handler, Params: paramsJSON{c.Effect}}
			}
			out.Cards = append(out.Cards, cj)
		}
	}
	if withTargets {
		for i := range rs.Targets {
			t := &rs.Targets[i]
			tj := targetJSON{
				ID: t.ID, Name: t.Name, Type: t.Type.String(), Affiliation: t.Affiliation,
				Quadrant: t.Quadrant, VP: t.VP, Text: t.Text, Bonuses: []bindingJSON{},
			}
			for j := range t.Bonuses {
				b := &t.Bonuses[j]
				tj.Bonuses = append(tj.Bonuses, bindingJSON{Handler: b.Handler, Params: paramsJSON{b}})
			}
			out.Targets = append(out.Targets, tj)
		}
	}
	return out
}

// bindingString is "handler" followed by the parameters that differ from
// their defaults, e.g. "modify_power amount=1 card_type=troops".
func bindingString(b *Binding) string {
	if b == nil {
		return ""
	}
	s := b.Handler
	if b.Spec == nil {
		return s
	}
	for i, p := range b.Spec.Params {
		v := cards.ParamString(p, b.Args[i])
		if !p.Required && v == cards.ParamString(p, p.Default) {
			continue
		}
		s += " " + p.Name + "=" + v
	}
	return s
}

// --- table ----------------------------------------------------------------

func writeCardsTable(w io.Writer, rs *Ruleset, factions []*Faction, withTargets bool) error {
	fmt.Fprintf(w, "%s %s\n", rs.Name, rs.Version)
	for _, f := range factions {
		fmt.Fprintf(w, "\n%s (%s): %d cards, %d definitions\n", f.Name, f.ID, f.DeckCount(rs), len(f.Deck))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tTYPE\tKIND\tPOWER\tCOPIES\tEFFECT")
		for _, ci := range f.Deck {
			c := &rs.Cards[ci]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", c.ID, oneLine(c.Name), c.Type, c.Kind,
				c.Power, c.Copies, dash(bindingString(c.Effect)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !withTargets {
		return nil
	}
	fmt.Fprintf(w, "\nTargets: %d\n", len(rs.Targets))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tTYPE\tAFFILIATION\tQUADRANT\tVP\tBONUSES")
	for i := range rs.Targets {
		t := &rs.Targets[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", t.ID, oneLine(t.Name), t.Type, t.Affiliation,
			dash(t.Quadrant), t.VP, dash(bonusesString(t)))
	}
	return tw.Flush()
}

func bonusesString(t *Target) string {
	parts := make([]string, len(t.Bonuses))
	for i := range t.Bonuses {
		parts[i] = bindingString(&t.Bonuses[i])
	}
	return strings.Join(parts, "; ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine replaces line breaks and tabs so free text cannot break a table.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// --- Markdown -------------------------------------------------------------

func writeCardsMarkdown(w io.Writer, rs *Ruleset, factions []*Faction, withTargets bool) {
	fmt.Fprintf(w, "# %s %s\n", mdEscape(rs.Name), mdEscape(rs.Version))
	for _, f := range factions {
		fmt.Fprintf(w, "\n## %s — %d cards\n\n", mdEscape(f.Name), f.DeckCount(rs))
		fmt.Fprintln(w, "| id | name | type | kind | power | copies | effect | text |")
		fmt.Fprintln(w, "|---|---|---|---|--:|--:|---|---|")
		for _, ci := range f.Deck {
			c := &rs.Cards[ci]
			fmt.Fprintf(w, "| `%s` | %s | %s | %s | %d | %d | %s | %s |\n", c.ID, mdEscape(c.Name), c.Type,
				c.Kind, c.Power, c.Copies, mdCode(bindingString(c.Effect)), mdEscape(c.Text))
		}
	}
	if !withTargets {
		return
	}
	fmt.Fprintf(w, "\n## Targets — %d cards\n\n", len(rs.Targets))
	fmt.Fprintln(w, "| id | name | type | affiliation | quadrant | vp | bonuses | text |")
	fmt.Fprintln(w, "|---|---|---|---|---|--:|---|---|")
	for i := range rs.Targets {
		t := &rs.Targets[i]
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %d | %s | %s |\n", t.ID, mdEscape(t.Name), t.Type,
			mdEscape(t.Affiliation), t.Quadrant, t.VP, mdCode(bonusesString(t)), mdEscape(t.Text))
	}
}

// mdEscape makes free text safe in a Markdown table cell: it stays text,
// never markup.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '~', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode formats s as a code span ("" stays empty).
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}
