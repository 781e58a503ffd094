package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

const good = `# a comment
players: [starfleet, klingon]
seed: 7
rows:
  - target: earth
    cards:
      - {card: sf-galaxy, face: up}
      - {card: kl-ktinga, owner: klingon}
      - {card: sf-ambassador, face: down}
  - target: qonos
    cards: []
expect:
  - {row: 1, winner: starfleet, reason: combo, power: {starfleet: 6, klingon: 6}}
  - {row: 2, winner: none}
`

func TestLoadGood(t *testing.T) {
	rs := rules.Default()
	sc, err := Load([]byte(good), "good.yaml", rs)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Ruleset != rs {
		t.Error("a scenario without inline cards should use the ruleset as given")
	}
	if got := strings.Join(sc.Players, ","); got != "starfleet,klingon" {
		t.Errorf("players %s", got)
	}
	if sc.Seed != 7 || !sc.HasSeed {
		t.Errorf("seed %d %v", sc.Seed, sc.HasSeed)
	}
	if len(sc.Rows) != 2 || len(sc.Rows[0].Cards) != 3 || len(sc.Rows[1].Cards) != 0 {
		t.Fatalf("rows %+v", sc.Rows)
	}
	c := sc.Rows[0].Cards
	if c[0].Card != "sf-galaxy" || c[0].Owner != 0 || !c[0].FaceUp {
		t.Errorf("card 1 %+v", c[0])
	}
	if c[1].Card != "kl-ktinga" || c[1].Owner != 1 || c[1].FaceUp {
		t.Errorf("card 2 %+v", c[1])
	}
	if c[1].Pos != (cards.Pos{File: "good.yaml", Line: 8, Col: 9}) {
		t.Errorf("card 2 at %v", c[1].Pos)
	}
	if len(sc.Expect) != 2 {
		t.Fatalf("expect %+v", sc.Expect)
	}
	e := sc.Expect[0]
	if e.Row != 1 || e.Winner != "starfleet" || e.Reason != "combo" || e.Power["klingon"] != 6 || len(e.Power) != 2 {
		t.Errorf("expect 1 %+v", e)
	}
	if e := sc.Expect[1]; e.Winner != "none" || e.Reason != "" || e.Power != nil {
		t.Errorf("expect 2 %+v", e)
	}

	su := sc.Setup()
	if su.Phase != engine.Reveal || !su.PauseBeforeScoring || su.Seed != 7 || len(su.Rows) != 2 ||
		su.Rows[0].Target != "earth" || su.Rows[0].Cards[1] != (engine.SetupCard{Card: "kl-ktinga", Owner: 1}) {
		t.Errorf("setup %+v", su)
	}
	s, err := engine.NewSetup(sc.Ruleset, su)
	if err != nil {
		t.Fatal(err)
	}
	if s.Phase() != engine.Scoring {
		t.Fatalf("phase %v (decision for seat %d), want the pause before scoring", s.Phase(), s.CurrentPlayer())
	}
}

// loadErr loads src and returns the error text, failing if it loads.
func loadErr(t *testing.T, src string) string {
	t.Helper()
	_, err := Load([]byte(src), "s.yaml", rules.Default())
	if err == nil {
		t.Fatalf("loaded:\n%s", src)
	}
	var list cards.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T is not a cards.ErrorList: %v", err, err)
	}
	for _, e := range list {
		if e.Pos.File != "s.yaml" {
			t.Errorf("error without the file name: %v", e)
		}
		if e.Msg != "" && strings.ToLower(e.Msg[:1]) != e.Msg[:1] {
			t.Errorf("error not in lower case: %v", e)
		}
	}
	return err.Error()
}

