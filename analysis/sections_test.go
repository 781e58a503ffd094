package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestCountsJSONRoundTrip: counts read back write the same bytes, and a
// file whose keys another program reordered (a JSON tool that sorts them)
// reads back to the counts in their game's order, so its checksum is the
// one cardlab wrote.
func TestCountsJSONRoundTrip(t *testing.T) {
	res, err := Run(context.Background(), Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan", "klingon"}},
		Games: 12, Seed: 4, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report("test")
	want, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, sorted := range []bool{false, true} {
		data := want
		if sorted {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			data, _ = json.Marshal(m) // keys sorted: "cards" before "targets", "captures" first
			if bytes.Equal(data, want) {
				t.Fatal("sorting the keys changed nothing: the test tests nothing")
			}
		}
		got, err := DecodeReport("r.json", data)
		if err != nil {
			t.Fatal(err)
		}
		if err := got.Verify(); err != nil {
			t.Fatalf("sorted %v: %v", sorted, err)
		}
		again, _ := json.Marshal(got)
		if !bytes.Equal(again, want) {
			t.Errorf("sorted %v: read and written again, the report differs", sorted)
		}
	}
}

// TestCountsRefuseForeignSections: a section the game does not count, a
// column it does not have, or a missing section is refused by Check.
func TestCountsRefuseForeignSections(t *testing.T) {
	res, err := Run(context.Background(), Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: 4, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res.Report("test"))
	for _, tt := range []struct{ name, from, to, want string }{
		{"unknown section", `"targets":[`, `"prizes":[`, "raw.prizes: not a count of game alphatactics"},
		{"unknown column", `"laid":`, `"layed":`, "raw.targets: its columns differ"},
		{"a row's keys differ", `"won":`, `"wan":`, "the row's keys differ from the first row's"},
		{"not an integer", `"passes":`, `"passes":0.5,"x":`, "number 0.5"},
	} {
		// Edit the raw counts, not the figures before them.
		at := strings.Index(string(data), `"raw":`)
		head, raw := string(data[:at]), string(data[at:])
		raw = strings.Replace(raw, tt.from, tt.to, 1)
		if tt.name == "unknown column" { // in every row
			raw = strings.ReplaceAll(raw, tt.from, tt.to)
		}
		if tt.name == "a row's keys differ" { // the second row's, not the first's
			raw = strings.Replace(strings.Replace(raw, tt.from, tt.to, 1), tt.to, tt.from, 1)
		}
		ed := []byte(head + raw)
		rep, err := DecodeReport("r.json", ed)
		if err == nil {
			err = rep.Raw.Check()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

// TestSectionLabelsEncodeAsFields: a label with characters JSON or HTML
// escape comes out as a struct field of the same text would, with
// encoding/json's HTML escaping on (json.Marshal, the checksum) and off
// (cardlab's files): the bytes of results before the split.
func TestSectionLabelsEncodeAsFields(t *testing.T) {
	for _, name := range []string{"plain", `Q&A <b>"x"\y`, "Čapek\u2028line\tx\x01", "bad \xff utf-8"} {
		c := Counts{Sections: []game.Section{{Key: "targets", Labels: []string{"id", "name"},
			Columns: []game.Count{{Key: "laid"}}, Rows: []game.Row{{Labels: []string{"t", name}, Values: []int64{3}}}}}}
		field := struct {
			ID   string `json:"id"`
			Name string `json:"name"`
			Laid int64  `json:"laid"`
		}{"t", name, 3}
		for _, html := range []bool{true, false} {
			enc := func(v any) string {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(html)
				if err := e.Encode(v); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			got, want := enc(c), enc([]any{field})
			at := strings.Index(got, `"targets":`) + len(`"targets":`)
			if !strings.HasPrefix(got[at:], strings.TrimSuffix(want, "\n")) {
				t.Errorf("%q, HTML escaping %v: %s, want %s", name, html, got[at:], want)
			}
		}
	}
}
