package reports

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
)

// The page's assets. echarts.min.js is dist/echarts.min.js of the npm
// package echarts@5.4.3 (Apache License 2.0; echarts-LICENSE, echarts-NOTICE
// and echarts-LICENSE-d3 beside it are the package's own), inlined into the
// page so that it works offline.
var (
	//go:embed assets/echarts.min.js
	echartsJS string
	//go:embed assets/echarts-LICENSE
	echartsLicense string
	//go:embed assets/echarts-NOTICE
	echartsNotice string
	//go:embed assets/echarts-LICENSE-d3
	echartsLicenseD3 string
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/page.js
	pageJS string
)

// EChartsVersion is the version of the embedded Apache ECharts.
const EChartsVersion = "5.4.3"

var pageTemplate = sync.OnceValues(func() (*template.Template, error) {
	// The scripts are inlined verbatim: they must not close their element.
	for name, js := range map[string]string{"echarts.min.js": echartsJS, "page.js": pageJS} {
		l := strings.ToLower(js)
		if strings.Contains(l, "</script") || strings.Contains(l, "<!--") {
			return nil, fmt.Errorf("reports: %s cannot be inlined: it contains </script or <!--", name)
		}
	}
	return template.New("page").Parse(pageHTML)
})

// pageData is what the page template shows.
type pageData struct {
	Title, Describe, Hash, Tool, Generated, Rendered, Command string
	Partial                                                   bool
	Findings                                                  []finding
	Factions                                                  []facRow
	Games                                                     []kv
	Charts                                                    map[string]*chartView
	ChartList                                                 []*chartView
	Metric                                                    cardMetric
	HasImpact, CatalogOK                                      bool
	Diff                                                      *diffView
	Suggestion                                                string
	RankChanges                                               []string
	Gallery                                                   []galleryFaction
	Bots                                                      string
	GamesPerLineup, MinSample                                 int
	EChartsVersion, EChartsLicense, EChartsNotice             string
	CSS                                                       template.CSS
	ECharts, PageJS                                           template.JS
}

type facRow struct {
	Name, Color, Rate, CI, Fair, Class, MeanVP, VPSD, Wins string
	Games                                                  int64
}

type kv struct{ Label, Value string }

type diffView struct {
	From, To, Verdict string
	Changes           []changeRow
}

type changeRow struct{ Kind, ID, Change, Field, Base, Variant, Pos string }

type galleryFaction struct {
	Name, Color string
	Pages       [][]galleryCard
}

type galleryCard struct {
	Name, TypeLine, Text, Faction, Color, Copies string
	Power                                        int
	HasPower                                     bool
	Figures                                      []figure
}

type figure struct{ Label, Value, Class string }

// cardsPerPage is how many gallery cards a printed A4 page holds (3 × 3).
const cardsPerPage = 9

// writeHTML writes the self-contained page.
func (m *model) writeHTML(w io.Writer) error {
	tpl, err := pageTemplate()
	if err != nil {
		return err
	}
	cs, err := m.charts()
	if err != nil {
		return err
	}
	r := m.rep
	p := &pageData{
		Title: m.title(), Describe: m.describe(), Hash: r.Ruleset.Hash, Tool: r.ToolVersion,
		Generated: m.generated(), Rendered: m.now.Format("2006-01-02 15:04 UTC"), Command: m.command(),
		Partial: r.Partial, Findings: m.findings(), Charts: map[string]*chartView{}, Metric: m.metric,
		HasImpact: m.d.Impact != nil, CatalogOK: m.catalogOK,
		Bots: strings.Join(r.Config.Bots, ", "), GamesPerLineup: r.Config.Games, MinSample: r.Config.MinSample,
		EChartsVersion: EChartsVersion, EChartsLicense: echartsLicense + "\n\n" + echartsLicenseD3, EChartsNotice: echartsNotice,
		CSS: template.CSS(pageCSS), ECharts: template.JS(echartsJS), PageJS: template.JS(pageJS),
	}
	for _, id := range chartOrder {
		if c := cs[id]; c != nil {
			p.Charts[strings.ReplaceAll(strings.TrimPrefix(id, "chart-"), "-", "")] = c
			p.ChartList = append(p.ChartList, c)
		}
	}
	for _, f := range m.factions {
		s, e := f.Stats, m.expected(f.ID)
		cls := ""
		switch {
		case s.LowN:
			cls = "low"
		case s.CI95[0] > e:
			cls = "pos"
		case s.CI95[1] < e:
			cls = "neg"
		}
		p.Factions = append(p.Factions, facRow{Name: f.Name, Color: f.Color, Games: s.Games, Wins: trimFloat(s.Wins),
			Rate: pct1(s.WinRate), CI: ciPct(s.CI95), Fair: pct0(e), Class: cls,
			MeanVP: fmt.Sprintf("%.2f", s.MeanVP), VPSD: fmt.Sprintf("%.2f", s.VPSD)})
	}
	g := r.Game
	p.Games = []kv{
		{"games", fmt.Sprint(g.Games)},
		{"decisions per game", fmt.Sprintf("%.1f (sd %.1f)", g.DecisionsMean, g.DecisionsSD)},
		{"rounds per game", fmt.Sprintf("%.2f (sd %.2f)", g.RoundsMean, g.RoundsSD)},
		{"deployment turns per round", fmt.Sprintf("%.1f", g.DeployTurnsPerRound)},
		{"passes per game", fmt.Sprintf("%.2f", g.PassesMean)},
		{"reshuffles per game", fmt.Sprintf("%.2f", g.ReshufflesMean)},
		{"margin of victory", fmt.Sprintf("%.2f VP (sd %.2f)", g.MarginMean, g.MarginSD)},
		{"shared victories", fmt.Sprintf("%d (%s)", g.SharedVictories, pct1(g.SharedRate))},
	}
	if df := m.d.Diff; df != nil {
		dv := &diffView{From: df.Base.Name + " " + df.Base.Version + " (" + shortHash(df.Base.Hash) + ")",
			To: df.Variant.Name + " " + df.Variant.Version + " (" + shortHash(df.Variant.Hash) + ")", Verdict: df.Verdict}
		for _, c := range df.Changes {
			dv.Changes = append(dv.Changes, changeRow{c.Kind, c.ID, c.Change, c.Field, c.Base, c.Variant, c.Pos})
		}
		p.Diff = dv
	}
	if sw := m.d.Sweep; sw != nil && sw.Suggestion != nil {
		p.Suggestion = sw.Suggestion.Text
	}
	if sk := m.d.Skill; sk != nil {
		for _, rc := range sk.RankChanges {
			s := fmt.Sprintf("%s %s: rank %d at %s, %d at %s", rc.Kind, rc.ID, rc.RankFrom, rc.From, rc.RankTo, rc.To)
			if rc.Significant {
				s += " (significant)"
			}
			if rc.Note != "" {
				s += " — " + rc.Note
			}
			p.RankChanges = append(p.RankChanges, s)
		}
	}
	p.Gallery = m.gallery()
	var b bytes.Buffer
	if err := tpl.Execute(&b, p); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.Write(b.Bytes()); err != nil {
		return err
	}
	return bw.Flush()
}

