package spacetrace

import (
	"bytes"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestEmbeddedRulesetsLoad(t *testing.T) {
	first, ref := Embedded(FirstRuleset), Embedded(ReferenceRuleset)
	if first.Rules.Variant != FirstGame || ref.Rules.Variant != Full {
		t.Fatalf("variants %v, %v", first.Rules.Variant, ref.Rules.Variant)
	}
	if len(ref.Warnings) != 0 || len(first.Warnings) != 0 {
		t.Fatalf("warnings on the embedded sets: %v %v", ref.Warnings, first.Warnings)
	}
	a, _ := fs.ReadFile(EmbeddedFS(FirstRuleset), CardsFile)
	b, _ := fs.ReadFile(EmbeddedFS(ReferenceRuleset), CardsFile)
	if !bytes.Equal(a, b) {
		t.Fatal("the two embedded cards.yaml differ; they are one card set")
	}
}

// TestReferenceDeckComposition pins the brief's §3.2 count: 15
// reinforcements, 17 ships (7 class I, 3 II, 3 III, 4 IV), 6 tactics, 2
// commanders = 40; and the first game's 12 ships + 10 reinforcements with
// none of the cards seed 003 sorts out.
func TestReferenceDeckComposition(t *testing.T) {
	count := func(rs *Ruleset) (types [4]int, classes [5]int, size int) {
		for _, ci := range rs.Decks[0].List {
			c := &rs.Defs[ci]
			types[c.Type]++
			if c.Type == Ship {
				classes[c.Class]++
			}
			size++
		}
		return
	}
	types, classes, size := count(Embedded(ReferenceRuleset))
	if size != 40 || types != [4]int{15, 17, 6, 2} || classes != [5]int{0, 7, 3, 3, 4} {
		t.Fatalf("reference deck: %d cards, types %v, classes %v", size, types, classes)
	}
	types, classes, size = count(First())
	if size != 22 || types != [4]int{10, 12, 0, 0} || classes[2] != 0 {
		t.Fatalf("first-game deck: %d cards, types %v, classes %v", size, types, classes)
	}
	for _, ci := range First().Decks[0].List {
		if why := firstGameBan(&First().Defs[ci]); why != "" {
			t.Fatalf("first-game deck holds %s (%s)", First().Defs[ci].ID, why)
		}
	}
	// The errata values the brief marks [F].
	rs := First()
	for id, mp := range map[string]int{"interceptors": 60, "dreadnought": 300, "doomstar": 200} {
		if c := rs.Defs[rs.CardIndex(id)]; c.MP != mp {
			t.Errorf("%s costs %d MP, the errata say %d", id, c.MP, mp)
		}
	}
	if rs.Rules.BaseLP != 1000 {
		t.Errorf("base LP %d", rs.Rules.BaseLP)
	}
}

// withFiles is the embedded ruleset name with its files edited: each edit
// replaces old with new in file (old must occur).
func withFiles(t *testing.T, name string, edits ...[3]string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, f := range []string{RulesFile, CardsFile} {
		data, err := fs.ReadFile(EmbeddedFS(name), f)
		if err != nil {
			t.Fatal(err)
		}
		m[f] = &fstest.MapFile{Data: data}
	}
	for _, e := range edits {
		s := string(m[e[0]].Data)
		if !strings.Contains(s, e[1]) {
			t.Fatalf("%s has no %q", e[0], e[1])
		}
		m[e[0]].Data = []byte(strings.Replace(s, e[1], e[2], 1))
	}
	return m
}

// TestLoadErrors: every deck rule and every key is checked at the position
// a designer edits, with did-you-mean.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		set   string
		edits [][3]string
		want  string
	}{
		{"copy limit of a limited card", FirstRuleset, [][3]string{{RulesFile, "      kamikaze: 1", "      kamikaze: 2"}},
			`rules.yaml:92:17: deck "first-game": 2 copies of "kamikaze", at most 1 (the card's limit)`},
		{"copy limit default", ReferenceRuleset, [][3]string{{RulesFile, "      fighters: 1", "      fighters: 4"}},
			`deck "reference": 4 copies of "fighters", at most 3 (deck: copies_default)`},
		{"non-standard reinforcement once", ReferenceRuleset, [][3]string{{RulesFile, "      reinforcement-1: 1", "      reinforcement-1: 2"}},
			`2 copies of "reinforcement-1", at most 1 (a non-standard reinforcement is taken once)`},
		{"first game sorts out tactics", FirstRuleset, [][3]string{{RulesFile, "      battleship: 1", "      psionic-blast: 1"}},
			`deck "first-game": "psionic-blast" is sorted out for the first game (a tactic); set variant: full to play it`},
		{"first game sorts out Apollo", FirstRuleset, [][3]string{{RulesFile, "      battleship: 1", "      apollo: 1"}},
			`"apollo" is sorted out for the first game (first_game: false)`},
		{"first game sorts out class II", FirstRuleset, [][3]string{{RulesFile, "      battleship: 1", "      eagles: 1"}},
			`"eagles" is sorted out for the first game (a class II ship)`},
		{"first game counts", FirstRuleset, [][3]string{{RulesFile, "      reinforcement-50: 2", "      reinforcement-50: 1"}},
			`rules.yaml:84:5: deck "first-game": 12 ship cards and 9 reinforcements; the first game deals each player 12 and 10 (first_game: ships, reinforcements)`},
		{"deck size", ReferenceRuleset, [][3]string{{RulesFile, "      reinforcement-100: 11", "      reinforcement-100: 10"}},
			`deck "reference": 39 cards, at least 40 (deck: min)`},
		{"a commander is required", ReferenceRuleset, [][3]string{{RulesFile, "      veteran-commander: 1\n      logistics-commander: 1\n", "      torpedo-salvo2: 1\n"}},
			`unknown card "torpedo-salvo2", did you mean "torpedo-salvo"?`},
		{"no commander", ReferenceRuleset, [][3]string{{RulesFile, "      veteran-commander: 1\n      logistics-commander: 1\n", "      reinforcement-100: 2\n"}},
			`no commander card`},
		{"no mothership", ReferenceRuleset, [][3]string{{RulesFile, "      mothership: 1\n", "      fighters: 2\n"}},
			`no Mothership (a ship with {do: open_extra_fleet})`},
		{"unknown card with did-you-mean", FirstRuleset, [][3]string{{RulesFile, "      fighters: 1", "      figters: 1"}},
			`rules.yaml:87:7: deck "first-game": unknown card "figters", did you mean "fighters"?`},
		{"unknown rule key", FirstRuleset, [][3]string{{RulesFile, "  ap: 0 #", "  app: 0 #"}},
			`rules.yaml:13:3: unknown key "app" in base, did you mean "ap"?`},
		{"enum value", FirstRuleset, [][3]string{{RulesFile, "pairing: lowest_nonempty", "pairing: lowest_nonemty"}},
			`unknown pairing "lowest_nonemty", did you mean "lowest_nonempty"?`},
		{"unknown handler", FirstRuleset, [][3]string{{CardsFile, "{do: preemptive} # [G]\n  - id: commando", "{do: preemtive} # [G]\n  - id: commando"}},
			`cards.yaml:67:14: unknown effect handler "preemtive", did you mean "preemptive"?`},
		{"unknown handler parameter", FirstRuleset, [][3]string{{CardsFile, "cards: 2, ap_mult: 2", "cards: 2, ap_mul: 2"}},
			`card "commando-fighters": unknown parameter "ap_mul" of buff_following, did you mean "ap_mult"?`},
		{"handler on the wrong card type", FirstRuleset, [][3]string{{CardsFile, "{do: mp, amount: 50} # [G] value", "{do: mp, amount: 50}\n      - {do: preemptive}"}},
			`card "reinforcement-50": preemptive does not work on a reinforcement card`},
		{"ship stats on a tactic", FirstRuleset, [][3]string{{CardsFile, "    type: tactic\n    mp: 50 # [G]\n    text: Remove", "    type: tactic\n    ap: 5\n    mp: 50 # [G]\n    text: Remove"}},
			`ap: card "psionic-blast" is a tactic card; only ship cards have ap`},
		{"class out of range", FirstRuleset, [][3]string{{CardsFile, "    class: 4 # [G] the whole card", "    class: 5 # [G] the whole card"}},
			`class: 5 is out of range (1..4)`},
		{"missing ship field", FirstRuleset, [][3]string{{CardsFile, "    ships: 2 # [G]\n    ap: 100", "    ap: 100"}},
			`missing required key "ships" in card "battleship"`},
		{"reinforcement without MP", FirstRuleset, [][3]string{{CardsFile, "      - {do: mp, amount: 50} # [G] value", "      - {do: draw}"}},
			`card "reinforcement-50": a reinforcement needs an effect {do: mp, amount: N}`},
		{"wrong game", FirstRuleset, [][3]string{{RulesFile, "game: spacetrace", "game: goofspiel"}},
			`rules.yaml:7:7: game: "goofspiel" is not "spacetrace"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(withFiles(t, tc.set, tc.edits...), "")
			if err == nil {
				t.Fatalf("loaded; want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got\n%v\nwant it to contain\n%s", err, tc.want)
			}
		})
	}
}

// TestReinforcementShareWarns: "ungefähr 15 Reinforcementkarten" is
// advice, so a share outside 13..17 loads with a positioned warning.
func TestReinforcementShareWarns(t *testing.T) {
	// 13 is inside 15 ± 2: no warning.
	rs, err := Load(withFiles(t, ReferenceRuleset, [3]string{RulesFile, "      reinforcement-100: 11\n", "      reinforcement-100: 9\n      fighters: 3\n"},
		[3]string{RulesFile, "      fighters: 1\n", ""}), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Warnings) != 0 {
		t.Fatalf("warnings %v", rs.Warnings)
	}
	rs, err = Load(withFiles(t, ReferenceRuleset, [3]string{RulesFile, "      reinforcement-100: 11\n", "      reinforcement-100: 20\n"}), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Warnings) != 1 || !strings.Contains(rs.Warnings[0], `rules.yaml:85:5: deck "reference": 24 reinforcements; the rules advise about 15 (13..17`) {
		t.Fatalf("warnings %v", rs.Warnings)
	}
	if !strings.Contains(rs.Summary(), "warning: rules.yaml:85:5") {
		t.Fatalf("summary %q", rs.Summary())
	}
}

// TestRuleKeysRead: every key of the table is read into Rules (a key whose
// pointer is wrong would leave the default).
func TestRuleKeysRead(t *testing.T) {
	for _, k := range ruleKeys {
		t.Run(k.group+"."+k.key, func(t *testing.T) {
			var line, val string
			switch {
			case k.isBool:
				val = "true"
				def := DefaultRules()
				if *(k.ptr(&def).(*bool)) {
					val = "false"
				}
			case k.enum != nil:
				val = k.enum[len(k.enum)-1]
			default:
				def := DefaultRules()
				v := *(k.ptr(&def).(*int)) + 1
				if v > k.hi {
					v = k.lo
				}
				val = strconv.Itoa(v)
			}
			if k.group == "" {
				line = "\n" + k.key + ": " + val + "\n"
			} else {
				line = "\nzz_" + k.group + ":\n  " + k.key + ": " + val + "\n"
			}
			files := withFiles(t, FirstRuleset)
			s := string(files[RulesFile].Data)
			// drop the key's group or top-level line so the new one is not a duplicate
			var kept []string
			skip := false
			for _, l := range strings.Split(s, "\n") {
				if k.group == "" && strings.HasPrefix(l, k.key+":") {
					continue
				}
				if k.group != "" && l == k.group+":" {
					skip = true
					continue
				}
				if skip && strings.HasPrefix(l, "  ") {
					continue
				}
				skip = false
				kept = append(kept, l)
			}
			s = strings.Join(kept, "\n") + strings.Replace(line, "zz_", "", 1)
			files[RulesFile].Data = []byte(s)
			rs, err := Load(files, "")
			if err != nil {
				if k.group == "first_game" || k.group == "deck" {
					return // changing a deck count breaks the first-game deck, as it must
				}
				t.Fatal(err)
			}
			got := k.ptr(&rs.Rules)
			def := DefaultRules()
			if got2, want := got, k.ptr(&def); equalAny(got2, want) {
				t.Fatalf("%s.%s: %s read as the default", k.group, k.key, val)
			}
		})
	}
}

func equalAny(a, b any) bool {
	switch x := a.(type) {
	case *int:
		return *x == *(b.(*int))
	case *bool:
		return *x == *(b.(*bool))
	}
	return false
}

func FuzzLoad(f *testing.F) {
	for _, name := range []string{FirstRuleset, ReferenceRuleset} {
		r, _ := fs.ReadFile(EmbeddedFS(name), RulesFile)
		c, _ := fs.ReadFile(EmbeddedFS(name), CardsFile)
		f.Add(r, c)
	}
	f.Add([]byte("game: spacetrace\ndecks: [{id: x, cards: {a: 1}}]"), []byte("cards: [{id: a, type: ship, class: 9}]"))
	f.Fuzz(func(t *testing.T, rules, cardsData []byte) {
		fsys := fstest.MapFS{RulesFile: {Data: rules}, CardsFile: {Data: cardsData}}
		rs, err := Load(fsys, "")
		if err == nil {
			for _, d := range rs.Decks {
				for _, ci := range d.List {
					if int(ci) >= len(rs.Defs) {
						t.Fatalf("deck %s holds card %d of %d", d.ID, ci, len(rs.Defs))
					}
				}
			}
		}
	})
}
