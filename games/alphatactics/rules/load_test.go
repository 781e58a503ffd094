package rules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// update rewrites golden files instead of comparing against them.
var update = flag.Bool("update", false, "rewrite golden files")

const minimalDir = "../../../testdata/rulesets/minimal"

// minimalFS returns the minimal fixture as an in-memory file system that
// tests can modify freely.
func minimalFS(t testing.TB) fstest.MapFS {
	t.Helper()
	ents, err := os.ReadDir(minimalDir)
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(minimalDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = &fstest.MapFile{Data: data}
	}
	return m
}

// edit returns a copy of fsys with file name's first occurrence of old
// replaced by new.
func edit(t testing.TB, fsys fstest.MapFS, name, old, new string) fstest.MapFS {
	t.Helper()
	data := string(fsys[name].Data)
	if !strings.Contains(data, old) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	return with(fsys, name, strings.Replace(data, old, new, 1))
}

// with returns a copy of fsys with file name set to content.
func with(fsys fstest.MapFS, name, content string) fstest.MapFS {
	out := fstest.MapFS{}
	for k, v := range fsys {
		out[k] = v
	}
	out[name] = &fstest.MapFile{Data: []byte(content)}
	return out
}

func TestLoadMinimal(t *testing.T) {
	rs, err := LoadDir(minimalDir)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Name != "Minimal Test Set" || rs.Version != "0.1.0" {
		t.Errorf("name, version = %q, %q", rs.Name, rs.Version)
	}
	wantRules := Rules{
		MinPlayers: 2, MaxPlayers: 2, HandSize: 3, TargetsPerRound: 2, CardsToEnd: 2,
		DeckSize: 6, Rounds: 2, PlanetBonus: 2,
		FederationAffiliation: "federation", FederationFactions: []string{"starfleet"},
		StartingFaction: "starfleet", TieBreak: []string{"planets"},
	}
	if got := fmt.Sprintf("%+v", rs.Rules); got != fmt.Sprintf("%+v", wantRules) {
		t.Errorf("rules:\n got %s\nwant %+v", got, wantRules)
	}
	if got := strings.Join(rs.Affiliations, ","); got != "federation,klingon,neutral" {
		t.Errorf("affiliations = %s", got)
	}

	// Factions, and cards in faction order then file order.
	if got := strings.Join(rs.FactionIDs(), ","); got != "starfleet,klingon" {
		t.Fatalf("factions = %s", got)
	}
	sf, kl := &rs.Factions[0], &rs.Factions[1]
	if sf.Index != 0 || sf.Name != "Starfleet" || sf.Color != "#1f5fbf" || sf.File != "starfleet.yaml" ||
		strings.Join(sf.Planets, ",") != "federation" || sf.Pos != (cards.Pos{File: "rules.yaml", Line: 18, Col: 5}) {
		t.Errorf("starfleet = %+v", *sf)
	}
	if kl.Index != 1 || kl.Name != "Klingon Empire" || kl.File != "klingon.yaml" {
		t.Errorf("klingon = %+v", *kl)
	}
	if fmt.Sprint(sf.Deck) != "[0 1 2 3]" || fmt.Sprint(kl.Deck) != "[4 5 6 7 8]" {
		t.Errorf("decks = %v, %v", sf.Deck, kl.Deck)
	}
	for _, f := range rs.Factions {
		if n := f.DeckCount(rs); n != 6 {
			t.Errorf("%s deck count = %d, want 6", f.ID, n)
		}
	}
	var ids []string
	for i, c := range rs.Cards {
		if c.Index != i {
			t.Errorf("card %s has index %d at position %d", c.ID, c.Index, i)
		}
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, ","); got != "sf-galaxy,sf-ambassador,sf-phaser,sf-torpedo,kl-bird-of-prey,kl-disruptor,kl-blockade,kl-mines,kl-cloak" {
		t.Errorf("cards = %s", got)
	}

	galaxy, _ := rs.CardByID("sf-galaxy")
	if galaxy.Faction != 0 || galaxy.Type != Ship || galaxy.Kind != KindScoring || galaxy.Power != 3 || galaxy.Copies != 1 ||
		galaxy.Name != "USS Galaxy" || !galaxy.HasTag("combo") || galaxy.Pos != (cards.Pos{File: "starfleet.yaml", Line: 4, Col: 5}) ||
		!strings.HasPrefix(galaxy.Text, "If your Diplomat") {
		t.Errorf("sf-galaxy = %+v", *galaxy)
	}
	if e := galaxy.Effect; e == nil || e.Handler != "diplomat_combo" || e.Spec == nil || e.Spec.Name != "diplomat_combo" ||
		e.Arg("partner_tag").Str != "diplomat" || e.Pos != (cards.Pos{File: "starfleet.yaml", Line: 9, Col: 5}) {
		t.Errorf("sf-galaxy effect = %+v", e)
	}
	amb, _ := rs.CardByID("sf-ambassador")
	if amb.Kind != KindNone || amb.Effect != nil || amb.Copies != 2 || amb.Type != Troops {
		t.Errorf("sf-ambassador = %+v", *amb)
	}
	// Defaults are filled in; enums carry their index and text.
	phaser, _ := rs.CardByID("sf-phaser")
	e := phaser.Effect
	if e == nil || len(e.Args) != len(e.Spec.Params) {
		t.Fatalf("sf-phaser effect = %+v", e)
	}
	if e.Arg("amount").Int != 1 || e.Arg("who") != (effects.Value{Int: handlers.WhoOwn, Str: "own"}) ||
		e.Arg("card_type") != (effects.Value{Int: 1, Str: "ship"}) || e.Arg("include_self").Bool() {
		t.Errorf("sf-phaser args = %+v", e.Args)
	}
	mines, _ := rs.CardByID("kl-mines")
	if got := mines.Effect.Arg("card_type"); got != (effects.Value{Int: 1, Str: "ship"}) {
		t.Errorf("kl-mines default card_type = %+v", got)
	}
	cloak, _ := rs.CardByID("kl-cloak")
	if cloak.Kind != KindSpecial || cloak.Effect.Spec.Timing != handlers.Special || cloak.Faction != 1 {
		t.Errorf("kl-cloak = %+v", *cloak)
	}

	// Targets.
	if len(rs.Targets) != 4 {
		t.Fatalf("%d targets", len(rs.Targets))
	}
	for i, tg := range rs.Targets {
		if tg.Index != i {
			t.Errorf("target %s index %d at %d", tg.ID, tg.Index, i)
		}
	}
	earth, _ := rs.TargetByID("earth")
	if earth.Type != Planet || earth.Affiliation != "federation" || earth.Quadrant != "alpha" || earth.VP != 3 ||
		earth.Pos != (cards.Pos{File: "targets.yaml", Line: 3, Col: 5}) || len(earth.Bonuses) != 1 {
		t.Fatalf("earth = %+v", *earth)
	}
	if b := earth.Bonuses[0]; b.Handler != "vp_per_target" || b.Arg("vp").Int != 1 ||
		b.Arg("type") != (effects.Value{Int: 1, Str: "planet"}) || b.Arg("quadrant") != (effects.Value{Int: 1, Str: "alpha"}) ||
		b.Pos != (cards.Pos{File: "targets.yaml", Line: 11, Col: 9}) {
		t.Errorf("earth bonus = %+v", b)
	}
	qonos, _ := rs.TargetByID("qonos")
	if b := qonos.Bonuses[0]; b.Arg("target") != (effects.Value{Int: 2, Str: "neutral-zone"}) || b.Arg("vp").Int != 2 {
		t.Errorf("qonos bonus = %+v", b)
	}
	nz, _ := rs.TargetByID("neutral-zone")
	if nz.Type != Sector || nz.Quadrant != "" || nz.Bonuses != nil || nz.Text != "" {
		t.Errorf("neutral-zone = %+v", *nz)
	}
	bl, _ := rs.TargetByID("badlands")
	if bl.Type != CombatZone {
		t.Errorf("badlands type = %v", bl.Type)
	}

	// Files and hash.
	var names []string
	for n := range rs.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	if got := strings.Join(names, ","); got != "klingon.yaml,rules.yaml,starfleet.yaml,targets.yaml" {
		t.Errorf("files = %s", got)
	}
	h := sha256.New()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(minimalDir, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, rs.Files[n]) {
			t.Errorf("Files[%s] differs from the file", n)
		}
		fmt.Fprintf(h, "%s\x00%s\x00", n, data)
	}
	if want := hex.EncodeToString(h.Sum(nil)); rs.Hash != want {
		t.Errorf("hash = %s, want %s", rs.Hash, want)
	}
}

