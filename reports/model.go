package reports

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
)

// model is a Data prepared for rendering: factions in run order with names
// and colours, cards with their printed faces and the figure they are ranked
// by, and the findings every format reports.
type model struct {
	d        *Data
	rep      *analysis.Report
	now      time.Time
	factions []*facView
	facByID  map[string]*facView
	cards    []*cardView
	// game is the result's game (nil when this program does not have it),
	// vocab its words; parts are its views' parts of the report, err the
	// first view's error (the report is then not written).
	game  game.Game
	vocab game.Vocabulary
	parts []*game.Part
	err   error
	// metric is the card figure cards are ranked by.
	metric cardMetric
	// catalogOK: the cards' faces (type, kind, power, text) are known.
	catalogOK bool
	// tol is the tolerance band: a win share within ±tol of its fair share
	// counts as balanced.
	tol float64
	// cardTol is the card tolerance band in win-share points (docs/metrics.md,
	// "Flags"); every card's flag is set against it.
	cardTol float64
	// findings are computed once: every format shows the same.
	found []finding
	// chartRows is the last row of the Factions table the workbook's chart
	// reads (its error bars too).
	chartRows int
	// sharedName: card names that cards of several factions carry.
	sharedName map[string]bool
	// tiers is the skill check marked against the bands (nil: none run).
	tiers *analysis.TierCheck
}

type facView struct {
	ID, Name, Color string
	Stats           analysis.FactionStats
}

type cardView struct {
	analysis.CardStats
	Info    CardInfo
	Fac     *facView
	Impact  *analysis.CardImpact
	Value   *analysis.CardValue // nil: not estimated
	Score   float64             // the ranking figure (metric)
	CI      [2]float64          // its 95% interval
	Low     bool                // resting on too few games
	Sig     int                 // +1 / -1 when significant (multiple-testing corrected), else 0
	HasFace bool
}

// cardMetric names the figure cards are ranked by.
type cardMetric struct {
	Key    string // "value", "impact", "iwd", "oh_iwd"
	Label  string // short, for chart axes and table heads
	Long   string // one sentence
	Causal bool
	// Unit is "power" (combat-power points) or "pts" (percentage points of
	// a win share, stored as a fraction: Scale 100).
	Unit  string
	Scale float64
}

var (
	metricValue = cardMetric{"value", "Value vs faction",
		"how many percentage points of its faction's win share one copy of the card adds (against a blank in its place) above (+) or below (−) its faction's typical card, measured causally by a randomized experiment in which each game blanks a few card copies and moves a few powers (docs/metrics.md, \"Card value\")", true, "pts", 1}
	metricImpact = cardMetric{"impact", "Impact (ablation)",
		"the change in its faction's win share when the card is replaced by a blank, on the same games (causal)", true, "pts", 100}
	metricIWD = cardMetric{"iwd", "IWD (correlational)",
		"improvement when drawn: its owner's win share in games where a copy was drawn minus where none was (correlational, not causal)", false, "pts", 100}
	metricOHIWD = cardMetric{"oh_iwd", "Opening-hand IWD (correlational)",
		"opening-hand improvement: its owner's win share with a copy in the opening hand minus without (correlational, not causal)", false, "pts", 100}
)

// fig formats a figure of the metric: "+2.4 power" or "+2.4 pts".
func (c cardMetric) fig(x float64) string {
	return fmt.Sprintf("%+.1f %s", c.Scale*x, c.Unit)
}

// ci formats an interval of the metric: "[+1.1, +3.7]".
func (c cardMetric) ci(ci [2]float64) string {
	return fmt.Sprintf("[%+.1f, %+.1f]", c.Scale*ci[0], c.Scale*ci[1])
}

// palette colours factions without a valid colour.
var palette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7"}

var reColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

