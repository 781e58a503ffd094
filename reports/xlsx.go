package reports

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
)

// Sheet names of the workbook, in order (Factions and Diff factions in the
// game's words: Players for Goofspiel); Impact, Sweep, Diff and Skill are
// present only when the result holds that analysis. The game's views add
// theirs after Seats and after Diff cards (Alpha Tactics: Targets, Effects,
// Effect handlers; Diff targets).
// Every sheet holds one table: a header row in row 1 (frozen) with an
// autofilter over the table.
const (
	SheetSummary            = "Summary"
	SheetReadMe             = "Read me"
	SheetFactions           = "Factions"
	SheetCards              = "Cards"
	SheetCorrelational      = "Correlational (not causal)"
	SheetMatchups           = "Matchups"
	SheetMatchupGrid        = "Matchup grid"
	SheetSeats              = "Seats"
	SheetGames              = "Games"
	SheetGameLengths        = "Game lengths"
	SheetImpact             = "Impact"
	SheetSweep              = "Sweep"
	SheetDiffChanges        = "Diff changes"
	SheetDiffFactions       = "Diff factions"
	SheetDiffCards          = "Diff cards"
	SheetSkill              = "Skill"
	SheetSkillRanks         = "Skill ranks"
	SheetSkillSteps         = "Skill steps"
	SheetSkillCheck         = "Skill check"
	SheetSkillCheckCards    = "Skill check cards"
	SheetSkillCheckMatchups = "Skill check matchups"
	SheetSkillCheckSeats    = "Skill check seats"
)

// ChartTitle is the title of the workbook's chart (on the Factions sheet).
const ChartTitle = "Faction win shares"

// Number formats and cell looks of the workbook.
const (
	fmtPct   = "0.0%"
	fmtPts   = "+0.0%;-0.0%;0.0%"
	fmtPow   = "+0.0;-0.0;0.0"
	fmtP     = "0.0000"
	fmtDec2  = "0.00"
	fmtDec3  = "0.000"
	fmtInt   = "0"
	fmtGen   = ""
	fillHead = "#DDE4EE"
	fillPos  = "#C6EFCE" // significant, above
	fillNeg  = "#FFC7CE" // significant, below
	fillLow  = "#EDEDED" // low sample
	fontLow  = "#7F7F7F"
)

// look is a cell's style: number format and highlight.
type look struct {
	numFmt string
	fill   string
	bold   bool
	italic bool
	color  string
	wrap   bool
}

// book writes a workbook; the first error sticks and ends the writing.
type book struct {
	f      *excelize.File
	err    error
	styles map[look]int
	// columns are the columns of every table written, for the Read me.
	columns []readMeRow
	// say puts the game's words into the report's own heads and
	// definitions (model.say).
	say func(string) string
}

type readMeRow struct{ sheet, column, meaning string }

func (b *book) fail(err error) {
	if b.err == nil && err != nil {
		b.err = err
	}
}

func (b *book) style(l look) int {
	if id, ok := b.styles[l]; ok {
		return id
	}
	st := &excelize.Style{}
	if l.numFmt != "" {
		nf := l.numFmt
		st.CustomNumFmt = &nf
	}
	if l.fill != "" {
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{l.fill}}
	}
	if l.bold || l.italic || l.color != "" {
		st.Font = &excelize.Font{Bold: l.bold, Italic: l.italic, Color: l.color}
	}
	if l.wrap {
		st.Alignment = &excelize.Alignment{WrapText: true, Vertical: "top"}
	}
	id, err := b.f.NewStyle(st)
	b.fail(err)
	b.styles[l] = id
	return id
}

func cellName(col, row int) string {
	c, _ := excelize.CoordinatesToCellName(col, row)
	return c
}

func colName(col int) string {
	c, _ := excelize.ColumnNumberToName(col)
	return c
}

// sheet writes one worksheet.
type sheet struct {
	b    *book
	name string
}

func (b *book) sheet(name string) *sheet {
	if b.err == nil {
		if _, err := b.f.NewSheet(name); err != nil {
			b.fail(err)
		}
	}
	return &sheet{b, name}
}

// put writes v into the cell at (col, row), 1-based. Strings are always
// string cells (SetCellStr): text from a ruleset is never read as a formula.
func (s *sheet) put(col, row int, v any, l look) {
	b := s.b
	if b.err != nil {
		return
	}
	c := cellName(col, row)
	var err error
	switch x := v.(type) {
	case nil:
	case string:
		err = b.f.SetCellStr(s.name, c, x)
	case int:
		err = b.f.SetCellInt(s.name, c, int64(x))
	case int64:
		err = b.f.SetCellInt(s.name, c, x)
	case uint64:
		// seeds can exceed what a spreadsheet number holds exactly
		err = b.f.SetCellStr(s.name, c, fmt.Sprint(x))
	case float64:
		err = b.f.SetCellFloat(s.name, c, x, -1, 64)
	case bool:
		err = b.f.SetCellBool(s.name, c, x)
	default:
		err = fmt.Errorf("reports: cell %s!%s: unsupported value %T", s.name, c, v)
	}
	b.fail(err)
	if l != (look{}) {
		b.fail(b.f.SetCellStyle(s.name, c, c, b.style(l)))
	}
}

// wrappedLines estimates how many lines text takes wrapped in a column of
// width characters (a word is about as wide as its letters, plus a margin).
func wrappedLines(text string, width float64) int {
	n := 0
	for _, line := range strings.Split(text, "\n") {
		n += max(1, int(math.Ceil(float64(utf8.RuneCountInString(line))*1.1/max(1, width-1))))
	}
	return n
}

// height makes row tall enough for lines of text: neither Excel nor
// LibreOffice sizes a row of wrapped text written by excelize itself, so
// wrapped text would print cut off or over the next row.
func (s *sheet) height(row, lines int) {
	if lines > 1 && s.b.err == nil {
		s.b.fail(s.b.f.SetRowHeight(s.name, row, 15*float64(lines)))
	}
}

// freezeHeader keeps row 1 in view.
func (s *sheet) freezeHeader() {
	s.b.fail(s.b.f.SetPanes(s.name, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}))
}

// filter puts an autofilter on the table in columns 1..cols, rows 1..rows.
func (s *sheet) filter(cols, rows int) {
	if rows < 2 {
		rows = 2
	}
	s.b.fail(s.b.f.AutoFilter(s.name, "A1:"+cellName(cols, rows), nil))
}

// col is one column of a table: a head, a value and its look.
type col[T any] struct {
	head  string
	width float64
	val   func(T) any
	look  func(T) look
	// doc defines the column on the Read me sheet; "" takes the common
	// definition of the head (columnDocs).
	doc string
}

// table writes items as a table with a header row from row 1, an
// autofilter and a frozen header; it returns the last row written.
func table[T any](s *sheet, cols []col[T], items []T) int {
	for i, c := range cols {
		doc, head := c.doc, c.head
		if doc == "" {
			doc = columnDocs[c.head]
		}
		if _, core := columnDocs[c.head]; core && s.b.say != nil {
			// A head of the report's own, never one made from a ruleset's
			// names: in the game's words ("mean VP": "mean points").
			head, doc = s.b.say(head), s.b.say(doc)
		}
		s.b.columns = append(s.b.columns, readMeRow{s.name, head, doc})
		s.put(i+1, 1, head, look{bold: true, fill: fillHead, wrap: true})
		w := c.width
		if w == 0 {
			w = 12
		}
		cn := colName(i + 1)
		s.b.fail(s.b.f.SetColWidth(s.name, cn, cn, w))
	}
	widths := make([]float64, len(cols))
	heads := 1
	for i, c := range cols {
		widths[i] = c.width
		if widths[i] == 0 {
			widths[i] = 12
		}
		heads = max(heads, wrappedLines(c.head, widths[i]))
	}
	s.height(1, heads)
	for r, it := range items {
		lines := 1
		for i, c := range cols {
			var l look
			if c.look != nil {
				l = c.look(it)
			}
			v := c.val(it)
			s.put(i+1, r+2, v, l)
			if str, ok := v.(string); ok && l.wrap {
				lines = max(lines, wrappedLines(str, widths[i]))
			}
		}
		s.height(r+2, lines)
	}
	s.freezeHeader()
	s.filter(len(cols), len(items)+1)
	return len(items) + 1
}

