package printing

import (
	"fmt"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// deck is one pile of cards sharing a back: a faction's deck or the targets.
type deck struct {
	ID    string // faction id, or "targets"
	Name  string // faction name, or "Targets"
	Faces []int  // indices into set.faces, deck file order
	Back  int    // index into set.backs
	Stem  string // file-name stem, unique among the decks
}

// size is the number of cards in the deck, copies counted.
func (d *deck) size(s *set) int {
	n := 0
	for _, i := range d.Faces {
		n += s.faces[i].Copies
	}
	return n
}

// set is everything to print: every face, the decks, the backs.
type set struct {
	rs    *rules.Ruleset
	faces []face
	decks []deck
	backs []back
	// values are the measured card values (--with-values), for the CSV.
	values map[string]analysis.CardValue
}

// newSet words every card of rs for printing, with the measured values
// when values is not nil.
func newSet(rs *rules.Ruleset, lay *Layout, values *Values) *set {
	s := &set{rs: rs}
	if values != nil {
		s.values = values.Cards
	}
	game := rs.Name
	if rs.Version != "" {
		game += " " + rs.Version
	}
	stems := map[string]bool{}
	for fi := range rs.Factions {
		f := &rs.Factions[fi]
		d := deck{ID: f.ID, Name: f.Name, Back: fi, Stem: f.ID}
		stems[f.ID] = true
		for _, ci := range f.Deck {
			fc := playerFace(rs, lay, &rs.Cards[ci])
			fc.Value = values.line(fc.ID)
			d.Faces = append(d.Faces, len(s.faces))
			s.faces = append(s.faces, fc)
		}
		s.decks = append(s.decks, d)
		s.backs = append(s.backs, back{Title: f.Name, Subtitle: game, Color: lay.FactionColor(f), File: f.ID})
	}
	if len(rs.Targets) > 0 {
		stem := "targets"
		for i := 2; stems[stem]; i++ {
			stem = fmt.Sprintf("targets-%d", i) // a faction may be called "targets"
		}
		d := deck{ID: "targets", Name: "Targets", Back: len(s.backs), Stem: stem}
		for ti := range rs.Targets {
			d.Faces = append(d.Faces, len(s.faces))
			s.faces = append(s.faces, targetFace(rs, lay, &rs.Targets[ti]))
		}
		s.decks = append(s.decks, d)
		s.backs = append(s.backs, back{Title: "Target", Subtitle: game, Color: lay.Colors.Targets, File: stem})
	}
	return s
}
