package reports

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
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
	//go:embed assets/cards.html
	galleryHTML string
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

var galleryTemplate = sync.OnceValues(func() (*template.Template, error) {
	return template.New("cards").Parse(galleryHTML)
})

// pageData is what the page template shows.
type pageData struct {
	Title, Describe, Hash, Tool, Generated, Rendered, Command string
	Partial                                                   bool
	Verdict, Tolerance                                        string
	Findings                                                  []finding
	Factions                                                  []facRow
	Games                                                     []kv
	Charts                                                    map[string]*chartView
	ChartList                                                 []*chartView
	Metric                                                    cardMetric
	HasImpact, HasValue, CatalogOK                            bool
	// ImpactOneSeat: another game's impact, one copy blanked for one seat
	// (analysis.Impact through the Valuer).
	ImpactOneSeat bool
	// ValuePrecision is the card values' target median half-width in
	// win-share points; FlagRule says when a card is flagged.
	ValuePrecision, FlagRule string
	// BotsLine says which bots made the figures; ValueReached the card
	// values' precision as reached.
	BotsLine, ValueReached    string
	Diff                      *diffView
	Suggestion                string
	RankChanges               []string
	Gallery                   []galleryFaction
	Bots                      string
	GamesPerLineup, MinSample int
	// W are the game's words (its Vocabulary).
	W words
	// OneSide: every seat plays one side (no head-to-head); NoCardFigures:
	// the result has no figures by card; Counts are the game's counts no
	// view shows.
	// NoRounds: the game's per-game counts stand in for Alpha Tactics'
	// rounds.
	OneSide, NoCardFigures, NoRounds bool
	// Unit is another game's unit of value (nil: Alpha Tactics' power
	// point, whose Methods say it in its own words).
	Unit   *analysis.ValueUnit
	Counts []countTable
	// Quality is the "Game quality" section (quality.go), nil for a
	// result without the figures.
	Quality     []qualityRow
	QualityNote string
	// Views are the game's views' sections; LengthMethods ends Methods'
	// paragraph on game length.
	Views                                         []viewSection
	LengthMethods                                 template.HTML
	EChartsVersion, EChartsLicense, EChartsNotice string
	CSS                                           template.CSS
	ECharts, PageJS                               template.JS
}

type facRow struct {
	Name, Color, Rate, CI, Fair, Verdict, Class, MeanVP, VPSD, Wins string
	Games                                                           int64
}

type kv struct{ Label, Value string }

type diffView struct {
	From, To, Verdict string
	Changes           []changeLine
}

type galleryFaction struct {
	Name, Color, Anchor string
	Pages               [][]galleryCard
}

type galleryCard struct {
	Name, TypeLine, Text, Faction, Color, Copies string
	// Power is the printed value in the badge's unit; Badge the badge as
	// printed (the game's face may word it: "+50"), BadgeSub the word
	// under it ("MP").
	Power           int
	HasPower        bool
	Badge, BadgeSub string
	Figures         []figure
}

type figure struct {
	Label, Value, Class string
	// Doc says what the figure counts (the game's column doc), on hover.
	Doc string
}

// cardsPerPage is how many gallery cards a printed A4 page holds (3 × 3).
const cardsPerPage = 9

// stamp formats a time the one way the reports show times.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// stampRFC3339 reformats an RFC 3339 time (as Meta.Generated) like stamp;
// anything else is shown as it is.
func stampRFC3339(s string) string {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return stamp(t)
	}
	return s
}

// page fills what both pages show.
func (m *model) page() *pageData {
	r := m.rep
	p := &pageData{
		Title: m.title(), Describe: m.describe(), Hash: r.Ruleset.Hash, Tool: r.ToolVersion,
		Generated: stampRFC3339(m.generated()), Rendered: stamp(m.now), Command: m.command(),
		Partial: r.Partial, Verdict: m.verdict(), Tolerance: m.tolText(), Findings: m.found, Charts: map[string]*chartView{},
		Metric: m.metric, HasImpact: m.d.Impact != nil, ImpactOneSeat: m.d.Impact != nil && m.d.Impact.Ruleset.Game != "", HasValue: m.metric.Key == "value", CatalogOK: m.catalogOK,
		Bots: strings.Join(r.Config.Bots, ", "), GamesPerLineup: r.Config.Games, MinSample: r.Config.MinSample,
		EChartsVersion: EChartsVersion, EChartsLicense: echartsLicense + "\n\n" + echartsLicenseD3, EChartsNotice: echartsNotice,
		CSS: template.CSS(pageCSS), W: m.words(),
	}
	p.ValuePrecision = trimFloat(analysis.DefaultValuePrecision)
	if d := r.CardValueDesign; d != nil && d.Precision > 0 {
		p.ValuePrecision = trimFloat(d.Precision)
	}
	p.FlagRule = m.flagRule()
	p.BotsLine = m.botsLine()
	if d := r.CardValueDesign; d != nil {
		p.ValueReached = m.precisionText(d)
	}
	if ln := m.lengthNote(); ln != nil {
		p.LengthMethods = template.HTML(textEscaper.Replace(ln.Methods))
	}
	return p
}

