package faces

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// A value measured on a card that was edited since is not printed: by the
// stored play hash, or in an older results.json by its catalog entry.
func TestReadValuesStale(t *testing.T) {
	rs, err := rules.LoadDir("../../../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	a, b := &rs.Cards[0], &rs.Cards[1]
	edited := *b
	edited.Power++
	file := filepath.Join(t.TempDir(), "results.json")
	for _, tt := range []struct {
		name, json string
	}{
		{"play hash", fmt.Sprintf(`{"tool_version":"t","cards":[{"id":%q,"value":{"power":5,"card_hash":%q}},{"id":%q,"value":{"power":6,"card_hash":%q}}]}`,
			a.ID, rs.PlayHash(a), b.ID, rs.PlayHash(&edited))},
		{"catalog", fmt.Sprintf(`{"tool_version":"t","cards":[{"id":%q,"value":{"power":5}},{"id":%q,"value":{"power":6}}],
			"report":{"catalog":{"cards":[{"id":%q,"type":%q,"kind":%q,"power":%d,"copies":%d,"effect":%q},{"id":%q,"type":%q,"kind":%q,"power":%d,"copies":%d}]}}}`,
			a.ID, b.ID, a.ID, a.Type, a.Kind, a.Power, a.Copies, handler(a), b.ID, b.Type, b.Kind, b.Power+1, b.Copies)},
	} {
		os.WriteFile(file, []byte(tt.json), 0o644)
		v, err := ReadValues(file, rs)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !slices.Equal(v.Stale, []string{b.ID}) || v.Lines[b.ID] != StaleLine || v.Found != 1 {
			t.Errorf("%s: stale %v, line %q, found %d; want only %s stale", tt.name, v.Stale, v.Lines[b.ID], v.Found, b.ID)
		}
		if _, ok := v.Cards[b.ID]; ok || v.Lines[a.ID] == "" || v.Lines[a.ID] == StaleLine {
			t.Errorf("%s: the unedited card's line %q, the edited card's value kept: %v", tt.name, v.Lines[a.ID], ok)
		}
	}
}

func handler(c *rules.Card) string {
	if c.Effect == nil {
		return ""
	}
	return c.Effect.Handler
}

// ReadValues never panics on a file that is not a results.json, and what
// it accepts is consistent: every value it words is a card of the ruleset,
// every card it counts found has a line and a value, a stale card no value.
func FuzzReadValues(f *testing.F) {
	rs, err := rules.LoadDir("../../../testdata/rulesets/minimal")
	if err != nil {
		f.Fatal(err)
	}
	a := &rs.Cards[0]
	for _, s := range []string{
		fmt.Sprintf(`{"tool_version":"t","ruleset":{"hash":%q},"cards":[{"id":%q,"value":{"power":5,"power_ci95":[4,6],"card_hash":%q}},{"id":"nope","value":{"power":1}}]}`, rs.Hash, a.ID, rs.PlayHash(a)),
		fmt.Sprintf(`{"tool_version":"t","cards":[{"id":%q,"value":{"power":5}}],"report":{"catalog":{"cards":[{"id":%q,"power":-1}]}}}`, a.ID, a.ID),
		fmt.Sprintf(`{"tool_version":"t","cards":[{"id":%q,"value":{"power":5}},{"id":%q,"value":{"power":6,"card_hash":"x"}}]}`, a.ID, a.ID),
		`{"tool_version":"t","cards":[]}`, `{"cards":null}`, `[1]`, `{"tool_version":"t","cards":[{"id":null,"value":{"power":"x"}}]}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "results.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := ReadValues(file, rs)
		if err != nil {
			return
		}
		if v.Found == 0 && len(v.Stale) == 0 {
			t.Fatalf("no error, but no value found: %+v", v)
		}
		if v.Found != len(v.Cards) {
			t.Fatalf("found %d, but %d values", v.Found, len(v.Cards))
		}
		for id := range v.Cards {
			if _, ok := rs.CardByID(id); !ok || v.Lines[id] == "" || v.Lines[id] == StaleLine {
				t.Fatalf("value of %q: in the ruleset %v, line %q", id, ok, v.Lines[id])
			}
		}
		for _, id := range v.Stale {
			if _, ok := v.Cards[id]; ok || v.Lines[id] != StaleLine {
				t.Fatalf("stale %q has a value or line %q", id, v.Lines[id])
			}
		}
	})
}