func newModel(d *Data, o Options) *model {
	rep := d.Report
	m := &model{d: d, rep: rep, now: o.now(), facByID: map[string]*facView{},
		tol: o.tolerance(), cardTol: o.cardTolerance()}
	var cat *Catalog
	if d.Meta != nil {
		cat = d.Meta.Catalog
	}
	infoF := map[string]FactionInfo{}
	infoC := map[string]CardInfo{}
	if cat != nil {
		for _, f := range cat.Factions {
			infoF[f.ID] = f
		}
		for _, c := range cat.Cards {
			infoC[c.ID] = c
		}
		m.catalogOK = len(cat.Cards) > 0
	}
	m.tiers = markTiers(d.Tiers, m.tol, m.cardTol, reportValues(rep))
	ids := factionOrder(rep)
	for i, id := range ids {
		fv := &facView{ID: id, Name: id, Color: palette[i%len(palette)], Stats: rep.Factions[id]}
		if fi, ok := infoF[id]; ok {
			if fi.Name != "" {
				fv.Name = fi.Name
			}
			if reColor.MatchString(fi.Color) {
				fv.Color = fi.Color
			}
		}
		m.factions = append(m.factions, fv)
		m.facByID[id] = fv
	}
	impacts := map[string]*analysis.CardImpact{}
	if d.Impact != nil {
		for i := range d.Impact.Cards {
			c := &d.Impact.Cards[i]
			if c.Skipped == "" {
				impacts[c.ID] = c
			}
		}
	}
	ok, valued := 0, 0
	for _, k := range rep.Cards {
		if !k.LowN && k.IWD != nil {
			ok++
		}
		if k.Value != nil {
			valued++
		}
	}
	switch {
	case valued > 0:
		m.metric = metricValue
	case len(impacts) > 0:
		m.metric = metricImpact
	case ok*2 >= len(rep.Cards) && ok > 0:
		m.metric = metricIWD
	default:
		m.metric = metricOHIWD
	}
	for _, k := range rep.Cards {
		cv := &cardView{CardStats: k, Fac: m.facByID[k.Faction]}
		if cv.Fac == nil {
			cv.Fac = &facView{ID: k.Faction, Name: k.Faction, Color: "#777777"}
		}
		if info, ok := infoC[k.ID]; ok {
			cv.Info, cv.HasFace = info, true
		} else {
			cv.Info = CardInfo{ID: k.ID, Faction: k.Faction, Name: k.Name, Copies: int(k.Copies)}
		}
		if k.Name != "" {
			cv.Info.Name = k.Name
		}
		cv.Impact = impacts[k.ID]
		if k.Value != nil {
			// The flag against this report's card band, on a copy: the
			// result's own value stays as it was measured.
			v := *k.Value
			v.SetFlag(m.cardTol)
			cv.Value = &v
		}
		switch m.metric.Key {
		case "value":
			if v := cv.Value; v != nil {
				cv.Score, cv.CI = v.VsFactionPts, v.VsFactionPtsCI95
				switch v.Flag {
				case analysis.FlagStrongText:
					cv.Sig = 1
				case analysis.FlagDead, analysis.FlagWeakText:
					cv.Sig = -1
				}
			} else {
				cv.Low = true
			}
		case "impact":
			if cv.Impact != nil {
				cv.Score, cv.CI, cv.Low = cv.Impact.Delta, cv.Impact.CI95, cv.Impact.LowN
				if cv.Impact.Significant {
					cv.Sig = sign(cv.Score)
				}
			} else {
				cv.Low = true
			}
		case "iwd":
			cv.Score, cv.CI, cv.Low = analysis.Or0(k.IWD), analysis.CIOr0(k.IWDCI95), k.LowN || k.IWD == nil
		default:
			cv.Score, cv.CI, cv.Low = analysis.Or0(k.OHIWD), analysis.CIOr0(k.OHIWDCI95), k.OHLowN || k.OHIWD == nil
		}
		m.cards = append(m.cards, cv)
	}
	if !m.metric.Causal {
		markSignificantBH(m.cards, 0.05)
	}
	m.game, m.vocab = gameOf(rep)
	if m.metric.Key == "value" {
		// The sentence is Alpha Tactics' ("its faction's", "moves a few
		// powers"); another game's reads in its words and unit.
		if u := m.unit(); u.Short != "power" {
			m.metric.Long = strings.Replace(m.metric.Long, "moves a few powers", "moves a few others by one "+u.Name, 1)
		}
		m.metric.Label, m.metric.Long = m.say(m.metric.Label), m.say(m.metric.Long)
	}
	m.parts, m.err = m.renderViews()
	m.found = m.findings()
	return m
}