// TestLoadPrefix checks how file names appear in messages.
func TestLoadPrefix(t *testing.T) {
	bad := with(minimalFS(t), "targets.yaml", "")
	for _, tc := range []struct {
		prefix, want string
	}{
		{"", "targets.yaml: file is empty"},
		{"rules/x", "rules/x/targets.yaml: file is empty"},
		{"rules/x/", "rules/x/targets.yaml: file is empty"},
	} {
		_, err := Load(bad, tc.prefix)
		if err == nil || err.Error() != tc.want {
			t.Errorf("prefix %q: got %v, want %s", tc.prefix, err, tc.want)
		}
	}
	_, err := LoadDir("../../../testdata/broken/empty-file/")
	if want := "../../../testdata/broken/empty-file/targets.yaml: file is empty"; err == nil || err.Error() != want {
		t.Errorf("LoadDir: got %v, want %s", err, want)
	}
	_, err = LoadDir("../../../testdata/no-such-dir")
	if want := "../../../testdata/no-such-dir: no such directory"; err == nil || err.Error() != want {
		t.Errorf("LoadDir: got %v, want %s", err, want)
	}
	_, err = Load(fstest.MapFS{}, "")
	if want := ".: not a ruleset: rules.yaml not found"; err == nil || err.Error() != want {
		t.Errorf("empty fs: got %v, want %s", err, want)
	}
}

