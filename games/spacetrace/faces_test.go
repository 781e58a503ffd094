package spacetrace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// TestFaces: each deck once per player and each player's Base; a ship's
// face shows its class, ships × AP/LP and totals, its cost as the badge and
// its type's colour; every cell is a column of cards.csv.
func TestFaces(t *testing.T) {
	for _, name := range []string{FirstRuleset, SecondRuleset, ReferenceRuleset} {
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

// TestFacesWithValues: a card's value prints in MP on every copy of it in
// both players' decks and in cards.csv; an id the ruleset lacks is noted;
// a file of other rules, of another game or without values is refused.
func TestFacesWithValues(t *testing.T) {
	rs := First()
	write := func(s string) string {
		file := filepath.Join(t.TempDir(), "results.json")
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	head := `{"tool_version":"x","ruleset":{"game":"spacetrace","hash":"` + rs.Hash + `"},"cards":`
	fs, notes, err := Game{}.FacesWithValues(rs, write(head+`[{"id":"fighters","value":{"power":10.63,"power_ci95":[6.42,14.71]}},{"id":""},{"id":"nope","value":{"power":1}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !notes.HashMatches || !slices.Equal(notes.Unknown, []string{"nope"}) {
		t.Errorf("notes %+v", notes)
	}
	if !slices.Contains(fs.CSV, "value_mp") {
		t.Errorf("cards.csv header %v", fs.CSV)
	}
	n := 0
	for _, d := range fs.Decks {
		for _, f := range d.Faces {
			switch {
			case f.ID == "fighters":
				n++
				if f.Value != "plays like a 106-MP card [64, 147]" || !slices.Contains(f.Cells, game.Cell{Key: "value_mp", Text: "106", Number: true}) {
					t.Errorf("fighters in %s: value %q, cells %v", d.ID, f.Value, f.Cells)
				}
			case f.Value != "":
				t.Errorf("%s carries a value %q", f.ID, f.Value)
			}
		}
	}
	if n != 2 {
		t.Errorf("fighters printed with a value in %d decks, want both players'", n)
	}
	for _, tc := range []struct{ body, want string }{
		{strings.Replace(head, rs.Hash, "0123456789", 1) + `[{"id":"fighters","value":{"power":1}}]}`, "measured on other files"},
		{`{"tool_version":"x","ruleset":{"game":"goofspiel"},"cards":[]}`, "goofspiel ruleset's results"},
		{head + `[{"id":"fighters"}]}`, "has no card values"},
		{`{"cards":[]}`, "not a results.json"},
		{`[1]`, "not a results.json"},
	} {
		if _, _, err := (Game{}).FacesWithValues(rs, write(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "spacetrace: ") {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

// FacesWithValues reads a results file a designer may have edited or
// mistaken: whatever it holds, it answers faces or an error, never a
// panic, and prints values only on this ruleset's cards.
func FuzzFacesWithValues(f *testing.F) {
	rs := First()
	ok := `{"tool_version":"x","ruleset":{"game":"spacetrace","hash":"` + rs.Hash + `"},"cards":[{"id":"fighters","value":{"power":2.5,"power_ci95":[1,4]}},{"id":""},{"id":"x","value":{"power":1}}]}`
	for _, s := range []string{ok, `{"tool_version":"x","cards":[]}`, `{"ruleset":{"game":"alphatactics"}}`, `[1]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "results.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		set, notes, err := Game{}.FacesWithValues(rs, file)
		if err != nil {
			return
		}
		if set == nil || notes == nil || !notes.HashMatches {
			t.Fatalf("no error, but faces %v, notes %+v", set, notes)
		}
		for _, d := range set.Decks {
			for _, fc := range d.Faces {
				if fc.Value != "" && (fc.ID == "base" || rs.CardIndex(fc.ID) < 0) {
					t.Fatalf("%s carries a value %q", fc.ID, fc.Value)
				}
			}
		}
	})
}
