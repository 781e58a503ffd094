package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/cardlab/cardlab/analysis"
)

// Sheet names of the workbook, in order; Impact, Sweep, Diff and Skill are
// present only when the result holds that analysis.
const (
	SheetSummary  = "Summary"
	SheetFactions = "Factions"
	SheetMatchups = "Matchups"
	SheetSeats    = "Seats"
	SheetCards    = "Cards"
	SheetTargets  = "Targets"
	SheetEffects  = "Effects"
	SheetGames    = "Games"
	SheetImpact   = "Impact"
	SheetSweep    = "Sweep"
	SheetDiff     = "Diff"
	SheetSkill    = "Skill"
)

// ChartTitle is the title of the workbook's chart (on the Factions sheet).
const ChartTitle = "Faction win shares"

// Number formats and cell looks of the workbook.
const (
	fmtPct   = "0.0%"
	fmtPts   = "+0.0%;-0.0%;0.0%"
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
}

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

// header writes bold column heads into row r from column col.
func (s *sheet) header(col, r int, heads ...string) {
	for i, h := range heads {
		s.put(col+i, r, h, look{bold: true, fill: fillHead})
	}
}

func (s *sheet) widths(ws ...float64) {
	for i, w := range ws {
		c := colName(i + 1)
		s.b.fail(s.b.f.SetColWidth(s.name, c, c, w))
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
}

// table writes items as a table with a header row from row 1, an
// autofilter and a frozen header; it returns the last row written.
func table[T any](s *sheet, cols []col[T], items []T) int {
	for i, c := range cols {
		s.put(i+1, 1, c.head, look{bold: true, fill: fillHead, wrap: true})
		w := c.width
		if w == 0 {
			w = 12
		}
		cn := colName(i + 1)
		s.b.fail(s.b.f.SetColWidth(s.name, cn, cn, w))
	}
	for r, it := range items {
		for i, c := range cols {
			var l look
			if c.look != nil {
				l = c.look(it)
			}
			s.put(i+1, r+2, c.val(it), l)
		}
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
	f := excelize.NewFile()
	defer f.Close()
	b := &book{f: f, styles: map[look]int{}}
	b.fail(f.SetSheetName("Sheet1", SheetSummary))
	m.xlsxSummary(&sheet{b, SheetSummary})
	m.xlsxFactions(b.sheet(SheetFactions))
	m.xlsxMatchups(b.sheet(SheetMatchups))
	m.xlsxSeats(b.sheet(SheetSeats))
	m.xlsxCards(b.sheet(SheetCards))
	m.xlsxTargets(b.sheet(SheetTargets))
	m.xlsxEffects(b.sheet(SheetEffects))
	m.xlsxGames(b.sheet(SheetGames))
	if m.d.Impact != nil {
		m.xlsxImpact(b.sheet(SheetImpact))
	}
	if m.d.Sweep != nil {
		m.xlsxSweep(b.sheet(SheetSweep))
	}
	if m.d.Diff != nil {
		m.xlsxDiff(b.sheet(SheetDiff))
	}
	if m.d.Skill != nil {
		m.xlsxSkill(b.sheet(SheetSkill))
	}
	f.SetActiveSheet(0)
	b.fail(f.SetDocProps(&excelize.DocProperties{Title: "Balance report: " + m.title(), Creator: "cardlab " + m.rep.ToolVersion,
		Description: m.describe()}))
	if b.err != nil {
		return b.err
	}
	_, err := f.WriteTo(w)
	return err
}

func (m *model) xlsxSummary(s *sheet) {
	r := m.rep
	c := r.Config
	var lineups []string
	for _, l := range c.Matchups {
		lineups = append(lineups, strings.Join(l, " vs "))
	}
	rows := [][2]any{
		{"Balance report", m.title()},
		{"Ruleset", r.Ruleset.Name},
		{"Version", r.Ruleset.Version},
		{"Ruleset hash (SHA-256)", r.Ruleset.Hash},
		{"Tool version", r.ToolVersion},
		{"Seed", c.Seed},
		{"Bots", strings.Join(c.Bots, ", ")},
		{"Lineups", strings.Join(lineups, "; ")},
		{"Games per lineup", c.Games},
		{"Games played", r.Games},
		{"Minimum sample", c.MinSample},
		{"Partial (interrupted)", yes(r.Partial)},
		{"Simulated", m.generated()},
		{"Rendered", m.now.Format("2006-01-02T15:04:05Z")},
		{"Reproduce with", m.command()},
		{"Cards ranked by", m.metric.Label + ": " + m.metric.Long},
	}
	for i, kv := range rows {
		s.put(1, i+1, kv[0], look{bold: true})
		s.put(2, i+1, kv[1], look{})
	}
	s.widths(26, 110)
	n := len(rows) + 2
	s.put(1, n, "Findings", look{bold: true, fill: fillHead})
	s.put(2, n, "", look{fill: fillHead})
	for i, fd := range m.findings() {
		s.put(1, n+1+i, fd.Kind, look{})
		s.put(2, n+1+i, fd.Text, look{})
	}
}

func (m *model) xlsxFactions(s *sheet) {
	cols := []col[*facView]{
		{head: "faction", width: 14, val: func(f *facView) any { return f.ID }},
		{head: "name", width: 18, val: func(f *facView) any { return f.Name }},
		{head: "games", val: func(f *facView) any { return f.Stats.Games }},
		{head: "wins", val: func(f *facView) any { return f.Stats.Wins }, look: func(*facView) look { return look{numFmt: "0.##"} }},
		{head: "win rate", val: func(f *facView) any { return f.Stats.WinRate }, look: func(f *facView) look {
			e := m.expected(f.ID)
			return sigLook(fmtPct, ciSig([2]float64{f.Stats.CI95[0] - e, f.Stats.CI95[1] - e}), f.Stats.LowN)
		}},
		{head: "ci95 low", val: func(f *facView) any { return f.Stats.CI95[0] }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(f *facView) any { return f.Stats.CI95[1] }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "fair share", val: func(f *facView) any { return m.expected(f.ID) }, look: func(*facView) look { return look{numFmt: fmtPct} }},
		{head: "mean VP", val: func(f *facView) any { return f.Stats.MeanVP }, look: func(*facView) look { return look{numFmt: fmtDec2} }},
		{head: "VP sd", val: func(f *facView) any { return f.Stats.VPSD }, look: func(*facView) look { return look{numFmt: fmtDec2} }},
		{head: "low n", val: func(f *facView) any { return yes(f.Stats.LowN) }},
	}
	last := table(s, cols, m.factions)
	if len(m.factions) == 0 {
		return
	}
	ref := func(c string) string { return fmt.Sprintf("%s!$%s$2:$%s$%d", s.name, c, c, last) }
	lo := 0.0
	ch := &excelize.Chart{
		Type: excelize.Col,
		Series: []excelize.ChartSeries{{
			Name: s.name + "!$E$1", Categories: ref("B"), Values: ref("E"),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#4E79A7"}},
		}},
		Title:     []excelize.RichTextRun{{Text: ChartTitle}},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		PlotArea:  excelize.ChartPlotArea{ShowVal: true},
		XAxis:     excelize.ChartAxis{},
		YAxis:     excelize.ChartAxis{Minimum: &lo, MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}},
		Dimension: excelize.ChartDimension{Width: 640, Height: 360},
	}
	fair := &excelize.Chart{
		Type: excelize.Line,
		Series: []excelize.ChartSeries{{
			Name: s.name + "!$H$1", Categories: ref("B"), Values: ref("H"),
			Line: excelize.ChartLine{Width: 1.5}, Marker: excelize.ChartMarker{Symbol: "none"},
		}},
	}
	s.b.fail(s.b.f.AddChart(s.name, cellName(1, last+3), ch, fair))
}

func (m *model) xlsxMatchups(s *sheet) {
	n := len(m.factions)
	s.put(1, 1, "win rate of the row's faction against the column's (2-player lineups)", look{bold: true})
	for i, f := range m.factions {
		s.put(2+i, 2, f.Name, look{bold: true, fill: fillHead})
		s.put(1, 3+i, f.Name, look{bold: true, fill: fillHead})
	}
	any2 := false
	for _, mu := range m.rep.Matchups {
		if len(mu.Lineup) != 2 {
			continue
		}
		a, c := slices.IndexFunc(m.factions, func(f *facView) bool { return f.ID == mu.Lineup[0] }),
			slices.IndexFunc(m.factions, func(f *facView) bool { return f.ID == mu.Lineup[1] })
		if a < 0 || c < 0 {
			continue
		}
		any2 = true
		s.put(2+c, 3+a, mu.Factions[mu.Lineup[0]].WinRate, look{numFmt: fmtPct})
		s.put(2+a, 3+c, mu.Factions[mu.Lineup[1]].WinRate, look{numFmt: fmtPct})
	}
	if n > 0 && any2 {
		rng := cellName(2, 3) + ":" + cellName(1+n, 2+n)
		s.b.fail(s.b.f.SetConditionalFormat(s.name, rng, []excelize.ConditionalFormatOptions{{
			Type: "3_color_scale", Criteria: "=",
			MinType: "num", MinValue: "0.3", MinColor: "#D7301F",
			MidType: "num", MidValue: "0.5", MidColor: "#FFFFFF",
			MaxType: "num", MaxValue: "0.7", MaxColor: "#2B8CBE",
		}}))
	}
	s.widths(18)
	for i := range m.factions {
		cn := colName(2 + i)
		s.b.fail(s.b.f.SetColWidth(s.name, cn, cn, 14))
	}
	r := n + 5
	s.put(1, r-1, "every lineup", look{bold: true})
	s.header(1, r, "lineup", "games", "faction", "wins", "win rate", "ci95 low", "ci95 high", "low n")
	r++
	for _, mu := range m.rep.Matchups {
		for _, id := range mu.Lineup {
			st := mu.Factions[id]
			s.put(1, r, strings.Join(mu.Lineup, " vs "), look{})
			s.put(2, r, mu.Games, look{})
			s.put(3, r, id, look{})
			s.put(4, r, st.Wins, look{numFmt: "0.##"})
			e := 1 / float64(len(mu.Lineup))
			s.put(5, r, st.WinRate, sigLook(fmtPct, ciSig([2]float64{st.CI95[0] - e, st.CI95[1] - e}), st.LowN))
			s.put(6, r, st.CI95[0], look{numFmt: fmtPct})
			s.put(7, r, st.CI95[1], look{numFmt: fmtPct})
			s.put(8, r, yes(st.LowN), look{})
			r++
		}
	}
}

func (m *model) xlsxSeats(s *sheet) {
	type seatRow struct {
		players  int
		kind     string
		pos      int
		expected float64
		st       analysis.WinStats
	}
	var rows []seatRow
	for _, ss := range m.rep.Seats {
		for _, st := range ss.Seats {
			rows = append(rows, seatRow{ss.Players, "seat", st.Seat, ss.Expected, st.WinStats})
		}
		for _, st := range ss.StartOrder {
			rows = append(rows, seatRow{ss.Players, "turn order from the start player", st.Seat, ss.Expected, st.WinStats})
		}
	}
	cols := []col[seatRow]{
		{head: "players", val: func(r seatRow) any { return r.players }},
		{head: "by", width: 30, val: func(r seatRow) any { return r.kind }},
		{head: "position", val: func(r seatRow) any { return r.pos }},
		{head: "games", val: func(r seatRow) any { return r.st.Games }},
		{head: "wins", val: func(r seatRow) any { return r.st.Wins }, look: func(seatRow) look { return look{numFmt: "0.##"} }},
		{head: "win rate", val: func(r seatRow) any { return r.st.WinRate }, look: func(r seatRow) look {
			return sigLook(fmtPct, ciSig([2]float64{r.st.CI95[0] - r.expected, r.st.CI95[1] - r.expected}), r.st.LowN)
		}},
		{head: "ci95 low", val: func(r seatRow) any { return r.st.CI95[0] }, look: func(seatRow) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(r seatRow) any { return r.st.CI95[1] }, look: func(seatRow) look { return look{numFmt: fmtPct} }},
		{head: "expected", val: func(r seatRow) any { return r.expected }, look: func(seatRow) look { return look{numFmt: fmtPct} }},
		{head: "low n", val: func(r seatRow) any { return yes(r.st.LowN) }},
	}
	table(s, cols, rows)
}

func (m *model) xlsxCards(s *sheet) {
	pct := func(v func(*cardView) float64) func(*cardView) any { return func(c *cardView) any { return v(c) } }
	plain := func(nf string) func(*cardView) look { return func(*cardView) look { return look{numFmt: nf} } }
	cols := []col[*cardView]{
		{head: "id", width: 20, val: func(c *cardView) any { return c.ID }},
		{head: "name", width: 24, val: func(c *cardView) any { return c.Info.Name }},
		{head: "faction", val: func(c *cardView) any { return c.Faction }},
		{head: "type", val: func(c *cardView) any { return c.Info.Type }},
		{head: "kind", width: 6, val: func(c *cardView) any { return c.Info.Kind }},
		{head: "power", width: 7, val: func(c *cardView) any {
			if !c.HasFace {
				return nil
			}
			return c.Info.Power
		}},
		{head: "copies", width: 7, val: func(c *cardView) any { return c.Copies }},
		{head: "effect", width: 18, val: func(c *cardView) any { return c.Info.Effect }},
		{head: "games", val: func(c *cardView) any { return c.Games }},
		{head: "drawn", val: func(c *cardView) any { return c.Drawn }},
		{head: "not drawn", val: func(c *cardView) any { return c.NotDrawn }, look: func(c *cardView) look { return lowLook(fmtGen, c.LowN) }},
		{head: "played", val: func(c *cardView) any { return c.Played }},
		{head: "play rate", val: pct(func(c *cardView) float64 { return c.PlayRate }), look: plain(fmtPct)},
		{head: "gih wr", val: pct(func(c *cardView) float64 { return c.GIHWR }), look: plain(fmtPct)},
		{head: "gns wr", val: pct(func(c *cardView) float64 { return c.GNSWR }), look: func(c *cardView) look { return lowLook(fmtPct, c.LowN) }},
		{head: "iwd", val: pct(func(c *cardView) float64 { return c.IWD }), look: func(c *cardView) look { return sigLook(fmtPts, ciSig(c.IWDCI95), c.LowN) }},
		{head: "iwd ci95 low", val: pct(func(c *cardView) float64 { return c.IWDCI95[0] }), look: func(c *cardView) look { return lowLook(fmtPts, c.LowN) }},
		{head: "iwd ci95 high", val: pct(func(c *cardView) float64 { return c.IWDCI95[1] }), look: func(c *cardView) look { return lowLook(fmtPts, c.LowN) }},
		{head: "played wr", val: pct(func(c *cardView) float64 { return c.PlayedWR }), look: plain(fmtPct)},
		{head: "opening", val: func(c *cardView) any { return c.Opening }},
		{head: "not opening", val: func(c *cardView) any { return c.NotOpening }},
		{head: "oh wr", val: pct(func(c *cardView) float64 { return c.OHWR }), look: plain(fmtPct)},
		{head: "not oh wr", val: pct(func(c *cardView) float64 { return c.NotOHWR }), look: plain(fmtPct)},
		{head: "oh iwd", val: pct(func(c *cardView) float64 { return c.OHIWD }), look: func(c *cardView) look { return sigLook(fmtPts, ciSig(c.OHIWDCI95), c.OHLowN) }},
		{head: "oh iwd ci95 low", val: pct(func(c *cardView) float64 { return c.OHIWDCI95[0] }), look: func(c *cardView) look { return lowLook(fmtPts, c.OHLowN) }},
		{head: "oh iwd ci95 high", val: pct(func(c *cardView) float64 { return c.OHIWDCI95[1] }), look: func(c *cardView) look { return lowLook(fmtPts, c.OHLowN) }},
		{head: "placed", val: func(c *cardView) any { return c.Placed }},
		{head: "row win rate", val: pct(func(c *cardView) float64 { return c.RowWinRate }), look: plain(fmtPct)},
		{head: "scored", val: func(c *cardView) any { return c.Scored }},
		{head: "mean power", val: func(c *cardView) any { return c.MeanPower }, look: plain(fmtDec2)},
		{head: "fired", val: func(c *cardView) any { return c.Fired }},
		{head: "blocked", val: func(c *cardView) any { return c.Blocked }},
		{head: "fizzled", val: func(c *cardView) any { return c.Fizzled }},
		{head: "low n", width: 7, val: func(c *cardView) any { return yes(c.LowN) }},
	}
	if m.d.Impact != nil {
		cols = append(cols,
			col[*cardView]{head: "impact", val: func(c *cardView) any {
				if c.Impact == nil {
					return nil
				}
				return c.Impact.Delta
			}, look: func(c *cardView) look {
				if c.Impact == nil {
					return look{}
				}
				sig := 0
				if c.Impact.Significant {
					sig = sign(c.Impact.Delta)
				}
				return sigLook(fmtPts, sig, c.Impact.LowN)
			}},
			col[*cardView]{head: "impact ci95 low", val: func(c *cardView) any {
				if c.Impact == nil {
					return nil
				}
				return c.Impact.CI95[0]
			}, look: plain(fmtPts)},
			col[*cardView]{head: "impact ci95 high", val: func(c *cardView) any {
				if c.Impact == nil {
					return nil
				}
				return c.Impact.CI95[1]
			}, look: plain(fmtPts)},
		)
	}
	cols = append(cols, col[*cardView]{head: "text", width: 60, val: func(c *cardView) any { return c.Info.Text }})
	table(s, cols, m.cards)
}

func (m *model) xlsxTargets(s *sheet) {
	ts := m.rep.Targets
	cols := []col[analysis.TargetStats]{
		{head: "id", width: 20, val: func(t analysis.TargetStats) any { return t.ID }},
		{head: "name", width: 24, val: func(t analysis.TargetStats) any { return t.Name }},
		{head: "type", val: func(t analysis.TargetStats) any { return m.targets[t.ID].Type }},
		{head: "affiliation", val: func(t analysis.TargetStats) any { return m.targets[t.ID].Affiliation }},
		{head: "laid", val: func(t analysis.TargetStats) any { return t.Laid }},
		{head: "won", val: func(t analysis.TargetStats) any { return t.Won }},
		{head: "negotiated", val: func(t analysis.TargetStats) any { return t.Negotiated }},
		{head: "unclaimed", val: func(t analysis.TargetStats) any { return t.Unclaimed }},
		{head: "captured", val: func(t analysis.TargetStats) any { return t.Captured }, look: func(t analysis.TargetStats) look { return lowLook(fmtGen, t.LowN) }},
		{head: "capture rate", val: func(t analysis.TargetStats) any { return t.CaptureRate }, look: func(analysis.TargetStats) look { return look{numFmt: fmtPct} }},
		{head: "mean margin", val: func(t analysis.TargetStats) any { return t.MeanMargin }, look: func(analysis.TargetStats) look { return look{numFmt: fmtDec2} }},
		{head: "margin sd", val: func(t analysis.TargetStats) any { return t.MarginSD }, look: func(analysis.TargetStats) look { return look{numFmt: fmtDec2} }},
		{head: "tie rate", val: func(t analysis.TargetStats) any { return t.TieRate }, look: func(analysis.TargetStats) look { return look{numFmt: fmtPct} }},
		{head: "low n", width: 7, val: func(t analysis.TargetStats) any { return yes(t.LowN) }},
	}
	for _, f := range m.factions {
		id := f.ID
		cols = append(cols, col[analysis.TargetStats]{head: id + " share", val: func(t analysis.TargetStats) any { return t.Captures[id].Share },
			look: func(analysis.TargetStats) look { return look{numFmt: fmtPct} }})
	}
	table(s, cols, ts)
}

func (m *model) xlsxEffects(s *sheet) {
	var rows []*cardView
	for _, c := range m.cards {
		if c.Info.Kind != "N" || c.Fired+c.Blocked+c.Fizzled > 0 {
			rows = append(rows, c)
		}
	}
	per := func(n int64, c *cardView) any {
		if c.Games == 0 {
			return 0.0
		}
		return float64(n) / float64(c.Games)
	}
	share := func(n, of int64) any {
		if of == 0 {
			return 0.0
		}
		return float64(n) / float64(of)
	}
	cols := []col[*cardView]{
		{head: "card", width: 20, val: func(c *cardView) any { return c.ID }},
		{head: "name", width: 24, val: func(c *cardView) any { return c.Info.Name }},
		{head: "faction", val: func(c *cardView) any { return c.Faction }},
		{head: "kind", width: 6, val: func(c *cardView) any { return c.Info.Kind }},
		{head: "handler", width: 20, val: func(c *cardView) any { return c.Info.Effect }},
		{head: "fired", val: func(c *cardView) any { return c.Fired }},
		{head: "blocked", val: func(c *cardView) any { return c.Blocked }},
		{head: "fizzled", val: func(c *cardView) any { return c.Fizzled }},
		{head: "fired per game", val: func(c *cardView) any { return per(c.Fired, c) }, look: func(*cardView) look { return look{numFmt: fmtDec3} }},
		{head: "blocked share", val: func(c *cardView) any { return share(c.Blocked, c.Fired+c.Blocked) }, look: func(*cardView) look { return look{numFmt: fmtPct} }},
		{head: "fizzled share of fired", val: func(c *cardView) any { return share(c.Fizzled, c.Fired) }, look: func(*cardView) look { return look{numFmt: fmtPct} }},
	}
	table(s, cols, rows)
	// Per handler, beside the card table.
	type agg struct {
		handler                string
		cards                  int
		fired, blocked, fizzle int64
	}
	byH := map[string]*agg{}
	var order []string
	for _, c := range rows {
		h := c.Info.Effect
		if h == "" {
			h = "(unknown)"
		}
		a := byH[h]
		if a == nil {
			a = &agg{handler: h}
			byH[h] = a
			order = append(order, h)
		}
		a.cards++
		a.fired += c.Fired
		a.blocked += c.Blocked
		a.fizzle += c.Fizzled
	}
	slices.Sort(order)
	c0 := len(cols) + 2
	s.put(c0, 1, "per handler", look{bold: true})
	s.header(c0, 2, "handler", "cards", "fired", "blocked", "fizzled", "blocked share", "fizzled share of fired")
	for i := 0; i < 7; i++ {
		cn := colName(c0 + i)
		s.b.fail(s.b.f.SetColWidth(s.name, cn, cn, 14))
	}
	for i, h := range order {
		a := byH[h]
		r := 3 + i
		s.put(c0, r, a.handler, look{})
		s.put(c0+1, r, a.cards, look{})
		s.put(c0+2, r, a.fired, look{})
		s.put(c0+3, r, a.blocked, look{})
		s.put(c0+4, r, a.fizzle, look{})
		s.put(c0+5, r, share(a.blocked, a.fired+a.blocked), look{numFmt: fmtPct})
		s.put(c0+6, r, share(a.fizzle, a.fired), look{numFmt: fmtPct})
	}
}

func (m *model) xlsxGames(s *sheet) {
	g := m.rep.Game
	rows := [][3]any{
		{"games", g.Games, fmtInt},
		{"decisions per game (mean)", g.DecisionsMean, fmtDec2},
		{"decisions per game (sd)", g.DecisionsSD, fmtDec2},
		{"rounds per game (mean)", g.RoundsMean, fmtDec2},
		{"rounds per game (sd)", g.RoundsSD, fmtDec2},
		{"deployment turns per round", g.DeployTurnsPerRound, fmtDec2},
		{"passes per game", g.PassesMean, fmtDec2},
		{"reshuffles per game", g.ReshufflesMean, fmtDec2},
		{"margin of victory, VP (mean)", g.MarginMean, fmtDec2},
		{"margin of victory, VP (sd)", g.MarginSD, fmtDec2},
		{"shared victories", g.SharedVictories, fmtInt},
		{"shared victory rate", g.SharedRate, fmtPct},
	}
	s.header(1, 1, "metric", "value")
	for i, r := range rows {
		s.put(1, i+2, r[0], look{})
		s.put(2, i+2, r[1], look{numFmt: r[2].(string)})
	}
	s.widths(32, 14, 4, 14, 14, 14)
	s.freezeHeader()
	h := m.histograms()
	if h == nil {
		return
	}
	c := 4
	for _, hs := range []struct {
		name string
		bins []Bin
	}{{"rounds", h.Rounds}, {"decisions", h.Decisions}, {"margin of victory (VP)", h.Margin}} {
		s.put(c, 1, hs.name+" from", look{bold: true, fill: fillHead})
		s.put(c+1, 1, "to", look{bold: true, fill: fillHead})
		s.put(c+2, 1, "games", look{bold: true, fill: fillHead})
		for i, b := range hs.bins {
			s.put(c, i+2, b.From, look{})
			s.put(c+1, i+2, b.To, look{})
			s.put(c+2, i+2, b.Games, look{})
		}
		for i := 0; i < 3; i++ {
			cn := colName(c + i)
			s.b.fail(s.b.f.SetColWidth(s.name, cn, cn, 12))
		}
		c += 4
	}
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
		{head: "p", val: func(t T) any { return get(t).P }, look: func(T) look { return look{numFmt: "0.0000"} }},
		{head: "p adjusted", val: func(t T) any { return get(t).PAdj }, look: func(T) look { return look{numFmt: "0.0000"} }},
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
	last := table(s, cols, im.Cards)
	r := last + 2
	s.put(1, r, "mode", look{bold: true})
	s.put(2, r, im.Mode, look{})
	s.put(1, r+1, "alpha / correction", look{bold: true})
	s.put(2, r+1, fmt.Sprintf("%g, %s", im.Alpha, im.Correction), look{})
	s.put(1, r+2, "games", look{bold: true})
	s.put(2, r+2, fmt.Sprintf("%d baseline, %d with a card ablated (%d per lineup, bots %s, seed %d)",
		im.BaselineGames, im.VariantGames, im.Games, strings.Join(im.Bots, ","), im.Seed), look{})
}

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
		{head: sw.Field, val: func(r pt) any { return r.p.Value }},
		{head: "games", val: func(r pt) any { return r.p.Games }},
		{head: "distance", val: func(r pt) any { return r.p.Distance }, look: func(pt) look { return look{numFmt: fmtDec3} }},
		{head: "faction", val: func(r pt) any { return r.f.Faction }},
		{head: "win rate", val: func(r pt) any { return r.f.Variant }, look: func(pt) look { return look{numFmt: fmtPct} }},
		{head: "ci95 low", val: func(r pt) any { return r.f.VariantCI95[0] }, look: func(pt) look { return look{numFmt: fmtPct} }},
		{head: "ci95 high", val: func(r pt) any { return r.f.VariantCI95[1] }, look: func(pt) look { return look{numFmt: fmtPct} }},
		{head: "at current", val: func(r pt) any { return r.f.Base }, look: func(pt) look { return look{numFmt: fmtPct} }},
	}
	cols = append(cols, pairedCols(func(r pt) *analysis.PairedTest { return &r.f.PairedTest })...)
	last := table(s, cols, rows)
	r := last + 2
	what := sw.Field
	if sw.Card != nil {
		what = sw.Card.Name + " (" + sw.Card.ID + "): " + sw.Field
	}
	kv := [][2]any{{"swept", what}, {"current", sw.Current}, {"best", sw.Best}, {"target share", sw.Target}}
	if sw.Suggestion != nil {
		kv = append(kv, [2]any{"suggestion", sw.Suggestion.Text})
	}
	for i, x := range kv {
		s.put(1, r+i, x[0], look{bold: true})
		s.put(2, r+i, x[1], look{})
	}
}