// words are the game's words as the report writes them: "faction",
// "factions", "Faction", "Factions", "VP", "round", "rounds".
type words struct {
	Side, Sides, SideT, SidesT, Score, Length, Lengths string
}

func (m *model) words() words {
	v := m.vocab
	return words{Side: v.Side, Sides: v.Sides, SideT: upperFirst(v.Side), SidesT: upperFirst(v.Sides), Score: v.Score,
		Length: v.Length, Lengths: v.Length + "s"}
}

// upperFirst is s with its first letter in upper case.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// sayWords are the words of the first game the report's texts are
// written in; say puts the game's in their place.
var sayWords = regexp.MustCompile(`\b(Factions|factions|Faction|faction|VP)\b`)

// say is text, a sentence of the report's own (never one holding names
// from a ruleset), in the game's words: "faction" becomes its Side, "VP"
// its Score.
func (m *model) say(text string) string {
	w := m.words()
	return sayWords.ReplaceAllStringFunc(text, func(s string) string {
		switch s {
		case "Factions":
			return w.SidesT
		case "factions":
			return w.Sides
		case "Faction":
			return w.SideT
		case "faction":
			return w.Side
		}
		return w.Score
	})
}

// neutralWords name the things of a game this program does not have.
var neutralWords = game.Vocabulary{Side: "side", Sides: "sides", Score: "points", Length: "turn"}

// gameOf is the game of rep's ruleset and its vocabulary; nil and neutral
// words for a game this program does not have.
func gameOf(rep *analysis.Report) (game.Game, game.Vocabulary) {
	id := rep.Ruleset.Game
	if id == "" {
		id = game.DefaultID
	}
	if g, ok := game.Lookup(id); ok {
		return g, g.Vocabulary()
	}
	return nil, neutralWords
}

// renderViews asks the game's views for their parts of the report: they
// read the result as results.json holds it.
func (m *model) renderViews() ([]*game.Part, error) {
	vr, ok := m.game.(game.Viewer)
	if !ok {
		return nil, nil
	}
	views := vr.Views()
	if len(views) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(m.d)
	if err != nil {
		return nil, fmt.Errorf("reports: views: %w", err)
	}
	in := &game.ReportInput{}
	if err := json.Unmarshal(data, &in.Result); err != nil {
		return nil, fmt.Errorf("reports: views: %w", err)
	}
	for _, f := range m.factions {
		in.Sides = append(in.Sides, game.Side{ID: f.ID, Name: f.Name, Color: f.Color})
	}
	var parts []*game.Part
	for _, v := range views {
		p, err := v.Render(in)
		if err != nil {
			return nil, fmt.Errorf("reports: view %s: %w", v.ID(), err)
		}
		if p != nil {
			parts = append(parts, p)
		}
	}
	return parts, nil
}

// lengthNote is what the rules say of a game's length, from the first view
// that says it; nil when none does.
func (m *model) lengthNote() *game.LengthNote {
	for _, p := range m.parts {
		if p.Length != nil {
			return p.Length
		}
	}
	return nil
}