// sigLook highlights a significant figure (sig ±1, multiple-testing corrected) or that
// rests on too few games.
func sigLook(nf string, sig int, low bool) look {
	switch {
	case low:
		return look{numFmt: nf, fill: fillLow, italic: true, color: fontLow}
	case sig > 0:
		return look{numFmt: nf, fill: fillPos}
	case sig < 0:
		return look{numFmt: nf, fill: fillNeg}
	}
	return look{numFmt: nf}
}

func ciSig(ci [2]float64) int {
	switch {
	case ci[0] > 0:
		return 1
	case ci[1] < 0:
		return -1
	}
	return 0
}

func lowLook(nf string, low bool) look { return sigLook(nf, 0, low) }

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// writeXLSX writes the workbook.
func (m *model) writeXLSX(w io.Writer) error {
	if m.err != nil {
		return m.err
	}
	f := excelize.NewFile()
	defer f.Close()
	b := &book{f: f, styles: map[look]int{}, say: m.say}
	b.fail(f.SetSheetName("Sheet1", SheetSummary))
	m.xlsxSummary(&sheet{b, SheetSummary})
	readMe := b.sheet(SheetReadMe)
	m.xlsxFactions(b.sheet(m.say(SheetFactions)))
	m.xlsxCards(b.sheet(SheetCards))
	m.xlsxCorrelational(b.sheet(SheetCorrelational))
	m.xlsxMatchups(b.sheet(SheetMatchups))
	m.xlsxMatchupGrid(b.sheet(SheetMatchupGrid))
	m.xlsxSeats(b.sheet(SheetSeats))
	for _, p := range m.parts {
		for i := range p.Sheets {
			viewSheet(b, &p.Sheets[i])
		}
	}
	m.xlsxSections(b)
	m.xlsxGames(b.sheet(SheetGames))
	if h := m.histograms(); h != nil {
		m.xlsxGameLengths(b.sheet(SheetGameLengths), h)
	}
	if rows := m.qualityRows(); rows != nil {
		m.xlsxQuality(b.sheet(SheetQuality), rows)
	}
	if m.d.Impact != nil {
		m.xlsxImpact(b.sheet(SheetImpact))
	}
	if m.d.Sweep != nil {
		m.xlsxSweep(b.sheet(SheetSweep))
	}
	if m.d.Diff != nil {
		m.xlsxDiffChanges(b.sheet(SheetDiffChanges))
		m.xlsxDiffFactions(b.sheet(m.say(SheetDiffFactions)))
		m.xlsxDiffCards(b.sheet(SheetDiffCards))
		for _, p := range m.parts {
			for i := range p.DiffSheets {
				viewSheet(b, &p.DiffSheets[i])
			}
		}
	}
	if m.d.Skill != nil {
		m.xlsxSkill(b.sheet(SheetSkill))
		m.xlsxSkillRanks(b.sheet(SheetSkillRanks))
		m.xlsxSkillSteps(b.sheet(SheetSkillSteps))
	}
	if m.tiers != nil {
		m.xlsxSkillCheck(b.sheet(SheetSkillCheck))
		if len(m.tiers.Matchups) > 0 {
			m.xlsxSkillCheckMatchups(b.sheet(SheetSkillCheckMatchups))
		}
		if len(m.tiers.Seats) > 0 {
			m.xlsxSkillCheckSeats(b.sheet(SheetSkillCheckSeats))
		}
		if m.tiers.Cards != nil {
			m.xlsxSkillCheckCards(b.sheet(SheetSkillCheckCards))
		}
	}
	m.xlsxReadMe(readMe)
	for _, name := range f.GetSheetList() {
		b.printSetup(name, chartRows(name, m))
	}
	f.SetActiveSheet(0)
	b.fail(f.SetDocProps(&excelize.DocProperties{Title: "Balance report: " + m.title(), Creator: "cardlab " + m.rep.ToolVersion,
		Description: m.describe()}))
	if b.err != nil {
		return b.err
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return err
	}
	out, err := m.styleFactionChart(buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// chartRows is how many rows below its table a sheet's chart takes (0:
// none): the Factions chart, 360 px high at 20 px a row, from 2 rows below.
func chartRows(sheet string, m *model) int {
	if sheet == m.say(SheetFactions) && len(m.factions) > 0 {
		return 2 + 360/20 + 1
	}
	return 0
}

// Printing a sheet: A4 paper; portrait while its columns fit (at most
// pagePortrait character widths), landscape beyond; scaled to fit the
// width of one page while the scale stays readable (at most pageLandscape
// widths per page, about 60%), else spread over as many pages across as
// that takes with the first column (the row's name) repeated on each.
// The header row repeats on every page, and the print area is the table
// (with its chart): LibreOffice exported today's 13 sheets as 80 pages of
// columns cut anywhere, without the headers.
const (
	pagePortrait  = 95.0
	pageLandscape = 230.0
	paperA4       = 9
)

// printSetup sets sheet's print area, titles and page layout.
func (b *book) printSetup(sheet string, extraRows int) {
	if b.err != nil {
		return
	}
	f := b.f
	rows, err := f.GetRows(sheet)
	b.fail(err)
	ncols := 0
	for _, r := range rows {
		ncols = max(ncols, len(r))
	}
	nrows := len(rows) + extraRows
	if ncols == 0 || nrows == 0 {
		return
	}
	width := 0.0
	for c := 1; c <= ncols; c++ {
		w, err := f.GetColWidth(sheet, colName(c))
		b.fail(err)
		width += w
	}
	q := "'" + strings.ReplaceAll(sheet, "'", "''") + "'!"
	b.fail(f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", Scope: sheet,
		RefersTo: fmt.Sprintf("%s$A$1:$%s$%d", q, colName(ncols), nrows)}))
	titles := q + "$1:$1"
	orient, across := "portrait", 1
	if width > pagePortrait {
		orient = "landscape"
		across = int(math.Ceil(width / pageLandscape))
	}
	if across > 1 {
		titles = q + "$A:$A," + titles
	}
	b.fail(f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: sheet, RefersTo: titles}))
	fit, paper, tall := true, paperA4, 0
	b.fail(f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}))
	b.fail(f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Size: &paper, Orientation: &orient,
		FitToWidth: &across, FitToHeight: &tall}))
}

func isString(v any) bool { _, ok := v.(string); return ok }

type kvRow struct {
	item string
	val  any
	nf   string
}