// brokenCases are the fixtures under testdata/broken, each a full ruleset
// directory with one kind of defect and a golden file of the exact output.
var brokenCases = []struct {
	name string
	// positioned: every message must carry file:line:col, because the
	// input has a position for it.
	positioned bool
}{
	{"syntax-error", false}, // yaml.v3 gives no column
	{"tab-indent", true},
	{"unknown-key", true},
	{"wrong-type", true},
	{"missing-field", true},
	{"unknown-handler", true},
	{"bad-param", true},
	{"duplicate-id", true},
	{"dangling-reference", true},
	{"wrong-deck-size", true},
	{"empty-file", false},
	{"binary-file", false},
	{"not-a-ruleset", false},
	{"kind-mismatch", true},
	{"stray-file", false},
}

var rePositioned = regexp.MustCompile(`^testdata/broken/[a-z-]+/[a-z]+\.yaml:\d+:\d+: `)

func TestLoadBroken(t *testing.T) {
	for _, tc := range brokenCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "..", "testdata", "broken", tc.name)
			rs, err := Load(os.DirFS(dir), "testdata/broken/"+tc.name)
			if err == nil {
				t.Fatal("loaded without error")
			}
			if rs != nil {
				t.Error("a ruleset was returned along with errors")
			}
			if _, ok := err.(cards.ErrorList); !ok {
				t.Errorf("error is %T, want ErrorList", err)
			}
			got := err.Error() + "\n"
			golden := dir + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, rerr := os.ReadFile(golden)
			if rerr != nil {
				t.Fatalf("%v (run go test ./cards -run TestLoadBroken -update)", rerr)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if tc.positioned && !rePositioned.MatchString(line) {
					t.Errorf("message without file:line:col: %s", line)
				}
				if msg := line[strings.LastIndex(line, ": ")+2:]; msg != "" && msg[0] >= 'A' && msg[0] <= 'Z' {
					t.Errorf("message does not start in lower case: %s", line)
				}
			}
		})
	}
}

