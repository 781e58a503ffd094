package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPrintCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "print")
	code, stdout, stderr := cardlab(t, "print", "--out", out, "--formats", "csv", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Files  []string
		Copies int
		Decks  []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	if strings.Join(res.Files, ",") != "cards.csv" || res.Copies != 156 || len(res.Decks) != 5 {
		t.Errorf("result %+v, want cards.csv, 156 cards in 5 decks", res)
	}
	if _, err := os.Stat(filepath.Join(out, "cards.csv")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(stderr, "printing 156 cards") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no out", []string{"print"}, 2, "print needs --out DIR"},
		{"bad format", []string{"print", "--out", out, "--formats", "pfd"}, 2, `invalid --formats "pfd"; did you mean "pdf"?`},
		{"bad dpi", []string{"print", "--out", out, "--dpi", "5"}, 2, "invalid --dpi"},
		{"missing values", []string{"print", "--out", out, "--with-values", filepath.Join(out, "nope.json")}, 1, "no such file"},
		{"out is a file", []string{"print", "--out", filepath.Join(out, "cards.csv"), "--formats", "csv"}, 1, "not a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cardlab(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant %q", code, tc.code, stderr, tc.stderr)
			}
		})
	}
}

// A typo in layout.yaml is reported like any ruleset error, by print and by
// validate; the simulation commands do not read the layout.
func TestPrintLayoutError(t *testing.T) {
	dir := writeDefault(t)
	if _, err := os.Stat(filepath.Join(dir, "layout.yaml")); err != nil {
		t.Fatalf("init did not write layout.yaml: %v", err)
	}
	corrupt(t, dir, "layout.yaml", "  width: 63", "  widht: 63")
	code, _, stderr := cardlab(t, "print", "--rules", dir, "--out", filepath.Join(t.TempDir(), "o"), "--formats", "csv")
	want := filepath.ToSlash(dir) + `/layout.yaml:6:3: unknown key "widht" in card, did you mean "width"?`
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
	if code, _, stderr := cardlab(t, "validate", "--rules", dir); code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("validate: exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
	if code, _, stderr := cardlab(t, "cards", "--rules", dir, "--faction", "klingon"); code != 0 {
		t.Errorf("cards fails on a layout typo: %s", stderr)
	}
}

// print plays no game, so it prints any game's cards: a Goofspiel ruleset
// through Goofspiel's faces, with its layout.yaml read and checked (a side
// colour by its side id, the badge under its old name power).
func TestPrintGoofspiel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 || !strings.Contains(stderr, "cardlab print --rules "+dir) {
		t.Fatalf("init --game goofspiel: exit %d, and its next steps should name print: %s", code, stderr)
	}
	layout := "colors:\n  factions: {player: \"#123456\"}\nfields:\n  power: {size: 18}\n"
	if err := os.WriteFile(filepath.Join(dir, "layout.yaml"), []byte(layout), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "print")
	code, stdout, stderr := cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "pdf,csv", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Files  []string
		Copies int
		Decks  []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	if res.Copies != 4*13+13 || len(res.Decks) != 5 || res.Decks[0].ID != "hand-1" || res.Decks[4].ID != "prizes" {
		t.Errorf("result %+v, want 4 hands of 13 bid cards and 13 prizes", res)
	}
	data, err := os.ReadFile(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "id,deck,name,kind,value,text,copies,color,back\nbid-1,hand-1,Bid 1,bid,1,") ||
		strings.Count(string(data), ",#123456,") != 4*13 {
		t.Errorf("cards.csv does not list the bid cards in layout.yaml's player colour:\n%s", data)
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		text, err := exec.Command(pdftotext, "-layout", filepath.Join(out, "print-a4.pdf"), "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Goofspiel 1.0", "Player 4's hand", "Bid 13", "Prize 13", "takes its 13 points"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("print-a4.pdf lacks %q", want)
			}
		}
	} else if os.Getenv("CARDLAB_PDF_TESTS") == "1" {
		t.Fatal("pdftotext not found and CARDLAB_PDF_TESTS=1: install poppler-utils")
	}

	corrupt(t, dir, "layout.yaml", "{player:", "{players:")
	want := filepath.ToSlash(dir) + `/layout.yaml:2:14: unknown player "players", did you mean "player"?`
	for _, args := range [][]string{{"print", "--rules", dir, "--out", out}, {"validate", "--rules", dir}} {
		if code, _, stderr := cardlab(t, args...); code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %s", args[0], code, stderr, want)
		}
	}
}

