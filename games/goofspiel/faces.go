package goofspiel

import (
	"fmt"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// handColors tell the players' hands apart on the table: every hand holds
// the same values, so a bid put back in the wrong hand is seen at once.
// layout.yaml's colors.factions.player gives all hands one colour instead.
var handColors = [game.MaxSeats]string{"#1f5fa8", "#b22222", "#2e7d32", "#6a1b9a"}

// csvHeader is Goofspiel's cards.csv: a row per bid card of every hand,
// then per prize card.
var csvHeader = []string{"id", "deck", "name", "kind", "value", "text", "copies", "color", "back"}

// Faces implements game.Facer: a hand of bid cards 1..cards for each of
// the most players the ruleset allows (each in its own colour, so a table
// of any size can play from one print), and the prize deck, one card per
// prize in rules.yaml's order. The badge is the card's value.
func (Game) Faces(grs game.Ruleset) (*game.FaceSet, error) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return nil, fmt.Errorf("goofspiel: faces of a %s ruleset", grs.Game())
	}
	s := &game.FaceSet{Name: rs.Name, Version: rs.Version, CSV: csvHeader}
	tie := "a tie for highest discards the prize"
	if rs.Ties == Carry {
		tie = "a tie for highest carries the prize's points to the next prize"
	}
	bidText := "Every player bids one card face down; the bids are shown at once. The single highest bid takes the prize; " + tie + ". A card bid is spent."
	for p := 1; p <= rs.MaxPlayers; p++ {
		player := "Player " + strconv.Itoa(p)
		stem := "hand-" + strconv.Itoa(p)
		d := game.Deck{ID: stem, Name: player + "'s hand", Stem: stem,
			Back: game.Back{Title: player, Side: "player", Color: handColors[p-1]}}
		for v := 1; v <= rs.HandSize; v++ {
			val := strconv.Itoa(v)
			d.Faces = append(d.Faces, game.Face{
				ID: "bid-" + val, Name: "Bid " + val, Badge: val,
				TypeLine: fmt.Sprintf("Bid card · %s · hand of %d", player, rs.HandSize),
				Text:     bidText, Footer: player, Side: "player", Color: handColors[p-1], Copies: 1,
				Cells: []game.Cell{{Key: "id", Text: "bid-" + val}, {Key: "name", Text: "Bid " + val},
					{Key: "kind", Text: "bid"}, {Key: "value", Text: val, Number: true},
					{Key: "text", Text: bidText}, {Key: "copies", Text: "1", Number: true}},
			})
		}
		s.Decks = append(s.Decks, d)
	}
	prizes := game.Deck{ID: "prizes", Name: "Prizes", Stem: "prizes", Back: game.Back{Title: "Prize"}}
	for i, v := range rs.Prizes {
		val := strconv.Itoa(v)
		id := "prize-" + strconv.Itoa(i+1) // by position: two prizes may be worth the same
		points := "points"
		if v == 1 {
			points = "point"
		}
		text := fmt.Sprintf("Shuffle the prizes face down and turn one up each turn. The single highest bid takes its %s %s.", val, points)
		prizes.Faces = append(prizes.Faces, game.Face{
			ID: id, Name: "Prize " + val, Badge: val, BadgeSub: "pts",
			TypeLine: fmt.Sprintf("Prize card · deck of %d", len(rs.Prizes)),
			Text:     text, Footer: "Prize", Copies: 1,
			Cells: []game.Cell{{Key: "id", Text: id}, {Key: "name", Text: "Prize " + val},
				{Key: "kind", Text: "prize"}, {Key: "value", Text: val, Number: true},
				{Key: "text", Text: text}, {Key: "copies", Text: "1", Number: true}},
		})
	}
	s.Decks = append(s.Decks, prizes)
	return s, nil
}
