package goofspiel

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/printing"
)

// The faces a playtester cuts out: a hand of bid cards 1..cards for each of
// the most players, each hand in its own colour, and the prize deck in
// rules.yaml's order; the badge is the card's value, and the rules reminder
// follows the tie rule.
func TestFaces(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		tie        string
	}{
		{"default", "", "discards the prize"},
		{"custom", "game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 3}\ncards: 5\nprizes: [0, 7, 7]\nties: carry\n", "carries the prize's points"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := Default()
			if tc.yaml != "" {
				rs = rules(t, tc.yaml)
			}
			fs, err := Game{}.Faces(rs)
			if err != nil {
				t.Fatal(err)
			}
			if fs.Name != rs.Name || fs.Version != rs.Version || len(fs.Decks) != rs.MaxPlayers+1 {
				t.Fatalf("%s %s, %d decks; want %d hands and the prizes", fs.Name, fs.Version, len(fs.Decks), rs.MaxPlayers)
			}
			colors := map[string]bool{}
			for p, d := range fs.Decks[:rs.MaxPlayers] {
				if len(d.Faces) != rs.HandSize || d.Back.Title != "Player "+strconv.Itoa(p+1) {
					t.Errorf("hand %d: %d faces, back %q; want %d", p+1, len(d.Faces), d.Back.Title, rs.HandSize)
				}
				colors[d.Back.Color] = true
				for i, f := range d.Faces {
					v := strconv.Itoa(i + 1)
					if f.Badge != v || f.ID != "bid-"+v || f.Copies != 1 || f.Color != d.Back.Color || f.Side != "player" ||
						!strings.Contains(f.Text, tc.tie) || !slices.Contains(f.Cells, game.Cell{Key: "value", Text: v, Number: true}) {
						t.Errorf("hand %d, card %d: %+v", p+1, i+1, f)
					}
				}
			}
			if len(colors) != rs.MaxPlayers {
				t.Errorf("hands share colours: %v", colors)
			}
			prizes := fs.Decks[rs.MaxPlayers]
			var badges, ids []string
			for _, f := range prizes.Faces {
				badges, ids = append(badges, f.Badge), append(ids, f.ID)
				if f.Side != "" || f.Color != "" || f.BadgeSub != "pts" || !strings.Contains(f.Text, "takes its "+f.Badge+" point") {
					t.Errorf("prize %s: %+v", f.ID, f)
				}
			}
			var want []string
			for _, v := range rs.Prizes {
				want = append(want, strconv.Itoa(v))
			}
			slices.Sort(ids)
			if !slices.Equal(badges, want) || len(slices.Compact(ids)) != len(rs.Prizes) {
				t.Errorf("prize badges %v, want %v; ids %v must differ", badges, want, ids)
			}
		})
	}
	if _, err := (Game{}).Faces(fakeRuleset{}); err == nil {
		t.Error("faces of another game's ruleset: no error")
	}
}

type fakeRuleset struct{ game.Ruleset }

func (fakeRuleset) Game() string { return "other" }

// cardlab print for Goofspiel: the game's faces through package printing,
// into cards.csv with a row per card, copies adding up to the decks.
func TestPrintGoofspiel(t *testing.T) {
	rs := rules(t, "game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 3}\ncards: 4\nprizes: [2, 9]\n")
	out := filepath.Join(t.TempDir(), "print")
	res, err := printing.Print(printing.Options{Ruleset: rs, Out: out, Formats: []string{"csv"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Copies != 3*4+2 || len(res.Decks) != 4 || res.Decks[3].ID != "prizes" || res.Decks[0].Name != "Player 1's hand" {
		t.Errorf("result %+v", res)
	}
	f, err := os.Open(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], csvHeader) || len(rows) != 1+3*4+2 {
		t.Fatalf("header %v, %d rows", rows[0], len(rows))
	}
	want := []string{"prize-2", "prizes", "Prize 9", "prize", "9", "", "1", "#4d4d4d", "prizes"}
	last := rows[len(rows)-1]
	last[5] = "" // the reminder text
	if !slices.Equal(last, want) {
		t.Errorf("last row %q, want %q", last, want)
	}
	if got := rows[5]; got[0] != "bid-1" || got[1] != "hand-2" || got[4] != "1" || got[7] != handColors[1] {
		t.Errorf("hand 2's first row %q", got)
	}
}

// FacesWithValues reads a results file a designer may have edited or
// mistaken: whatever it holds, it answers faces or an error, never a
// panic, and the values it prints are only the bid cards' of this
// ruleset.
func FuzzFacesWithValues(f *testing.F) {
	rs := Default()
	ok := `{"tool_version":"x","ruleset":{"game":"goofspiel","hash":"` + rs.Hash + `"},"cards":[{"id":"bid-3","value":{"power":2.5,"power_ci95":[1,4]}},{"id":"prize-1"},{"id":"bid-99","value":{"power":1}}]}`
	for _, s := range []string{ok, `{"tool_version":"x","cards":[]}`, `{"ruleset":{"game":"alphatactics"}}`, `[1]`, ``, `{"tool_version":"x","ruleset":{"game":"goofspiel","hash":"` + rs.Hash + `"},"cards":[{"id":"bid-+3","value":{}}]}`} {
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
				if fc.Value != "" && !strings.HasPrefix(fc.ID, "bid-") {
					t.Fatalf("%s carries a value %q", fc.ID, fc.Value)
				}
			}
		}
	})
}
