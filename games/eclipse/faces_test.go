package eclipse

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cardlab/cardlab/game"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestFaces: every part of both editions once in the part tiles, in its
// kind's colour with its energy as the badge; every player blueprint in
// each player's blueprints, every NPC in the NPCs; every cell a column of
// cards.csv; and the figures a player reads off the Interceptor, the
// Starbase and a 2E part.
func TestFaces(t *testing.T) {
	for _, name := range []string{DefaultRuleset, SecondEdition} {
		rs, _ := Edition(name)
		set, err := Game{}.Faces(rs)
		if err != nil {
			t.Fatal(err)
		}
		byDeck := map[string]map[string]game.Face{}
		for _, d := range set.Decks {
			byDeck[d.ID] = map[string]game.Face{}
			for _, f := range d.Faces {
				byDeck[d.ID][f.ID] = f
				if f.Copies != 1 || f.Name == "" || f.Badge == "" || f.TypeLine == "" || f.Text == "" || f.Footer == "" || f.Color == "" {
					t.Errorf("%s: %s/%s: an empty field: %+v", name, d.ID, f.ID, f)
				}
				for _, c := range f.Cells {
					if !slices.Contains(set.CSV, c.Key) {
						t.Errorf("%s: %s: cell %q is no cards.csv column", name, f.ID, c.Key)
					}
				}
			}
		}
		if len(byDeck["parts"]) != len(rs.Parts) {
			t.Errorf("%s: %d part tiles, want %d", name, len(byDeck["parts"]), len(rs.Parts))
		}
		for i := range rs.Parts {
			p := &rs.Parts[i]
			f, ok := byDeck["parts"][p.ID]
			if !ok {
				t.Errorf("%s: no tile of %s", name, p.ID)
				continue
			}
			if f.Name != p.Name || f.Badge != signed(p.Stats.Energy) || f.BadgeSub != "energy" || f.Color != kindColors[kindOf(&p.Stats)] {
				t.Errorf("%s: %s: name %q badge %q %q colour %s", name, p.ID, f.Name, f.Badge, f.BadgeSub, f.Color)
			}
			if (p.Tech.Track != "") != strings.Contains(f.Text, "Research: "+p.Tech.Track) {
				t.Errorf("%s: %s: research %+v, text %q", name, p.ID, p.Tech, f.Text)
			}
		}
		for i := range rs.Blueprints {
			b := &rs.Blueprints[i]
			decks := []string{"blueprints-1", "blueprints-2"}
			if b.NPC {
				decks = []string{"npcs"}
			}
			for _, d := range decks {
				f, ok := byDeck[d][b.ID]
				if !ok {
					t.Errorf("%s: %s lacks %s", name, d, b.ID)
					continue
				}
				want := fmt.Sprint(b.Cost)
				if b.NPC {
					want = fmt.Sprint(b.Stats.Init)
				}
				if f.Badge != want {
					t.Errorf("%s: %s/%s: badge %q, want %q", name, d, b.ID, f.Badge, want)
				}
				if !strings.Contains(f.Text, fmt.Sprintf("Initiative %d", b.Stats.Init)) || !strings.Contains(f.Text, fmt.Sprintf("hull %d.", b.Stats.Hull)) {
					t.Errorf("%s: %s: text %q lacks its initiative %d or hull %d", name, b.ID, f.Text, b.Stats.Init, b.Stats.Hull)
				}
			}
		}
		if len(set.Decks) != 4 {
			t.Errorf("%s: %d decks, want parts, two players' blueprints and NPCs", name, len(set.Decks))
		}
		ic := byDeck["blueprints-1"]["interceptor"]
		for _, want := range []string{"Slots: 1 Ion Cannon · 2 Nuclear Drive · 3 Nuclear Source · 4 empty.", "Board: initiative +2.",
			"Cannons: 1 yellow die (1 damage a hit).", "Computer 0 · shield 0 · hull 0.", "Initiative 3 · move 1.",
			"Energy 3 produced, 2 used; needs a drive.", "Destroying one draws 1 reputation tile."} {
			if !strings.Contains(ic.Text, want) {
				t.Errorf("%s: the Interceptor's text lacks %q:\n%s", name, want, ic.Text)
			}
		}
		if ic.TypeLine != "Blueprint · size 1 · 4 slots · at most 8 ships" || ic.BadgeSub != "material" || ic.Footer != "Player 1 (attacker)" {
			t.Errorf("%s: Interceptor %+v", name, ic)
		}
		if sb := byDeck["blueprints-2"]["starbase"]; !strings.Contains(sb.Text, "Board: initiative +4 · energy +3.") || !strings.Contains(sb.Text, "takes no drive") || sb.Footer != "Player 2 (defender)" {
			t.Errorf("%s: Starbase %+v", name, sb)
		}
		if f := byDeck["parts"]["ion_cannon"]; f.TypeLine != "Cannon · 1 yellow die" || f.Badge != "−1" || !strings.Contains(f.Text, "Hits when roll + computers − shields ≥ 6; a 6 always hits; a 1 always misses.") {
			t.Errorf("%s: Ion Cannon %+v", name, f)
		}
	}
	rs, _ := Edition(SecondEdition)
	set, _ := Game{}.Faces(rs)
	for _, f := range set.Decks[0].Faces {
		switch f.ID {
		case "plasma_cannon":
			if !strings.Contains(f.Text, "Research: military track, cost 6 (at least 4).") || !slices.Contains(f.Cells, game.Cell{Key: "research", Text: "6", Number: true}) {
				t.Errorf("2E Plasma Cannon %+v", f)
			}
		case "absorption_shield":
			if f.Badge != "+4" || f.TypeLine != "Shield +1" || !strings.Contains(f.Text, "Energy: produces 4.") {
				t.Errorf("2E Absorption Shield %+v", f)
			}
		}
	}
}

