package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// mdText makes free text safe in CommonMark, in a paragraph or a list
// item: it stays text, never markup, HTML or an entity, with or without
// GitHub's extensions. Every character Markdown gives a meaning to is
// backslash-escaped (CommonMark lets any ASCII punctuation be escaped, so
// "\<" shows "<" everywhere, where "&lt;" shows literally outside HTML
// renderers); whitespace runs become one space and control characters
// U+FFFD.
func mdText(s string) string {
	var b strings.Builder
	s = strings.Join(strings.Fields(s), " ")
	for _, r := range s {
		switch {
		case strings.ContainsRune("\\`*_[]<>&|#~!{}$", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsControl(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdStart is mdText for text that begins a line or a list item, where "-",
// "+" or "1." would begin a list and "=" underline a heading.
func mdStart(s string) string {
	out := mdText(s)
	if out != "" && strings.ContainsRune("-+=", rune(out[0])) {
		return "\\" + out
	}
	if n := len(out) - len(strings.TrimLeft(out, "0123456789")); n > 0 && n < len(out) && (out[n] == '.' || out[n] == ')') {
		out = out[:n] + "\\" + out[n:]
	}
	return out
}

// mdFence returns a code fence longer than any run of backticks in s.
func mdFence(s string) string {
	n, run := 3, 0
	for _, r := range s {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

// writeMarkdown writes summary.md: the verdict, what changed, the findings
// and the headline figures, for a forum post or a pull request. It uses no
// tables and no HTML, so it reads the same in any CommonMark renderer.
func (m *model) writeMarkdown(w io.Writer) error {
	if m.err != nil {
		return m.err
	}
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	r := m.rep
	p("# Balance report: %s\n\n", mdText(m.title()))
	p("%s · ruleset %s · cardlab %s\n\n", mdText(m.describe()), mdText(shortHash(r.Ruleset.Hash)), mdText(r.ToolVersion))
	bl := m.botsLine()
	if d := r.CardValueDesign; d != nil {
		bl += " Card values: " + m.precisionText(d) + "."
	}
	p("%s\n\n", mdStart(bl))
	cmd := m.command()
	fence := mdFence(cmd)
	p("Reproduce with:\n\n%ssh\n%s\n%s\n\n", fence, strings.ReplaceAll(cmd, "\n", " "), fence)

	p("## Verdict\n\n%s\n\n", mdStart(m.verdict()))
	if df := m.d.Diff; df != nil {
		p("### What changed\n\n")
		p("Compared with %s %s (%s) on the same games: %s\n\n", mdText(df.Base.Name), mdText(df.Base.Version),
			mdText(shortHash(df.Base.Hash)), mdText(df.Verdict))
		ch := m.changes()
		if len(ch) == 0 {
			p("No card, target or rule differs in its definition.\n\n")
		}
		for _, c := range ch {
			who := mdStart(c.Name)
			if c.ID != "" && c.ID != c.Name {
				who += " (" + mdText(c.ID) + ")"
			}
			// Where it is written (the variant's file:line), so a
			// designer finds each change; a rule without one has none.
			where := ""
			if c.Pos != "" {
				where = " (" + mdText(c.Pos) + ")"
			}
			p("- %s: %s%s\n", who, mdText(c.What()), where)
		}
		if len(ch) > 0 {
			p("\n")
		}
		for _, f := range df.Factions {
			mark := ""
			if f.Significant {
				mark = " — **significant**"
			}
			p("- %s: %s → %s, %s points %s%s\n", mdStart(m.facName(f.Faction)), pct1(f.Base), pct1(f.Variant),
				pts1(f.Delta), mdText(ptsCI(f.CI95)), mark)
		}
		if len(df.Factions) > 0 {
			p("\n")
		}
	}
	p("### Findings\n\n")
	for _, fd := range m.found {
		p("- %s\n", mdStart(fd.Text))
	}
	p(m.say("\nFaction imbalance first, then matchups, seats, the rules change and cards, each by the size of the figure it states. Out of balance means the whole 95%% interval lies outside the %s band around the fair share (and the test against the band holds after the Holm correction); possibly out of balance, that the interval reaches beyond the band without lying outside it; balanced, that it lies inside.\n"), mdText(m.tolText()))

	p("%s", m.say("\n## Factions\n\n"))
	fd := m.facDev()
	for _, f := range m.factions {
		s, v := f.Stats, fd[f.ID]
		verdict := m.devVerdict(v)
		if m.oneSide() {
			verdict = "fair by construction"
		}
		if verdict == "above" || verdict == "below" {
			verdict = "**" + verdict + "**"
		}
		low := ""
		if s.LowN {
			low = " (few games)"
		}
		p("- %s: %s of %d games %s, fair %s, %s points %s — %s%s\n", mdStart(f.Name), pct1(s.WinRate), s.Games,
			mdText("["+ciPct(s.CI95)+"]"), pct0(v.fair), pts1(v.d()), mdText(ptsCI(v.dCI())), verdict, low)
	}

	ranked := m.ranked()
	p("\n## Cards\n\n")
	if len(m.rep.Cards) == 0 {
		p("This result has no figures by card (no card values: the game measures none, or --values=false); index.html and balance.xlsx show what its counts say of them.\n")
		ranked = nil
	}
	switch {
	case len(m.rep.Cards) == 0:
	case m.metric.Key == "value":
		p("Ranked by %s: %s. ● flagged: %s.%s\n\n", mdText(strings.ToLower(m.metric.Label[:1])+m.metric.Label[1:]), mdText(m.metric.Long), mdText(m.flagRule()), mdText(m.skillChartNote()))
	case m.metric.Key == "impact":
		p("Ranked by %s: %s.\n\n", mdText(m.metric.Label), mdText(m.metric.Long))
	default:
		p("This result has no card values. Shown instead, and **correlational** — it describes the games, not which card is too strong: %s, %s.\n\n",
			mdText(m.metric.Label), mdText(m.metric.Long))
	}
	if len(ranked) == 0 && len(m.rep.Cards) > 0 {
		p("No card has enough games for this figure.\n")
	} else if len(ranked) > 0 {
		row := func(i int, c *cardView) {
			mark := ""
			if c.Sig != 0 {
				mark = " ●"
			}
			if k := m.skillCard(c.ID); k != nil && k.SkillDependent {
				mark += " ◆ skill-dependent: " + mdText(flagWords(k.Value.Flag)) + " against " + mdText(botsName(m.tiers.CheckBots)) + " play"
			}
			extra := ""
			if v := c.Value; v != nil && c.HasFace {
				extra = fmt.Sprintf(", one copy %+.1f pts %s; plays like %s", v.Pts, mdText(m.metric.ci(v.PtsCI95)), mdText(m.powerReading(c)))
			}
			p("%d. %s (%s): %s %s%s%s\n", i+1, mdStart(c.Info.Name), mdText(m.facName(c.Faction)),
				m.metric.fig(c.Score), mdText(m.metric.ci(c.CI)), extra, mark)
		}
		const n = 5
		if len(ranked) <= 2*n {
			for i, c := range ranked {
				row(i, c)
			}
		} else {
			for i, c := range ranked[:n] {
				row(i, c)
			}
			p("\n%d more, then the lowest:\n\n", len(ranked)-2*n)
			for i := len(ranked) - n; i < len(ranked); i++ {
				// an ordered list continues from its first number
				row(i, ranked[i])
			}
		}
	}

	m.markdownQuality(p)

	if im := m.d.Impact; im != nil {
		sig := 0
		for _, c := range im.Cards {
			if c.Significant {
				sig++
			}
		}
		p("\n## Card impact (ablation)\n\n")
		whose := "their faction's"
		if im.Ruleset.Game != "" {
			whose = "their holder's"
		}
		p("%d cards tested (%s mode, %s correction at α = %g): %d with a significant effect on %s win share.\n",
			len(im.Cards), mdText(im.Mode), mdText(im.Correction), im.Alpha, sig, whose)
		if im.Ruleset.Game != "" {
			p("Each card's arm blanks one copy; where one side holds several seats, only the lineup's first seat of the side (its share is the one compared).\n")
		}
	}
	if sw := m.d.Sweep; sw != nil {
		p("\n## Sweep\n\n")
		what := sw.Field
		if sw.Card != nil {
			what = sw.Card.Name + ": " + sw.Field
		}
		p("%s from %d (now) over %d values: best %d.", mdText(what), sw.Current, len(sw.Values), sw.Best)
		if sw.Suggestion != nil {
			p(" Suggested edit: %s.", mdText(sw.Suggestion.Text))
		}
		p("\n")
	}
	if sk := m.d.Skill; sk != nil {
		p("\n## Skill levels\n\n")
		p("Levels %s.", mdText(strings.Join(sk.Levels, " → ")))
		for _, rc := range sk.RankChanges {
			if rc.Kind == "faction" {
				p(" %s: rank %d → %d%s.", mdText(m.facName(rc.ID)), rc.RankFrom, rc.RankTo, map[bool]string{true: " (significant)"}[rc.Significant])
			}
		}
		p("\n")
	}
	p("\n---\n\n")
	p("index.html: charts, matchups and how each figure is computed · cards.html: every card beside its figures, printable · ")
	p("balance.xlsx: every figure · results.json: the data (cardlab report --from results.json renders it again). ")
	p("Intervals are 95%%.\n")
	return bw.Flush()
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
