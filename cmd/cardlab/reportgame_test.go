package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/cardlab/cardlab/reports"
)

// TestReportGoofspiel: `cardlab report` on a Goofspiel ruleset plays its
// games and renders every file in Goofspiel's words — players and points,
// no faction, VP or target — with its seats, game figures and its counts
// (prizes and bids) as tables and sheets, every card in the gallery with its
// counts; the verdict says the one side's
// share is fair by construction; --from renders the same again; the
// analyses of Alpha Tactics alone are refused by name.
func TestReportGoofspiel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "report")
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--bots", "random", "--games", "300", "--out", out); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	read := func(dir, name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	page := read(out, "index.html")
	for _, want := range []string{"<h2>Players</h2>", "<h3>Player win shares</h3>", "<th>Mean points</th>", "fair by construction",
		"Every seat plays the one player of this game", `<section id="counts">`, "<h3>Prizes</h3>", "<h3>Bids</h3>",
		"lost points per game", "no head-to-head", "<dt>Counts</dt>", "margin of victory in points", "Printed bid against the bid each card plays like", "read in bid points at the price of one",
		"cardlab report --rules " + dir + " --bots random --games 300 --seed 1 --check-bots greedy"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	// Alpha Tactics' words and sections stay out (the page's script
	// and the echarts licence aside).
	body := page[:strings.Index(page, "<footer")]
	for _, bad := range []string{"Faction", " VP", "Targets", "rounds per game", "reshuffles", "No 2-player lineups",
		"<dt>Card figures of the games (descriptive)</dt>", "combat-power", "<dt>Matchups</dt>", "victory points"} {
		if strings.Contains(body, bad) {
			t.Errorf("index.html says %q", bad)
		}
	}
	// The gallery draws the catalog's cards as Goofspiel prints them, with
	// their rows of the counts under the Counts tables' names, a game;
	// never Alpha Tactics' card figures.
	gallery := read(out, "cards.html")
	for _, want := range []string{">Bid 13<", ">Prize 13<", "Cards of no player", ">Prize values bid on a game</dt>", ">Taken a game</dt>",
		"Bid card · Player 1 · hand of 13", "13<small>pts</small>", "<dt>Plays like</dt>", " bid = "} {
		if !strings.Contains(gallery, want) {
			t.Errorf("cards.html lacks %q", want)
		}
	}
	for _, bad := range []string{"Row won", "Mean power", "Fired / blocked / fizzled", "Prize sum"} {
		if strings.Contains(gallery, bad) {
			t.Errorf("cards.html says %q", bad)
		}
	}
	if md := read(out, "summary.md"); !strings.Contains(md, "## Players") || !strings.Contains(md, "fair by construction") || !strings.Contains(md, "- No seat and no turn-order figure lies outside") || strings.Contains(strings.ToLower(md), "faction") || strings.Contains(md, "powers") || !strings.Contains(md, "Ranked by value vs player") || strings.Contains(md, "No card has enough games") {
		t.Errorf("summary.md:\n%s", md)
	}
	f, err := excelize.OpenFile(filepath.Join(out, "balance.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	for _, want := range []string{"Players", "Prizes", "Bids", "Games"} {
		if !slices.Contains(sheets, want) {
			t.Errorf("no sheet %q in %v", want, sheets)
		}
	}
	for _, bad := range []string{"Factions", "Targets", "Effects", "Diff targets"} {
		if slices.Contains(sheets, bad) {
			t.Errorf("sheet %q in %v", bad, sheets)
		}
	}
	if v, _ := f.GetCellValue("Prizes", "A2"); v != "prize-1" {
		t.Errorf("Prizes!A2 = %q", v)
	}
	if v, _ := f.GetCellValue("Bids", "C1"); v != "bid" {
		t.Errorf("Bids!C1 = %q", v)
	}
	rows, _ := f.GetRows("Games")
	var items []string
	for _, r := range rows {
		items = append(items, r[0])
	}
	if !slices.Contains(items, "lost points per game") || !slices.Contains(items, "margin of victory, points (mean)") || slices.Contains(items, "passes per game") {
		t.Errorf("Games sheet: %v", items)
	}
	d, err := reports.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Ruleset.Game != "goofspiel" || d.Meta.Catalog == nil || len(d.Meta.Catalog.Cards) != 26 || d.Meta.Catalog.Factions[0].ID != "player" {
		t.Errorf("results.json: game %q, catalog %+v", d.Ruleset.Game, d.Meta.Catalog)
	}
	again := filepath.Join(t.TempDir(), "again")
	if code, _, stderr := cardlab(t, "report", "--from", filepath.Join(out, "results.json"), "--out", again); code != 0 {
		t.Fatalf("report --from: exit %d: %s", code, stderr)
	}
	for _, name := range []string{"index.html", "summary.md"} {
		if a, b := read(out, name), read(again, name); a != b {
			t.Errorf("%s rendered again --from differs", name)
		}
	}
	// --impact: the ablation through the Valuer, one seat's copy blanked
	// in the mirror, said in the summary and the chart; rendered again
	// --from the same.
	imp := filepath.Join(t.TempDir(), "imp")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--bots", "random", "--games", "20", "--values=false", "--impact", "--impact-games", "300", "--workers", "2", "--out", imp); code != 0 {
		t.Fatalf("report --impact: exit %d: %s", code, stderr)
	}
	var withImpact reports.Data
	if err := json.Unmarshal([]byte(read(imp, "results.json")), &withImpact); err != nil {
		t.Fatal(err)
	}
	if im := withImpact.Impact; im == nil || len(im.Cards) != 13 || im.Mode != "blank-copy" || im.Cards[0].ID != "bid-13" || !im.Cards[0].Significant {
		t.Errorf("report --impact: %+v", withImpact.Impact)
	}
	if md := read(imp, "summary.md"); !strings.Contains(md, "only the lineup's first seat of the side (its share is the one compared)") {
		t.Errorf("summary.md does not say whose copy is blanked:\n%s", md)
	}
	if !strings.Contains(read(imp, "index.html"), "first seat of the side has its copy blanked") {
		t.Error("index.html's impact chart does not say whose copy is blanked")
	}
	// --base of the same game: the report's "What changed" from the paired
	// diff (a prize of 1000 points; the seats compared); another game's
	// base is refused.
	variant := initGoofspiel(t)
	data, err := os.ReadFile(filepath.Join(variant, "rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "prizes: [1, 2,", "prizes: [1000, 2,", 1))
	if err := os.WriteFile(filepath.Join(variant, "rules.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	based := filepath.Join(t.TempDir(), "based")
	if code, _, stderr := cardlab(t, "report", "--rules", variant, "--base", dir, "--bots", "greedy,random", "--matchups", "player,player", "--games", "400", "--values=false", "--out", based); code != 0 {
		t.Fatalf("report --base: exit %d: %s", code, stderr)
	}
	// With card values, they are read at the base's price of a bid point.
	valued := filepath.Join(t.TempDir(), "valued")
	if code, _, stderr := cardlab(t, "report", "--rules", variant, "--base", dir, "--bots", "greedy", "--games", "64", "--value-games", "640", "--precision", "0", "--out", valued); code != 0 {
		t.Fatalf("report --base with values: exit %d: %s", code, stderr)
	}
	vd, err := reports.ReadFile(filepath.Join(valued, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if cd := vd.Report.CardValueDesign; cd == nil || !strings.HasPrefix(cd.PowerUnitFrom["player"], "base ruleset Goofspiel") || cd.OwnPrice["player"].Pts <= 0 {
		t.Errorf("report --base with values: design %+v", cd)
	}
	if md := read(based, "summary.md"); !strings.Contains(md, "What changed") || !strings.Contains(md, "SIGNIFICANT") || !strings.Contains(md, "card prize-1") && !strings.Contains(md, "prize-1") {
		t.Errorf("report --base: summary.md lacks the change:\n%s", md)
	}
	code, _, stderr := cardlab(t, "report", "--rules", dir, "--base", filepath.Join("..", "..", "testdata", "rulesets", "minimal"), "--bots", "random", "--games", "2", "--out", filepath.Join(t.TempDir(), "r"))
	if code != 1 || !strings.Contains(stderr, "--base: a report compares two versions of one game; the base is alphatactics, this ruleset goofspiel") {
		t.Errorf("another game's --base: exit %d: %s", code, stderr)
	}
}

// TestReportAllDraws: a report whose games all end level (Goofspiel's
// prize-matching greedy against itself ties every turn) says so first, so
// "fair" is not read as a verdict on the cards.
func TestReportAllDraws(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		bots string
		want bool
	}{{"greedy", true}, {"random", false}} {
		out := filepath.Join(t.TempDir(), "report")
		if code, _, stderr := cardlab(t, "report", "--rules", dir, "--bots", tc.bots, "--games", "200", "--values=false", "--out", out); code != 0 {
			t.Fatalf("report --bots %s: exit %d: %s", tc.bots, code, stderr)
		}
		md, err := os.ReadFile(filepath.Join(out, "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(md), "of the 200 games ended in a shared victory"); got != tc.want {
			t.Errorf("--bots %s: all-draws finding %v, want %v:\n%s", tc.bots, got, tc.want, md)
		}
	}
}

// TestReportGoofspielCheckBots: another game's report replays its games at
// a second tier (issue 27) and compares the seats, each with its bot. Greedy
// on seat 1 against random wins far more than half; replayed with random on
// both seats it wins half, so seat 1's change must be significant and its
// verdict skill-dependent. Without --check-bots the check tier is greedy,
// or random when the report plays greedy.
func TestReportGoofspielCheckBots(t *testing.T) {
	dir := initGoofspiel(t)
	type seat struct {
		Seat           int        `json:"seat"`
		Delta          float64    `json:"delta"`
		CI95           [2]float64 `json:"ci95"`
		PAdj           float64    `json:"p_adj"`
		SkillDependent bool       `json:"skill_dependent"`
	}
	type check struct {
		Bots      []string `json:"bots"`
		CheckBots []string `json:"check_bots"`
		Factions  []any    `json:"factions"`
		Seats     []seat   `json:"seats"`
	}
	for _, tc := range []struct {
		name      string
		args      []string
		check     []string // nil: no check run
		seat1Gain bool     // seat 1's share falls significantly at the check tier
	}{
		{"explicit", []string{"--bots", "greedy,random", "--check-bots", "random"}, []string{"random"}, true},
		{"default after random", []string{"--bots", "random"}, []string{"greedy"}, false},
		{"default after greedy", []string{"--bots", "greedy"}, []string{"random"}, false},
		{"none", []string{"--bots", "random", "--check-bots", "none"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := func(dir, name string) string {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
			out := filepath.Join(t.TempDir(), "r")
			args := append([]string{"report", "--rules", dir, "--games", "200", "--values=false", "--out", out}, tc.args...)
			code, _, stderr := cardlab(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var d struct {
				Tiers *check `json:"tier_check"`
			}
			if err := json.Unmarshal([]byte(read(out, "results.json")), &d); err != nil {
				t.Fatal(err)
			}
			if tc.check == nil {
				if d.Tiers != nil {
					t.Fatalf("--check-bots none ran a check: %+v", d.Tiers)
				}
				return
			}
			if d.Tiers == nil || !slices.Equal(d.Tiers.CheckBots, tc.check) || len(d.Tiers.Factions) != 0 || len(d.Tiers.Seats) != 2 {
				t.Fatalf("tier check: %+v", d.Tiers)
			}
			s1 := d.Tiers.Seats[0]
			if got := s1.CI95[0] > 0 && s1.PAdj < 0.05 && s1.SkillDependent; got != tc.seat1Gain {
				t.Errorf("seat 1: %+v; significant gain %v, want %v", s1, got, tc.seat1Gain)
			}
			if !strings.Contains(read(out, "summary.md"), "the skill check replays the same deals with the "+tc.check[0]+" bot") {
				t.Errorf("summary.md does not name the check tier %s", tc.check[0])
			}
		})
	}
	code, _, stderr := cardlab(t, "report", "--rules", dir, "--bots", "greedy", "--check-bots", "greedy", "--games", "2", "--out", filepath.Join(t.TempDir(), "r"))
	if code != 1 || !strings.Contains(stderr, "--check-bots greedy is the report's own tier") {
		t.Errorf("--check-bots of the report's tier: exit %d: %s", code, stderr)
	}
}

// TestGoofspielCheckTierCardValues: a Goofspiel report's skill check
// measures the card values at the check tier too, as Alpha Tactics' does
// (analysis.AttachTierCards): every bid card has a value at both tiers, and
// the check's design names the check tier's bots and the game's unit.
func TestGoofspielCheckTierCardValues(t *testing.T) {
	dir := initGoofspiel(t)
	out := filepath.Join(t.TempDir(), "r")
	code, _, stderr := cardlab(t, "report", "--rules", dir, "--bots", "random", "--check-bots", "greedy", "--games", "100",
		"--value-games", "300", "--value-max-games", "300", "--precision", "0", "--workers", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Cards []struct {
			ID string `json:"id"`
		} `json:"cards"`
		Tiers *struct {
			Cards []struct {
				ID    string `json:"id"`
				Value *struct {
					CI95 [2]float64 `json:"pts_ci95"`
				} `json:"value"`
			} `json:"cards"`
			Design *struct {
				Bots []string `json:"bots"`
				Unit *struct {
					Name string `json:"name"`
				} `json:"unit"`
			} `json:"card_value_design"`
		} `json:"tier_check"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.Tiers == nil || d.Tiers.Design == nil || !slices.Equal(d.Tiers.Design.Bots, []string{"greedy"}) {
		t.Fatalf("no card values at the check tier: %+v", d.Tiers)
	}
	if u := d.Tiers.Design.Unit; u == nil || u.Name != "bid point" {
		t.Errorf("check tier's unit %+v, want bid point", u)
	}
	got := map[string]bool{}
	for _, c := range d.Tiers.Cards {
		if c.Value == nil || !(c.Value.CI95[0] <= c.Value.CI95[1]) {
			t.Errorf("card %s at the check tier: no value with an interval", c.ID)
		}
		got[c.ID] = true
	}
	for i := 1; i <= 13; i++ {
		if id := fmt.Sprintf("bid-%d", i); !got[id] {
			t.Errorf("%s has no value at the check tier (%d cards)", id, len(d.Tiers.Cards))
		}
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(summary), "with the greedy bot (card values too)") {
		t.Errorf("summary.md does not say the check tier measured card values:\n%s", summary)
	}
	// The gallery and the charts in Goofspiel's words: a bid card's value
	// is against its player's other cards, never a "faction".
	for _, name := range []string{"cards.html", "index.html"} {
		page, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"Value vs faction", "faction's price", "faction's typical card", "value vs faction"} {
			if strings.Contains(string(page), bad) {
				t.Errorf("%s says %q", name, bad)
			}
		}
	}
	if page, _ := os.ReadFile(filepath.Join(out, "cards.html")); !strings.Contains(string(page), "Value vs player") {
		t.Error(`cards.html has no "Value vs player"`)
	}
	// The workbook too: its heads and the Read me's column docs.
	zr, err := zip.OpenReader(filepath.Join(out, "balance.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "xl/sharedStrings.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.Index(strings.ToLower(string(text)), "faction"); i >= 0 {
			t.Errorf("balance.xlsx says faction: …%s…", text[max(0, i-80):min(len(text), i+40)])
		}
	}
}

// TestImpactGoofspielWords: impact's tables name Goofspiel's side in its
// words — PLAYER and VS_PLAYER columns, never FACTION.
func TestImpactGoofspielWords(t *testing.T) {
	dir := initGoofspiel(t)
	for _, args := range [][]string{
		{"--method", "ablation", "--games", "20", "--cards", "bid-13"},
		{"--precision", "0", "--value-games", "200"},
	} {
		code, stdout, stderr := cardlab(t, append([]string{"impact", "--rules", dir, "--bots", "random", "--workers", "2"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if strings.Contains(strings.ToLower(stdout), "faction") || !strings.Contains(stdout, " PLAYER ") {
			t.Errorf("%v: not in Goofspiel's words:\n%s", args, stdout)
		}
		if args[0] != "--method" && !strings.Contains(stdout, "VS_PLAYER = PTS − the median of the player's other cards") {
			t.Errorf("%v: no VS_PLAYER legend:\n%s", args, stdout)
		}
	}
}

// TestImpactSpacetraceInMP: impact reads Spacetrace's values in MP, the
// game's currency — PRINTED the card's MP, the value column MP ("plays like
// a 140-MP card"), the price of 10 MP — never "×10 MP" or "1 MP/10"
// (issue 28).
func TestImpactSpacetraceInMP(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "st")
	if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", "--ruleset", "spacetrace-first", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cardlab(t, "impact", "--rules", dir, "--bots", "greedy", "--precision", "0", "--value-games", "400", "--workers", "1", "--cards", "fighters")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Price of 10 MP", " MP  95% CI", "plays like a 140-MP card", "; of MP "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "×10") || strings.Contains(stdout, "MP/10") {
		t.Errorf("the unit's step leaks into the table:\n%s", stdout)
	}
	var row string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, " fighters ") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) < 5 || f[4] != "100" {
		t.Errorf("fighters' PRINTED is not its 100 MP: %q", row)
	}
}

// TestReportFromDrawsFaces: report --from draws the gallery's printed faces
// (not in results.json) from --rules when its hash is the result's, and
// plain faces from another ruleset.
func TestReportFromDrawsFaces(t *testing.T) {
	read := func(dir, name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	base := t.TempDir()
	dir := filepath.Join(base, "st")
	if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	out := filepath.Join(base, "r")
	if code, _, stderr := cardlab(t, "report", "--rules", dir, "--games", "40", "--values=false", "--workers", "1", "--out", out); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	const face = "Ship · class I · 100 × 1/1 (100/100)"
	if !strings.Contains(read(out, "cards.html"), face) {
		t.Fatalf("the report's gallery lacks the printed type line %q", face)
	}
	again := filepath.Join(base, "r2")
	if code, _, stderr := cardlab(t, "report", "--from", filepath.Join(out, "results.json"), "--rules", dir, "--out", again); code != 0 {
		t.Fatalf("report --from: exit %d: %s", code, stderr)
	}
	if !strings.Contains(read(again, "cards.html"), face) {
		t.Errorf("report --from --rules: the gallery lacks the printed type line %q", face)
	}
	plain := filepath.Join(base, "r3")
	if code, _, stderr := cardlab(t, "report", "--from", filepath.Join(out, "results.json"), "--out", plain); code != 0 {
		t.Fatalf("report --from: exit %d: %s", code, stderr)
	}
	if strings.Contains(read(plain, "cards.html"), face) {
		t.Errorf("report --from with another ruleset drew its faces")
	}
}
