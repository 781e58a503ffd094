// Package faces words Alpha Tactics' cards for printing (game.Facer): a
// face per player card and per target, a deck per faction and one of
// targets, and the columns of cards.csv. Package printing draws them; the
// measured values a face may carry (print --with-values) are read here
// from a report's results.json (ReadValues).
package faces

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// CSVHeader is cards.csv's columns: one per field, as nanDECK and Squib
// read a data sheet (a header row, then one row per card definition with
// its copies). Player cards leave the target columns empty and targets the
// player-card columns.
var CSVHeader = []string{"id", "deck", "name", "faction", "type", "kind", "kind_name", "power",
	"vp", "affiliation", "quadrant", "text", "copies", "color", "back", "value_power", "value_power_lo", "value_power_hi"}

// kindWords are the effect kinds as a player reads them.
var kindWords = map[rules.EffectKind]string{
	rules.KindNone:      "no effect",
	rules.KindOneTime:   "one-time",
	rules.KindPermanent: "permanent",
	rules.KindSpecial:   "special",
	rules.KindScoring:   "scoring",
}

// New words every card of rs for printing: each faction's deck in
// rules.yaml's order, then the targets; values (nil: none) put each card's
// measured value on its face and in cards.csv.
func New(rs *rules.Ruleset, values *Values) *game.FaceSet {
	s := &game.FaceSet{Name: rs.Name, Version: rs.Version, CSV: CSVHeader}
	if values != nil {
		s.ValueLegend = "The corner figure \"plays like N power\" is the card's value measured by simulation"
	}
	stems := map[string]bool{}
	for fi := range rs.Factions {
		f := &rs.Factions[fi]
		d := game.Deck{ID: f.ID, Name: f.Name, Stem: f.ID, Back: game.Back{Title: f.Name, Side: f.ID, Color: f.Color}}
		stems[f.ID] = true
		for _, ci := range f.Deck {
			d.Faces = append(d.Faces, playerFace(rs, &rs.Cards[ci], values))
		}
		s.Decks = append(s.Decks, d)
	}
	if len(rs.Targets) > 0 {
		stem := "targets"
		for i := 2; stems[stem]; i++ {
			stem = fmt.Sprintf("targets-%d", i) // a faction may be called "targets"
		}
		d := game.Deck{ID: "targets", Name: "Targets", Stem: stem, Back: game.Back{Title: "Target"}}
		for ti := range rs.Targets {
			d.Faces = append(d.Faces, targetFace(rs, &rs.Targets[ti]))
		}
		s.Decks = append(s.Decks, d)
	}
	return s
}

func playerFace(rs *rules.Ruleset, c *rules.Card, values *Values) game.Face {
	f := &rs.Factions[c.Faction]
	kind := kindWords[c.Kind]
	cells := []game.Cell{
		{Key: "id", Text: c.ID}, {Key: "name", Text: c.Name}, {Key: "faction", Text: f.ID},
		{Key: "type", Text: c.Type.String()}, {Key: "kind", Text: c.Kind.String()}, {Key: "kind_name", Text: kind},
		{Key: "power", Text: fmt.Sprint(c.Power), Number: true}, {Key: "text", Text: c.Text},
		{Key: "copies", Text: fmt.Sprint(c.Copies), Number: true},
	}
	if v, ok := values.card(c.ID); ok {
		cells = append(cells,
			game.Cell{Key: "value_power", Text: fmt.Sprintf("%.2f", v.Power), Number: true},
			game.Cell{Key: "value_power_lo", Text: fmt.Sprintf("%.2f", v.PowerCI95[0]), Number: true},
			game.Cell{Key: "value_power_hi", Text: fmt.Sprintf("%.2f", v.PowerCI95[1]), Number: true})
	}
	return game.Face{
		ID: c.ID, Name: c.Name, Badge: strconv.Itoa(c.Power),
		TypeLine: fmt.Sprintf("%s · %s · %s", words(c.Type.String()), c.Kind, kind),
		Text:     c.Text, Footer: f.Name, Value: values.line(c.ID),
		Side: f.ID, Color: f.Color, Copies: c.Copies, Cells: cells,
	}
}

func targetFace(rs *rules.Ruleset, t *rules.Target) game.Face {
	parts := []string{words(t.Type.String()), words(t.Affiliation)}
	if t.Quadrant != "" {
		parts = append(parts, t.Quadrant+" quadrant")
	}
	fc := game.Face{
		ID: t.ID, Name: t.Name, Badge: strconv.Itoa(t.VP), BadgeSub: "VP",
		TypeLine: strings.Join(parts, " · "), Text: t.Text, Footer: "Target", Copies: 1,
		Cells: []game.Cell{
			{Key: "id", Text: t.ID}, {Key: "name", Text: t.Name}, {Key: "type", Text: t.Type.String()},
			{Key: "vp", Text: fmt.Sprint(t.VP), Number: true}, {Key: "affiliation", Text: t.Affiliation},
			{Key: "quadrant", Text: t.Quadrant}, {Key: "text", Text: t.Text}, {Key: "copies", Text: "1", Number: true},
		},
	}
	if f := owner(rs, t); f != nil {
		fc.Side, fc.Color = f.ID, f.Color
	}
	return fc
}

// words turns a YAML identifier into words for a face: combat_zone →
// combat zone.
func words(id string) string { return strings.ReplaceAll(id, "_", " ") }

// owner is the faction whose planet t's affiliation is: the target wears
// that faction's colour, so players see at a glance whose planet it is;
// the rest (nil) wear the layout's colour for cards of no faction.
func owner(rs *rules.Ruleset, t *rules.Target) *rules.Faction {
	for i := range rs.Factions {
		f := &rs.Factions[i]
		for _, a := range f.Planets {
			if a == t.Affiliation {
				return f
			}
		}
	}
	return nil
}
