package reports

import (
	"fmt"

	"github.com/cardlab/cardlab/analysis"
)

// The "Game quality" section (issue 27 item 6; docs/metrics.md "Game
// quality"): the same rows in the page, summary.md and the workbook, in
// the game's words.

// qualityRow is one figure of the section.
type qualityRow struct {
	// Figure names it; Value is the estimate as shown, CI its 95%
	// interval, Over what it rests on ("2,000 games", "63 sampled games").
	Figure, Value, CI, Over string
	// Num, Lo, Hi are the estimate and interval as numbers for the
	// workbook, in NumFmt.
	Num, Lo, Hi float64
	NumFmt      string
	N           int64
	Low         bool
	// Doc says what the figure is, for the workbook's Read me and the
	// page's tooltips.
	Doc string
}

// qualityRows are the section's rows, nil when the result has no figures
// (made by a cardlab before they were counted, or read from such a
// results.json): every format then leaves the section out.
func (m *model) qualityRows() []qualityRow {
	q := m.rep.Quality
	if q == nil {
		return nil
	}
	w := m.words()
	sampled := fmt.Sprintf("%d sampled games (every %d%s game)", q.Sampled, q.Every, ordinalSuffix(q.Every))
	all := fmt.Sprintf("%d games", q.Games)
	mean := func(figure, unit string, s analysis.MeanStats, over, doc string, dec int) qualityRow {
		f := fmt.Sprintf("%%.%df", dec)
		v := fmt.Sprintf(f, s.Mean)
		if unit != "" {
			v += " " + unit
		}
		v += fmt.Sprintf(" (sd "+f+")", s.SD)
		nf := fmtDec2
		if dec == 1 {
			nf = "0.0"
		}
		return qualityRow{Figure: figure, Value: v, CI: fmt.Sprintf("["+f+", "+f+"]", s.CI95[0], s.CI95[1]), Over: over,
			Num: s.Mean, Lo: s.CI95[0], Hi: s.CI95[1], NumFmt: nf, N: s.N, Low: s.LowN, Doc: doc}
	}
	share := func(figure string, s analysis.MeanStats, over, doc string) qualityRow {
		return qualityRow{Figure: figure, Value: pct1(s.Mean), CI: "[" + ciPct(s.CI95) + "]", Over: over,
			Num: s.Mean, Lo: s.CI95[0], Hi: s.CI95[1], NumFmt: fmtPct, N: s.N, Low: s.LowN, Doc: doc}
	}
	var rows []qualityRow
	if q.LengthInDecisions {
		rows = append(rows, mean("game length (decisions)", "", q.Length, sampled,
			"decisions per game of the sample: the game does not say its length in "+w.Lengths, 1))
	} else {
		rows = append(rows, mean("game length", w.Lengths, q.Length, sampled,
			w.Lengths+" per game, with the spread between games (sd)", 2))
	}
	rows = append(rows, mean("decisions per game", "", q.Decisions, all,
		"actions the bots chose per game, with the spread between games (sd)", 1))
	for _, s := range q.Starter {
		rows = append(rows, qualityRow{Figure: fmt.Sprintf("starter's advantage (%d players)", s.Players),
			Value: fmt.Sprintf("%s points (won %s, fair %s)", pts1(s.Advantage), pct1(s.Share), pct0(s.Expected)),
			CI:    ptsCI(s.AdvantageCI95), Over: fmt.Sprintf("%d games", s.Games),
			Num: s.Advantage, Lo: s.AdvantageCI95[0], Hi: s.AdvantageCI95[1], NumFmt: fmtPts, N: s.Games, Low: s.LowN,
			Doc: "the win share of the seat that began the game minus the fair share 1/players (Wilson interval of the share, shifted)"})
	}
	d := q.Draws
	rows = append(rows, qualityRow{Figure: "draws (shared victories)", Value: fmt.Sprintf("%s (%d)", pct1(d.Share), d.Count),
		CI: "[" + ciPct(d.CI95) + "]", Over: all, Num: d.Share, Lo: d.CI95[0], Hi: d.CI95[1], NumFmt: fmtPct, N: d.N, Low: d.LowN,
		Doc: "the share of games whose victory was shared (Wilson interval)"})
	rows = append(rows,
		mean("score margin", w.Score, q.Margin, all,
			"the winner's final "+w.Score+" minus the best other seat's (0 for a shared victory)", 2),
		mean("lead changes per game", "", q.LeadChanges, sampled,
			"decisions after which the set of seats with the highest "+w.Score+" changed", 2),
		share("lead change (Ludii)", q.LeadChangeShare, sampled,
			"each game's share of its decisions after which the leading seats changed, averaged over games"),
		share("decisiveness (Ludii)", q.Decisiveness, fmt.Sprintf("%d sampled games with a loser", q.Decisiveness.N),
			"the share of a game's decisions before a winner's "+w.Score+" stayed above the highest any seat that did not win ever reached; low: decided early"),
	)
	return rows
}

