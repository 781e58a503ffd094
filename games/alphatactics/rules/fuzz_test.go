package rules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/cards"
)

// FuzzLoad mutates one file of the minimal fixture and checks that the loader
// neither panics nor returns an inconsistent result: designers hand the
// loader arbitrary edits, and a crash would lose their whole error report.
func FuzzLoad(f *testing.F) {
	base := minimalFS(f)
	names := make([]string, 0, len(base))
	for n := range base {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		f.Add(uint8(i), base[n].Data)
		// The broken fixtures' versions of the file seed the error paths.
		broken, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "broken", "*", n))
		for _, b := range broken {
			if data, err := os.ReadFile(b); err == nil {
				f.Add(uint8(i), data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		fsys[name] = &fstest.MapFile{Data: data}
		rs, err := Load(fsys, "fuzz")
		if err != nil {
			if rs != nil {
				t.Fatal("ruleset returned along with errors")
			}
			list, ok := err.(cards.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if strings.Contains(e.Msg, "internal error") {
					t.Fatalf("loader panicked: %v", e)
				}
				if e.Msg == "" || !strings.HasPrefix(e.Pos.File, "fuzz") {
					t.Fatalf("malformed error %q at %+v", e.Msg, e.Pos)
				}
			}
			return
		}
		if rs == nil {
			t.Fatal("nil error and nil ruleset")
		}
		checkInvariants(t, rs)
	})
}

// checkInvariants verifies the promises a loaded ruleset makes to the engine.
func checkInvariants(t *testing.T, rs *Ruleset) {
	t.Helper()
	if len(rs.Factions) < 2 || len(rs.Factions) > MaxPlayers {
		t.Fatalf("%d factions", len(rs.Factions))
	}
	if len(rs.Cards) > MaxCardDefs || len(rs.Targets) != rs.Rules.Rounds*rs.Rules.TargetsPerRound || len(rs.Targets) > MaxTargets {
		t.Fatalf("%d cards, %d targets", len(rs.Cards), len(rs.Targets))
	}
	for fi := range rs.Factions {
		f := &rs.Factions[fi]
		if f.Index != fi || f.DeckCount(rs) != rs.Rules.DeckSize {
			t.Fatalf("faction %s: index %d, %d cards", f.ID, f.Index, f.DeckCount(rs))
		}
		for _, c := range f.Deck {
			if rs.Cards[c].Faction != fi {
				t.Fatalf("card %s in deck of %s", rs.Cards[c].ID, f.ID)
			}
		}
	}
	for i, c := range rs.Cards {
		if c.Index != i || (c.Kind == KindNone) != (c.Effect == nil) {
			t.Fatalf("card %s: index %d, kind %v, effect %v", c.ID, c.Index, c.Kind, c.Effect)
		}
		if c.Effect != nil {
			checkBinding(t, rs, c.Effect)
			if c.Effect.Spec.Timing != c.Kind.Timing() {
				t.Fatalf("card %s: kind %v bound to %v", c.ID, c.Kind, c.Effect.Spec.Timing)
			}
		}
	}
	for i, tg := range rs.Targets {
		if tg.Index != i {
			t.Fatalf("target %s index %d", tg.ID, tg.Index)
		}
		for j := range tg.Bonuses {
			checkBinding(t, rs, &tg.Bonuses[j])
		}
	}
}

func checkBinding(t *testing.T, rs *Ruleset, b *Binding) {
	t.Helper()
	if b.Spec == nil || b.Spec.Name != b.Handler || len(b.Args) != len(b.Spec.Params) {
		t.Fatalf("binding %+v", b)
	}
	for i, p := range b.Spec.Params {
		v := b.Args[i]
		switch p.TypeName() {
		case "int":
			if v.Int < p.Min || v.Int > p.Max {
				t.Fatalf("%s.%s = %d", b.Handler, p.Name, v.Int)
			}
		case "enum":
			if v.Int < 0 || v.Int >= len(p.Values) || p.Values[v.Int] != v.Str {
				t.Fatalf("%s.%s = %+v", b.Handler, p.Name, v)
			}
		case "card":
			if v.Int < 0 || v.Int >= len(rs.Cards) || rs.Cards[v.Int].ID != v.Str {
				t.Fatalf("%s.%s = %+v", b.Handler, p.Name, v)
			}
		case "target":
			if v.Int < 0 || v.Int >= len(rs.Targets) || rs.Targets[v.Int].ID != v.Str {
				t.Fatalf("%s.%s = %+v", b.Handler, p.Name, v)
			}
		}
	}
}