// xlsxSummary: what was played, how to play it again, the verdict and the
// findings, as one two-column table.
func (m *model) xlsxSummary(s *sheet) {
	r := m.rep
	c := r.Config
	var lineups []string
	for _, l := range c.Matchups {
		lineups = append(lineups, strings.Join(l, " vs "))
	}
	rows := []kvRow{
		{"Balance report", m.title(), ""},
		{"Verdict", m.verdict(), ""},
		{"Ruleset", r.Ruleset.Name, ""},
		{"Version", r.Ruleset.Version, ""},
		{"Ruleset hash (SHA-256)", r.Ruleset.Hash, ""},
		{"Tool version", r.ToolVersion, ""},
		{"Seed", c.Seed, ""},
		{"Bots", strings.Join(c.Bots, ", "), ""},
		{"Which bots made the figures", m.botsLine(), ""},
		{"Lineups", strings.Join(lineups, "; "), ""},
		{"Games per lineup", c.Games, ""},
		{"Games played", r.Games, ""},
		{"Minimum sample", c.MinSample, ""},
		{"Tolerance band (points of win share around the fair share)", m.tolText(), ""},
		{"Card tolerance band (points of win share, ± a plain card of the printed power)", m.cardTolText(), ""},
		{"Partial (interrupted)", yes(r.Partial), ""},
		{"Simulated", stampRFC3339(m.generated()), ""},
		{"Rendered", stamp(m.now), ""},
		{"Reproduce with", m.command(), ""},
		{"Cards ranked by", m.metric.Label + ": " + m.metric.Long, ""},
	}
	if d := r.CardValueDesign; d != nil {
		rows = append(rows, kvRow{"Card values: precision", m.precisionText(d), ""})
	}
	if df := m.d.Diff; df != nil {
		rows = append(rows,
			kvRow{"Diff: base", df.Base.Name + " " + df.Base.Version + " (" + df.Base.Hash + ")", ""},
			kvRow{"Diff: variant", df.Variant.Name + " " + df.Variant.Version + " (" + df.Variant.Hash + ")", ""},
			kvRow{"Diff: verdict", df.Verdict, ""})
	}
	if im := m.d.Impact; im != nil {
		rows = append(rows,
			kvRow{"Impact: mode", im.Mode, ""},
			kvRow{"Impact: alpha / correction", fmt.Sprintf("%g, %s", im.Alpha, im.Correction), ""},
			kvRow{"Impact: games", fmt.Sprintf("%d baseline, %d with a card ablated (%d per lineup, bots %s, seed %d)",
				im.BaselineGames, im.VariantGames, im.Games, strings.Join(im.Bots, ","), im.Seed), ""})
	}
	if sw := m.d.Sweep; sw != nil {
		what := sw.Field
		if sw.Card != nil {
			what = sw.Card.Name + " (" + sw.Card.ID + "): " + sw.Field
		}
		rows = append(rows, kvRow{"Sweep: swept", what, ""}, kvRow{"Sweep: current", sw.Current, ""},
			kvRow{"Sweep: best", sw.Best, ""}, kvRow{"Sweep: target share", sw.Target, fmtPct})
		if sw.Suggestion != nil {
			rows = append(rows, kvRow{"Sweep: suggestion", sw.Suggestion.Text, ""})
		}
	}
	for i, fd := range m.found {
		rows = append(rows, kvRow{fmt.Sprintf("Finding %d (%s)", i+1, fd.Kind), fd.Text, ""})
	}
	table(s, []col[kvRow]{
		{head: "item", width: 34, val: func(r kvRow) any { return r.item }, look: func(kvRow) look { return look{bold: true, wrap: true} },
			doc: m.say("what the row gives: the run, how to reproduce it, the verdict and the findings (faction imbalance first)")},
		{head: "value", width: 120, val: func(r kvRow) any { return r.val }, look: func(r kvRow) look { return look{numFmt: r.nf, wrap: isString(r.val)} },
			doc: "its value"},
	}, rows)
}

// xlsxReadMe defines every column of every table.
func (m *model) xlsxReadMe(s *sheet) {
	rows := slices.Clone(s.b.columns)
	table(s, []col[readMeRow]{
		{head: "sheet", width: 26, val: func(r readMeRow) any { return r.sheet }, doc: "the sheet"},
		{head: "column", width: 24, val: func(r readMeRow) any { return r.column }, doc: "a column of its table"},
		{head: "meaning", width: 120, val: func(r readMeRow) any { return r.meaning }, look: func(readMeRow) look { return look{wrap: true} },
			doc: "what the column holds (docs/metrics.md has the full definitions). Rates are fractions shown as percentages; differences of rates are shown as signed percentages (percentage points); an empty cell is a figure that is undefined (no game on one side), never 0"},
	}, rows)
}

func (m *model) xlsxFactions(s *sheet) {
	fd := m.facDev()
	cols := []col[*facView]{
		{head: "faction", width: 14, val: func(f *facView) any { return f.ID }},
		{head: "name", width: 18, val: func(f *facView) any { return f.Name }},
		{head: "games", val: func(f *facView) any { return f.Stats.Games }},
		{head: "wins", val: func(f *facView) any { return f.Stats.Wins }, look: func(*facView) look { return look{numFmt: "0.##"} }},
		{head: "win rate", val: func(f *facView) any { return f.Stats.WinRate }, look: func(f *facView) look {
			v := fd[f.ID]
			sig := 0
			if v.out(m.tol) {
				sig = sign(v.d())
			}
			return sigLook(fmtPct, sig, f.Stats.LowN)
		}},
		{head: "ci95 low", val: func(f *facView) any { return f.Stats.CI95[0] }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(f *facView) any { return f.Stats.CI95[1] }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "fair share", val: func(f *facView) any { return m.expected(f.ID) }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "interval below", val: func(f *facView) any { return max(0, f.Stats.WinRate-f.Stats.CI95[0]) }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "interval above", val: func(f *facView) any { return max(0, f.Stats.CI95[1]-f.Stats.WinRate) }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "vs fair", val: func(f *facView) any { return fd[f.ID].d() }, look: func(*facView) look { return look{numFmt: fmtPts} }},
		{head: "vs fair ci95 low", val: func(f *facView) any { return fd[f.ID].dCI()[0] }, look: func(*facView) look { return look{numFmt: fmtPts} }},
		{head: "vs fair ci95 high", val: func(f *facView) any { return fd[f.ID].dCI()[1] }, look: func(*facView) look { return look{numFmt: fmtPts} }},
		{head: "p (Holm)", val: func(f *facView) any { return fd[f.ID].pAdj }, look: func(*facView) look { return look{numFmt: fmtP} }},
		{head: "verdict", width: 14, val: func(f *facView) any { return m.devVerdict(fd[f.ID]) }},
		{head: "mean VP", val: func(f *facView) any { return f.Stats.MeanVP }, look: func(*facView) look { return look{numFmt: fmtDec2} }},
		{head: "VP sd", val: func(f *facView) any { return f.Stats.VPSD }, look: func(*facView) look { return look{numFmt: fmtDec2} }},
		{head: "low n", val: func(f *facView) any { return yes(f.Stats.LowN) }},
	}
	last := table(s, cols, m.factions)
	if len(m.factions) == 0 {
		return
	}
	ref := func(c string) string { return fmt.Sprintf("'%s'!$%s$2:$%s$%d", s.name, c, c, last) }
	lo := 0.0
	ch := &excelize.Chart{
		Type: excelize.Col,
		Series: []excelize.ChartSeries{{
			Name: "'" + s.name + "'!$E$1", Categories: ref("B"), Values: ref("E"),
		}},
		Title:     []excelize.RichTextRun{{Text: m.say(ChartTitle)}},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		PlotArea:  excelize.ChartPlotArea{ShowVal: false},
		XAxis:     excelize.ChartAxis{},
		YAxis:     excelize.ChartAxis{Minimum: &lo, MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}},
		Dimension: excelize.ChartDimension{Width: 640, Height: 360},
	}
	// The axes are drawn from the last chart of the combination: it repeats
	// the percent axis.
	fair := &excelize.Chart{
		Type:  excelize.Line,
		YAxis: ch.YAxis,
		Series: []excelize.ChartSeries{{
			Name: "'" + s.name + "'!$H$1", Categories: ref("B"), Values: ref("H"),
			Line: excelize.ChartLine{Type: excelize.ChartLineSolid, Dash: excelize.ChartDashDash, Width: 1.5,
				Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#333333"}}},
			Marker: excelize.ChartMarker{Symbol: "none"},
		}},
	}
	s.b.fail(s.b.f.AddChart(s.name, cellName(1, last+3), ch, fair))
	m.chartRows = last
}

