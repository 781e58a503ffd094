package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// mdText makes free text safe in Markdown, in a paragraph or a table cell:
// it stays text, never markup or HTML.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(s), " ") {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '#', '~', '!', '{', '}', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
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

// writeMarkdown writes summary.md: the headline table and the findings, for
// a forum post or a pull request.
func (m *model) writeMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	r := m.rep
	p("# Balance report: %s\n\n", mdText(m.title()))
	p("%s · ruleset `%s` · cardlab %s\n\n", mdText(m.describe()), shortHash(r.Ruleset.Hash), mdText(r.ToolVersion))
	cmd := m.command()
	fence := mdFence(cmd)
	p("Reproduce with:\n\n%ssh\n%s\n%s\n\n", fence, strings.ReplaceAll(cmd, "\n", " "), fence)

	p("## Factions\n\n")
	p("| Faction | Games | Win %% | 95%% CI | Fair share | vs fair share |\n")
	p("|---|--:|--:|--:|--:|---|\n")
	for _, f := range m.factions {
		s, e := f.Stats, m.expected(f.ID)
		verdict := "within"
		switch {
		case s.CI95[0] > e:
			verdict = "**above**"
		case s.CI95[1] < e:
			verdict = "**below**"
		}
		low := ""
		if s.LowN {
			low = " (few games)"
		}
		p("| %s | %d | %.1f | %.1f–%.1f | %s | %s%s |\n", mdText(f.Name), s.Games, 100*s.WinRate,
			100*s.CI95[0], 100*s.CI95[1], pct0(e), verdict, low)
	}
	p("\n## Findings\n\n")
	for _, fd := range m.findings() {
		p("- %s\n", mdText(fd.Text))
	}

	ranked := m.ranked()
	p("\n## Cards\n\n")
	p("Ranked by %s: %s. Cards resting on too few games are left out; * marks a figure that stays significant after the Benjamini–Hochberg correction over all cards (false discovery rate 5%%).\n\n",
		mdText(m.metric.Label), mdText(m.metric.Long))
	if len(ranked) == 0 {
		p("No card has enough games on both sides for this figure.\n")
	} else {
		p("| | Card | Faction | %s | 95%% CI |\n", mdText(m.metric.Label))
		p("|--:|---|---|--:|--:|\n")
		row := func(i int, c *cardView) {
			mark := ""
			if c.Sig != 0 {
				mark = " \\*"
			}
			p("| %d | %s | %s | %+.1f pts%s | %+.1f to %+.1f |\n", i+1, mdText(c.Info.Name), mdText(m.facName(c.Faction)),
				100*c.Score, mark, 100*c.CI[0], 100*c.CI[1])
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
			p("| … | %d more | | | |\n", len(ranked)-2*n)
			for i := len(ranked) - n; i < len(ranked); i++ {
				row(i, ranked[i])
			}
		}
	}

	if im := m.d.Impact; im != nil {
		sig := 0
		for _, c := range im.Cards {
			if c.Significant {
				sig++
			}
		}
		p("\n## Card impact (ablation)\n\n")
		p("%d cards tested (%s mode, %s correction at α = %g): %d with a significant effect on their faction's win share.\n",
			len(im.Cards), mdText(im.Mode), mdText(im.Correction), im.Alpha, sig)
	}
	if df := m.d.Diff; df != nil {
		p("\n## Rules change\n\n")
		p("%s %s → %s %s: %s\n\n", mdText(df.Base.Name), mdText(df.Base.Version), mdText(df.Variant.Name), mdText(df.Variant.Version), mdText(df.Verdict))
		if len(df.Factions) > 0 {
			p("| Faction | Before | After | Δ (paired) | 95%% CI | Significant |\n|---|--:|--:|--:|--:|---|\n")
			for _, f := range df.Factions {
				p("| %s | %.1f | %.1f | %+.1f pts | %+.1f to %+.1f | %s |\n", mdText(m.facName(f.Faction)), 100*f.Base, 100*f.Variant,
					100*f.Delta, 100*f.CI95[0], 100*f.CI95[1], yes(f.Significant))
			}
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
	p("`index.html`: charts, matchups, every card in a printable gallery and how each figure is computed · ")
	p("`balance.xlsx`: every figure · `results.json`: the data (`cardlab report --from results.json` renders it again). ")
	p("Intervals are 95%% (Wilson for win shares, Newcombe for differences).\n")
	return bw.Flush()
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
