package reports

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

func openBook(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the workbook does not reopen: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func zipFile(t *testing.T, data []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	return ""
}

// The workbook reopens with one table on every sheet: a frozen header row,
// an autofilter over exactly the table, percentages in % formats, every
// column defined on the Read me sheet; the faction chart has a percent axis,
// a colour per faction, error bars and the fair-share line.
func TestReportWorkbook(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *Data
	}{{"fixture with card values and --base", fixtureData(true)}, {"a run without card values", testData(t, rules.Default(), 40)}} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			var b bytes.Buffer
			if err := WriteXLSX(&b, d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			f := openBook(t, b.Bytes())
			sheets := f.GetSheetList()
			for _, want := range []string{SheetSummary, SheetReadMe, SheetFactions, SheetCards, SheetCorrelational, SheetMatchups,
				SheetMatchupGrid, SheetSeats, "Targets", "Effects", "Effect handlers", SheetGames, SheetGameLengths} {
				if !slices.Contains(sheets, want) {
					t.Errorf("no sheet %q in %v", want, sheets)
				}
			}
			checkOneTablePerSheet(t, f)
			checkReadMe(t, f)
			checkPercentFormats(t, f)
			chart := zipFile(t, b.Bytes(), "xl/charts/chart1.xml")
			for _, want := range []string{ChartTitle, `formatCode="0%"`, "<errBars>", "<lineChart>"} {
				if !strings.Contains(chart, want) {
					t.Errorf("the faction chart has no %s", want)
				}
			}
			if n := strings.Count(chart, "<dPt>"); n != len(d.Report.Factions) {
				t.Errorf("the faction chart colours %d bars, want one per faction (%d)", n, len(d.Report.Factions))
			}
			if rels := zipFile(t, b.Bytes(), "xl/worksheets/_rels/sheet3.xml.rels"); !strings.Contains(rels, "drawing") {
				t.Errorf("the Factions sheet has no drawing: %s", rels)
			}
			rows, err := f.GetRows(SheetSummary)
			if err != nil {
				t.Fatal(err)
			}
			summary := map[string]string{}
			for _, r := range rows {
				if len(r) >= 2 {
					summary[r[0]] = r[1]
				}
			}
			for k, v := range map[string]string{"Reproduce with": d.Meta.Command, "Ruleset hash (SHA-256)": d.Ruleset.Hash,
				"Tool version": "test", "Rendered": "2026-01-02 03:04 UTC", "Simulated": "2026-01-02 03:04 UTC"} {
				if summary[k] != v {
					t.Errorf("Summary %q = %q, want %q", k, summary[k], v)
				}
			}
			if !strings.HasPrefix(summary["Verdict"], "") || summary["Verdict"] == "" {
				t.Error("Summary has no verdict")
			}
			head, _ := f.GetRows(SheetCards)
			if len(head)-1 != len(d.Cards) {
				t.Errorf("Cards has %d rows, the result %d cards", len(head)-1, len(d.Cards))
			}
			if typ, _ := f.GetCellType(SheetFactions, "E2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
				t.Errorf("Factions E2 (win rate) has type %v", typ)
			}
			if cf, err := f.GetConditionalFormats(SheetMatchupGrid); err != nil || len(cf) == 0 {
				t.Errorf("Matchup grid has no colour scale: %v %v", cf, err)
			}
		})
	}
	// With card values the Cards sheet leads with them, ranked, and the
	// correlational figures live on their own sheet only.
	var b bytes.Buffer
	if err := WriteXLSX(&b, fixtureData(false), Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, b.Bytes())
	rows, _ := f.GetRows(SheetCards)
	if !slices.Equal(rows[0][:5], []string{"id", "name", "faction", "rank", "value vs faction"}) {
		t.Errorf("Cards columns %v: want the value first", rows[0])
	}
	if rows[1][1] != "Thalaron Pulse" || rows[len(rows)-1][1] != "1. Raptor" {
		t.Errorf("Cards not ranked by value vs faction: first %q, last %q", rows[1][1], rows[len(rows)-1][1])
	}
	for _, h := range []string{"gih wr", "gns wr", "iwd", "oh iwd", "played wr"} {
		if slices.Contains(rows[0], h) {
			t.Errorf("Cards has the correlational column %q", h)
		}
	}
	corr, _ := f.GetRows(SheetCorrelational)
	gns := slices.Index(corr[0], "gns wr")
	if gns < 0 {
		t.Fatalf("no gns wr column on %s: %v", SheetCorrelational, corr[0])
	}
	for _, r := range corr[1:] {
		if gns < len(r) && r[gns] != "" {
			t.Errorf("gns wr of a card drawn in every game is %q, want an empty cell", r[gns])
		}
	}
}