func (m *model) xlsxDiff(s *sheet) {
	df := m.d.Diff
	s.put(1, 1, "base", look{bold: true})
	s.put(2, 1, df.Base.Name+" "+df.Base.Version+" ("+df.Base.Hash+")", look{})
	s.put(1, 2, "variant", look{bold: true})
	s.put(2, 2, df.Variant.Name+" "+df.Variant.Version+" ("+df.Variant.Hash+")", look{})
	s.put(1, 3, "verdict", look{bold: true})
	s.put(2, 3, df.Verdict, look{})
	r := 5
	s.put(1, r, "factions (paired: variant − base)", look{bold: true})
	r++
	heads := []string{"faction", "base", "base ci95 low", "base ci95 high", "variant", "variant ci95 low", "variant ci95 high",
		"delta", "ci95 low", "ci95 high", "p adjusted", "significant"}
	s.header(1, r, heads...)
	for _, f := range df.Factions {
		r++
		sig := 0
		if f.Significant {
			sig = sign(f.Delta)
		}
		vals := []any{f.Faction, f.Base, f.BaseCI95[0], f.BaseCI95[1], f.Variant, f.VariantCI95[0], f.VariantCI95[1],
			f.Delta, f.CI95[0], f.CI95[1], f.PAdj, yes(f.Significant)}
		for i, v := range vals {
			l := look{}
			switch {
			case i >= 1 && i <= 6:
				l.numFmt = fmtPct
			case i == 7:
				l = sigLook(fmtPts, sig, f.LowN)
			case i == 8 || i == 9:
				l.numFmt = fmtPts
			case i == 10:
				l.numFmt = "0.0000"
			}
			s.put(1+i, r, v, l)
		}
	}
	r += 2
	s.put(1, r, "changes", look{bold: true})
	r++
	s.header(1, r, "kind", "id", "change", "field", "base", "variant", "where")
	for _, c := range df.Changes {
		r++
		for i, v := range []any{c.Kind, c.ID, c.Change, c.Field, c.Base, c.Variant, c.Pos} {
			s.put(1+i, r, v, look{})
		}
	}
	r += 2
	s.put(1, r, "cards (descriptive: variant − base)", look{bold: true})
	r++
	s.header(1, r, "card", "faction", "name", "changed", "play rate Δ", "played wr Δ", "oh wr Δ", "row win rate Δ", "mean power Δ", "fired per game Δ")
	for _, c := range df.Cards {
		r++
		vals := []any{c.ID, c.Faction, c.Name, yes(c.Changed), c.PlayRate.Delta, c.PlayedWR.Delta, c.OHWR.Delta,
			c.RowWinRate.Delta, c.MeanPower.Delta, c.FiredPerGame.Delta}
		for i, v := range vals {
			l := look{}
			if i >= 4 && i <= 7 {
				l.numFmt = fmtPts
			} else if i >= 8 {
				l.numFmt = "+0.00;-0.00;0.00"
			}
			s.put(1+i, r, v, l)
		}
	}
	r += 2
	s.put(1, r, "targets (descriptive: variant − base)", look{bold: true})
	r++
	s.header(1, r, "target", "name", "changed", "capture rate Δ", "mean margin Δ", "tie rate Δ", "laid per game Δ")
	for _, t := range df.Targets {
		r++
		vals := []any{t.ID, t.Name, yes(t.Changed), t.CaptureRate.Delta, t.MeanMargin.Delta, t.TieRate.Delta, t.LaidPerGame.Delta}
		for i, v := range vals {
			l := look{}
			if i == 3 || i == 5 {
				l.numFmt = fmtPts
			} else if i > 3 {
				l.numFmt = "+0.00;-0.00;0.00"
			}
			s.put(1+i, r, v, l)
		}
	}
	s.widths(18, 22, 14, 14, 14, 14, 14, 14, 14, 14, 12, 12)
}