// TestLoadErrors covers problems beyond the broken fixtures, on in-memory
// variants of the minimal ruleset. Each want is a substring of the output.
func TestLoadErrors(t *testing.T) {
	base := minimalFS(t)
	deck := func(cards string) string {
		return "faction: starfleet\ncards:\n" + cards
	}
	card := func(extra string) string {
		return "  - id: sf-x\n    name: X\n    type: ship\n    kind: N\n    power: 1\n    copies: 6\n" + extra
	}
	cases := []struct {
		name string
		fsys fstest.MapFS
		want []string
	}{
		{"unknown card type", edit(t, base, "starfleet.yaml", "type: ship", "type: shp"),
			[]string{`starfleet.yaml:6:11: unknown card type "shp", did you mean "ship"?`}},
		{"unknown kind lists letters", edit(t, base, "starfleet.yaml", "kind: S", "kind: Q"),
			[]string{`starfleet.yaml:7:11: unknown kind "Q" (expected one of "N", "O", "P", "X", "S")`}},
		{"kind in lower case", edit(t, base, "starfleet.yaml", "kind: S", "kind: s"),
			[]string{`unknown kind "s", did you mean "S"?`}},
		{"unknown target type", edit(t, base, "targets.yaml", "type: sector", "type: sectr"),
			[]string{`unknown target type "sectr", did you mean "sector"?`}},
		{"unknown quadrant", edit(t, base, "targets.yaml", "quadrant: beta", "quadrant: bta"),
			[]string{`targets.yaml:17:15: unknown quadrant "bta", did you mean "beta"?`}},
		{"quadrant on a sector", edit(t, base, "targets.yaml", "type: sector\n", "type: sector\n    quadrant: alpha\n"),
			[]string{`quadrant is only for planets, not for a sector`}},
		{"planet without quadrant", edit(t, base, "targets.yaml", "    quadrant: beta\n", ""),
			[]string{`targets.yaml:13:5: missing required key "quadrant" in target "qonos"`}},
		{"unknown affiliation", edit(t, base, "targets.yaml", "affiliation: klingon", "affiliation: klingn"),
			[]string{`targets.yaml:16:18: unknown affiliation "klingn", did you mean "klingon"?`}},
		{"unknown planet affiliation", edit(t, base, "rules.yaml", "planets: [klingon]", "planets: [klingons]"),
			[]string{`rules.yaml:26:15: unknown affiliation "klingons", did you mean "klingon"?`}},
		{"unknown federation faction", edit(t, base, "rules.yaml", "factions: [starfleet]", "factions: [starflet]"),
			[]string{`rules.yaml:13:14: unknown faction "starflet", did you mean "starfleet"?`}},
		{"unknown starting faction", edit(t, base, "rules.yaml", "starting_faction: starfleet", "starting_faction: romulan"),
			[]string{`unknown faction "romulan" (expected one of "starfleet", "klingon")`}},
		{"unknown tie-break", edit(t, base, "rules.yaml", "tie_break: [planets]", "tie_break: [planet]"),
			[]string{`unknown tie-break "planet", did you mean "planets"?`}},
		{"deck faction mismatch", edit(t, base, "klingon.yaml", "faction: klingon", "faction: starfleet"),
			[]string{`klingon.yaml:2:10: faction "starfleet" does not match rules.yaml, which makes this file the deck of faction "klingon"`}},
		{"missing deck file", edit(t, base, "rules.yaml", "deck: klingon.yaml", "deck: klingons.yaml"),
			[]string{`rules.yaml:27:11: deck file "klingons.yaml" not found, did you mean "klingon.yaml"?`,
				`klingon.yaml: file is not used: rules.yaml names deck "klingons.yaml" (misspelt file name?)`}},
		{"missing targets file", func() fstest.MapFS { m := with(base, "x", ""); delete(m, "x"); delete(m, "targets.yaml"); return m }(),
			[]string{`targets.yaml: file not found`}},
		{"deck path", edit(t, base, "rules.yaml", "deck: klingon.yaml", "deck: ../klingon.yaml"),
			[]string{`deck: "../klingon.yaml" is a path`}},
		{"same deck twice", edit(t, base, "rules.yaml", "deck: klingon.yaml", "deck: starfleet.yaml"),
			[]string{`deck file "starfleet.yaml" is already the deck of faction "starfleet"`}},
		{"color unquoted", edit(t, base, "rules.yaml", `color: "#b22222"`, `color: #b22222`),
			[]string{`quote the colour`}},
		{"bad color", edit(t, base, "rules.yaml", `color: "#b22222"`, `color: red`),
			[]string{`invalid color "red": use "#rrggbb"`}},
		{"version as number", edit(t, base, "rules.yaml", "version: 0.1.0", "version: 0.1"),
			[]string{`rules.yaml:3:10: version: expected a string, got 0.1 (quote it: "0.1")`}},
		{"players min above max", edit(t, base, "rules.yaml", "{min: 2, max: 2}", "{min: 3, max: 2}"),
			[]string{`players: min 3 is greater than max 2`}},
		{"more players than factions", edit(t, base, "rules.yaml", "{min: 2, max: 2}", "{min: 2, max: 3}"),
			[]string{`players: max is 3, but only 2 factions are defined`}},
		{"hand size out of range", edit(t, base, "rules.yaml", "hand_size: 3", "hand_size: 9"),
			[]string{`rules.yaml:5:12: hand_size: 9 is out of range (1..8)`}},
		{"deck size limit", edit(t, base, "rules.yaml", "deck_size: 6", "deck_size: 61"),
			[]string{`deck_size: 61 is out of range (1..60)`}},
		{"too many rows", edit(t, base, "rules.yaml", "targets_per_round: 2", "targets_per_round: 9"),
			[]string{`targets_per_round: 9 is out of range (1..8)`}},
		{"too many targets", edit(t, base, "rules.yaml", "rounds: 2", "rounds: 40"),
			[]string{`rules.yaml:9:9: rounds × targets_per_round = 40 × 2 = 80 targets, more than the engine's limit of 64`}},
		{"target count", edit(t, base, "rules.yaml", "rounds: 2", "rounds: 3"),
			[]string{`targets.yaml:2:1: 4 targets given, but rules.yaml needs rounds × targets_per_round = 3 × 2 = 6`}},
		{"one faction", edit(t, base, "rules.yaml", "  - id: klingon", "  - id: klingon\n    extra: 1"),
			[]string{`unknown key "extra" in faction "klingon" (allowed: id, name, color, planets, deck)`}},
		{"duplicate key", edit(t, base, "starfleet.yaml", "    power: 3\n", "    power: 3\n    power: 4\n"),
			[]string{`starfleet.yaml:9:5: duplicate key "power" (first given at line 8)`}},
		{"kind needs effect", edit(t, base, "klingon.yaml", "    effect: blockade\n", ""),
			[]string{`missing required key "effect" in card "kl-blockade" (kind P needs a permanent handler)`}},
		{"params without effect", with(base, "starfleet.yaml", deck(card("    params: {count: 1}\n"))),
			[]string{`"params" without an "effect"`}},
		{"target bonus on card", edit(t, base, "klingon.yaml", "effect: blockade", "effect: vp_if_held"),
			[]string{`handler "vp_if_held" is a target-card bonus`}},
		{"card effect as bonus", edit(t, base, "targets.yaml", "effect: vp_if_count", "effect: blockade"),
			[]string{`handler "blockade" is a permanent player-card effect; target bonuses need a target-bonus handler (vp_if_count, vp_if_held, vp_per_target)`}},
		{"unknown parameter", edit(t, base, "klingon.yaml", "{amount: 2}", "{amount: 2, amout: 3}"),
			[]string{`unknown parameter "amout" for handler "weaken_above", did you mean "amount"?`}},
		{"misspelt required parameter", edit(t, base, "klingon.yaml", "{amount: 2}", "{amout: 2}"),
			[]string{`unknown parameter "amout"`}},
		{"required parameter", edit(t, base, "klingon.yaml", "{amount: 2}", "{}"),
			[]string{`klingon.yaml:16:13: handler "weaken_above" requires parameter "amount"`}},
		{"parameterless handler", edit(t, base, "klingon.yaml", "effect: blockade", "effect: blockade\n    params: {x: 1}"),
			[]string{`unknown parameter "x": handler "blockade" takes no parameters`}},
		{"bool parameter", edit(t, base, "starfleet.yaml", "{amount: 1, card_type: ship}", "{amount: 1, include_self: yes}"),
			[]string{`include_self: expected true or false, got "yes"`}},
		{"int parameter type", edit(t, base, "starfleet.yaml", "{count: 1}", "{count: one}"),
			[]string{`count: expected an integer, got "one"`}},
		{"negative power", edit(t, base, "starfleet.yaml", "power: 3", "power: -1"),
			[]string{`power: -1 is out of range (0..20)`}},
		{"huge number", edit(t, base, "starfleet.yaml", "power: 3", "power: 99999999999999999999999"),
			[]string{`power: expected an integer, got 99999999999999999999999`}},
		{"copies range", edit(t, base, "starfleet.yaml", "copies: 2", "copies: 11"),
			[]string{`copies: 11 is out of range (1..10)`}},
		{"invalid card id", edit(t, base, "starfleet.yaml", "id: sf-galaxy", "id: SF Galaxy"),
			[]string{`invalid card id "SF Galaxy"`}},
		{"invalid faction id", edit(t, base, "rules.yaml", "id: klingon", "id: 9klingon"),
			[]string{`invalid faction id "9klingon"`}},
		{"invalid tag", edit(t, base, "starfleet.yaml", "tags: [combo]", "tags: [Combo]"),
			[]string{`invalid tag "Combo"`}},
		{"name empty", edit(t, base, "starfleet.yaml", "name: USS Galaxy", `name: ""`),
			[]string{`name: must not be empty`}},
		{"card not a mapping", with(base, "starfleet.yaml", deck("  - just a string\n")),
			[]string{`starfleet.yaml:3:5: card: expected a mapping of keys, got "just a string"`}},
		{"top level list", with(base, "targets.yaml", "- a\n- b\n"),
			[]string{`targets.yaml:1:1: expected a mapping of keys at the top of the file, got a list`}},
		{"multiple documents", with(base, "targets.yaml", string(base["targets.yaml"].Data)+"---\ntargets: []\n"),
			[]string{`targets.yaml:38:1: a second YAML document starts here`}},
		{"trailing document marker", with(base, "targets.yaml", string(base["targets.yaml"].Data)+"---\n"), nil},
		{"alias", edit(t, base, "klingon.yaml", "power: 2", "power: &p 2\n    copies: *p"),
			[]string{`klingon.yaml:15:13: aliases (*p) are not supported`}},
		{"unknown anchor", edit(t, base, "klingon.yaml", "power: 2", "power: *p"),
			[]string{`klingon.yaml:14:12: aliases (*p) are not supported`}},
		{"alias bomb", with(base, "targets.yaml", aliasBomb()),
			[]string{`targets.yaml:2:10: aliases (*a0) are not supported`}},
		{"control character", edit(t, base, "klingon.yaml", "Disruptor", "Disr\x07uptor"),
			[]string{`klingon.yaml:11:15: control character U+0007 is not allowed in YAML`}},
		{"invalid utf-8", edit(t, base, "klingon.yaml", "Disruptor", "Disr\xffuptor"),
			[]string{`klingon.yaml:11:15: not a YAML text file: invalid UTF-8 (byte 0xff at byte offset 203)`}},
		{"utf-16", with(base, "klingon.yaml", "\xff\xfef\x00a\x00"),
			[]string{`UTF-16 encoded`}},
		{"comments only", with(base, "klingon.yaml", "# nothing yet\n"),
			[]string{`klingon.yaml: file is empty`}},
		{"null document", with(base, "klingon.yaml", "~\n"),
			[]string{`expected a mapping of keys at the top of the file, got ~`}},
		{"huge file", with(base, "klingon.yaml", strings.Repeat("# padding\n", cards.MaxFileSize/10+1)),
			[]string{`klingon.yaml: file is too large`}},
		{"first-line syntax error", with(base, "klingon.yaml", "faction: a: b\n"),
			[]string{`klingon.yaml:1: syntax error: mapping values are not allowed in this context`}},
		{"misindented card", edit(t, base, "klingon.yaml", "    type: weapon", "   type: weapon"),
			[]string{`klingon.yaml:12: syntax error: did not find expected '-' indicator`}},
		{"deep nesting", with(base, "targets.yaml", "targets: "+strings.Repeat("[", 20000)),
			[]string{`targets.yaml:1: syntax error: exceeded max depth`}},
		{"stray yml", with(base, "notes.yml", "a: 1\n"),
			[]string{`notes.yml: file is not used by rules.yaml`}},
		{"game: alphatactics", edit(t, base, "rules.yaml", "name: Minimal Test Set\n", "game: alphatactics\nname: Minimal Test Set\n"), nil},
		{"another game", edit(t, base, "rules.yaml", "name: Minimal Test Set\n", "game: goofspiel\nname: Minimal Test Set\n"),
			[]string{`rules.yaml:2:7: game: "goofspiel" is not Alpha Tactics: this loader reads rulesets with game: alphatactics (or no game key)`}},
		{"game not a string", edit(t, base, "rules.yaml", "name: Minimal Test Set\n", "game: [alphatactics]\nname: Minimal Test Set\n"),
			[]string{`rules.yaml:2:7: game: expected a string, got a list`}},
		{"game misspelt as a key", edit(t, base, "rules.yaml", "name: Minimal Test Set\n", "gmae: alphatactics\nname: Minimal Test Set\n"),
			[]string{`rules.yaml:2:1: unknown key "gmae" in rules.yaml, did you mean "game"?`}},
		{"dangling card errors suppressed when a deck is broken",
			edit(t, edit(t, base, "starfleet.yaml", "tags: [combo]", "tags: [combo"), "klingon.yaml", "{amount: 2}", "{amount: 2}"),
			[]string{`starfleet.yaml:13: syntax error`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := Load(tc.fsys, "")
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error:\n%v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded without error")
			}
			if rs != nil {
				t.Error("ruleset returned with errors")
			}
			got := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			if tc.name == "dangling card errors suppressed when a deck is broken" && strings.Count(got, "\n") != 0 {
				t.Errorf("want only the syntax error, got:\n%s", got)
			}
		})
	}
}

