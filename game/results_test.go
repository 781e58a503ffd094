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
