package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// catalogGolden is the generated catalog of the embedded default ruleset.
var catalogGolden = filepath.Join("..", "..", "..", "docs", "cards.md")

// TestCatalogUpToDate keeps docs/cards.md in step with the embedded default
// ruleset. Regenerate it with: go test ./cards -run TestCatalogUpToDate -update
func TestCatalogUpToDate(t *testing.T) {
	rs := catalogDefault(t)
	got := Catalog(rs)
	if *update {
		if err := os.WriteFile(catalogGolden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(catalogGolden)
	if err != nil {
		t.Fatalf("%v (generate it with: go test ./cards -run TestCatalogUpToDate -update)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s is out of date (regenerate with: go test ./cards -run TestCatalogUpToDate -update); first difference at line %d:\n got: %s\nwant: %s",
					catalogGolden, i+1, g, w)
			}
		}
	}
}

// TestCatalogEscapes checks that free text cannot break a table row or turn
// into markup.
func TestCatalogEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":        "plain text",
		"a | b":             `a \| b`,
		"line\nbreak\r\n":   "line<br>break",
		"*bold* _it_ `c`":   `\*bold\* \_it\_ \` + "`c\\`",
		"<b>[x](y) #1 & co": `\<b\>\[x\](y) \#1 \& co`,
		`back\slash`:        `back\\slash`,
	} {
		if got := catalogEscape(in); got != want {
			t.Errorf("catalogEscape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := catalogCode("a|b"); got != "`a\\|b`" {
		t.Errorf("catalogCode(a|b) = %q", got)
	}
}

// namedEffects are the handlers of the rulebook's named card effects; every
// faction deck of the default set carries each of them.
var namedEffects = []string{
	"admiral", "armada", "blockade", "deflector", "blocker_ship", "distress_signal",
	"weapon_purge", "diplomat_combo", "gravitational_wave", "scout_ship", "negotiations",
	"strike_ship", "spy", "flagship", "space_mines", "bomb", "teleport", "shield",
}

// TestDefaultShape pins the shape the rulebook fixes for the default set.
func TestDefaultShape(t *testing.T) {
	rs := catalogDefault(t)
	if got, want := rs.FactionIDs(), []string{"starfleet", "vulcan", "romulan", "klingon"}; !slices.Equal(got, want) {
		t.Errorf("factions = %v, want %v", got, want)
	}
	if rs.Rules.DeckSize != 33 {
		t.Errorf("deck_size = %d, want 33", rs.Rules.DeckSize)
	}
	if len(rs.Targets) != 24 {
		t.Errorf("%d targets, want 24", len(rs.Targets))
	}
	for i := range rs.Factions {
		f := &rs.Factions[i]
		if n := f.DeckCount(rs); n != 33 {
			t.Errorf("%s: %d cards, want 33", f.ID, n)
		}
		have := map[string]bool{}
		diplomat := false
		for _, ci := range f.Deck {
			c := &rs.Cards[ci]
			if c.Effect != nil {
				have[c.Effect.Handler] = true
			}
			if c.HasTag("diplomat") {
				diplomat = true
			}
		}
		for _, h := range namedEffects {
			if !have[h] {
				t.Errorf("%s: no card with effect %s", f.ID, h)
			}
		}
		if !diplomat {
			t.Errorf("%s: no card tagged diplomat", f.ID)
		}
	}
}

// catalogDefault loads the embedded default ruleset, reporting its problems
// as a test failure rather than the panic of Default.
func catalogDefault(t *testing.T) *Ruleset {
	t.Helper()
	if _, err := Load(DefaultFS(), "cards/default"); err != nil {
		t.Fatalf("embedded default ruleset is invalid:\n%v", err)
	}
	return Default()
}
