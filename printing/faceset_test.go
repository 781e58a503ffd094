package printing

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
)

// A game's deck stems and card ids name files: each must be a lower-case
// file name, a stem unique in the set and an id unique in its deck.
func TestFaceSetChecked(t *testing.T) {
	set := func(stems []string, ids ...string) *game.FaceSet {
		fs := &game.FaceSet{Name: "G"}
		for _, s := range stems {
			d := game.Deck{ID: s, Stem: s}
			for _, id := range ids {
				d.Faces = append(d.Faces, game.Face{ID: id, Copies: 1})
			}
			fs.Decks = append(fs.Decks, d)
		}
		return fs
	}
	lay := DefaultLayout()
	if _, err := newSet(set([]string{"hand-1", "prizes"}, "bid-1", "bid_2"), lay); err != nil {
		t.Fatalf("good names refused: %v", err)
	}
	for name, fs := range map[string]*game.FaceSet{
		"path in a stem":      set([]string{"../x"}, "a"),
		"upper-case stem":     set([]string{"Hand"}, "a"),
		"empty stem":          set([]string{""}, "a"),
		"stem twice":          set([]string{"a", "a"}, "x"),
		"dot in an id":        set([]string{"a"}, "x.png"),
		"slash in an id":      set([]string{"a"}, "x/y"),
		"id twice in a deck":  set([]string{"a"}, "x", "x"),
		"empty id":            set([]string{"a"}, ""),
		"stem beyond the cap": set([]string{strings.Repeat("a", 65)}, "x"),
	} {
		if _, err := newSet(fs, lay); err == nil || !strings.HasPrefix(err.Error(), "printing: deck ") {
			t.Errorf("%s: err = %v, want a printing: deck … error", name, err)
		}
	}
}

// A face's colour: layout.yaml's for its side, else its game's, else the
// colour of cards of no side.
func TestSideColor(t *testing.T) {
	lay := DefaultLayout()
	lay.Colors.Factions["player"] = "#123456"
	for _, tc := range []struct{ side, color, want string }{
		{"player", "#ABCDEF", "#123456"},
		{"other", "#ABCDEF", "#abcdef"},
		{"other", "red", lay.Colors.Targets},
		{"", "", lay.Colors.Targets},
	} {
		if got := lay.sideColor(tc.side, tc.color); got != tc.want {
			t.Errorf("sideColor(%q, %q) = %s, want %s", tc.side, tc.color, got, tc.want)
		}
	}
}

// cards.csv takes a game's columns by key; a cell the game calls a number
// is written as it is only when it is one, every other through the formula
// guard; deck, color and back are printing's.
func TestCSVCells(t *testing.T) {
	fs := &game.FaceSet{Name: "G", CSV: []string{"id", "deck", "n", "t", "missing", "color", "back"}, Decks: []game.Deck{{
		ID: "d", Stem: "d", Faces: []game.Face{{ID: "x", Copies: 1, Color: "#ABCDEF", Cells: []game.Cell{
			{Key: "id", Text: "x"}, {Key: "n", Text: "-1", Number: true}, {Key: "t", Text: "=1+1", Number: true}}}},
	}}}
	st := mustSet(t, fs, DefaultLayout())
	var b bytes.Buffer
	if err := st.writeCSV(&b); err != nil {
		t.Fatal(err)
	}
	if want := "id,deck,n,t,missing,color,back\nx,d,-1,'=1+1,,#abcdef,d\n"; b.String() != want {
		t.Errorf("cards.csv\n%s\nwant\n%s", b.String(), want)
	}
}

// A game without faces is named, not printed blank.
func TestPrintGameWithoutFaces(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	_, err := Print(Options{Ruleset: facelessRuleset{}, Out: out})
	if err == nil || err.Error() != "printing: Faceless's cards have no printed faces yet (its game has no Facer)" {
		t.Errorf("err = %v", err)
	}
}

// faceless is a registered game without a game.Facer.
type faceless struct{}

func init() { game.Register(faceless{}) }

func (faceless) ID() string                               { return "printing-test-faceless" }
func (faceless) Name() string                             { return "Faceless" }
func (faceless) Vocabulary() game.Vocabulary              { return game.Vocabulary{} }
func (faceless) Load(fs.FS, string) (game.Ruleset, error) { return facelessRuleset{}, nil }
func (faceless) Default() (game.Ruleset, fs.FS)           { return facelessRuleset{}, nil }
func (faceless) Effects() *effects.Registry               { return nil }
func (faceless) Schemas() (map[string][]byte, error)      { return nil, nil }

type facelessRuleset struct{ game.Ruleset }

func (facelessRuleset) Game() string { return "printing-test-faceless" }
