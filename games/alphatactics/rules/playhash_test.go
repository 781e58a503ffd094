package rules

import (
	"testing"

	"github.com/cardlab/cardlab/effects"
)

// PlayHash changes with what a card does in play and with nothing else.
func TestPlayHash(t *testing.T) {
	rs := Default()
	var base *Card
	for i := range rs.Cards {
		if c := &rs.Cards[i]; c.Effect != nil && len(c.Effect.Args) > 0 && c.Effect.Spec.Params[0].Type == effects.Int {
			base = c
			break
		}
	}
	if base == nil {
		t.Fatal("no card with an int parameter")
	}
	want := rs.PlayHash(base)
	edit := func(f func(c *Card)) string {
		c := *base
		if base.Effect != nil {
			b := *base.Effect
			b.Args = append([]effects.Value(nil), base.Effect.Args...)
			c.Effect = &b
		}
		c.Tags = append([]string(nil), base.Tags...)
		f(&c)
		return rs.PlayHash(&c)
	}
	for _, tt := range []struct {
		name    string
		f       func(c *Card)
		changes bool
	}{
		{"power", func(c *Card) { c.Power++ }, true},
		{"copies", func(c *Card) { c.Copies++ }, true},
		{"type", func(c *Card) { c.Type = (c.Type + 1) % 5 }, true},
		{"kind", func(c *Card) { c.Kind = KindNone }, true},
		{"faction", func(c *Card) { c.Faction = (c.Faction + 1) % len(rs.Factions) }, true},
		{"argument", func(c *Card) { c.Effect.Args[0].Int++ }, true},
		{"handler", func(c *Card) { c.Effect.Handler += "x" }, true},
		{"effect dropped", func(c *Card) { c.Effect = nil }, true},
		{"tag", func(c *Card) { c.Tags = append(c.Tags, "new") }, true},
		{"name", func(c *Card) { c.Name += " II" }, false},
		{"text", func(c *Card) { c.Text += " More." }, false},
		{"position", func(c *Card) { c.Pos.Line += 3 }, false},
	} {
		if got := edit(tt.f); (got != want) != tt.changes {
			t.Errorf("%s: hash %s against %s, want changed %v", tt.name, got, want, tt.changes)
		}
	}
	for i := range rs.Cards {
		if h := rs.PlayHash(&rs.Cards[i]); len(h) != 16 {
			t.Fatalf("%s: hash %q, want 16 hex digits", rs.Cards[i].ID, h)
		}
	}
}