// TestFacesGolden fixes the faces' words and cards.csv's cells of both
// editions (go test -run TestFacesGolden -update rewrites them).
func TestFacesGolden(t *testing.T) {
	for _, name := range []string{DefaultRuleset, SecondEdition} {
		rs, _ := Edition(name)
		set, err := Game{}.Faces(rs)
		if err != nil {
			t.Fatal(err)
		}
		got := faceText(set)
		path := filepath.Join("testdata", "faces-"+name+".golden")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -run TestFacesGolden -update writes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the faces differ from %s (go test -run TestFacesGolden -update rewrites it after a deliberate change):\n%s", name, path, got)
		}
	}
}

// faceText is every face of set as a player and cards.csv read it.
func faceText(set *game.FaceSet) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\ncsv: %s\n", set.Name, set.Version, strings.Join(set.CSV, ","))
	for _, d := range set.Decks {
		fmt.Fprintf(&b, "\n== deck %s %q (%s), back %q %s\n", d.ID, d.Name, d.Stem, d.Back.Title, d.Back.Color)
		for _, f := range d.Faces {
			fmt.Fprintf(&b, "\n-- %s ×%d %s\n%s [%s %s]\n%s\n%s\nfooter: %s\n", f.ID, f.Copies, f.Color, f.Name, f.Badge, f.BadgeSub, f.TypeLine, f.Text, f.Footer)
			if f.Value != "" {
				fmt.Fprintf(&b, "value: %s\n", f.Value)
			}
			var cells []string
			for _, c := range f.Cells {
				if c.Key != "text" {
					cells = append(cells, c.Key+"="+c.Text)
				}
			}
			fmt.Fprintf(&b, "cells: %s\n", strings.Join(cells, " "))
		}
	}
	return b.Bytes()
}