// aliasBomb is the "billion laughs" shape: nine levels each aliasing the
// previous one ten times.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestLoadCardRef covers card-reference parameters. No handler of the
// default registry takes one yet, so the test registers its own.
func TestLoadCardRef(t *testing.T) {
	registerTestHandlers()
	base := edit(t, minimalFS(t), "klingon.yaml", "effect: space_mines\n", "effect: test_copy_card\n    params: {card: sf-phaser}\n")
	rs, err := Load(base, "")
	if err != nil {
		t.Fatal(err)
	}
	mines, _ := rs.CardByID("kl-mines")
	if got := mines.Effect.Arg("card"); got != (effects.Value{Int: 2, Str: "sf-phaser"}) {
		t.Errorf("card arg = %+v, want index 2", got)
	}
	if got := mines.Effect.Arg("optional"); got != (effects.Value{Int: 0, Str: "sf-galaxy"}) {
		t.Errorf("default card arg = %+v", got)
	}
	_, err = Load(edit(t, base, "starfleet.yaml", "id: sf-galaxy", "id: sf-galaxy-2"), "")
	if want := `klingon.yaml:30:13: handler "test_copy_card": parameter optional defaults to card "sf-galaxy", which this ruleset lacks; set optional explicitly`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = Load(edit(t, base, "klingon.yaml", "card: sf-phaser", "card: sf-phasr"), "")
	if want := `klingon.yaml:31:20: unknown card "sf-phasr", did you mean "sf-phaser"?`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

var registerOnce sync.Once

func registerTestHandlers() {
	registerOnce.Do(func() {
		handlers.Register(effects.Spec{
			Name: "test_copy_card", Timing: handlers.OneTime,
			Doc: "test handler with card references (cards tests only)",
			Params: []effects.Param{
				{Name: "card", Type: effects.Ref, RefKind: handlers.RefCard, Required: true, Doc: "a card"},
				{Name: "optional", Type: effects.Ref, RefKind: handlers.RefCard, Default: effects.Value{Str: "sf-galaxy"}, Doc: "another card"},
			},
		})
	})
}

// TestLoadMutations applies random line-level edits of the kind designers
// make (values swapped for other vocabulary, lines deleted, duplicated or
// swapped) and checks the loader neither panics nor returns an inconsistent
// ruleset. It complements FuzzLoad, whose byte-level mutations rarely keep the
// YAML well-formed.
func TestLoadMutations(t *testing.T) {
	registerTestHandlers()
	base := minimalFS(t)
	base = edit(t, base, "klingon.yaml", "effect: space_mines\n", "effect: test_copy_card\n    params: {card: sf-phaser}\n")
	names := []string{}
	for n := range base {
		names = append(names, n)
	}
	sort.Strings(names)
	dict := []string{"*a", "&a x", "~", "[]", "{}", "-1", "0", "99999", "yes", "true", "\t", "---", "", "x: y", "- z", "[a, b]", "{a: 1}", "'q'", "\"\"", "S", "N", "O", "P", "X", "ship", "planet", "alpha", "beta", "neutral", "federation", "klingon", "starfleet", "sf-phaser", "earth", "qonos", "blockade", "vp_if_held", "bomb", "diplomat", "combo", "  ", ":", "#", "!!str 3", "!!int x", "\xff", "\x00", "é", "klingon.yaml", "starfleet.yaml", "rules.yaml", "6", "2", "4", "1", "copies: 6", "tags: [diplomat]"}
	r := rand.New(rand.NewSource(1))
	fails := 0
	for iter := 0; iter < 1500 && fails < 5; iter++ {
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		nmut := 1 + r.Intn(3)
		for m := 0; m < nmut; m++ {
			name := names[r.Intn(len(names))]
			lines := strings.Split(string(fsys[name].Data), "\n")
			i := r.Intn(len(lines))
			switch r.Intn(5) {
			case 0: // replace value after colon
				if j := strings.Index(lines[i], ": "); j >= 0 {
					lines[i] = lines[i][:j+2] + dict[r.Intn(len(dict))]
				}
			case 1: // delete line
				lines = append(lines[:i], lines[i+1:]...)
			case 2: // duplicate line
				lines = append(lines[:i+1], lines[i:]...)
			case 3: // insert dict
				lines[i] = lines[i] + dict[r.Intn(len(dict))]
			case 4: // swap lines
				j := r.Intn(len(lines))
				lines[i], lines[j] = lines[j], lines[i]
			}
			fsys[name] = &fstest.MapFile{Data: []byte(strings.Join(lines, "\n"))}
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					fails++
					t.Errorf("panic: %v", p)
				}
			}()
			rs, err := Load(fsys, "f")
			if err != nil {
				if rs != nil {
					t.Fatal("rs with err")
				}
				if strings.Contains(err.Error(), "internal error") {
					fails++
					for _, n := range names {
						t.Logf("%s:\n%s", n, fsys[n].Data)
					}
					t.Errorf("%v", err)
				}
				return
			}
			checkInvariants(t, rs)
		}()
	}
}