// print --with-values on a Goofspiel ruleset (game.ValueFacer): a report's
// bid-card values on every hand's card of that value and in cards.csv, in
// bid points; values measured on other files, or of another game, refused.
func TestPrintGoofspielWithValues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	rep := filepath.Join(t.TempDir(), "rep")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--out", rep, "--games", "200", "--bots", "random",
		"--value-games", "64", "--value-max-games", "64", "--check-bots", "none", "--workers", "1"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	results := filepath.Join(rep, "results.json")
	out := filepath.Join(t.TempDir(), "print")
	code, _, stderr := cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "csv", "--with-values", results)
	if code != 0 {
		t.Fatalf("print --with-values: exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"value_bid", "value_bid_lo", "value_bid_hi"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("cards.csv header %v lacks %s", rows[0], h)
		}
	}
	valued := map[string]string{}
	for _, r := range rows[1:] {
		id, v := r[col["id"]], r[col["value_bid"]]
		switch {
		case strings.HasPrefix(id, "bid-") && v == "":
			t.Errorf("%s (%s) has no value", id, r[col["deck"]])
		case strings.HasPrefix(id, "prize-") && v != "":
			t.Errorf("prize %s has a value %s", id, v)
		case v != "":
			lo, _ := strconv.ParseFloat(r[col["value_bid_lo"]], 64)
			hi, _ := strconv.ParseFloat(r[col["value_bid_hi"]], 64)
			x, _ := strconv.ParseFloat(v, 64)
			if !(lo <= x && x <= hi) {
				t.Errorf("%s: value %s outside its interval [%v, %v]", id, v, lo, hi)
			}
			if w, ok := valued[id]; ok && w != v {
				t.Errorf("%s: %s in one hand, %s in another", id, w, v)
			}
			valued[id] = v
		}
	}
	if len(valued) != 13 {
		t.Errorf("%d bid cards valued, want 13", len(valued))
	}

	// Values of other files: a bid card's worth depends on the prizes.
	corrupt(t, dir, "rules.yaml", "prizes: [1, 2,", "prizes: [20, 2,")
	code, _, stderr = cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "csv", "--with-values", results)
	if want := "was measured on other files than these"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("values of another ruleset: exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
}

