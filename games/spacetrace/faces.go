package spacetrace

import (
	"fmt"
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
	s := &game.FaceSet{Name: rs.Name, Version: rs.Version, CSV: facesCSV}
	for p := 0; p < 2; p++ {
		player := "Player " + strconv.Itoa(p+1)
		for _, d := range rs.Decks {
			stem := d.ID + "-" + strconv.Itoa(p+1)
			deck := game.Deck{ID: stem, Name: d.Name + " · " + player, Stem: stem,
				Back: game.Back{Title: "Spacetrace", Color: playerColors[p]}}
			for _, e := range d.Entries {
				deck.Faces = append(deck.Faces, rs.face(&rs.Defs[e.Card], e.Copies, d.Name))
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
	return s, nil
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
