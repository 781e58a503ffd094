package spacetrace

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// The printed faces (game.Facer): each deck once per player (two piles
// with their own back colour, so the decks are told apart on the table),
// and each player's Base. A card wears its type's colour, as the printed
// set does (seed 003: reinforcements orange, ships grey, tactics blue,
// commanders brown); the badge is its cost in MP, or the MP a
// reinforcement gives.

var typeColors = [4]string{"#e07b1a", "#7a7f87", "#2f6db5", "#7b4a2a"}

var playerColors = [2]string{"#1f5fa8", "#b22222"}

var facesCSV = []string{"id", "deck", "name", "type", "class", "ships", "ap", "lp", "mp", "text", "copies", "color", "back"}

var classNames = [5]string{"", "I", "II", "III", "IV"}

// Faces implements game.Facer.
func (Game) Faces(grs game.Ruleset) (*game.FaceSet, error) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return nil, fmt.Errorf("spacetrace: faces of a %s ruleset", grs.Game())
	}
	return rs.faces(nil), nil
}

// faces words rs's cards; values (nil: none) are the cards' measured
// values by card id, printed on every copy and in cards.csv.
func (rs *Ruleset) faces(values map[string]cardValue) *game.FaceSet {
	s := &game.FaceSet{Name: rs.Name, Version: rs.Version, CSV: facesCSV}
	if values != nil {
		s.CSV = append(slices.Clone(facesCSV), valueColumns...)
		s.ValueLegend = "The corner figure \"plays like an N-MP card [low, high]\" is the card's value measured by simulation, with its 95% interval"
	}
	for p := 0; p < 2; p++ {
		player := "Player " + strconv.Itoa(p+1)
		for _, d := range rs.Decks {
			stem := d.ID + "-" + strconv.Itoa(p+1)
			deck := game.Deck{ID: stem, Name: d.Name + " · " + player, Stem: stem,
				Back: game.Back{Title: "Spacetrace", Color: playerColors[p]}}
			for _, e := range d.Entries {
				f := rs.face(&rs.Defs[e.Card], e.Copies, d.Name)
				if cv, ok := values[f.ID]; ok {
					f.Value = cv.line()
					f.Cells = append(f.Cells,
						game.Cell{Key: "value_mp", Text: fmt.Sprintf("%.0f", cv.Power*cv.Step), Number: true},
						game.Cell{Key: "value_mp_lo", Text: fmt.Sprintf("%.0f", cv.PowerCI95[0]*cv.Step), Number: true},
						game.Cell{Key: "value_mp_hi", Text: fmt.Sprintf("%.0f", cv.PowerCI95[1]*cv.Step), Number: true})
				}
				deck.Faces = append(deck.Faces, f)
			}
			s.Decks = append(s.Decks, deck)
		}
		base := game.Deck{ID: "base-" + strconv.Itoa(p+1), Name: "Base · " + player, Stem: "base-" + strconv.Itoa(p+1),
			Back: game.Back{Title: "Base", Color: playerColors[p]}}
		r := &rs.Rules
		text := "Your headquarters, outside the deck. Counts as a class-IV card in battle. Immune to destroy, kill, repair, sacrifice and removal; its damage is never restored. 1000 or more damage loses the game."
		base.Faces = []game.Face{{ID: "base", Name: "Base", Badge: strconv.Itoa(r.BaseLP), BadgeSub: "LP",
			TypeLine: fmt.Sprintf("Base · class IV · 1 × %d/%d", r.BaseAP, r.BaseLP), Text: text, Footer: player,
			Color: typeColors[Ship], Copies: 1,
			Cells: []game.Cell{{Key: "id", Text: "base"}, {Key: "name", Text: "Base"}, {Key: "type", Text: "base"},
				{Key: "class", Text: "4", Number: true}, {Key: "ships", Text: "1", Number: true},
				{Key: "ap", Text: strconv.Itoa(r.BaseAP), Number: true}, {Key: "lp", Text: strconv.Itoa(r.BaseLP), Number: true},
				{Key: "text", Text: text}, {Key: "copies", Text: "1", Number: true}}}}
		s.Decks = append(s.Decks, base)
	}
	return s
}