// devVerdict is a deviation in a word or two: above, below (out of balance),
// possibly out, balanced.
func (m *model) devVerdict(v *deviation) string { return bandVerdict(v, m.tol) }

func (m *model) xlsxCards(s *sheet) {
	uc := m.unitColumns()
	plain := func(nf string) func(*cardView) look { return func(*cardView) look { return look{numFmt: nf} } }
	val := func(get func(v *analysis.CardValue) any) func(*cardView) any {
		return func(c *cardView) any {
			if c.Value == nil {
				return nil
			}
			return get(c.Value)
		}
	}
	cols := []col[*cardView]{
		{head: "id", width: 20, val: func(c *cardView) any { return c.ID }},
		{head: "name", width: 24, val: func(c *cardView) any { return c.Info.Name }},
		{head: "faction", val: func(c *cardView) any { return c.Faction }},
	}
	rows := m.cards
	if m.metric.Key == "value" {
		rows = m.ranked()
		for _, c := range m.cards {
			if c.Low {
				rows = append(rows, c)
			}
		}
		rank := map[*cardView]int{}
		for i, c := range rows {
			if !c.Low {
				rank[c] = i + 1
			}
		}
		cols = append(cols,
			col[*cardView]{head: "rank", width: 7, val: func(c *cardView) any {
				if rank[c] == 0 {
					return nil
				}
				return rank[c]
			}},
			col[*cardView]{head: "value vs faction", val: val(func(v *analysis.CardValue) any { return v.VsFactionPts / 100 }), look: func(c *cardView) look {
				return sigLook(fmtPts, c.Sig, false)
			}},
			col[*cardView]{head: "vs faction ci95 low", val: val(func(v *analysis.CardValue) any { return v.VsFactionPtsCI95[0] / 100 }), look: plain(fmtPts)},
			col[*cardView]{head: "vs faction ci95 high", val: val(func(v *analysis.CardValue) any { return v.VsFactionPtsCI95[1] / 100 }), look: plain(fmtPts)},
			col[*cardView]{head: "flagged", width: 8, val: val(func(v *analysis.CardValue) any {
				if v.PossiblyDead {
					return "possibly dead"
				}
				return strings.ReplaceAll(v.Flag, "_", " ")
			})},
			col[*cardView]{head: "value pts", val: val(func(v *analysis.CardValue) any { return v.Pts / 100 }), look: plain(fmtPts)},
			col[*cardView]{head: "pts ci95 low", val: val(func(v *analysis.CardValue) any { return v.PtsCI95[0] / 100 }), look: plain(fmtPts)},
			col[*cardView]{head: "pts ci95 high", val: val(func(v *analysis.CardValue) any { return v.PtsCI95[1] / 100 }), look: plain(fmtPts)},
			col[*cardView]{head: "text adds pts", val: func(c *cardView) any {
				if c.Value == nil || c.Value.EffectBasis == analysis.EffectNoReference {
					return nil
				}
				return c.Value.EffectPts / 100
			}, look: plain(fmtPts)},
			col[*cardView]{head: "text basis", width: 12, val: val(func(v *analysis.CardValue) any { return v.EffectBasis })},
			col[*cardView]{head: uc.value, doc: uc.valueDoc, val: val(func(v *analysis.CardValue) any { return v.Power * uc.scale }), look: plain(uc.numFmt)},
			col[*cardView]{head: uc.short + " ci95 low", doc: uc.lowDoc, val: val(func(v *analysis.CardValue) any { return v.PowerCI95[0] * uc.scale }), look: plain(uc.numFmt)},
			col[*cardView]{head: uc.short + " ci95 high", doc: uc.highDoc, val: val(func(v *analysis.CardValue) any { return v.PowerCI95[1] * uc.scale }), look: plain(uc.numFmt)},
			col[*cardView]{head: uc.price, doc: uc.priceDoc, val: func(c *cardView) any {
				if p, ok := m.rep.PriceOfPower[c.Faction]; ok && c.Value != nil {
					return p.Pts / 100
				}
				return nil
			}, look: plain(fmtPts)},
			col[*cardView]{head: "price from", width: 16, val: func(c *cardView) any {
				if c.Value == nil {
					return nil
				}
				return m.unitFrom(c.Faction)
			}},
		)
	}
	cols = append(cols,
		col[*cardView]{head: "type", val: func(c *cardView) any { return c.Info.Type }},
		col[*cardView]{head: "kind", width: 6, val: func(c *cardView) any { return c.Info.Kind }},
		col[*cardView]{head: uc.face, doc: uc.faceDoc, width: 7, val: func(c *cardView) any {
			if !c.HasFace {
				return nil
			}
			return m.printedValue(&c.Info)
		}},
		col[*cardView]{head: "copies", width: 7, val: func(c *cardView) any { return c.Copies }},
		col[*cardView]{head: "effect", width: 18, val: func(c *cardView) any { return c.Info.Effect }},
		col[*cardView]{head: "played", val: func(c *cardView) any { return c.Played }},
		col[*cardView]{head: "play rate", val: func(c *cardView) any { return c.PlayRate }, look: plain(fmtPct)},
		col[*cardView]{head: "placed", val: func(c *cardView) any { return c.Placed }},
		col[*cardView]{head: "row win rate", val: func(c *cardView) any { return c.RowWinRate }, look: plain(fmtPct)},
		col[*cardView]{head: "scored", val: func(c *cardView) any { return c.Scored }},
		col[*cardView]{head: "mean power", val: func(c *cardView) any { return c.MeanPower }, look: plain(fmtDec2)},
		col[*cardView]{head: "fired", val: func(c *cardView) any { return c.Fired }},
		col[*cardView]{head: "blocked", val: func(c *cardView) any { return c.Blocked }},
		col[*cardView]{head: "fizzled", val: func(c *cardView) any { return c.Fizzled }},
	)
	if m.d.Impact != nil {
		imp := func(get func(*analysis.CardImpact) any) func(*cardView) any {
			return func(c *cardView) any {
				if c.Impact == nil {
					return nil
				}
				return get(c.Impact)
			}
		}
		cols = append(cols,
			col[*cardView]{head: "impact", val: imp(func(i *analysis.CardImpact) any { return i.Delta }), look: func(c *cardView) look {
				if c.Impact == nil {
					return look{}
				}
				sig := 0
				if c.Impact.Significant {
					sig = sign(c.Impact.Delta)
				}
				return sigLook(fmtPts, sig, c.Impact.LowN)
			}},
			col[*cardView]{head: "impact ci95 low", val: imp(func(i *analysis.CardImpact) any { return i.CI95[0] }), look: plain(fmtPts)},
			col[*cardView]{head: "impact ci95 high", val: imp(func(i *analysis.CardImpact) any { return i.CI95[1] }), look: plain(fmtPts)},
		)
	}
	cols = append(cols, col[*cardView]{head: "text", width: 60, val: func(c *cardView) any { return c.Info.Text }})
	table(s, cols, rows)
}

