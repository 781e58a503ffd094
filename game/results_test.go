package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadResultCards takes a results.json of its own game and ruleset only,
// refuses what cardlab never writes, and keeps a card without a value
// as one with none.
func TestReadResultCards(t *testing.T) {
	w := ValuesOf{Prefix: "mygame", ID: "mygame", Name: "My Game", Whose: "a card's"}
	for _, tc := range []struct {
		name, json, err string
		cards           int
	}{
		{"ok", `{"tool_version":"t","ruleset":{"game":"mygame","hash":"h"},"cards":[{"id":"a","value":{"power":1}},{"id":"b","value":null},{"id":"c"}]}`, "", 3},
		{"other game", `{"tool_version":"t","ruleset":{"game":"spacetrace","hash":"h"},"cards":[]}`, "holds a spacetrace ruleset's results, not My Game's", 0},
		{"the default game", `{"tool_version":"t","ruleset":{"hash":"h"},"cards":[]}`, "holds a " + DefaultID + " ruleset's results", 0},
		{"other files", `{"tool_version":"t","ruleset":{"game":"mygame","hash":"other"},"cards":[]}`, "measured on other files than these", 0},
		{"twice", `{"tool_version":"t","ruleset":{"game":"mygame","hash":"h"},"cards":[{"id":"a","value":{"power":1}},{"id":"a","value":{"power":2}}]}`, `card "a" appears twice`, 0},
		{"no cards", `{"tool_version":"t","ruleset":{"game":"mygame","hash":"h"}}`, "no tool_version or cards", 0},
		{"not json", `{"tool_version":`, "not a results.json", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "results.json")
			if err := os.WriteFile(file, []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			cards, err := w.ReadResultCards(file, "h")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "mygame: ") {
					t.Fatalf("err %v, want one prefixed mygame: saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cards) != tc.cards || cards[0].Value == nil || cards[1].Value != nil || cards[2].Value != nil {
				t.Fatalf("cards %+v", cards)
			}
		})
	}
}

func writeResults(t testing.TB, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// ReadResult gives the cards and the report's catalog of a results file
// of this game and these files; a broken report refuses ReadResult (whose
// caller reads the catalog) but not ReadResultCards (whose callers read
// only the cards, as before the catalog was read).
func TestReadResult(t *testing.T) {
	w := ValuesOf{Prefix: "g", ID: "g", Name: "G", Whose: "a card's"}
	head := `{"tool_version":"x","ruleset":{"game":"g","hash":"h"},"cards":[{"id":"a","value":{"power":1}},{"id":"b","value":null}]`
	r, err := w.ReadResult(writeResults(t, head+`,"report":{"catalog":{"k":{"t":[1]}}}}`), "h")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cards) != 2 || r.Cards[0].ID != "a" || string(r.Cards[0].Value) != `{"power":1}` || r.Cards[1].Value != nil || string(r.Catalog["k"]) != `{"t":[1]}` {
		t.Errorf("result %+v", r)
	}
	r, err = w.ReadResult(writeResults(t, head+`}`), "h")
	if err != nil || r.Catalog != nil || len(r.Cards) != 2 {
		t.Errorf("no report: %+v, %v", r, err)
	}
	broken := writeResults(t, head+`,"report":[1]}`)
	if _, err := w.ReadResult(broken, "h"); err == nil || !strings.HasPrefix(err.Error(), "g: ") || !strings.Contains(err.Error(), "not a results.json: report") {
		t.Errorf("a broken report: %v", err)
	}
	if cards, err := w.ReadResultCards(broken, "h"); err != nil || len(cards) != 2 {
		t.Errorf("ReadResultCards of a broken report: %v, %v", cards, err)
	}
	for _, tc := range []struct{ body, hash, want string }{
		{head + `}`, "other", "measured on other files"},
		{`{"tool_version":"x","ruleset":{"game":"z"},"cards":[]}`, "h", "holds a z ruleset's results, not G's"},
		{`{"tool_version":"x","cards":[]}`, "h", "holds a alphatactics ruleset's results"},
		{`{"cards":[]}`, "h", "no tool_version or cards"},
		{`[1]`, "h", "not a results.json"},
	} {
		if _, err := w.ReadResult(writeResults(t, tc.body), tc.hash); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.body, err, tc.want)
		}
	}
}

// ReadResult reads files a designer names: whatever one holds, an answer
// or an error, never a panic; an answer is of this game and these files.
func FuzzReadResult(f *testing.F) {
	for _, s := range []string{`{"tool_version":"x","ruleset":{"game":"g","hash":"h"},"cards":[],"report":{"catalog":{"k":1}}}`,
		`{"tool_version":"x","ruleset":{"game":"g","hash":"h"},"cards":[{"id":"a"}],"report":null}`, `[1]`, ``} {
		f.Add([]byte(s))
	}
	w := ValuesOf{Prefix: "g", ID: "g", Name: "G", Whose: "a card's"}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := w.ReadResult(writeResults(t, string(data)), "h")
		if err != nil {
			return
		}
		if r == nil || r.Cards == nil {
			t.Fatalf("no error, but %+v", r)
		}
	})
}