func TestLoadErrors(t *testing.T) {
	const head = "players: [starfleet, klingon]\n"
	tests := []struct {
		name, src, want string
	}{
		{"unknown top key", head + "rows: [{target: earth}]\nsede: 1\n",
			`s.yaml:3:1: unknown key "sede" in scenario, did you mean "seed"?`},
		{"unknown card key", head + "rows:\n  - target: earth\n    cards: [{card: sf-galaxy, facing: up}]\n",
			`s.yaml:4:31: unknown key "facing" in a card of row 1 (allowed: card, owner, face)`},
		{"unknown card", head + "rows:\n  - target: earth\n    cards: [{card: sf-galxy}]\n",
			`s.yaml:4:20: unknown card "sf-galxy", did you mean "sf-galaxy"?`},
		{"unknown target", head + "rows:\n  - target: earht\n",
			`s.yaml:3:13: unknown target "earht", did you mean "earth"?`},
		{"bad face", head + "rows:\n  - target: earth\n    cards: [{card: sf-galaxy, face: sideways}]\n",
			`s.yaml:4:37: unknown face "sideways" (expected one of "up", "down")`},
		{"owner not playing", head + "rows:\n  - target: earth\n    cards: [{card: ro-scimitar, owner: romulan}]\n",
			`s.yaml:4:40: owner: romulan is not playing (players: starfleet, klingon)`},
		{"card of a faction not playing", head + "rows:\n  - target: earth\n    cards: [{card: ro-scimitar}]\n",
			`s.yaml:4:20: card "ro-scimitar" belongs to romulan, who is not playing (players: starfleet, klingon)`},
		{"owner of another faction's card", head + "rows:\n  - target: earth\n    cards: [{card: kl-ktinga, owner: starfleet}]\n",
			`s.yaml:4:38: card "kl-ktinga" is a klingon card: only klingon can own it`},
		{"too many copies", head + "rows:\n  - target: earth\n    cards: [{card: sf-galaxy}, {card: sf-galaxy}]\n",
			`s.yaml:4:39: card "sf-galaxy" is used 2 times, but the starfleet deck has 1 copy`},
		{"target twice", head + "rows:\n  - target: earth\n  - target: earth\n",
			`s.yaml:4:13: target "earth" is already used by row 1`},
		{"unknown faction", "players: [starfleet, klingons]\nrows: [{target: earth}]\n",
			`s.yaml:1:22: unknown faction "klingons", did you mean "klingon"?`},
		{"faction twice", "players: [klingon, klingon]\nrows: [{target: earth}]\n",
			`s.yaml:1:20: faction "klingon" plays twice`},
		{"one player", "players: [klingon]\nrows: [{target: earth}]\n",
			`s.yaml:1:10: players: 1 factions, the rules allow 2 to 4`},
		{"missing rows", head,
			`s.yaml:1:1: missing required key "rows" in scenario`},
		{"no rows", head + "rows: []\n",
			`s.yaml:2:7: rows: 0 rows, a scenario needs 1 to 8`},
		{"negative seed", head + "seed: -1\nrows: [{target: earth}]\n",
			`s.yaml:2:7: seed: -1 is not a non-negative 64-bit integer`},
		{"expect row out of range", head + "rows: [{target: earth}]\nexpect: [{row: 2, winner: none}]\n",
			`s.yaml:3:16: row: 2 is out of range (1..1)`},
		{"expect bad reason", head + "rows: [{target: earth}]\nexpect: [{row: 1, reason: powr}]\n",
			`s.yaml:3:27: unknown reason "powr", did you mean "power"?`},
		{"expect winner not playing", head + "rows: [{target: earth}]\nexpect: [{row: 1, winner: vulcan}]\n",
			`s.yaml:3:27: winner: vulcan is not playing (players: starfleet, klingon)`},
		{"expect nothing", head + "rows: [{target: earth}]\nexpect: [{row: 1}]\n",
			`s.yaml:3:10: expectation for row 1 checks nothing: give winner, reason or power`},
		{"syntax error", "players: [starfleet\nrows", `s.yaml:2: syntax error:`},
		{"empty", "# nothing\n", `s.yaml: empty scenario`},
		{"not a mapping", "- a\n- b\n", `s.yaml:1:1: scenario: expected a mapping of keys, got a list`},
		{"alias", head + "rows: &r [{target: earth}]\n", `s.yaml:2:7: anchors and aliases are not supported`},
		{"inline id exists", head + "cards: [{id: sf-galaxy, faction: starfleet, type: ship, kind: N, power: 1}]\nrows: [{target: earth}]\n",
			`s.yaml:2:14: card "sf-galaxy" already exists in the ruleset (Galaxy, starfleet); choose another id`},
		{"inline kind mismatch", head + "cards: [{id: x, faction: starfleet, type: ship, kind: O, power: 1, effect: admiral}]\nrows: [{target: earth}]\n",
			`s.yaml:2:76: handler "admiral" is a scoring effect (kind S), but the card's kind is O`},
		{"inline bad param", head + "cards: [{id: x, faction: starfleet, type: ship, kind: S, power: 1, effect: admiral, params: {per_crd: 2}}]\nrows: [{target: earth}]\n",
			`unknown parameter "per_crd" for handler "admiral", did you mean "per_card"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := loadErr(t, tt.src)
			if !strings.Contains(got, tt.want) {
				t.Errorf("error\n%s\ndoes not contain\n%s", got, tt.want)
			}
		})
	}
}

func TestErrorsSortedAndAllReported(t *testing.T) {
	got := loadErr(t, `players: [starfleet, klingon]
rows:
  - target: earht
    cards:
      - {card: sf-galxy, face: sideways}
sede: 2
`)
	lines := strings.Split(got, "\n")
	want := []string{"s.yaml:3:13:", "s.yaml:5:16:", "s.yaml:5:32:", "s.yaml:6:1:"}
	if len(lines) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(lines), len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d is %q, want it at %s", i+1, lines[i], w)
		}
	}
}

func TestInlineCards(t *testing.T) {
	rs := rules.Default()
	nCards := len(rs.Cards)
	kl, _ := rs.FactionByID("klingon")
	nDeck := len(kl.Deck)
	sc, err := Load([]byte(`players: [starfleet, klingon]
cards:
  - {id: test-big, faction: klingon, name: Big Ship, type: ship, kind: N, power: 9}
  - {id: test-boost, faction: klingon, type: tech, kind: P, power: 1, copies: 2,
     effect: modify_power, params: {amount: 2, card_type: ship}, tags: [booster]}
rows:
  - target: earth
    cards:
      - {card: test-big}
      - {card: test-boost}
      - {card: test-boost, face: up}
`), "inline.yaml", rs)
	if err != nil {
		t.Fatal(err)
	}
	// The given ruleset is untouched.
	if len(rs.Cards) != nCards || len(kl.Deck) != nDeck {
		t.Fatalf("the ruleset was modified: %d cards, %d in the klingon deck", len(rs.Cards), len(kl.Deck))
	}
	if _, ok := rs.CardByID("test-big"); ok {
		t.Fatal("the inline card leaked into the given ruleset")
	}
	nrs := sc.Ruleset
	if nrs == rs || len(nrs.Cards) != nCards+2 || nrs.Hash == rs.Hash {
		t.Fatalf("copy: %d cards, same ruleset %v, same hash %v", len(nrs.Cards), nrs == rs, nrs.Hash == rs.Hash)
	}
	big, ok := nrs.CardByID("test-big")
	if !ok || big.Index != nCards || big.Faction != kl.Index || big.Copies != 1 || big.Name != "Big Ship" || big.Power != 9 {
		t.Fatalf("test-big %+v", big)
	}
	boost, _ := nrs.CardByID("test-boost")
	if boost.Copies != 2 || boost.Effect == nil || boost.Effect.Handler != "modify_power" || !boost.HasTag("booster") {
		t.Fatalf("test-boost %+v", boost)
	}
	b := boost.Effect
	if b.Arg("amount").Int != 2 || b.Arg("who").Str != "own" || b.Arg("card_type").Str != "ship" || b.Arg("include_self").Bool() {
		t.Errorf("arguments %+v", b.Args)
	}
	nkl, _ := nrs.FactionByID("klingon")
	if len(nkl.Deck) != nDeck+2 || nkl.Deck[nDeck] != big.Index || nkl.DeckCount(nrs) != kl.DeckCount(rs)+3 {
		t.Errorf("klingon deck %v", nkl.Deck)
	}
	if sc.Extra[0] != "test-big" || sc.Extra[1] != "test-boost" {
		t.Errorf("extra %v", sc.Extra)
	}

	// The engine deals them, reveals them and scores them: each Booster
	// gives the Big Ship +2.
	s, err := engine.NewSetup(nrs, sc.Setup())
	if err != nil {
		t.Fatal(err)
	}
	res := s.ScoreRow(0, new(handlers.RowScore))
	if res.Power[1] != 9+2+2+1+1 || res.Winner != 1 {
		t.Errorf("row power %v winner %d", res.Power, res.Winner)
	}
}

func TestCheck(t *testing.T) {
	sc, err := Load([]byte(good), "good.yaml", rules.Default())
	if err != nil {
		t.Fatal(err)
	}
	ok := []Result{
		{Row: 1, Winner: "starfleet", Reason: "combo", Power: map[string]int{"starfleet": 6, "klingon": 6}},
		{Row: 2, Winner: "none", Reason: "none", Power: map[string]int{"starfleet": 0, "klingon": 0}},
	}
	if errs := sc.Check(ok); len(errs) != 0 {
		t.Errorf("mismatches %v", errs)
	}
	bad := []Result{
		{Row: 1, Winner: "klingon", Reason: "power", Power: map[string]int{"starfleet": 6, "klingon": 7}},
	}
	errs := sc.Check(bad)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		"good.yaml:13:22: row 1: winner is klingon, expected starfleet",
		"good.yaml:13:41: row 1: reason is power, expected combo",
		"good.yaml:13:79: row 1: power of klingon is 7, expected 6",
		"good.yaml:14:5: row 2: no result",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mismatches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestScenarioFiles loads every scenario shipped in testdata.
func TestScenarioFiles(t *testing.T) {
	files, err := filepath.Glob("../../../testdata/scenarios/*.yaml")
	if err != nil || len(files) < 8 {
		t.Fatalf("%d scenario files (%v)", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := Load(data, f, rules.Default())
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(sc.Expect) == 0 {
			t.Errorf("%s has no expectations", f)
		}
	}
}