// chartOrder is the order of the charts' options in the page.
var chartOrder = []string{"chart-factions", "chart-matchups", "chart-seats", "chart-impact", "chart-cards", "chart-power",
	"chart-targets", "chart-rounds", "chart-decisions", "chart-diff-factions", "chart-diff-cards", "chart-sweep", "chart-skill"}

func trimFloat(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// gallery lays out every card of the run by faction, nine to a page.
func (m *model) gallery() []galleryFaction {
	var out []galleryFaction
	for _, f := range m.factions {
		gf := galleryFaction{Name: f.Name, Color: f.Color}
		var cards []galleryCard
		for _, c := range m.cards {
			if c.Faction == f.ID {
				cards = append(cards, m.galleryCard(c))
			}
		}
		for len(cards) > 0 {
			n := min(cardsPerPage, len(cards))
			gf.Pages = append(gf.Pages, cards[:n])
			cards = cards[n:]
		}
		out = append(out, gf)
	}
	return out
}

func (m *model) galleryCard(c *cardView) galleryCard {
	gc := galleryCard{Name: c.Info.Name, Text: c.Info.Text, Faction: c.Fac.Name, Color: c.Fac.Color,
		Copies: fmt.Sprintf("×%d", c.Copies), Power: c.Info.Power, HasPower: c.HasFace}
	if c.HasFace {
		parts := []string{c.Info.Type, c.Info.Kind + " · " + kindName(c.Info.Kind)}
		if c.Info.Effect != "" {
			parts = append(parts, c.Info.Effect)
		}
		gc.TypeLine = strings.Join(parts, " · ")
	} else {
		gc.TypeLine = c.ID
	}
	cls := func(sig int, low bool) string {
		switch {
		case low:
			return "low"
		case sig > 0:
			return "pos"
		case sig < 0:
			return "neg"
		}
		return ""
	}
	f := []figure{
		{"Games", fmt.Sprint(c.Games), ""},
		{"Win when drawn", pct1(c.GIHWR), ""},
		{"IWD", diffFig(c.IWD, c.IWDCI95, c.Drawn, c.NotDrawn), cls(ciSig(c.IWDCI95), c.LowN)},
		{"Opening-hand IWD", diffFig(c.OHIWD, c.OHIWDCI95, c.Opening, c.NotOpening), cls(ciSig(c.OHIWDCI95), c.OHLowN)},
		{"Play rate", pct1(c.PlayRate), ""},
		{"Win when played", pct1(c.PlayedWR), ""},
		{"Row won", pct1(c.RowWinRate), ""},
		{"Mean power", fmt.Sprintf("%.2f", c.MeanPower), ""},
	}
	if c.Info.Kind != "N" || c.Fired+c.Blocked+c.Fizzled > 0 {
		f = append(f, figure{"Fired / blocked / fizzled", fmt.Sprintf("%d / %d / %d", c.Fired, c.Blocked, c.Fizzled), ""})
	}
	if c.Impact != nil {
		sig := 0
		if c.Impact.Significant {
			sig = sign(c.Impact.Delta)
		}
		f = append([]figure{{"Impact", fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*c.Impact.Delta, 100*c.Impact.CI95[0], 100*c.Impact.CI95[1]),
			cls(sig, c.Impact.LowN)}}, f...)
	}
	gc.Figures = f
	return gc
}

// diffFig shows a difference of win shares with its interval, or why there
// is none: a side without games.
func diffFig(d float64, ci [2]float64, with, without int64) string {
	switch {
	case with == 0:
		return "n/a (never)"
	case without == 0:
		return "n/a (every game)"
	}
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*d, 100*ci[0], 100*ci[1])
}