func (m *model) xlsxSkill(s *sheet) {
	sk := m.d.Skill
	heads := []string{"faction"}
	for _, l := range sk.Levels {
		heads = append(heads, l+" win rate", l+" ci95 low", l+" ci95 high", l+" rank")
	}
	s.header(1, 1, heads...)
	for i, f := range sk.Factions {
		s.put(1, i+2, f.Faction, look{})
		for j, l := range f.Levels {
			c := 2 + 4*j
			s.put(c, i+2, l.WinRate, lowLook(fmtPct, l.LowN))
			s.put(c+1, i+2, l.CI95[0], look{numFmt: fmtPct})
			s.put(c+2, i+2, l.CI95[1], look{numFmt: fmtPct})
			s.put(c+3, i+2, l.Rank, look{})
		}
	}
	r := len(sk.Factions) + 3
	s.put(1, r, "rank changes", look{bold: true})
	r++
	s.header(1, r, "kind", "id", "faction", "from", "to", "rank from", "rank to", "significant", "note")
	for _, c := range sk.RankChanges {
		r++
		for i, v := range []any{c.Kind, c.ID, c.Faction, c.From, c.To, c.RankFrom, c.RankTo, yes(c.Significant), c.Note} {
			s.put(1+i, r, v, look{})
		}
	}
	r += 2
	s.put(1, r, "steps (paired: higher level − lower)", look{bold: true})
	r++
	s.header(1, r, "from", "to", "faction", "delta", "ci95 low", "ci95 high", "p adjusted", "significant")
	for _, st := range sk.Steps {
		for _, f := range st.Factions {
			r++
			sig := 0
			if f.Significant {
				sig = sign(f.Delta)
			}
			s.put(1, r, st.From, look{})
			s.put(2, r, st.To, look{})
			s.put(3, r, f.Faction, look{})
			s.put(4, r, f.Delta, sigLook(fmtPts, sig, f.LowN))
			s.put(5, r, f.CI95[0], look{numFmt: fmtPts})
			s.put(6, r, f.CI95[1], look{numFmt: fmtPts})
			s.put(7, r, f.PAdj, look{numFmt: "0.0000"})
			s.put(8, r, yes(f.Significant), look{})
		}
	}
	s.widths(14, 14, 14, 14, 14, 14, 14, 14, 40)
}