// chartViewsAfter is the chart the views' charts follow in the page.
const chartViewsAfter = "chart-power"

// textEscaper escapes the characters of a game's own text that HTML
// element content gives a meaning to (a view's notes: code, not data).
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// viewSection is a view's section of the page, its charts drawn (nil for
// one with nothing to show).
type viewSection struct {
	ID, Title, MethodsTitle string
	Methods                 []game.Span
	Charts                  []*chartView
	Tables                  []viewTable
}

// viewSections are the views' page sections with their charts from cs.
func (m *model) viewSections(cs map[string]*chartView) ([]viewSection, error) {
	var out []viewSection
	for _, p := range m.parts {
		s := p.Section
		if s == nil {
			continue
		}
		vs := viewSection{ID: s.ID, Title: s.Title, MethodsTitle: s.MethodsTitle, Methods: s.Methods}
		for _, c := range s.Charts {
			vs.Charts = append(vs.Charts, cs[c.ID])
		}
		var err error
		if vs.Tables, err = viewTables(s); err != nil {
			return nil, err
		}
		out = append(out, vs)
	}
	return out, nil
}

// writeHTML writes the self-contained page.
func (m *model) writeHTML(w io.Writer) error {
	if m.err != nil {
		return m.err
	}
	tpl, err := pageTemplate()
	if err != nil {
		return err
	}
	cs, err := m.charts()
	if err != nil {
		return err
	}
	r := m.rep
	p := m.page()
	p.ECharts, p.PageJS = template.JS(echartsJS), template.JS(pageJS)
	if p.Views, err = m.viewSections(cs); err != nil {
		return err
	}
	p.OneSide, p.NoCardFigures, p.Counts = len(m.factions) == 1, len(r.Cards) == 0, m.countTables()
	if d := r.CardValueDesign; d != nil {
		p.Unit = d.Unit
	}
	p.NoRounds = m.perGame() != nil
	p.Quality, p.QualityNote = m.qualityRows(), m.qualityNote()
	for _, id := range chartOrder {
		if c := cs[id]; c != nil {
			p.Charts[strings.ReplaceAll(strings.TrimPrefix(id, "chart-"), "-", "")] = c
			p.ChartList = append(p.ChartList, c)
		}
		if id == chartViewsAfter {
			for _, vs := range p.Views {
				for _, c := range vs.Charts {
					if c != nil {
						p.ChartList = append(p.ChartList, c)
					}
				}
			}
		}
	}
	fd := m.facDev()
	for _, f := range m.factions {
		s, v := f.Stats, fd[f.ID]
		cls, verdict := "", "balanced"
		switch {
		case s.LowN:
			cls, verdict = "low", "too few games"
		case v.out(m.tol) && v.d() > 0:
			cls, verdict = "pos", pts1(v.d())+" above"
		case v.out(m.tol):
			cls, verdict = "neg", pts1(v.d())+" below"
		case v.possibly(m.tol):
			verdict = pts1(v.d()) + ", possibly out"
		}
		if m.oneSide() {
			cls, verdict = "", "fair by construction"
		}
		if t := m.skillFac(f.ID); t != nil && t.SkillDependent {
			verdict += "; skill-dependent: " + tierPhrase(t.CheckVerdict, t.Base-t.Fair) + " against " + botsName(m.tiers.CheckBots)
		}
		p.Factions = append(p.Factions, facRow{Name: f.Name, Color: f.Color, Games: s.Games, Wins: trimFloat(s.Wins),
			Rate: pct1(s.WinRate), CI: ciPct(s.CI95), Fair: pct0(v.fair), Verdict: verdict, Class: cls,
			MeanVP: fmt.Sprintf("%.2f", s.MeanVP), VPSD: fmt.Sprintf("%.2f", s.VPSD)})
	}
	g := r.Game
	rounds := fmt.Sprintf("%.2f (sd %.2f)", g.RoundsMean, g.RoundsSD)
	if ln := m.lengthNote(); ln != nil && ln.Short != "" {
		rounds += "; " + ln.Short
	}
	p.Games = []kv{
		{"games", fmt.Sprint(g.Games)},
		{"decisions per game", fmt.Sprintf("%.1f (sd %.1f)", g.DecisionsMean, g.DecisionsSD)},
	}
	if pg := m.perGame(); pg != nil {
		for _, r := range pg {
			p.Games = append(p.Games, kv{r.item, fmt.Sprintf("%.2f", r.val)})
		}
	} else {
		p.Games = append(p.Games, []kv{
			{"rounds per game", rounds},
			{"deployment turns per round", fmt.Sprintf("%.1f", g.DeployTurnsPerRound)},
			{"passes per game", fmt.Sprintf("%.2f", g.PassesMean)},
			{"reshuffles per game", fmt.Sprintf("%.2f", g.ReshufflesMean)},
		}...)
	}
	p.Games = append(p.Games, []kv{
		{"margin of victory", fmt.Sprintf(m.say("%.2f VP (sd %.2f)"), g.MarginMean, g.MarginSD)},
		{"shared victories", fmt.Sprintf("%d (%s)", g.SharedVictories, pct1(g.SharedRate))},
	}...)
	if df := m.d.Diff; df != nil {
		p.Diff = &diffView{From: df.Base.Name + " " + df.Base.Version + " (" + shortHash(df.Base.Hash) + ")",
			To: df.Variant.Name + " " + df.Variant.Version + " (" + shortHash(df.Variant.Hash) + ")", Verdict: df.Verdict,
			Changes: m.changes()}
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
	return execute(w, tpl, p)
}

// writeGallery writes cards.html: every card as printed beside its own
// figures, nine to an A4 page when printed.
func (m *model) writeGallery(w io.Writer) error {
	if m.err != nil {
		return m.err
	}
	tpl, err := galleryTemplate()
	if err != nil {
		return err
	}
	p := m.page()
	p.Gallery = m.gallery()
	// A result whose cards have no counts of their own (another game's:
	// at most their values) lays out the catalog's cards with their rows
	// of the game's counts.
	if p.NoCardFigures = !slices.ContainsFunc(m.rep.Cards, func(k analysis.CardStats) bool { return k.Games > 0 }); p.NoCardFigures {
		p.Gallery = m.catalogGallery()
	}
	return execute(w, tpl, p)
}

func execute(w io.Writer, tpl *template.Template, p *pageData) error {
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

// chartOrder is the order of the charts' options in the page; the views'
// charts come after chartViewsAfter.
var chartOrder = []string{"chart-factions", "chart-matchups", "chart-seats", "chart-impact", "chart-cards", "chart-power",
	"chart-rounds", "chart-decisions", "chart-diff-factions", "chart-diff-cards", "chart-sweep", "chart-skill"}

func trimFloat(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// gallery lays out every card of the run by faction, nine to a page: ranked
// by the card metric when it is causal (over-powered first), else in
// ruleset order.
func (m *model) gallery() []galleryFaction {
	var out []galleryFaction
	order := m.cards
	if m.metric.Causal {
		order = m.ranked()
		for _, c := range m.cards {
			if c.Low {
				order = append(order, c)
			}
		}
	}
	for i, f := range m.factions {
		gf := galleryFaction{Name: f.Name, Color: f.Color, Anchor: fmt.Sprintf("faction-%d", i+1)}
		var cards []galleryCard
		for _, c := range order {
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

// figClass is the look of a figure: significant above or below, or
// resting on too few games.
func figClass(sig int, low bool) string {
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

// printedValue is a card's printed value as its badge and its value's
// reading say it: in the game's currency where the unit is a step of it —
// exactly when the game gives it (game.PrintedColumn), else the steps
// times the step — and in units otherwise.
func (m *model) printedValue(ci *CardInfo) int {
	if ci.Printed != 0 && m.unitScale() > 1 {
		return ci.Printed
	}
	return ci.Power * m.unitScale()
}

// unitScale is what a printed value is multiplied by for its badge: the
// step of the game's currency where the unit of value is one (a game that
// counts in steps of 10 MP: 10, so a 100-MP card shows 100, not 10 steps), else 1.
func (m *model) unitScale() int {
	if u := m.unit(); u.Scale > 1 && u.Currency != "" {
		return u.Scale
	}
	return 1
}

// galleryCard is a card's face (type and kind, never the engine's handler
// name) and the figures of the card itself, its value first; the figures
// every card of a faction shares (games, win shares when drawn or played)
// are the faction's and stay off the card.
func (m *model) galleryCard(c *cardView) galleryCard {
	gc := galleryCard{Name: c.Info.Name, Text: c.Info.Text, Faction: c.Fac.Name, Color: c.Fac.Color,
		Copies: fmt.Sprintf("×%d", c.Copies), Power: m.printedValue(&c.Info), HasPower: c.HasFace}
	gc.Badge = strconv.Itoa(gc.Power)
	if c.HasFace {
		gc.TypeLine = c.Info.Type + " · " + kindName(c.Info.Kind)
	} else {
		gc.TypeLine = c.ID
	}
	var f []figure
	switch v := c.Value; {
	case v != nil:
		sig := c.Sig
		// Points are the headline; power is a reading of them at one price
		// per faction, said next to it.
		f = append(f, figure{m.say("Value vs faction"), fmt.Sprintf("%+.1f pts %s", v.VsFactionPts, metricValue.ci(v.VsFactionPtsCI95)), figClass(sig, false), ""},
			figure{"Value, one copy", fmt.Sprintf("%+.1f pts [%+.1f, %+.1f] of win share", v.Pts, v.PtsCI95[0], v.PtsCI95[1]), "", ""},
			figure{"Plays like", m.powerReading(c), "", ""})
		switch {
		case v.Flagged:
			f = append(f, figure{"Flagged", shortFlag(v), figClass(c.Sig, false), ""})
		case v.PossiblyDead:
			// No flag: the estimate is under the dead margin, the interval
			// above it.
			f = append(f, figure{"Possibly dead", fmt.Sprintf("no flag: the interval reaches %+.0f pt", analysis.DeadMargin), "", ""})
		}
		if t := textAdds(v); t != "" {
			f = append(f, figure{"Text", t, "", ""})
		}
		if k := m.skillCard(c.ID); k != nil {
			label := "Against " + botsName(m.tiers.CheckBots)
			if k.SkillDependent {
				label = "Skill-dependent ◆ (against " + botsName(m.tiers.CheckBots) + ")"
			}
			f = append(f, figure{label, fmt.Sprintf("one copy %+.1f pts [%+.1f, %+.1f], %s", k.Value.Pts, k.Value.PtsCI95[0], k.Value.PtsCI95[1],
				flagWords(k.Value.Flag)), "", ""})
		}
	case c.Impact == nil && !m.metric.Causal:
		f = append(f, figure{m.metric.Label, diffFigOr(c.Score, c.CI, c.Low), figClass(c.Sig, c.Low), ""})
	}
	if c.Impact != nil {
		sig := 0
		if c.Impact.Significant {
			sig = sign(c.Impact.Delta)
		}
		f = append(f, figure{"Impact, all copies", fmt.Sprintf("%+.1f pts %s", 100*c.Impact.Delta, ptsCI(c.Impact.CI95)),
			figClass(sig, c.Impact.LowN), ""})
	}
	// The play rate only where the card is held back: at about 100% it
	// is the same for nearly every card and says nothing.
	if c.Drawn > 0 && c.PlayRate < analysis.PlayRateInforms {
		f = append(f, figure{"Play rate", pct1(c.PlayRate), "", ""})
	}
	// The rows, power and effects of a card are figures of the result's
	// own card counts: a card without any (another game's, whose counts
	// are its sections') has none to show, and zeros would be a lie.
	if c.Games > 0 {
		f = append(f,
			figure{"Row won", pct1(c.RowWinRate), "", ""},
			figure{"Mean power", fmt.Sprintf("%.2f", c.MeanPower), "", ""})
		if c.Info.Kind != "N" || c.Fired+c.Blocked+c.Fizzled > 0 {
			label, val := effectCounts(c)
			f = append(f, figure{label, val, "", ""})
		}
	}
	gc.Figures = f
	return gc
}

// effectCounts names a card's effect counts in its kind's own terms
// (docs/metrics.md, "Cards"): a one-time effect fires when revealed, a
// permanent or scoring one is in effect (or blocked) in each row scored
// with it, a special card is used.
func effectCounts(c *cardView) (label, value string) {
	switch c.Info.Kind {
	case "P":
		return "Rows scored in effect / blocked", fmt.Sprintf("%d / %d", c.Fired, c.Blocked)
	case "S":
		return "Scored applications / blocked", fmt.Sprintf("%d / %d", c.Fired, c.Blocked)
	case "X":
		return "Used / to no effect", fmt.Sprintf("%d / %d", c.Fired, c.Fizzled)
	}
	return "Fired / blocked / fizzled", fmt.Sprintf("%d / %d / %d", c.Fired, c.Blocked, c.Fizzled)
}

// diffFigOr shows a correlational difference with its interval, or why
// there is none.
func diffFigOr(d float64, ci [2]float64, low bool) string {
	if low {
		return "n/a (too few games)"
	}
	return fmt.Sprintf("%+.1f pts %s", 100*d, ptsCI(ci))
}
