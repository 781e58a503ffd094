package eclipse

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

func embeddedFiles(t testing.TB, name string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	fsys := EmbeddedFS(name)
	for _, f := range rulesetFiles {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		m[f] = &fstest.MapFile{Data: data}
	}
	return m
}

func TestEditionsLoad(t *testing.T) {
	for _, name := range []string{DefaultRuleset, SecondEdition} {
		rs, err := Edition(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(rs.SideFleets); got != 11 {
			t.Errorf("%s: %d player fleets", name, got)
		}
		// The brief's effective stats of the default blueprints (§2).
		want := map[string][4]int{ // cannons, computer, hull, initiative
			"interceptor": {1, 0, 0, 3}, "cruiser": {1, 1, 1, 2}, "dreadnought": {2, 1, 2, 1}, "starbase": {1, 1, 2, 4},
		}
		for _, b := range rs.Blueprints {
			w, ok := want[b.ID]
			if !ok {
				continue
			}
			st := b.Stats
			if got := [4]int{st.Cannons[Yellow], st.Computer, st.Hull, st.Init}; got != w {
				t.Errorf("%s %s: %v, want %v", name, b.ID, got, w)
			}
		}
		// The budget-16 fleets cost 15–16 material.
		for _, id := range []string{"5i", "3c", "2d", "dci", "2c2i"} {
			f := &rs.Fleets[rs.FleetIndex(id)]
			if c := f.Cost(rs); c < 15 || c > 16 {
				t.Errorf("%s: fleet %s costs %d", name, id, c)
			}
		}
	}
	rs1, _ := Edition(DefaultRuleset)
	rs2, _ := Edition(SecondEdition)
	// Edition differences (§2): computers carry initiative in 1E only;
	// the Plasma Missile uses energy in 2E only.
	part := func(rs *Ruleset, id string) Stats { return rs.Parts[rs.partIndex(id)].Stats }
	if part(rs1, "positron_computer").Init != 1 || part(rs2, "positron_computer").Init != 0 {
		t.Error("positron computer initiative: 1E +1, 2E 0")
	}
	if part(rs1, "plasma_missile").Energy != 0 || part(rs2, "plasma_missile").Energy != -1 {
		t.Error("plasma missile energy: 1E 0, 2E -1")
	}
	if rs1.Rules.Edition != "1e" || rs2.Rules.Edition != "2e" {
		t.Error("editions")
	}
}

// TestLoadErrors: every mistake is reported at file:line:col with the
// brief's validity rules named.
func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, file, old, new, want string
	}{
		{"unknown rule key", RulesFile, "ties: defender", "tie: defender", `rules.yaml:22:1: unknown key "tie" in rules.yaml, did you mean "ties"?`},
		{"bad tie", RulesFile, "ties: defender", "ties: defendr", `rules.yaml:22:7: unknown tie rule "defendr", did you mean "defender"?`},
		{"bad policy", RulesFile, "player: optimal", "player: optimum", `unknown player assignment policy "optimum", did you mean "optimal"?`},
		{"share NaN", RulesFile, "share: 0", "share: .nan", `rules.yaml:28:10: stalemate.share: expected a number from 0 to 1, got .nan`},
		{"share too big", RulesFile, "share: 0", "share: 2", `stalemate.share: expected a number from 0 to 1`},
		{"miss above hit", RulesFile, "always_miss: 1", "always_miss: 6", `always_miss 6 is not below always_hit 6`},
		{"wrong game", RulesFile, "game: eclipse", "game: goofspiel", `rules.yaml:5:7: game: "goofspiel" is not "eclipse"`},
		{"unknown part", BlueprintsFile, "[ion_cannon, nuclear_drive, nuclear_source, \"\"]", "[ion_canon, nuclear_drive, nuclear_source, \"\"]", `blueprints.yaml:12:15: blueprint "interceptor": unknown part "ion_canon", did you mean "ion_cannon"?`},
		{"energy", BlueprintsFile, "[ion_cannon, nuclear_drive, nuclear_source, \"\"]", "[antimatter_cannon, nuclear_drive, nuclear_source, \"\"]", `blueprints.yaml:8:3: blueprint "interceptor": its parts use 5 energy and produce 3 (validity rule 1`},
		{"no drive", BlueprintsFile, "[ion_cannon, nuclear_drive, nuclear_source, \"\"]", "[ion_cannon, hull, nuclear_source, \"\"]", `blueprint "interceptor": a mobile ship needs a drive (validity rule 2)`},
		{"drive on starbase", BlueprintsFile, "[ion_cannon, hull, hull, electron_computer, \"\"]", "[ion_cannon, hull, hull, electron_computer, nuclear_drive]", `blueprint "starbase": a ship that is not mobile (a Starbase) may not have a drive`},
		{"slots", BlueprintsFile, "[ion_cannon, nuclear_drive, nuclear_source, \"\"]", "[ion_cannon, nuclear_drive, nuclear_source, hull, hull]", `blueprints.yaml:12:14: blueprint "interceptor": 5 printed parts in 4 slots; one part a slot`},
		{"maximum", FleetsFile, "{interceptor: 5}", "{interceptor: 9}", `fleets.yaml:6:53: interceptor: 9 is out of range (1..8)`},
		{"unknown blueprint", FleetsFile, "{cruiser: 3}", "{crusier: 3}", `fleets.yaml:7:36: unknown key "crusier" in fleet "3c" ships, did you mean "cruiser"?`},
		{"comma in a fleet id", FleetsFile, "  3c: ", "  \"3,c\": ", `fleets.yaml:7:3: fleet "3,c": a fleet id may not hold a comma`},
		{"mixed NPC", FleetsFile, "{ancient: 1}", "{ancient: 1, cruiser: 1}", `fleet "ancient": mixes NPC and player ships`},
		{"bad dice colour", PartsFile, "dice: {yellow: 1}, energy: -1}", "dice: {yelow: 1}, energy: -1}", `did you mean "yellow"?`},
		{"duplicate part", PartsFile, "  hull:              {name: Hull, hull: 1}", "  hull:              {name: Hull, hull: 1}\n  hull: {hull: 2}", `duplicate`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := embeddedFiles(t, DefaultRuleset)
			src := string(files[c.file].Data)
			if !strings.Contains(src, c.old) {
				t.Fatalf("%s has no %q", c.file, c.old)
			}
			files[c.file] = &fstest.MapFile{Data: []byte(strings.Replace(src, c.old, c.new, 1))}
			rs, err := Load(files, "")
			if err == nil || rs != nil {
				t.Fatalf("loaded: %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error\n%v\nwants %q", err, c.want)
			}
		})
	}
	// A missing file and an unknown one.
	files := embeddedFiles(t, DefaultRuleset)
	delete(files, PartsFile)
	files["part.yaml"] = &fstest.MapFile{Data: []byte("parts: {}\n")}
	_, err := Load(files, "dir")
	for _, want := range []string{"dir: no parts.yaml in the ruleset directory", `dir/part.yaml: unknown ruleset file`, `did you mean "parts.yaml"?`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, wants %q", err, want)
		}
	}
}

