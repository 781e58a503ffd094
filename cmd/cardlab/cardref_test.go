package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

func TestResolveCardRefs(t *testing.T) {
	rs := alphatactics.Ruleset{RS: rules.Default()}
	for _, c := range []struct {
		name string
		refs []string
		want []string // ids, when err is ""
		err  []string // substrings of the error
		not  []string // what the error must not say
	}{
		{name: "all", refs: nil, want: nil},
		{name: "ids", refs: []string{"kl-d7", "kl-warriors"}, want: []string{"kl-d7", "kl-warriors"}},
		{name: "id in another case", refs: []string{"KL-D7"}, want: []string{"kl-d7"}},
		{name: "name", refs: []string{"Klingon Warriors"}, want: []string{"kl-warriors"}},
		{name: "name in another case, spaces around", refs: []string{"  klingon WARRIORS "}, want: []string{"kl-warriors"}},
		{name: "names and ids mixed", refs: []string{"D7 Battle Cruiser", "kl-warriors"}, want: []string{"kl-d7", "kl-warriors"}},
		{name: "shared name", refs: []string{"Deflector Shield"},
			err: []string{`card name "Deflector Shield" is ambiguous`, "kl-deflector-shield (klingon)", "ro-deflector-shield (romulan)", "give the id"}},
		{name: "misspelt name", refs: []string{"Klingon Warrior"},
			err: []string{`unknown card "Klingon Warrior"; did you mean "Klingon Warriors" (kl-warriors)`}},
		{name: "misspelt id", refs: []string{"kl-d8"}, err: []string{`did you mean "D7 Battle Cruiser" (kl-d7)`}},
		{name: "part of a name", refs: []string{"warriors"}, err: []string{"(kl-warriors)"}},
		{name: "control characters are quoted", refs: []string{"bad\x1bname"}, err: []string{`"bad\x1bname"`}, not: []string{"\x1b"}},
		{name: "garbage", refs: []string{"zzzzzzzzzzzzzzzz"}, err: []string{"unknown card", "did you mean"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := resolveCardRefs(rs, c.refs)
			if c.err == nil {
				if err != nil || !slices.Equal(got, c.want) || (c.want == nil) != (got == nil) {
					t.Fatalf("got %v, %v; want %v", got, err, c.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %v, want an error", got)
			}
			msg := err.Error()
			for _, s := range c.err {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			for _, s := range c.not {
				if strings.Contains(msg, s) {
					t.Errorf("error %q contains %q", msg, s)
				}
			}
			// Never the whole card list: at most three suggestions.
			if n := strings.Count(msg, `" (`); n > closestCards && !strings.Contains(msg, "ambiguous") {
				t.Errorf("error names %d cards: %q", n, msg)
			}
		})
	}
}