// print --with-values on a Spacetrace ruleset: a report's card values in MP
// ("plays like a 106-MP card") on every copy of each valued card, in both
// players' decks, and in cards.csv; the Base has none; values measured on
// other files refused (issue 28).
func TestPrintSpacetraceWithValues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "st")
	if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", "--ruleset", "spacetrace-first", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	rep := filepath.Join(t.TempDir(), "rep")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--out", rep, "--games", "200", "--bots", "greedy",
		"--value-games", "512", "--value-max-games", "512", "--check-bots", "none", "--workers", "1"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	results := filepath.Join(rep, "results.json")
	// The report's own cards are the deck's, each named: the Counter's card
	// table (card_counts) is not read as Alpha Tactics' "cards" section,
	// which made rows without an id; and the page has the economy view.
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Cards []struct{ ID string } `json:"cards"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Cards {
		if c.ID == "" {
			t.Fatalf("results.json card %d of %d has no id", i, len(res.Cards))
		}
	}
	page, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	cardsPage, err := os.ReadFile(filepath.Join(rep, "cards.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cardsPage), `Fighters</div><div class="power">100<small>MP</small></div>`) {
		t.Error("cards.html's badge of Fighters is not its printed 100 MP")
	}
	page = append(page, cardsPage...)
	for _, want := range []string{"Economy and scoring", "MP expired, share of MP gained", "scoring rules agree on the winner", "-MP card ["} {
		if !strings.Contains(string(page), want) && !strings.Contains(string(page), strings.ReplaceAll(want, " ", "&#32;")) {
			t.Errorf("the report page lacks %q", want)
		}
	}
	out := filepath.Join(t.TempDir(), "print")
	code, _, stderr := cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "csv", "--with-values", results)
	if code != 0 {
		t.Fatalf("print --with-values: exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"value_mp", "value_mp_lo", "value_mp_hi"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("cards.csv header %v lacks %s", rows[0], h)
		}
	}
	valued := map[string]string{}
	for _, r := range rows[1:] {
		id, v := r[col["id"]], r[col["value_mp"]]
		switch {
		case id == "base" && v != "":
			t.Errorf("the Base has a value %s", v)
		case id != "base" && v == "":
			t.Errorf("%s (%s) has no value", id, r[col["deck"]])
		case v != "":
			lo, _ := strconv.Atoi(r[col["value_mp_lo"]])
			hi, _ := strconv.Atoi(r[col["value_mp_hi"]])
			x, err := strconv.Atoi(v)
			if err != nil || !(lo <= x && x <= hi) {
				t.Errorf("%s: value %s outside its interval [%v, %v] or not whole MP", id, v, lo, hi)
			}
			if w, ok := valued[id]; ok && w != v {
				t.Errorf("%s: %s in one deck, %s in another", id, w, v)
			}
			valued[id] = v
		}
	}
	if len(valued) < 10 {
		t.Errorf("%d cards valued: %v", len(valued), valued)
	}
	corrupt(t, dir, "rules.yaml", "  ap: 0 # B11", "  ap: 10 # B11")
	code, _, stderr = cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "csv", "--with-values", results)
	if code != 1 || !strings.Contains(stderr, "was measured on other files than these") {
		t.Errorf("values of another ruleset: exit %d, stderr:\n%s", code, stderr)
	}
}

// print on an Eclipse ruleset: the part tiles, each player's blueprints
// and the NPC tiles, with the figures a battle reads off them; with
// --with-values a report's part values in hulls on the tiles the study
// values (design brief §3.2: in 2E the Conifold Field is 3 hulls against
// one Interceptor), none on a part of no combat stat or a blueprint;
// values measured on other files refused.
func TestPrintEclipse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ecl")
	if code, _, stderr := cardlab(t, "init", "--game", "eclipse", "--ruleset", "eclipse-2e", dir); code != 0 || !strings.Contains(stderr, "cardlab print --rules "+dir) {
		t.Fatalf("init --game eclipse: exit %d, and its next steps should name print: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "print")
	code, stdout, stderr := cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "pdf,csv", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Copies int
		Decks  []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	// 24 parts, 4 player blueprints for each of 2 players, 6 NPC tiles.
	if res.Copies != 24+2*4+6 || len(res.Decks) != 4 || res.Decks[0].ID != "parts" || res.Decks[3].ID != "npcs" {
		t.Errorf("result %+v, want 38 cards: the parts, two players' blueprints and the NPCs", res)
	}
	data, err := os.ReadFile(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "id,deck,name,kind,yellow,orange,blue,red,") ||
		!strings.Contains(string(data), "\nplasma_cannon,parts,Plasma Cannon,cannon,0,1,0,0,0,0,0,0,0,0,0,0,0,0,2,military,6,4,") {
		t.Errorf("cards.csv:\n%s", data)
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		text, err := exec.Command(pdftotext, "-layout", filepath.Join(out, "print-a4.pdf"), "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		// pdftotext lays two cards side by side: one word run each.
		for _, want := range []string{"Eclipse, second edition", "Soliton Cannon", "Blueprints · Player 2 (defender)", "Guardian (tile B)",
			"Research: rare track", "Nuclear Source", "material", "energy"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("print-a4.pdf lacks %q", want)
			}
		}
	} else if os.Getenv("CARDLAB_PDF_TESTS") == "1" {
		t.Fatal("pdftotext not found and CARDLAB_PDF_TESTS=1: install poppler-utils")
	}

	rep := filepath.Join(t.TempDir(), "rep")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--out", rep, "--games", "20", "--check-bots", "none", "--workers", "1"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	results := filepath.Join(rep, "results.json")
	code, _, stderr = cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "csv", "--with-values", results)
	if code != 0 {
		t.Fatalf("print --with-values: exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"value_ship", "value_field_1", "value_hulls_1", "value_field_2", "value_hulls_2"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("cards.csv header %v lacks %s", rows[0], h)
		}
	}
	valued := 0
	for _, r := range rows[1:] {
		id, deck, v := r[col["id"]], r[col["deck"]], r[col["value_hulls_1"]]
		switch {
		case id == "conifold_field" && (v != "3.00" || r[col["value_field_1"]] != "Interceptor" || r[col["value_ship"]] != "Interceptor"):
			t.Errorf("Conifold Field: %s hulls vs %s on %s, want 3.00 vs Interceptor on Interceptor", v, r[col["value_field_1"]], r[col["value_ship"]])
		case (deck != "parts" || strings.HasSuffix(id, "_source") || id == "transition_drive") && v != "":
			t.Errorf("%s/%s has a value %s", deck, id, v)
		}
		if v != "" {
			valued++
		}
	}
	// Every part with a combat stat: not the four sources, nor the
	// Transition Drive (move only).
	if valued != 19 {
		t.Errorf("%d part tiles valued, want 19", valued)
	}
	corrupt(t, dir, "parts.yaml", "{name: Hull, hull: 1}", "{name: Hull, hull: 2}")
	code, _, stderr = cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "csv", "--with-values", results)
	if code != 1 || !strings.Contains(stderr, "was measured on other files than these") {
		t.Errorf("values of another ruleset: exit %d, stderr:\n%s", code, stderr)
	}
}