// opt is an optional figure: nil stays an empty cell.
func opt(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func optCI(p *[2]float64, i int) any {
	if p == nil {
		return nil
	}
	return p[i]
}

// xlsxCorrelational: the 17lands-style figures, which describe the games but
// do not say what a card does; undefined ones are empty cells.
func (m *model) xlsxCorrelational(s *sheet) {
	plain := func(nf string) func(*cardView) look { return func(*cardView) look { return look{numFmt: nf} } }
	sigCI := func(ci *[2]float64) int {
		if ci == nil {
			return 0
		}
		return ciSig(*ci)
	}
	cols := []col[*cardView]{
		{head: "id", width: 20, val: func(c *cardView) any { return c.ID }},
		{head: "name", width: 24, val: func(c *cardView) any { return c.Info.Name }},
		{head: "faction", val: func(c *cardView) any { return c.Faction }},
		{head: "games", val: func(c *cardView) any { return c.Games }},
		{head: "drawn", val: func(c *cardView) any { return c.Drawn }},
		{head: "not drawn", val: func(c *cardView) any { return c.NotDrawn }, look: func(c *cardView) look { return lowLook(fmtGen, c.LowN) }},
		{head: "gih wr", val: func(c *cardView) any { return opt(c.GIHWR) }, look: plain(fmtPct)},
		{head: "gns wr", val: func(c *cardView) any { return opt(c.GNSWR) }, look: func(c *cardView) look { return lowLook(fmtPct, c.LowN) }},
		{head: "iwd", val: func(c *cardView) any { return opt(c.IWD) }, look: func(c *cardView) look { return sigLook(fmtPts, sigCI(c.IWDCI95), c.LowN) }},
		{head: "iwd ci95 low", val: func(c *cardView) any { return optCI(c.IWDCI95, 0) }, look: func(c *cardView) look { return lowLook(fmtPts, c.LowN) }},
		{head: "iwd ci95 high", val: func(c *cardView) any { return optCI(c.IWDCI95, 1) }, look: func(c *cardView) look { return lowLook(fmtPts, c.LowN) }},
		{head: "low n", width: 7, val: func(c *cardView) any { return yes(c.LowN) }},
		{head: "played", val: func(c *cardView) any { return c.Played }},
		{head: "played wr", val: func(c *cardView) any { return opt(c.PlayedWR) }, look: plain(fmtPct)},
		{head: "opening", val: func(c *cardView) any { return c.Opening }},
		{head: "not opening", val: func(c *cardView) any { return c.NotOpening }},
		{head: "oh wr", val: func(c *cardView) any { return opt(c.OHWR) }, look: plain(fmtPct)},
		{head: "not oh wr", val: func(c *cardView) any { return opt(c.NotOHWR) }, look: plain(fmtPct)},
		{head: "oh iwd", val: func(c *cardView) any { return opt(c.OHIWD) }, look: func(c *cardView) look { return sigLook(fmtPts, sigCI(c.OHIWDCI95), c.OHLowN) }},
		{head: "oh iwd ci95 low", val: func(c *cardView) any { return optCI(c.OHIWDCI95, 0) }, look: func(c *cardView) look { return lowLook(fmtPts, c.OHLowN) }},
		{head: "oh iwd ci95 high", val: func(c *cardView) any { return optCI(c.OHIWDCI95, 1) }, look: func(c *cardView) look { return lowLook(fmtPts, c.OHLowN) }},
		{head: "oh low n", width: 8, val: func(c *cardView) any { return yes(c.OHLowN) }},
	}
	table(s, cols, m.cards)
}

type matchupRow struct {
	mu   analysis.MatchupStats
	id   string
	dev  *deviation
	fair float64
}

func (m *model) xlsxMatchups(s *sheet) {
	md := m.matchupDev()
	var rows []matchupRow
	for i, mu := range m.rep.Matchups {
		for k, id := range mu.Lineup {
			r := matchupRow{mu: mu, id: id, fair: 1 / float64(len(mu.Lineup))}
			if v := md[i]; v != nil {
				r.dev = v
				if k == 1 { // the second faction's deviation mirrors the first's
					r.dev = &deviation{rate: 1 - v.rate, fair: 0.5, ci: [2]float64{1 - v.ci[1], 1 - v.ci[0]}, p: v.p, pAdj: v.pAdj}
				}
			}
			rows = append(rows, r)
		}
	}
	cols := []col[matchupRow]{
		{head: "lineup", width: 28, val: func(r matchupRow) any { return strings.Join(r.mu.Lineup, " vs ") }},
		{head: "games", val: func(r matchupRow) any { return r.mu.Games }},
		{head: "faction", val: func(r matchupRow) any { return r.id }},
		{head: "wins", val: func(r matchupRow) any { return r.mu.Factions[r.id].Wins }, look: func(matchupRow) look { return look{numFmt: "0.##"} }},
		{head: "win rate", val: func(r matchupRow) any { return r.mu.Factions[r.id].WinRate }, look: func(r matchupRow) look {
			sig := 0
			if r.dev != nil && r.dev.out(m.tol) {
				sig = sign(r.dev.d())
			}
			return sigLook(fmtPct, sig, r.mu.Factions[r.id].LowN)
		}},
		{head: "ci95 low", val: func(r matchupRow) any { return r.mu.Factions[r.id].CI95[0] }, look: func(matchupRow) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(r matchupRow) any { return r.mu.Factions[r.id].CI95[1] }, look: func(matchupRow) look { return look{numFmt: fmtPct} }},
		{head: "fair share", val: func(r matchupRow) any { return r.fair }, look: func(matchupRow) look { return look{numFmt: fmtPct} }},
		{head: "p (Holm)", val: func(r matchupRow) any {
			if r.dev == nil {
				return nil
			}
			return r.dev.pAdj
		}, look: func(matchupRow) look { return look{numFmt: fmtP} }, doc: "the 2-player lineup's test against 50%, Holm-corrected across all 2-player lineups"},
		{head: "verdict", width: 12, val: func(r matchupRow) any {
			if r.dev == nil {
				return nil
			}
			return m.devVerdict(r.dev)
		}},
		{head: "low n", val: func(r matchupRow) any { return yes(r.mu.Factions[r.id].LowN) }},
	}
	table(s, cols, rows)
}

// xlsxMatchupGrid: the head-to-head win shares as a grid, row faction
// against column faction (2-player lineups), coloured like the page's map.
func (m *model) xlsxMatchupGrid(s *sheet) {
	n := len(m.factions)
	grid := make([][]any, n)
	for i := range grid {
		grid[i] = make([]any, n)
	}
	idx := func(id string) int { return slices.IndexFunc(m.factions, func(f *facView) bool { return f.ID == id }) }
	any2 := false
	for _, mu := range m.rep.Matchups {
		if len(mu.Lineup) != 2 {
			continue
		}
		a, c := idx(mu.Lineup[0]), idx(mu.Lineup[1])
		if a < 0 || c < 0 {
			continue
		}
		any2 = true
		grid[a][c] = mu.Factions[mu.Lineup[0]].WinRate
		grid[c][a] = mu.Factions[mu.Lineup[1]].WinRate
	}
	cols := []col[int]{{head: "faction", width: 18, val: func(i int) any { return m.factions[i].Name },
		doc: m.say("the row's faction; each other column: its win share against the column's faction over every seating (2-player lineups; intervals on the Matchups sheet)")}}
	for j, f := range m.factions {
		cols = append(cols, col[int]{head: "vs " + f.Name, width: 14, val: func(i int) any { return grid[i][j] },
			look: func(int) look { return look{numFmt: fmtPct} }, doc: m.say("the row faction's win share against ") + f.Name})
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	table(s, cols, rows)
	if n > 0 && any2 {
		rng := cellName(2, 2) + ":" + cellName(1+n, 1+n)
		s.b.fail(s.b.f.SetConditionalFormat(s.name, rng, []excelize.ConditionalFormatOptions{{
			Type: "3_color_scale", Criteria: "=",
			MinType: "num", MinValue: "0.3", MinColor: "#D7301F",
			MidType: "num", MidValue: "0.5", MidColor: "#FFFFFF",
			MaxType: "num", MaxValue: "0.7", MaxColor: "#2B8CBE",
		}}))
	}
}

func (m *model) xlsxSeats(s *sheet) {
	type seatRow struct {
		players  int
		kind     string
		pos      int
		expected float64
		st       analysis.WinStats
		dev      *deviation
	}
	sd := m.seatDev()
	var rows []seatRow
	for _, ss := range m.rep.Seats {
		for _, st := range ss.Seats {
			rows = append(rows, seatRow{ss.Players, "seat", st.Seat, ss.Expected, st.WinStats, sd[fmt.Sprintf("seat/%d/%d", ss.Players, st.Seat)]})
		}
		// Every game's turn order mixes the start with the faction that
		// always begins: shown, not tested.
		for _, st := range ss.StartOrder {
			rows = append(rows, seatRow{ss.Players, "turn order, all games (not tested)", st.Seat, ss.Expected, st.WinStats, nil})
		}
		for _, st := range ss.RandomStartOrder {
			rows = append(rows, seatRow{ss.Players, "turn order, random starter", st.Seat, ss.Expected, st.WinStats, sd[fmt.Sprintf("random/%d/%d", ss.Players, st.Seat)]})
		}
	}
	cols := []col[seatRow]{
		{head: "players", val: func(r seatRow) any { return r.players }},
		{head: "by", width: 30, val: func(r seatRow) any { return r.kind }},
		{head: "position", val: func(r seatRow) any { return r.pos }},
		{head: "games", val: func(r seatRow) any { return r.st.Games }},
		{head: "wins", val: func(r seatRow) any { return r.st.Wins }, look: func(seatRow) look { return look{numFmt: "0.##"} }},
		{head: "win rate", val: func(r seatRow) any { return r.st.WinRate }, look: func(r seatRow) look {
			sig := 0
			if r.dev != nil && r.dev.out(m.tol) {
				sig = sign(r.dev.d())
			}
			return sigLook(fmtPct, sig, r.st.LowN)
		}},
		{head: "ci95 low", val: func(r seatRow) any { return r.st.CI95[0] }, look: func(seatRow) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(r seatRow) any { return r.st.CI95[1] }, look: func(seatRow) look { return look{numFmt: fmtPct} }},
		{head: "expected", val: func(r seatRow) any { return r.expected }, look: func(seatRow) look { return look{numFmt: fmtPct} }},
		{head: "p (Holm)", val: func(r seatRow) any {
			if r.dev == nil {
				return nil
			}
			return r.dev.pAdj
		}, look: func(seatRow) look { return look{numFmt: fmtP} },
			doc: "the test against the tolerance band around the fair share, Holm-corrected across every seat and random-start turn-order position"},
		{head: "verdict", width: 12, val: func(r seatRow) any {
			if r.dev == nil {
				return nil
			}
			return m.devVerdict(r.dev)
		}},
		{head: "low n", val: func(r seatRow) any { return yes(r.st.LowN) }},
	}
	table(s, cols, rows)
}

// viewSheet writes a view's sheet as the report's own tables are written.
func viewSheet(b *book, vs *game.Sheet) {
	if b.err == nil {
		if idx, _ := b.f.GetSheetIndex(vs.Name); idx >= 0 {
			b.fail(fmt.Errorf("reports: a view's sheet %q has the name of another", vs.Name))
			return
		}
	}
	cols := make([]col[[]game.SheetCell], len(vs.Columns))
	for i, c := range vs.Columns {
		cols[i] = col[[]game.SheetCell]{head: c.Head, width: c.Width, doc: c.Doc,
			val: func(row []game.SheetCell) any {
				if i < len(row) {
					return row[i].Value
				}
				return nil
			},
			look: func(row []game.SheetCell) look { return lowLook(c.Format, i < len(row) && row[i].Low) }}
	}
	table(b.sheet(vs.Name), cols, vs.Rows)
}

func (m *model) xlsxGames(s *sheet) {
	g := m.rep.Game
	rounds := "rounds per game (mean)"
	if ln := m.lengthNote(); ln != nil && ln.Short != "" {
		rounds = "rounds per game (mean; " + ln.Short + ")"
	}
	rows := []kvRow{
		{"games", g.Games, fmtInt},
		{"decisions per game (mean)", g.DecisionsMean, fmtDec2},
		{"decisions per game (sd)", g.DecisionsSD, fmtDec2},
	}
	if pg := m.perGame(); pg != nil {
		rows = append(rows, pg...)
	} else {
		rows = append(rows, []kvRow{
			{rounds, g.RoundsMean, fmtDec2},
			{"rounds per game (sd)", g.RoundsSD, fmtDec2},
			{"deployment turns per round", g.DeployTurnsPerRound, fmtDec2},
			{"passes per game", g.PassesMean, fmtDec2},
			{"reshuffles per game", g.ReshufflesMean, fmtDec2},
		}...)
	}
	rows = append(rows, []kvRow{
		{m.say("margin of victory, VP (mean)"), g.MarginMean, fmtDec2},
		{m.say("margin of victory, VP (sd)"), g.MarginSD, fmtDec2},
		{"shared victories", g.SharedVictories, fmtInt},
		{"shared victory rate", g.SharedRate, fmtPct},
	}...)
	table(s, []col[kvRow]{
		{head: "metric", width: 60, val: func(r kvRow) any { return r.item }, doc: "a figure of whole games (docs/metrics.md, \"Games\")"},
		{head: "value", width: 14, val: func(r kvRow) any { return r.val }, look: func(r kvRow) look { return look{numFmt: r.nf} }, doc: "its value"},
	}, rows)
}

type binRow struct {
	measure string
	b       Bin
}

func (m *model) xlsxGameLengths(s *sheet, h *Histograms) {
	var rows []binRow
	for _, hs := range []struct {
		name string
		bins []Bin
	}{{"rounds", m.roundBins(h)}, {"decisions", h.Decisions}, {m.say("margin of victory (VP)"), h.Margin}} {
		for _, b := range hs.bins {
			rows = append(rows, binRow{hs.name, b})
		}
	}
	rulesRounds := ""
	if ln := m.lengthNote(); ln != nil {
		rulesRounds = ln.Sheet
	}
	table(s, []col[binRow]{
		{head: "measure", width: 24, val: func(r binRow) any { return r.measure },
			doc: "what the histogram counts games by: rounds played, decisions taken by the bots, or the winner's lead in victory points (0 for a shared victory)." + rulesRounds},
		{head: "from", val: func(r binRow) any { return r.b.From }, doc: "the bin's smallest value"},
		{head: "to", val: func(r binRow) any { return r.b.To }, doc: "the bin's largest value"},
		{head: "games", val: func(r binRow) any { return r.b.Games }, doc: "games whose value lies in [from, to]"},
	}, rows)
}

func (m *model) histograms() *Histograms {
	if m.d.Meta == nil {
		return nil
	}
	return m.d.Meta.Histograms
}

// --- paired analyses -----------------------------------------------------------

func pairedCols[T any](get func(T) *analysis.PairedTest) []col[T] {
	return []col[T]{
		{head: "paired games", val: func(t T) any { return get(t).Games }},
		{head: "changed", val: func(t T) any { return get(t).Changed }},
		{head: "delta", val: func(t T) any { return get(t).Delta }, look: func(t T) look {
			p := get(t)
			sig := 0
			if p.Significant {
				sig = sign(p.Delta)
			}
			return sigLook(fmtPts, sig, p.LowN)
		}},
		{head: "ci95 low", val: func(t T) any { return get(t).CI95[0] }, look: func(T) look { return look{numFmt: fmtPts} }},
		{head: "ci95 high", val: func(t T) any { return get(t).CI95[1] }, look: func(T) look { return look{numFmt: fmtPts} }},
		{head: "unpaired ci95 low", val: func(t T) any { return get(t).UnpairedCI95[0] }, look: func(T) look { return look{numFmt: fmtPts} }},
		{head: "unpaired ci95 high", val: func(t T) any { return get(t).UnpairedCI95[1] }, look: func(T) look { return look{numFmt: fmtPts} }},
		{head: "p", val: func(t T) any { return get(t).P }, look: func(T) look { return look{numFmt: fmtP} }},
		{head: "p adjusted", val: func(t T) any { return get(t).PAdj }, look: func(T) look { return look{numFmt: fmtP} }},
		{head: "test", val: func(t T) any { return get(t).Test }},
		{head: "significant", val: func(t T) any { return yes(get(t).Significant) }},
		{head: "low n", val: func(t T) any { return yes(get(t).LowN) }},
	}
}

func (m *model) xlsxImpact(s *sheet) {
	im := m.d.Impact
	cols := []col[analysis.CardImpact]{
		{head: "rank", width: 6, val: func(c analysis.CardImpact) any { return c.Rank }},
		{head: "id", width: 20, val: func(c analysis.CardImpact) any { return c.ID }},
		{head: "name", width: 24, val: func(c analysis.CardImpact) any { return c.Name }},
		{head: "faction", val: func(c analysis.CardImpact) any { return c.Faction }},
		{head: "type", val: func(c analysis.CardImpact) any { return c.Type }},
		{head: "kind", width: 6, val: func(c analysis.CardImpact) any { return c.Kind }},
		{head: "power", width: 7, val: func(c analysis.CardImpact) any { return c.Power }},
		{head: "copies", width: 7, val: func(c analysis.CardImpact) any { return c.Copies }},
		{head: "with card", val: func(c analysis.CardImpact) any { return c.WithCard }, look: func(analysis.CardImpact) look { return look{numFmt: fmtPct} }},
		{head: "ablated", val: func(c analysis.CardImpact) any { return c.Ablated }, look: func(analysis.CardImpact) look { return look{numFmt: fmtPct} }},
	}
	cols = append(cols, pairedCols(func(c analysis.CardImpact) *analysis.PairedTest { return &c.PairedTest })...)
	cols = append(cols,
		col[analysis.CardImpact]{head: "variant", width: 40, val: func(c analysis.CardImpact) any { return c.Variant }},
		col[analysis.CardImpact]{head: "skipped", width: 30, val: func(c analysis.CardImpact) any { return c.Skipped }},
		col[analysis.CardImpact]{head: "file", val: func(c analysis.CardImpact) any { return c.File }},
		col[analysis.CardImpact]{head: "line", width: 6, val: func(c analysis.CardImpact) any { return c.Line }},
	)
	// A skipped card was never played: its figures stay empty, as in JSON.
	for i := range cols {
		if skippedHeads[cols[i].head] {
			val := cols[i].val
			cols[i].val = func(c analysis.CardImpact) any {
				if c.Skipped != "" {
					return nil
				}
				return val(c)
			}
		}
	}
	table(s, cols, im.Cards)
}

// skippedHeads are the impact columns a skipped card has no figure for.
var skippedHeads = map[string]bool{"with card": true, "ablated": true, "delta": true, "ci95 low": true,
	"ci95 high": true, "unpaired ci95 low": true, "unpaired ci95 high": true, "p": true, "p adjusted": true}

func (m *model) xlsxSweep(s *sheet) {
	sw := m.d.Sweep
	type pt struct {
		p analysis.SweepPoint
		f analysis.FactionDelta
	}
	var rows []pt
	for _, p := range sw.Points {
		for _, f := range p.Factions {
			rows = append(rows, pt{p, f})
		}
	}
	cols := []col[pt]{
		{head: sw.Field, val: func(r pt) any { return r.p.Value }, doc: "the value swept"},
		{head: "games", val: func(r pt) any { return r.p.Games }},
		{head: "distance", val: func(r pt) any { return r.p.Distance }, look: func(pt) look { return look{numFmt: fmtDec3} }},
		{head: "faction", val: func(r pt) any { return r.f.Faction }},
		{head: "win rate", val: func(r pt) any { return r.f.Variant }, look: func(pt) look { return look{numFmt: fmtPct} }},
		{head: "ci95 low", val: func(r pt) any { return r.f.VariantCI95[0] }, look: func(pt) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(r pt) any { return r.f.VariantCI95[1] }, look: func(pt) look { return look{numFmt: fmtPct} }},
		{head: "at current", val: func(r pt) any { return r.f.Base }, look: func(pt) look { return look{numFmt: fmtPct} }},
	}
	cols = append(cols, pairedCols(func(r pt) *analysis.PairedTest { return &r.f.PairedTest })...)
	table(s, cols, rows)
}

func (m *model) xlsxDiffChanges(s *sheet) {
	table(s, []col[changeLine]{
		{head: "kind", val: func(c changeLine) any { return c.Kind }, doc: "rules, faction, card or target"},
		{head: "id", width: 20, val: func(c changeLine) any { return c.ID }},
		{head: "name", width: 24, val: func(c changeLine) any { return c.Name }},
		{head: "change", val: func(c changeLine) any { return c.Change }, doc: "added, removed or changed"},
		{head: "field", val: func(c changeLine) any { return c.Field }, doc: "the field changed (power, copies, effect, a rule parameter, …)"},
		{head: "base", width: 24, val: func(c changeLine) any { return c.Old }, doc: "its value in the base ruleset (--base)"},
		{head: "variant", width: 24, val: func(c changeLine) any { return c.New }, doc: "its value in the ruleset reported on"},
		{head: "where", width: 24, val: func(c changeLine) any { return c.Pos }, doc: "file:line in the variant ruleset (in the base one for a removal)"},
	}, m.changes())
}

func (m *model) xlsxDiffFactions(s *sheet) {
	pctL := func(analysis.FactionDelta) look { return look{numFmt: fmtPct} }
	cols := []col[analysis.FactionDelta]{
		{head: "faction", val: func(f analysis.FactionDelta) any { return f.Faction }},
		{head: "base", val: func(f analysis.FactionDelta) any { return f.Base }, look: pctL, doc: "the faction's win share under the base ruleset, on the paired games"},
		{head: "base ci95 low", val: func(f analysis.FactionDelta) any { return f.BaseCI95[0] }, look: pctL},
		{head: "base ci95 high", val: func(f analysis.FactionDelta) any { return f.BaseCI95[1] }, look: pctL},
		{head: "variant", val: func(f analysis.FactionDelta) any { return f.Variant }, look: pctL, doc: "its win share under the ruleset reported on"},
		{head: "variant ci95 low", val: func(f analysis.FactionDelta) any { return f.VariantCI95[0] }, look: pctL},
		{head: "variant ci95 high", val: func(f analysis.FactionDelta) any { return f.VariantCI95[1] }, look: pctL},
	}
	cols = append(cols, pairedCols(func(f analysis.FactionDelta) *analysis.PairedTest { return &f.PairedTest })...)
	table(s, cols, m.d.Diff.Factions)
}

func (m *model) xlsxDiffCards(s *sheet) {
	d := func(get func(c analysis.CardDelta) analysis.ValueDelta, nf string) col[analysis.CardDelta] {
		return col[analysis.CardDelta]{val: func(c analysis.CardDelta) any { return get(c).Delta }, look: func(analysis.CardDelta) look { return look{numFmt: nf} }}
	}
	named := func(c col[analysis.CardDelta], head string) col[analysis.CardDelta] { c.head = head; return c }
	cols := []col[analysis.CardDelta]{
		{head: "card", width: 20, val: func(c analysis.CardDelta) any { return c.ID }},
		{head: "faction", val: func(c analysis.CardDelta) any { return c.Faction }},
		{head: "name", width: 24, val: func(c analysis.CardDelta) any { return c.Name }},
		{head: "changed", val: func(c analysis.CardDelta) any { return yes(c.Changed) }, doc: "yes when the card's definition differs between the rulesets"},
		named(d(func(c analysis.CardDelta) analysis.ValueDelta { return c.PlayRate }, fmtPts), "play rate Δ"),
		named(d(func(c analysis.CardDelta) analysis.ValueDelta { return c.OHWR }, fmtPts), "oh wr Δ"),
		named(d(func(c analysis.CardDelta) analysis.ValueDelta { return c.RowWinRate }, fmtPts), "row win rate Δ"),
		named(d(func(c analysis.CardDelta) analysis.ValueDelta { return c.MeanPower }, "+0.00;-0.00;0.00"), "mean power Δ"),
		named(d(func(c analysis.CardDelta) analysis.ValueDelta { return c.FiredPerGame }, "+0.00;-0.00;0.00"), "fired per game Δ"),
	}
	table(s, cols, m.d.Diff.Cards)
}

type skillRow struct {
	faction string
	l       analysis.SkillShare
}

func (m *model) xlsxSkill(s *sheet) {
	var rows []skillRow
	for _, f := range m.d.Skill.Factions {
		for _, l := range f.Levels {
			rows = append(rows, skillRow{f.Faction, l})
		}
	}
	pctL := func(skillRow) look { return look{numFmt: fmtPct} }
	table(s, []col[skillRow]{
		{head: "faction", val: func(r skillRow) any { return r.faction }},
		{head: "level", width: 16, val: func(r skillRow) any { return r.l.Level }, doc: "the bot every seat was played by"},
		{head: "win rate", val: func(r skillRow) any { return r.l.WinRate }, look: func(r skillRow) look { return lowLook(fmtPct, r.l.LowN) }},
		{head: "ci95 low", val: func(r skillRow) any { return r.l.CI95[0] }, look: pctL},
		{head: "ci95 high", val: func(r skillRow) any { return r.l.CI95[1] }, look: pctL},
		{head: "rank", val: func(r skillRow) any { return r.l.Rank }, doc: "the faction's rank at that level (1 = the highest win share)"},
	}, rows)
}

func (m *model) xlsxSkillRanks(s *sheet) {
	table(s, []col[analysis.RankChange]{
		{head: "kind", val: func(c analysis.RankChange) any { return c.Kind }, doc: "faction or card"},
		{head: "id", width: 20, val: func(c analysis.RankChange) any { return c.ID }},
		{head: "faction", val: func(c analysis.RankChange) any { return c.Faction }},
		{head: "from", val: func(c analysis.RankChange) any { return c.From }, doc: "the lower skill level"},
		{head: "to", val: func(c analysis.RankChange) any { return c.To }, doc: "the higher skill level"},
		{head: "rank from", val: func(c analysis.RankChange) any { return c.RankFrom }},
		{head: "rank to", val: func(c analysis.RankChange) any { return c.RankTo }},
		{head: "significant", val: func(c analysis.RankChange) any { return yes(c.Significant) }},
		{head: "note", width: 40, val: func(c analysis.RankChange) any { return c.Note }},
	}, m.d.Skill.RankChanges)
}

type stepRow struct {
	from, to string
	f        analysis.FactionDelta
}

func (m *model) xlsxSkillSteps(s *sheet) {
	var rows []stepRow
	for _, st := range m.d.Skill.Steps {
		for _, f := range st.Factions {
			rows = append(rows, stepRow{st.From, st.To, f})
		}
	}
	cols := []col[stepRow]{
		{head: "from", val: func(r stepRow) any { return r.from }, doc: "the lower skill level"},
		{head: "to", val: func(r stepRow) any { return r.to }, doc: "the higher skill level"},
		{head: "faction", val: func(r stepRow) any { return r.f.Faction }},
	}
	cols = append(cols, pairedCols(func(r stepRow) *analysis.PairedTest { return &r.f.PairedTest })...)
	table(s, cols, rows)
}

// unitColumns names the Cards sheet's value columns in the game's unit of
// value: Alpha Tactics' "value power" in power points; a game whose unit is
// a step of its currency (game.Unit.Scale: Spacetrace's 50 MP) in that
// currency, "value MP", so that the sheet says what the page says ("plays
// like a 421-MP card") and a card's printed face is its printed MP, not a
// count of steps.
type unitColumns struct {
	short, value, price, face                            string
	valueDoc, lowDoc, highDoc, priceDoc, faceDoc, numFmt string
	scale                                                float64
}

func (m *model) unitColumns() unitColumns {
	u := m.unit()
	if u.Short == "" || u.Short == "power" {
		// The first game's heads, defined in columnDocs.
		return unitColumns{short: "power", value: "value power", price: "price of a power point", face: "power",
			numFmt: fmtDec2, scale: 1}
	}
	if k := m.unitScale(); k > 1 {
		c := u.Currency
		step := fmt.Sprintf("%d-%s step", k, c)
		return unitColumns{short: c, value: "value " + c, price: "price of a " + step, face: c,
			valueDoc: fmt.Sprintf("value pts ÷ the price of a %s (the \"price of a %s\" column), times %d: the card's worth in %s (\"plays like a 420-%s card\"); the experiment moves cards by one %s, so read it to the nearest few dozen %s at best", step, step, k, c, c, step, c),
			lowDoc:   "its 95% interval, low end (the price's uncertainty included)",
			highDoc:  "its 95% interval, high end",
			priceDoc: fmt.Sprintf("the win-share gain when one copy of one card is worth %d %s more to its holder (the experiment's unit move): the unit value %s is read in", k, c, c),
			faceDoc:  fmt.Sprintf("the card's printed value in %s (what it costs, or what it gives)", c),
			numFmt:   fmtInt, scale: float64(k)}
	}
	return unitColumns{short: u.Short, value: "value " + u.Short, price: "price of a " + u.Name, face: u.Short,
		valueDoc: fmt.Sprintf("value pts ÷ the price of a %s (the \"price of a %s\" column): the card's worth in %s", u.Name, u.Name, u.Plural),
		lowDoc:   "its 95% interval, low end (the price's uncertainty included)",
		highDoc:  "its 95% interval, high end",
		priceDoc: fmt.Sprintf("the win-share gain from +1 %s on one copy of one card: the unit value %s is read in", u.Short, u.Short),
		faceDoc:  fmt.Sprintf("the card's printed %s", u.Short),
		numFmt:   fmtDec2, scale: 1}
}