// A part or ship whose id cannot name a file (upper case, spaces, a name
// another id already has once made file-safe) still prints, under an id
// of its own; the gallery finds it by its own id (CardFace).
func TestFaceFileIDs(t *testing.T) {
	m := embeddedFiles(t, DefaultRuleset)
	parts := strings.Replace(string(m[PartsFile].Data), "  hull:  ", "  \"Hull X\":", 1)
	parts = strings.Replace(parts, "  improved_hull:", "  hull-x:", 1)
	m[PartsFile].Data = []byte(parts)
	bp := strings.ReplaceAll(string(m[BlueprintsFile].Data), "hull, hull", "\"Hull X\", \"Hull X\"")
	bp = strings.ReplaceAll(bp, "[ion_cannon, hull,", "[ion_cannon, \"Hull X\",")
	bp = strings.Replace(bp, "  cruiser:\n", "  Big Cruiser:\n", 1)
	m[BlueprintsFile].Data = []byte(bp)
	m[FleetsFile].Data = []byte(strings.ReplaceAll(string(m[FleetsFile].Data), "cruiser:", "Big Cruiser:"))
	rs, err := Load(m, "")
	if err != nil {
		t.Fatal(err)
	}
	set, _ := Game{}.Faces(rs)
	var parts0, bps []string
	for _, f := range set.Decks[0].Faces {
		parts0 = append(parts0, f.ID)
	}
	for _, f := range set.Decks[1].Faces {
		bps = append(bps, f.ID)
	}
	if !slices.Contains(parts0, "hull-x") || !slices.Contains(parts0, "hull-x-2") || !slices.Contains(bps, "big-cruiser") {
		t.Errorf("file ids: parts %v, blueprints %v", parts0, bps)
	}
	for _, ids := range [][]string{parts0, bps} {
		seen := map[string]bool{}
		for _, id := range ids {
			if !fileID(id) || seen[id] {
				t.Errorf("id %q: not a file name, or taken twice in %v", id, ids)
			}
			seen[id] = true
		}
	}
	if f, ok := (Game{}).CardFace(rs, "Hull X"); !ok || f.Name != "Hull" || f.ID != "hull-x-2" {
		t.Errorf("CardFace(Hull X) = %+v, %v", f, ok)
	}
	if f, ok := (Game{}).CardFace(rs, "gcds"); !ok || f.Footer != "NPC" {
		t.Errorf("CardFace(gcds) = %+v, %v", f, ok)
	}
	if _, ok := (Game{}).CardFace(rs, "nope"); ok {
		t.Error("CardFace of no such id")
	}
}