// TestLoadLimits checks the engine's capacity limits on generated rulesets.
func TestLoadLimits(t *testing.T) {
	base := minimalFS(t)
	// 251 distinct one-copy cards: beyond MaxCardDefs; deck_size cannot match
	// either, which is reported too.
	var b strings.Builder
	b.WriteString("faction: starfleet\ncards:\n")
	for i := 0; i <= MaxCardDefs; i++ {
		fmt.Fprintf(&b, "  - {id: c%d, name: C, type: ship, kind: N, power: 1}\n", i)
	}
	_, err := Load(with(base, "starfleet.yaml", b.String()), "")
	if err == nil || !strings.Contains(err.Error(), "starfleet.yaml:253:5: too many card definitions: 256, the engine supports at most 250") {
		t.Errorf("card defs: %v", err)
	}
	// Five factions.
	rules := string(base["rules.yaml"].Data)
	i := strings.Index(rules, "  - id: klingon")
	extra := ""
	for _, id := range []string{"a", "b", "c"} {
		extra += strings.ReplaceAll(rules[i:], "klingon", id)
	}
	_, err = Load(with(base, "rules.yaml", rules+extra), "")
	if err == nil || !strings.Contains(err.Error(), "factions: 5 given, the engine supports at most 4") {
		t.Errorf("factions: %v", err)
	}
}