// ordinalSuffix is "st", "nd", "rd" or "th" for n.
func ordinalSuffix(n int64) string {
	if n%100 >= 11 && n%100 <= 13 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// qualityNote introduces the section.
func (m *model) qualityNote() string {
	w := m.words()
	return "What playing the game is like, from the games themselves: how long they run (in " + w.Lengths +
		"), whether starting helps, how often they end level, by how much they are won, how often the lead changes hands and how early the winner is clear — lead change and decisiveness as Ludii defines them, with each seat's " +
		w.Score + " as the evaluation of a position, read after every decision of a sample of the games. Intervals are 95%."
}

// xlsxQuality writes the workbook's "Game quality" sheet (none for a
// result without the figures).
func (m *model) xlsxQuality(s *sheet, rows []qualityRow) {
	table(s, []col[qualityRow]{
		{head: "figure", width: 36, val: func(r qualityRow) any { return r.Figure }, doc: "a game-quality figure (docs/metrics.md, \"Game quality\")"},
		{head: "value", width: 12, val: func(r qualityRow) any { return r.Num }, look: func(r qualityRow) look { return lowLook(r.NumFmt, r.Low) }, doc: "its estimate: a mean per game, a share, or a difference of shares"},
		{head: "interval low", width: 12, val: func(r qualityRow) any { return r.Lo }, look: func(r qualityRow) look { return lowLook(r.NumFmt, r.Low) }, doc: "the 95% interval's lower end"},
		{head: "interval high", width: 12, val: func(r qualityRow) any { return r.Hi }, look: func(r qualityRow) look { return lowLook(r.NumFmt, r.Low) }, doc: "the 95% interval's upper end"},
		{head: "as shown", width: 40, val: func(r qualityRow) any { return r.Value }, doc: "the estimate as the page shows it, with its unit"},
		{head: "n", width: 10, val: func(r qualityRow) any { return r.N }, doc: "the games the figure rests on"},
		{head: "over", width: 36, val: func(r qualityRow) any { return r.Over }, doc: "which games: every game of the run, or the replayed sample"},
		{head: "what it is", width: 80, val: func(r qualityRow) any { return r.Doc }, doc: "what the figure measures"},
	}, rows)
}

// SheetQuality is the workbook's game-quality sheet.
const SheetQuality = "Game quality"

// markdownQuality writes summary.md's "Game quality" section with p.
func (m *model) markdownQuality(p func(format string, args ...any)) {
	rows := m.qualityRows()
	if rows == nil {
		return
	}
	p("\n## Game quality\n\n")
	for _, r := range rows {
		low := ""
		if r.Low {
			low = " (few games)"
		}
		p("- %s: %s %s, over %s%s\n", mdStart(r.Figure), mdText(r.Value), mdText(r.CI), mdText(r.Over), low)
	}
	p("\nLead change and decisiveness as Ludii defines them, each seat's %s read after every decision of the sample; docs/metrics.md (\"Game quality\") defines every figure.\n", mdText(m.words().Score))
}