// checkOneTablePerSheet: every sheet's cells lie in one table starting at
// A1 whose header row is frozen and carries an autofilter over the table.
func checkOneTablePerSheet(t *testing.T, f *excelize.File) {
	t.Helper()
	filters := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" {
			filters[dn.Scope] = dn.RefersTo
		}
	}
	for _, sh := range f.GetSheetList() {
		panes, err := f.GetPanes(sh)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("%s: panes %+v, %v: want the header row frozen", sh, panes, err)
		}
		rows, err := f.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		width := len(rows[0])
		for i, r := range rows {
			if len(r) > width {
				t.Errorf("%s: row %d has cells beyond the header's %d columns: a second table", sh, i+1, width)
			}
			empty := true
			for _, c := range r {
				if c != "" {
					empty = false
				}
			}
			if empty && i < len(rows)-1 {
				t.Errorf("%s: row %d is empty inside the table: a second table below", sh, i+1)
			}
		}
		for j, h := range rows[0] {
			if h == "" {
				t.Errorf("%s: column %d has no head", sh, j+1)
			}
		}
		last := max(len(rows), 2)
		want := fmt.Sprintf("'%s'!$A$1:$%s$%d", sh, colName(width), last)
		if filters[sh] != want {
			t.Errorf("%s: autofilter %q, want %q", sh, filters[sh], want)
		}
	}
}

// checkReadMe: every column of every table is defined on the Read me sheet.
func checkReadMe(t *testing.T, f *excelize.File) {
	t.Helper()
	rm, err := f.GetRows(SheetReadMe)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[[2]string]bool{}
	for _, r := range rm[1:] {
		if len(r) == 3 && strings.TrimSpace(r[2]) != "" {
			defined[[2]string{r[0], r[1]}] = true
		}
	}
	for _, sh := range f.GetSheetList() {
		if sh == SheetReadMe {
			continue
		}
		rows, _ := f.GetRows(sh)
		for _, h := range rows[0] {
			if !defined[[2]string{sh, h}] {
				t.Errorf("the Read me sheet does not define %s / %q", sh, h)
			}
		}
	}
}

