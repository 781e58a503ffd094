package spacetrace

import (
	"slices"
	"strings"
	"testing"
)

// TestFaces: each deck once per player and each player's Base; a ship's
// face shows its class, ships × AP/LP and totals, its cost as the badge and
// its type's colour; every cell is a column of cards.csv.
func TestFaces(t *testing.T) {
	for _, name := range []string{DefaultRuleset, SecondRuleset, ReferenceRuleset} {
		rs := Embedded(name)
		fs, err := Game{}.Faces(rs)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs.Decks) != 2*(len(rs.Decks)+1) {
			t.Fatalf("%s: %d decks", name, len(fs.Decks))
		}
		n := 0
		for _, d := range fs.Decks {
			for _, f := range d.Faces {
				n += f.Copies
				for _, c := range f.Cells {
					if !slices.Contains(fs.CSV, c.Key) {
						t.Fatalf("%s: cell %q is no cards.csv column", name, c.Key)
					}
				}
				if f.ID == "cruiser" && (f.Badge != "100" || f.TypeLine != "Ship · class III · 2 × 50/50 (100/100)" || f.Color != typeColors[Ship]) {
					t.Fatalf("cruiser face %+v", f)
				}
				if f.ID == "kamikaze" && !strings.Contains(f.Text, "At most one per deck") {
					t.Fatalf("kamikaze text %q", f.Text)
				}
			}
		}
		if want := 2 * (len(rs.Decks[0].List) + 1); n != want {
			t.Fatalf("%s: %d cards printed, want %d", name, n, want)
		}
	}
}
