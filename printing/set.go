package printing

import (
	"fmt"
	"regexp"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// face is a game's face as printed: its colour resolved for the layout.
type face struct {
	game.Face
	Back int // index into the set's backs
}

// back is the design on the reverse of a deck's cards.
type back struct {
	Title    string // faction name or "Target"
	Subtitle string // the game's name
	Color    string
	File     string // file-name stem
}

// deck is one pile of cards sharing a back: a faction's deck or the targets.
type deck struct {
	ID    string
	Name  string
	Faces []int // indices into set.faces, in the game's order
	Back  int   // index into set.backs
	Stem  string
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
	name, version string
	faces         []face
	decks         []deck
	backs         []back
	csv           []string // cards.csv's header
}

// reFileName is what a deck's stem and a card's id must look like: they
// name files, so no path separators, dots or upper case (two names that
// differ only in case are one file on some systems).
var reFileName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// newSet takes a game's faces for the layout: each colour resolved, a
// back per deck. A deck stem or card id that cannot name a file, or names
// one twice, is the game's error.
func newSet(fs *game.FaceSet, lay *Layout) (*set, error) {
	s := &set{name: fs.Name, version: fs.Version, csv: fs.CSV}
	game := fs.Name
	if fs.Version != "" {
		game += " " + fs.Version
	}
	stems := map[string]bool{}
	for di := range fs.Decks {
		gd := &fs.Decks[di]
		if !reFileName.MatchString(gd.Stem) || len(gd.Stem) > cards.MaxIDLen || stems[gd.Stem] {
			return nil, fmt.Errorf("printing: deck %q: file name %q is taken or not a lower-case name of letters, digits, - and _", cards.Truncate(gd.ID), cards.Truncate(gd.Stem))
		}
		stems[gd.Stem] = true
		d := deck{ID: gd.ID, Name: gd.Name, Back: len(s.backs), Stem: gd.Stem}
		ids := map[string]bool{}
		for _, gf := range gd.Faces {
			if !reFileName.MatchString(gf.ID) || len(gf.ID) > cards.MaxIDLen || ids[gf.ID] {
				return nil, fmt.Errorf("printing: deck %q: card id %q is taken or not a lower-case name of letters, digits, - and _", cards.Truncate(gd.ID), cards.Truncate(gf.ID))
			}
			ids[gf.ID] = true
			f := face{Face: gf, Back: d.Back}
			f.Color = lay.sideColor(gf.Side, gf.Color)
			d.Faces = append(d.Faces, len(s.faces))
			s.faces = append(s.faces, f)
		}
		s.decks = append(s.decks, d)
		s.backs = append(s.backs, back{Title: gd.Back.Title, Subtitle: game, Color: lay.sideColor(gd.Back.Side, gd.Back.Color), File: gd.Stem})
	}
	return s, nil
}