// TestLoadHuge checks that a large broken file (close to the size cap, with
// thousands of cards each holding dangling references) is reported quickly.
func TestLoadHuge(t *testing.T) {
	base := minimalFS(t)
	var b strings.Builder
	b.WriteString("faction: starfleet\ncards:\n")
	for i := 0; b.Len() < cards.MaxFileSize-200; i++ {
		fmt.Fprintf(&b, "- {id: c%d, name: C, type: ship, kind: S, power: 1, effect: diplomat_combo, params: {partner_tag: t%d}, tags: [x%d]}\n", i, i, i)
	}
	start := time.Now()
	_, err := Load(with(base, "starfleet.yaml", b.String()), "")
	if err == nil || !strings.Contains(err.Error(), "more errors") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 10*time.Second*raceSlowdown {
		t.Errorf("took %v", d)
	}
	t.Logf("%d errors in %v", len(err.(cards.ErrorList)), time.Since(start))
}

func TestSuggest(t *testing.T) {
	names := handlers.Names()
	for _, tc := range []struct {
		word string
		list []string
		want string
	}{
		{"bloackade", names, "blockade"},
		{"shp", handlers.CardTypes, "ship"},
		{"tpye", []string{"type", "text"}, "type"},
		{"Ship", handlers.CardTypes, "ship"},
		{"ship", handlers.CardTypes, ""},
		{"Q", EffectKinds, ""},
		{"o", EffectKinds, "O"},
		{"zzzz", names, ""},
		{"", names, ""},
		{strings.Repeat("x", 1000), names, ""},
	} {
		if got := cards.Suggest(tc.word, tc.list); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

// TestDefault guards the embedded default ruleset, which Default panics on.
func TestDefault(t *testing.T) {
	if _, err := fs.Stat(DefaultFS(), "rules.yaml"); err != nil {
		t.Fatalf("embedded default has no rules.yaml: %v", err)
	}
	if _, err := Load(DefaultFS(), "cards/default"); err != nil {
		t.Fatalf("embedded default ruleset is invalid:\n%v", err)
	}
	rs := Default()
	if rs != Default() {
		t.Error("Default is not cached")
	}
	if len(rs.Factions) != 4 || rs.Rules.DeckSize != 33 || len(rs.Targets) != rs.Rules.Rounds*rs.Rules.TargetsPerRound {
		t.Errorf("default: %d factions, deck size %d, %d targets", len(rs.Factions), rs.Rules.DeckSize, len(rs.Targets))
	}
	for i := range rs.Factions {
		if n := rs.Factions[i].DeckCount(rs); n != rs.Rules.DeckSize {
			t.Errorf("%s deck has %d cards", rs.Factions[i].ID, n)
		}
	}
}

// TestLoadLengthLimits: ids longer than MaxIDLen and names longer than
// MaxNameLen are refused with their position (issue 24: a card id of 250
// characters validated and then failed print after rendering, its PNG's
// file name being too long); at the limits they load.
func TestLoadLengthLimits(t *testing.T) {
	base := minimalFS(t)
	id := func(n int) string { return "k" + strings.Repeat("x", n-1) }
	name := func(n int) string { return strings.Repeat("é", n) } // characters, not bytes
	ok := []struct{ file, old, new string }{
		{"klingon.yaml", "id: kl-cloak", "id: " + id(cards.MaxIDLen)},
		{"klingon.yaml", "name: Cloaking Device", "name: " + name(cards.MaxNameLen)},
		{"targets.yaml", "name: Earth", "name: " + name(cards.MaxNameLen)},
		{"rules.yaml", "name: Minimal Test Set", "name: " + name(cards.MaxNameLen)},
		{"rules.yaml", "name: Klingon Empire", "name: " + name(cards.MaxNameLen)},
		{"starfleet.yaml", "tags: [combo]", "tags: [" + id(cards.MaxIDLen) + "]"},
	}
	for _, c := range ok {
		if _, err := Load(edit(t, base, c.file, c.old, c.new), ""); err != nil {
			t.Errorf("%s %q at the limit: %v", c.file, c.old, err)
		}
	}
	bad := []struct{ file, old, new, msg string }{
		{"klingon.yaml", "id: kl-cloak", "id: " + id(cards.MaxIDLen+1), "klingon.yaml:32:9: card id \"kxxx"},
		{"klingon.yaml", "id: kl-cloak", "id: " + id(250), "is 250 characters long, at most 64"},
		{"klingon.yaml", "name: Cloaking Device", "name: " + name(cards.MaxNameLen+1), "klingon.yaml:33:11: card name \"éé"},
		{"targets.yaml", "id: earth", "id: " + id(cards.MaxIDLen+1), "targets.yaml:3:9: target id"},
		{"targets.yaml", "name: Earth", "name: " + name(cards.MaxNameLen+1), "targets.yaml:4:11: target name"},
		{"rules.yaml", "name: Minimal Test Set", "name: " + name(cards.MaxNameLen+1), "rules.yaml:2:7: ruleset name"},
		{"rules.yaml", "name: Klingon Empire", "name: " + name(cards.MaxNameLen+1), "rules.yaml:24:11: faction name"},
		{"starfleet.yaml", "tags: [combo]", "tags: [" + id(cards.MaxIDLen+1) + "]", "starfleet.yaml:13:12: tag"},
		{"rules.yaml", "id: klingon", "id: " + id(cards.MaxIDLen+1), "rules.yaml:23:9: faction id"},
	}
	for _, c := range bad {
		_, err := Load(edit(t, base, c.file, c.old, c.new), "")
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %q too long: got %v, want %q", c.file, c.old, err, c.msg)
		}
	}
}