// markSignificantBH marks the correlational card figures that stay
// significant when the false discovery rate over all cards tested is held at
// alpha (Benjamini–Hochberg): with 130 cards, about six would clear a plain
// 95% interval by chance alone. Each p-value is read off the figure's 95%
// interval, taken as a normal one.
func markSignificantBH(cs []*cardView, alpha float64) {
	type pv struct {
		c *cardView
		p float64
	}
	var ps []pv
	for _, c := range cs {
		se := (c.CI[1] - c.CI[0]) / (2 * 1.959964)
		if c.Low || se <= 0 {
			continue
		}
		ps = append(ps, pv{c, math.Erfc(math.Abs(c.Score/se) / math.Sqrt2)})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].p < ps[j].p })
	k := 0
	for i, x := range ps {
		if x.p <= float64(i+1)/float64(len(ps))*alpha {
			k = i + 1
		}
	}
	for _, x := range ps[:k] {
		x.c.Sig = sign(x.c.Score)
	}
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// factionOrder lists the run's factions: the raw counts keep ruleset order;
// without them, sorted ids.
func factionOrder(rep *analysis.Report) []string {
	var ids []string
	if rep.Raw != nil {
		for _, f := range rep.Raw.Factions {
			ids = append(ids, f.ID)
		}
	}
	if len(ids) == 0 {
		for id := range rep.Factions {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	return ids
}

// cardLabel is a card's name for a chart's axis, with its faction's name
// when cards of other factions share it (four "Blockade"s were told apart
// only by the colour of their bars).
func (m *model) cardLabel(name, faction string) string {
	if m.sharedName == nil {
		m.sharedName = map[string]bool{}
		first := map[string]string{}
		for _, c := range m.cards {
			if f, ok := first[c.Info.Name]; ok && f != c.Faction {
				m.sharedName[c.Info.Name] = true
			} else if !ok {
				first[c.Info.Name] = c.Faction
			}
		}
	}
	if m.sharedName[name] {
		return name + " (" + m.facName(faction) + ")"
	}
	return name
}

func (m *model) facName(id string) string {
	if f := m.facByID[id]; f != nil {
		return f.Name
	}
	return id
}

func (m *model) facColor(id string) string {
	if f := m.facByID[id]; f != nil {
		return f.Color
	}
	return "#777777"
}

// title is "Name Version".
func (m *model) title() string {
	return strings.TrimSpace(m.rep.Ruleset.Name + " " + m.rep.Ruleset.Version)
}

// command is the command line that reproduces the games and the report:
// a `cardlab report` command with the tolerance it was rendered with
// (report --from may render with another than the games were played
// with), else the simulate command of the games.
func (m *model) command() string {
	if m.d.Meta != nil && m.d.Meta.Command != "" {
		return withTolerance(m.d.Meta.Command, 100*m.tol)
	}
	return SimulateCommand(m.rep)
}

var reTolerance = regexp.MustCompile(` --tolerance[ =]\S+`)

// withTolerance sets --tolerance of a `cardlab report` command line to pts
// (left out when it is the default). The command is ours (reportCommand):
// --out DIR comes last, so only the part before it is searched, and the
// value is a plain number.
func withTolerance(cmd string, pts float64) string {
	if !strings.HasPrefix(cmd, "cardlab report ") {
		return cmd
	}
	head, tail := cmd, ""
	if i := strings.LastIndex(cmd, " --out "); i >= 0 {
		head, tail = cmd[:i], cmd[i:]
	}
	head = reTolerance.ReplaceAllString(head, "")
	if pts != 100*DefaultTolerance {
		head += " --tolerance " + strconv.FormatFloat(pts, 'g', -1, 64)
	}
	return head + tail
}

func (m *model) generated() string {
	if m.d.Meta != nil && m.d.Meta.Generated != "" {
		return m.d.Meta.Generated
	}
	return ""
}

// expected is the fair share of a faction: the mean of 1/players over its
// lineups (0.5 when every lineup has two players).
func (m *model) expected(id string) float64 {
	var sum float64
	n := 0
	for _, l := range m.rep.Config.Matchups {
		if slices.Contains(l, id) {
			sum += 1 / float64(len(l))
			n++
		}
	}
	if n == 0 {
		return 0.5
	}
	return sum / float64(n)
}

// describe is the one-line description of the run.
func (m *model) describe() string {
	c := m.rep.Config
	s := fmt.Sprintf("%d games: %d %s × %d, bots %s, seed %d", m.rep.Games, len(c.Matchups),
		plural(len(c.Matchups), "lineup", "lineups"), c.Games, strings.Join(c.Bots, ","), c.Seed)
	if m.rep.Partial {
		s += " — PARTIAL (interrupted)"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// --- findings: see findings.go ---

// --- number formats -----------------------------------------------------------

func pct1(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func pct0(x float64) string {
	s := fmt.Sprintf("%.1f", 100*x)
	return strings.TrimSuffix(s, ".0") + "%"
}

func ciPct(c [2]float64) string { return fmt.Sprintf("%.1f–%.1f%%", 100*c[0], 100*c[1]) }

// kindNames spells out the effect letters.
var kindNames = map[string]string{"N": "no effect", "O": "one-time", "P": "permanent", "X": "special", "S": "scoring"}

func kindName(k string) string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return k
}