// face words card c, copies of it in the deck named deck.
func (rs *Ruleset) face(c *Card, copies int, deck string) game.Face {
	f := game.Face{ID: c.ID, Name: c.Name, Footer: deck, Color: typeColors[c.Type], Copies: copies,
		Text: rs.cardText(c)}
	cells := []game.Cell{{Key: "id", Text: c.ID}, {Key: "name", Text: c.Name}, {Key: "type", Text: c.Type.String()}}
	switch c.Type {
	case Reinforcement:
		f.Badge, f.BadgeSub = "+"+strconv.Itoa(c.Effect(MP).Amount), "MP"
		f.TypeLine = "Reinforcement"
		if c.Standard {
			f.TypeLine = "Standard reinforcement"
		}
		cells = append(cells, game.Cell{Key: "mp", Text: strconv.Itoa(c.Effect(MP).Amount), Number: true})
	case Ship:
		f.Badge, f.BadgeSub = strconv.Itoa(c.MP), "MP"
		f.TypeLine = fmt.Sprintf("Ship · class %s · %d × %d/%d (%d/%d)", classNames[c.Class], c.Ships, c.AP, c.LP, c.Ships*c.AP, c.Ships*c.LP)
		cells = append(cells, game.Cell{Key: "class", Text: strconv.Itoa(c.Class), Number: true},
			game.Cell{Key: "ships", Text: strconv.Itoa(c.Ships), Number: true},
			game.Cell{Key: "ap", Text: strconv.Itoa(c.AP), Number: true},
			game.Cell{Key: "lp", Text: strconv.Itoa(c.LP), Number: true},
			game.Cell{Key: "mp", Text: strconv.Itoa(c.MP), Number: true})
	case Tactic:
		f.Badge, f.BadgeSub = strconv.Itoa(c.MP), "MP"
		f.TypeLine = "Tactic"
		cells = append(cells, game.Cell{Key: "mp", Text: strconv.Itoa(c.MP), Number: true})
	case Commander:
		f.Badge, f.BadgeSub = strconv.Itoa(c.MP), "MP"
		var hosts []string
		for k := 1; k <= NumClasses; k++ {
			if c.Host&(1<<(k-1)) != 0 {
				hosts = append(hosts, classNames[k])
			}
		}
		f.TypeLine = "Commander · on a class " + strings.Join(hosts, "/") + " ship"
		cells = append(cells, game.Cell{Key: "mp", Text: strconv.Itoa(c.MP), Number: true})
	}
	cells = append(cells, game.Cell{Key: "text", Text: f.Text}, game.Cell{Key: "copies", Text: strconv.Itoa(copies), Number: true})
	f.Cells = cells
	return f
}

// cardText is the card's own text, or its effects in words when it has
// none; a limited card says so.
func (rs *Ruleset) cardText(c *Card) string {
	t := c.Text
	if t == "" {
		var parts []string
		for _, e := range c.Effects {
			switch e.Do {
			case MP:
				parts = append(parts, fmt.Sprintf("Gain %d MP.", e.Amount))
			default:
				parts = append(parts, handlers[e.Do].doc+".")
			}
		}
		t = strings.Join(parts, " ")
	}
	if lim := rs.LimitOf(c); lim == 1 {
		t = strings.TrimSpace(t + " (At most one per deck.)")
	}
	return t
}

// valueColumns are cards.csv's columns of a card's measured value (print
// --with-values): what it plays like in MP and the 95% interval.
var valueColumns = []string{"value_mp", "value_mp_lo", "value_mp_hi"}

// cardValue is what a face prints of a card's measured value: results.json's
// cards[].value.power, in the Valuer's unit of Step MP (the ruleset's
// step, set on reading), with its interval.
type cardValue struct {
	Power     float64    `json:"power"`
	PowerCI95 [2]float64 `json:"power_ci95"`
	Step      float64    `json:"-"`
}

// line is the value in MP, as the report says it: "plays like a 140-MP
// card [95, 185]".
func (cv cardValue) line() string {
	s := fmt.Sprintf("plays like a %.0f-MP card", cv.Power*cv.Step)
	if ci := cv.PowerCI95; ci[0] != 0 || ci[1] != 0 {
		s += fmt.Sprintf(" [%.0f, %.0f]", ci[0]*cv.Step, ci[1]*cv.Step)
	}
	return s
}

// FacesWithValues implements game.ValueFacer: the faces of Faces with each
// card's measured value from a report's results.json (the card-value
// experiment's, in MP) on every copy of it. A card's value depends on the
// whole ruleset — the deck it is drawn with, the rules its MP is spent
// under — so values measured on other files than these are refused rather
// than printed by card id.
func (Game) FacesWithValues(grs game.Ruleset, file string) (*game.FaceSet, *game.ValueNotes, error) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return nil, nil, fmt.Errorf("spacetrace: faces of a %s ruleset", grs.Game())
	}
	cards, err := (game.ValuesOf{Prefix: "spacetrace", ID: ID, Name: "Spacetrace", Whose: "a card's"}).ReadResultCards(file, rs.Hash)
	if err != nil {
		return nil, nil, err
	}
	values := map[string]cardValue{}
	notes := &game.ValueNotes{HashMatches: true}
	for _, c := range cards {
		if c.Value == nil {
			continue
		}
		if rs.CardIndex(c.ID) < 0 {
			if !slices.Contains(notes.Unknown, c.ID) {
				notes.Unknown = append(notes.Unknown, c.ID)
			}
			continue
		}
		var v cardValue
		if err := json.Unmarshal(c.Value, &v); err != nil {
			return nil, nil, fmt.Errorf("spacetrace: %s: not a results.json: %v", file, err)
		}
		v.Step = float64(rs.valueStep())
		values[c.ID] = v
	}
	if len(values) == 0 {
		return nil, nil, fmt.Errorf("spacetrace: %s has no card values (cards[].value, docs/metrics.md \"Card value\"): it comes from a run that did not estimate them", file)
	}
	return rs.faces(values), notes, nil
}

var _ game.ValueFacer = Game{}

// CardFace implements game.CardFacer: a card as its deck would print it,
// with no deck's name in the footer and no copies.
func (Game) CardFace(grs game.Ruleset, id string) (game.Face, bool) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return game.Face{}, false
	}
	for i := range rs.Defs {
		if rs.Defs[i].ID == id {
			return rs.face(&rs.Defs[i], 0, ""), true
		}
	}
	return game.Face{}, false
}