// partsCatalog is a report's catalog entry with the parts study's tables
// against the Interceptor and the Cruiser, as Catalog writes them.
func partsCatalog(t testing.TB, rs *Ruleset) json.RawMessage {
	t.Helper()
	var stop atomic.Bool
	var sc studyCatalog
	for _, fid := range []string{"interceptor", "cruiser"} {
		res, err := rs.Study("parts", map[string]string{"ship": "interceptor", "field": fid}, &stop)
		if err != nil {
			t.Fatal(err)
		}
		tb := res.Tables[0]
		tb.Name = "parts vs " + fid
		sc.Tables = append(sc.Tables, tb)
	}
	data, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func resultsWith(rs *Ruleset, hash string, catalog json.RawMessage) string {
	return `{"tool_version":"x","ruleset":{"game":"eclipse","hash":"` + hash + `"},"cards":[],"report":{"catalog":{"eclipse_study":` + string(catalog) + `}}}`
}

// TestFacesWithValues: a part's value in hulls on the Interceptor against
// one Interceptor and one Cruiser, as the report's study measured it
// (design brief §3.2: the Electron Computer is +1 computer, 0.69 and 0.89
// hulls), on its tile and in cards.csv; a source has none; values of
// other files, another game, a sampled table or no study are refused.
func TestFacesWithValues(t *testing.T) {
	rs := Default()
	cat := partsCatalog(t, rs)
	write := func(s string) string {
		file := filepath.Join(t.TempDir(), "results.json")
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	set, notes, err := Game{}.FacesWithValues(rs, write(resultsWith(rs, rs.Hash, cat)))
	if err != nil {
		t.Fatal(err)
	}
	if !notes.HashMatches || len(notes.Unknown)+len(notes.Stale) != 0 {
		t.Errorf("notes %+v", notes)
	}
	if !strings.Contains(set.ValueLegend, `"on Interceptor: N hulls vs …" is the part's value computed exactly`) {
		t.Errorf("the PDF's legend of the values: %q", set.ValueLegend)
	}
	for _, h := range []string{"value_ship", "value_field_1", "value_hulls_1", "value_field_2", "value_hulls_2"} {
		if !slices.Contains(set.CSV, h) {
			t.Errorf("cards.csv header %v lacks %s", set.CSV, h)
		}
	}
	valued := 0
	for _, d := range set.Decks {
		for _, f := range d.Faces {
			for _, c := range f.Cells {
				if !slices.Contains(set.CSV, c.Key) {
					t.Errorf("%s: cell %q is no cards.csv column", f.ID, c.Key)
				}
			}
			switch {
			case f.ID == "electron_computer":
				if f.Value != "on Interceptor: 0.69 hulls vs Interceptor, 0.89 vs Cruiser" || !slices.Contains(f.Cells, game.Cell{Key: "value_hulls_2", Text: "0.89", Number: true}) {
					t.Errorf("Electron Computer: value %q, cells %v", f.Value, f.Cells)
				}
			case f.ID == "improved_hull":
				if f.Value != "on Interceptor: 2.00 hulls vs Interceptor, 2.00 vs Cruiser" {
					t.Errorf("Improved Hull: value %q", f.Value)
				}
			case strings.HasSuffix(f.ID, "_source") || d.ID != "parts":
				if f.Value != "" {
					t.Errorf("%s/%s carries a value %q", d.ID, f.ID, f.Value)
				}
			}
			if f.Value != "" {
				valued++
			}
		}
	}
	if want := len(rs.valuedParts()); valued != want {
		t.Errorf("%d tiles valued, want %d", valued, want)
	}

	var sampled studyCatalog
	if err := json.Unmarshal(cat, &sampled); err != nil {
		t.Fatal(err)
	}
	for _, tb := range sampled.Tables {
		for _, r := range tb.Rows {
			for c := range r {
				r[c].Mark = ""
			}
		}
	}
	unmarked, _ := json.Marshal(sampled)
	sampled.Tables[0].Rows = sampled.Tables[0].Rows[:len(sampled.Tables[0].Rows)-1]
	short, _ := json.Marshal(sampled)
	other := strings.Replace(string(cat), `"+Hull"`, `"+Hulk"`, 1)
	for _, tc := range []struct{ body, want string }{
		{resultsWith(rs, "0123456789", cat), "measured on other files"},
		{`{"tool_version":"x","ruleset":{"game":"goofspiel"},"cards":[]}`, "goofspiel ruleset's results"},
		{`{"tool_version":"x","ruleset":{"game":"eclipse","hash":"` + rs.Hash + `"},"cards":[]}`, "has no part values"},
		{resultsWith(rs, rs.Hash, unmarked), "has no part values"},
		{resultsWith(rs, rs.Hash, short), "do not list these parts"},
		{resultsWith(rs, rs.Hash, json.RawMessage(other)), "do not list these parts"},
		{resultsWith(rs, rs.Hash, json.RawMessage(`{"tables":5}`)), "not a results.json"},
		{`{"tool_version":"x","ruleset":{"game":"eclipse","hash":"` + rs.Hash + `"},"cards":[],"report":7}`, "not a results.json"},
		{`[1]`, "not a results.json"},
	} {
		if _, _, err := (Game{}).FacesWithValues(rs, write(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "eclipse: ") {
			t.Errorf("%.120s: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

// FacesWithValues reads a results file a designer may have edited or
// mistaken: whatever it holds, it answers faces or an error, never a
// panic, and prints values only on part tiles the study values.
func FuzzFacesWithValues(f *testing.F) {
	rs := Default()
	f.Add([]byte(resultsWith(rs, rs.Hash, partsCatalog(f, rs))))
	for _, s := range []string{`{"tool_version":"x","cards":[]}`, `{"ruleset":{"game":"eclipse"}}`, `[1]`, ``,
		resultsWith(rs, rs.Hash, json.RawMessage(`{"tables":[{"Name":"parts vs x","Columns":[{"Head":"hulls"}],"Rows":[[{"Value":"> 6","Mark":"exact"}]]}]}`))} {
		f.Add([]byte(s))
	}
	valued := map[string]bool{}
	for _, p := range rs.valuedParts() {
		valued[rs.Parts[p].ID] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "results.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		set, notes, err := Game{}.FacesWithValues(rs, file)
		if err != nil {
			return
		}
		if set == nil || notes == nil || !notes.HashMatches {
			t.Fatalf("no error, but faces %v, notes %+v", set, notes)
		}
		for _, d := range set.Decks {
			for _, fc := range d.Faces {
				if fc.Value != "" && (d.ID != "parts" || !valued[fc.ID]) {
					t.Fatalf("%s/%s carries a value %q", d.ID, fc.ID, fc.Value)
				}
			}
		}
	})
}