// checkPercentFormats: columns of rates and differences of rates have a %
// number format in their first data row.
func checkPercentFormats(t *testing.T, f *excelize.File) {
	t.Helper()
	rate := regexp.MustCompile(`(rate|share|^ci95|fair|^delta$|^base$|^variant$|^with card$|^ablated$| wr|iwd|Δ$|^vs |^value pts|^pts ci95)`)
	notRate := regexp.MustCompile(`(power|margin|fired per game|laid per game|vs faction|^vs fair$)`)
	for _, sh := range f.GetSheetList() {
		rows, _ := f.GetRows(sh)
		if len(rows) < 2 || sh == SheetSummary || sh == SheetReadMe || sh == SheetDiffChanges || sh == SheetGames {
			continue
		}
		for j, h := range rows[0] {
			if !rate.MatchString(h) || (notRate.MatchString(h) && h != "vs fair") {
				continue
			}
			for i := 1; i < len(rows); i++ {
				if j >= len(rows[i]) || rows[i][j] == "" {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(j+1, i+1)
				sid, _ := f.GetCellStyle(sh, cell)
				st, _ := f.GetStyle(sid)
				if st == nil || st.CustomNumFmt == nil || !strings.Contains(*st.CustomNumFmt, "%") {
					t.Errorf("%s %s (%q) has no percentage format", sh, cell, h)
				}
				break
			}
		}
	}
}

// The paired analyses get their sheets.
func TestReportWorkbookPaired(t *testing.T) {
	d := testData(t, rules.Default(), 30)
	d.Impact = &analysis.ImpactResult{Mode: "blank", Alpha: 0.05, Correction: analysis.CorrectionBH,
		Cards: []analysis.CardImpact{{Rank: 1, ID: d.Cards[0].ID, Name: d.Cards[0].Name, Faction: d.Cards[0].Faction,
			PairedTest: analysis.PairedTest{Games: 100, Delta: 0.04, CI95: [2]float64{0.01, 0.07}, Significant: true}}}}
	d.Diff = &analysis.DiffResult{Verdict: "no faction changed significantly",
		Factions: []analysis.FactionDelta{{Faction: "klingon", Base: 0.5, Variant: 0.52, PairedTest: analysis.PairedTest{Delta: 0.02}}},
		Changes:  []analysis.Change{{Kind: "card", ID: "kl-raptor", Change: "changed", Field: "power", Base: "2", Variant: "3"}}}
	d.Sweep = &analysis.SweepResult{Field: "power", Current: 2, Values: []int{1, 2}, Best: 1, Target: 0.5,
		Points: []analysis.SweepPoint{{Value: 1, Factions: []analysis.FactionDelta{{Faction: "klingon", Variant: 0.48}}},
			{Value: 2, Factions: []analysis.FactionDelta{{Faction: "klingon", Variant: 0.5}}}}}
	var b bytes.Buffer
	if err := WriteXLSX(&b, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	got := openBook(t, b.Bytes()).GetSheetList()
	for _, s := range []string{SheetImpact, SheetSweep, SheetDiffFactions, SheetDiffChanges, SheetDiffCards, "Diff targets"} {
		if !slices.Contains(got, s) {
			t.Errorf("no %s sheet: %v", s, got)
		}
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{`id="chart-impact"`, `id="chart-diff-factions"`, `id="chart-sweep"`, `id="changes"`} {
		if !strings.Contains(h.String(), id) {
			t.Errorf("the page has no %s", id)
		}
	}
}

// Text from the ruleset stays text: string cells, never formulas.
func TestReportHostileWorkbook(t *testing.T) {
	rs := hostileRuleset(t)
	d := testData(t, rs, 30)
	var b bytes.Buffer
	if err := WriteXLSX(&b, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, b.Bytes())
	rows, err := f.GetRows(SheetCards)
	if err != nil {
		t.Fatal(err)
	}
	nameCol := slices.Index(rows[0], "name")
	textCol := slices.Index(rows[0], "text")
	found := map[string]bool{}
	for r, row := range rows[1:] {
		if nameCol >= len(row) {
			continue
		}
		name := row[nameCol]
		for _, h := range []string{hostileFormula, hostileSum, hostileScript, hostileImg, hostileUnicode} {
			if name != h {
				continue
			}
			found[h] = true
			cell, _ := excelize.CoordinatesToCellName(nameCol+1, r+2)
			if fm, _ := f.GetCellFormula(SheetCards, cell); fm != "" {
				t.Errorf("%s holds the formula %q", cell, fm)
			}
			if typ, _ := f.GetCellType(SheetCards, cell); typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString {
				t.Errorf("%s %q has cell type %v, want a string", cell, name, typ)
			}
		}
		if textCol < len(row) && strings.HasPrefix(row[textCol], "Qapla'! <i>glory") {
			found["text"] = true
			if row[textCol] != hostileText {
				t.Errorf("the long text came back changed (%d of %d bytes)", len(row[textCol]), len(hostileText))
			}
		}
	}
	for _, h := range []string{hostileFormula, hostileSum, hostileScript, hostileImg, hostileUnicode, "text"} {
		if !found[h] {
			t.Errorf("card %q not found as a literal string in the Cards sheet", h)
		}
	}
	// No sheet of the workbook holds a formula written from the ruleset.
	for _, s := range f.GetSheetList() {
		x := zipFile(t, b.Bytes(), "xl/worksheets/sheet"+strconv.Itoa(slices.Index(f.GetSheetList(), s)+1)+".xml")
		if strings.Contains(x, "<f>") || strings.Contains(x, "<f ") {
			t.Errorf("sheet %s has a formula cell", s)
		}
	}
}

// The page escapes every name and text of the ruleset: the hostile strings
// appear only escaped, in the markup and inside the embedded chart options.
func TestReportHostileHTML(t *testing.T) {
	d := testData(t, hostileRuleset(t), 30)
	var b bytes.Buffer
	if err := WriteHTML(&b, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, h := range []string{hostileScript, hostileImg, hostileFaction, hostileTarget, "<i>glory</i>", "</textarea>"} {
		if strings.Contains(page, h) {
			t.Errorf("the page holds %q unescaped", h)
		}
	}
	var gal bytes.Buffer
	if err := WriteGallery(&gal, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gal.String(), "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile card name is not in the gallery as escaped text")
	}
	for _, h := range []string{hostileScript, hostileImg, hostileFaction, "<i>glory</i>", "</textarea>"} {
		if strings.Contains(gal.String(), h) {
			t.Errorf("the gallery holds %q unescaped", h)
		}
	}
	// Exactly the page's own scripts: the chart options, ECharts and page.js.
	opening := regexp.MustCompile(`(?i)<script\b`).FindAllStringIndex(page, -1)
	options := strings.Count(page, `<script type="application/json"`)
	if len(opening) != options+2 {
		t.Errorf("%d script elements, want %d chart options + 2", len(opening), options)
	}
	if strings.Count(strings.ToLower(page), "</script") != len(opening) {
		t.Errorf("%d </script for %d script elements", strings.Count(strings.ToLower(page), "</script"), len(opening))
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if loc := regexp.MustCompile(`(^|[^\\])<`).FindStringIndex(md.String()); loc != nil {
		t.Errorf("summary.md holds an unescaped <: %q", md.String()[loc[0]:min(len(md.String()), loc[0]+40)])
	}
	if e := entity.FindString(md.String()); e != "" {
		t.Errorf("summary.md holds the entity %q", e)
	}
}

// summary.md of a real run: the title, the run, the reproduce command,
// the verdict, the findings, one line per faction and the cards, in order.
func TestReportSummaryMarkdown(t *testing.T) {
	d := testData(t, rules.Default(), 40)
	var b bytes.Buffer
	if err := WriteMarkdown(&b, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	lines := strings.Split(md, "\n")
	if lines[0] != "# Balance report: Star Trek Conquest – Alpha Tactics 1.2.4" {
		t.Errorf("title %q", lines[0])
	}
	wantInOrder := []string{
		"240 games: 6 lineups × 40, bots random, seed 7 · ruleset " + d.Ruleset.Hash[:12] + " · cardlab test",
		"Reproduce with:",
		"```sh",
		d.Meta.Command,
		"## Verdict",
		"### Findings",
		"## Factions",
		"## Cards",
		"---",
	}
	at := 0
	for _, w := range wantInOrder {
		i := slices.Index(lines[at:], w)
		if i < 0 {
			t.Fatalf("summary.md: no line %q after line %d:\n%s", w, at+1, md)
		}
		at += i + 1
	}
	row := regexp.MustCompile(`^- (Starfleet|Vulcan|Romulan|Klingon): \d+\.\d% of 120 games \\\[\d+\.\d–\d+\.\d%\\\], fair 50%, [-+]\d+\.\d points .* — (balanced|possibly out|\*\*above\*\*|\*\*below\*\*)( \(few games\))?$`)
	n := 0
	for _, l := range lines {
		if row.MatchString(l) {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d faction lines, want 4:\n%s", n, md)
	}
}

// Write replaces the four files of an existing directory and leaves its
// other files alone; a failure leaves it as it was and no temporary files.
func TestReportWriteAtomic(t *testing.T) {
	d := testData(t, rules.Default(), 20)
	parent := t.TempDir()
	dir := filepath.Join(parent, "report")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	for _, f := range Files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	st, _ := os.Stat(dir)
	if st.Mode().Perm() != 0o755 {
		t.Errorf("report directory mode %v", st.Mode().Perm())
	}
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "summary.md"))

	failing := errors.New("disk full")
	testFail = func(name string) error {
		if name == "summary.md" {
			return failing
		}
		return nil
	}
	err := Write(dir, testData(t, rules.Default(), 10), Options{Now: testNow})
	testFail = nil
	if !errors.Is(err, failing) {
		t.Fatalf("Write with a failing render: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	if !bytes.Equal(before, after) {
		t.Error("a failed Write changed summary.md")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("temporary files left beside the report: %v", names)
	}
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine" {
		t.Error("Write touched another file of the directory")
	}
	// A file in the way.
	file := filepath.Join(parent, "file")
	os.WriteFile(file, nil, 0o644)
	if err := Write(file, d, Options{}); err == nil {
		t.Error("Write over a file: no error")
	}
}

// results.json reads back into the same data, and a plain simulate result
// reads too.
func TestReportResultsJSON(t *testing.T) {
	d := testData(t, rules.Default(), 20)
	var b bytes.Buffer
	if err := WriteJSON(&b, d); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var b2 bytes.Buffer
	if err := WriteJSON(&b2, back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), b2.Bytes()) {
		t.Error("results.json does not survive a round trip")
	}
	var m map[string]any
	json.Unmarshal(b.Bytes(), &m)
	for _, k := range []string{"tool_version", "ruleset", "config", "factions", "cards", "raw", "report"} {
		if _, ok := m[k]; !ok {
			t.Errorf("results.json has no top-level %q", k)
		}
	}
	plain, _ := json.Marshal(d.Report)
	pd, err := Read(bytes.NewReader(plain))
	if err != nil || pd.Meta != nil {
		t.Fatalf("a simulate result: %v, meta %v", err, pd.Meta)
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, pd, Options{Now: testNow}); err != nil {
		t.Fatalf("rendering a result without catalog or histograms: %v", err)
	}
	if _, err := Read(strings.NewReader(`{"games": 3}`)); err == nil {
		t.Error("Read accepted a file without raw counts")
	}
}

func TestReportHistograms(t *testing.T) {
	got := bins([]int{3, 5, 5, 9}, 2)
	want := []Bin{{2, 3, 1}, {4, 5, 2}, {6, 7, 0}, {8, 9, 1}}
	if !slices.Equal(got, want) {
		t.Errorf("bins %v, want %v", got, want)
	}
	if w := niceWidth(13.2); w != 20 {
		t.Errorf("niceWidth(13.2) = %d", w)
	}
	recs := []analysis.GameRecord{
		{Winners: []string{"a"}, Game: []game.Named{{Key: "rounds", Value: 6}}, Decisions: 200, VP: []analysis.VPRecord{{Faction: "a", Total: 40}, {Faction: "b", Total: 31}}},
		{Winners: []string{"a", "b"}, Game: []game.Named{{Key: "rounds", Value: 5}}, Decisions: 150, VP: []analysis.VPRecord{{Faction: "a", Total: 30}, {Faction: "b", Total: 30}}},
	}
	h := HistogramsOf(recs)
	var sum int64
	for _, b := range h.Margin {
		sum += b.Games
	}
	if sum != 2 || h.Margin[0].From != 0 || h.Rounds[0] != (Bin{5, 5, 1}) {
		t.Errorf("histograms %+v", h)
	}
}

// The pages' own explanations of card values say what the figures are
// now: win-share points first, power at one stated price, and the flag
// rule the findings apply — not the median-difference test of old.
func TestPagesExplainCardValuesAsMeasured(t *testing.T) {
	d := fixtureData(false)
	var page, gal bytes.Buffer
	if err := WriteHTML(&page, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if err := WriteGallery(&gal, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	rule := html.EscapeString((&model{}).flagRule())
	for name, s := range map[string]string{"index.html": page.String(), "cards.html": gal.String()} {
		if !strings.Contains(s, rule[:60]) {
			t.Errorf("%s does not state the flag rule %q", name, rule[:60])
		}
		for _, stale := range []string{"interval excludes 0 after the Benjamini", "combat-power points above (+)", "interval of power is"} {
			if strings.Contains(s, stale) {
				t.Errorf("%s still says %q", name, stale)
			}
		}
	}
}

// A game whose unit of value is a step of its currency (Spacetrace's
// 50 MP) names the Cards sheet's value columns in that currency and
// scales them, as the page does ("plays like a 421-MP card"), and its face
// column holds the printed value, not a count of steps; the first game's
// heads are unchanged.
func TestWorkbookValueUnit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		unit  *analysis.ValueUnit
		heads []string
		scale float64
	}{
		{"power points", nil, []string{"value power", "power ci95 low", "power ci95 high", "price of a power point", "power"}, 1},
		{"steps of 50 MP", &analysis.ValueUnit{Name: "step of 50 MP", Plural: "steps of 50 MP", Short: "MP/50", Scale: 50, Currency: "MP"},
			[]string{"value MP", "MP ci95 low", "MP ci95 high", "price of a 50-MP step", "MP"}, 50},
		{"bid points", &analysis.ValueUnit{Name: "bid point", Plural: "bid points", Short: "bid"},
			[]string{"value bid", "bid ci95 low", "bid ci95 high", "price of a bid point", "bid"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := fixtureData(false)
			if tc.unit != nil {
				if d.Report.CardValueDesign == nil {
					d.Report.CardValueDesign = &analysis.CardValueDesign{}
				}
				d.Report.CardValueDesign.Unit = tc.unit
			}
			var b bytes.Buffer
			if err := WriteXLSX(&b, d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			f := openBook(t, b.Bytes())
			rows, _ := f.GetRows(SheetCards)
			col := map[string]int{}
			for i, h := range rows[0] {
				col[h] = i
			}
			for _, h := range tc.heads {
				if _, ok := col[h]; !ok {
					t.Fatalf("Cards has no column %q: %v", h, rows[0])
				}
			}
			checkReadMe(t, f)
			cards := map[string]analysis.CardStats{}
			for _, c := range d.Report.Cards {
				cards[c.Name] = c
			}
			printed := map[string]int{}
			for _, c := range d.Meta.Catalog.Cards {
				printed[c.Name] = c.Power
			}
			// The first ranked card's value and printed face, raw.
			name := rows[1][1]
			c := cards[name]
			if c.Value == nil {
				t.Fatalf("first row %q has no value", name)
			}
			raw := func(head string) float64 {
				s, err := f.GetCellValue(SheetCards, cellName(col[head]+1, 2), excelize.Options{RawCellValue: true})
				if err != nil {
					t.Fatal(err)
				}
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("%s of %s: %q", head, name, s)
				}
				return x
			}
			if got, want := raw(tc.heads[0]), c.Value.Power*tc.scale; math.Abs(got-want) > 1e-9 {
				t.Errorf("%s of %s = %v, want %v", tc.heads[0], name, got, want)
			}
			if got, want := raw(tc.heads[4]), float64(printed[name])*tc.scale; got != want {
				t.Errorf("%s of %s = %v, want %v", tc.heads[4], name, got, want)
			}
		})
	}
}
