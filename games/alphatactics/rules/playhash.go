package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// PlayHash identifies what card c does in play: its faction, type, kind,
// power, copies, effect handler with every argument, and tags — a short hex
// SHA-256 (64 bits). Name, text and file position are left out: they change
// how a card reads, not how it plays. A measured value belongs to the card
// as it was measured; a reader compares the hash stored with the value to
// the card's hash now to tell a value made stale by an edit.
func (rs *Ruleset) PlayHash(c *Card) string {
	h := sha256.New()
	fac := ""
	if c.Faction >= 0 && c.Faction < len(rs.Factions) {
		fac = rs.Factions[c.Faction].ID
	}
	// Each field is length-prefixed (%q quotes strings), so no two cards
	// write the same bytes.
	fmt.Fprintf(h, "card v1\nfaction %q\ntype %q\nkind %q\npower %d\ncopies %d\n", fac, c.Type, c.Kind, c.Power, c.Copies)
	if b := c.Effect; b != nil {
		fmt.Fprintf(h, "effect %q\n", b.Handler)
		for i, a := range b.Args {
			name := ""
			if b.Spec != nil && i < len(b.Spec.Params) {
				name = b.Spec.Params[i].Name
			}
			fmt.Fprintf(h, "arg %q %d %q\n", name, a.Int, a.Str)
		}
	}
	for _, t := range c.Tags {
		fmt.Fprintf(h, "tag %q\n", t)
	}
	_, _ = io.WriteString(h, "end\n")
	return hex.EncodeToString(h.Sum(nil)[:8])
}