func FuzzLoad(f *testing.F) {
	base := embeddedFiles(f, DefaultRuleset)
	for _, name := range rulesetFiles {
		f.Add(name, base[name].Data)
	}
	f.Add(BlueprintsFile, []byte("blueprints:\n  x: {npc: true, max: 1, bonus: {hull: 14, dice: {red: 8}}}\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		files := embeddedFiles(t, DefaultRuleset)
		if _, ok := files[name]; !ok {
			name = RulesFile
		}
		files[name] = &fstest.MapFile{Data: data}
		rs, err := Load(files, "fuzz")
		if err != nil {
			if rs != nil {
				t.Fatal("ruleset returned along with errors")
			}
			list, ok := err.(cards.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if e.Msg == "" || !strings.HasPrefix(e.Pos.File, "fuzz") {
					t.Fatalf("malformed error %q at %+v", e.Msg, e.Pos)
				}
			}
			return
		}
		// A ruleset that loads plays: one battle of its first two sides.
		sides := rs.Sides()
		s, err := rs.NewState([]int{0, len(sides) - 1}, 1)
		if err != nil {
			return // an NPC fleet cannot attack; a bound the engine refuses
		}
		var buf []game.Action
		for n := 0; !s.IsTerminal(); n++ {
			if n > 100_000 {
				t.Fatal("no end")
			}
			buf = s.LegalActions(buf)
			s.Apply(buf[0])
		}
	})
}
