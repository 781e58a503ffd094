package goofspiel

import (
	"encoding/json"
	"fmt"
	"slices"
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
	return faces(rs, nil), nil
}

// faces words rs's cards; values (nil: none) are the bid cards' measured
// values by face value, printed on every hand's card of that value and in
// cards.csv.
func faces(rs *Ruleset, values map[int]cardValue) *game.FaceSet {
	s := &game.FaceSet{Name: rs.Name, Version: rs.Version, CSV: csvHeader}
	if values != nil {
		s.CSV = append(slices.Clone(csvHeader), valueColumns...)
		s.ValueLegend = "The corner figure \"plays like N bid points [low, high]\" is the bid card's value measured by simulation, with its 95% interval"
	}
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
			f := game.Face{
				ID: "bid-" + val, Name: "Bid " + val, Badge: val,
				TypeLine: fmt.Sprintf("Bid card · %s · hand of %d", player, rs.HandSize),
				Text:     bidText, Footer: player, Side: "player", Color: handColors[p-1], Copies: 1,
				Cells: []game.Cell{{Key: "id", Text: "bid-" + val}, {Key: "name", Text: "Bid " + val},
					{Key: "kind", Text: "bid"}, {Key: "value", Text: val, Number: true},
					{Key: "text", Text: bidText}, {Key: "copies", Text: "1", Number: true}},
			}
			if cv, ok := values[v]; ok {
				f.Value = cv.line()
				f.Cells = append(f.Cells,
					game.Cell{Key: "value_bid", Text: fmt.Sprintf("%.2f", cv.Power), Number: true},
					game.Cell{Key: "value_bid_lo", Text: fmt.Sprintf("%.2f", cv.PowerCI95[0]), Number: true},
					game.Cell{Key: "value_bid_hi", Text: fmt.Sprintf("%.2f", cv.PowerCI95[1]), Number: true})
			}
			d.Faces = append(d.Faces, f)
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
	return s
}

// valueColumns are cards.csv's columns of a bid card's measured value
// (print --with-values): the value in bid points and its 95% interval.
var valueColumns = []string{"value_bid", "value_bid_lo", "value_bid_hi"}

// cardValue is what a face prints of a card's measured value: results.json's
// cards[].value.power, which for Goofspiel is in bid points (the Valuer's
// unit), with its interval.
type cardValue struct {
	Power     float64    `json:"power"`
	PowerCI95 [2]float64 `json:"power_ci95"`
}

func (cv cardValue) line() string {
	s := fmt.Sprintf("plays like %.1f bid points", cv.Power)
	if ci := cv.PowerCI95; ci[0] != 0 || ci[1] != 0 {
		s += fmt.Sprintf(" [%.1f, %.1f]", ci[0], ci[1])
	}
	return s
}

// FacesWithValues implements game.ValueFacer: the faces of Faces with each
// bid card's measured value from a report's results.json (the card-value
// experiment's, in bid points) on every hand's card of that value. A bid
// card's value depends on the whole ruleset — the prizes it bids for, the
// cards it bids against — so values measured on other files than these are
// refused rather than printed by card id.
func (Game) FacesWithValues(grs game.Ruleset, file string) (*game.FaceSet, *game.ValueNotes, error) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return nil, nil, fmt.Errorf("goofspiel: faces of a %s ruleset", grs.Game())
	}
	cards, err := (game.ValuesOf{Prefix: "goofspiel", ID: ID, Name: "Goofspiel", Whose: "a bid card's"}).ReadResultCards(file, rs.Hash)
	if err != nil {
		return nil, nil, err
	}
	values := map[int]cardValue{}
	notes := &game.ValueNotes{HashMatches: true}
	for _, c := range cards {
		var v int
		if n, err := fmt.Sscanf(c.ID, "bid-%d", &v); n != 1 || err != nil || v < 1 || v > rs.HandSize || c.ID != "bid-"+strconv.Itoa(v) {
			if !slices.Contains(notes.Unknown, c.ID) && !isPrizeID(rs, c.ID) {
				notes.Unknown = append(notes.Unknown, c.ID)
			}
			continue
		}
		if c.Value != nil {
			var cv cardValue
			if err := json.Unmarshal(c.Value, &cv); err != nil {
				return nil, nil, fmt.Errorf("goofspiel: %s: not a results.json: %v", file, err)
			}
			values[v] = cv
		}
	}
	if len(values) == 0 {
		return nil, nil, fmt.Errorf("goofspiel: %s has no card values (cards[].value, docs/metrics.md \"Card value\"): it comes from a run that did not estimate them", file)
	}
	return faces(rs, values), notes, nil
}

// isPrizeID reports whether id names one of rs's prize cards (prize-N),
// which the results list without a value.
func isPrizeID(rs *Ruleset, id string) bool {
	for i := range rs.Prizes {
		if id == "prize-"+strconv.Itoa(i+1) {
			return true
		}
	}
	return false
}
