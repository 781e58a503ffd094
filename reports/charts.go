package reports

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
)

// A chart of the page: go-echarts builds the ECharts option, which is
// written as JSON into a <script type="application/json"> element and drawn
// by page.js. Nothing of go-echarts' own page templates is used: they put
// the option into a script without escaping it, and load ECharts from a CDN.
//
// Options never hold JavaScript: where a chart needs a function (the error
// bars of a custom series, tooltip formatters) the option names one of
// page.js's hooks ("cardlab:errorbar", "cardlab:ci", …), which escape every
// name they show.
type chartView struct {
	ID     string
	Title  string
	Note   string
	Height int // pixels
	Option template.JS
}

// echartsOption is a go-echarts chart.
type echartsOption interface {
	Validate()
	JSON() map[string]interface{}
}

// optionJSON renders c's option merged with extra (maps merge key by key,
// lists element by element, extra wins) as JSON that is safe inside a
// script element: encoding/json escapes <, > and & (so no "</script>" or
// "<!--" can appear) and U+2028/U+2029.
func optionJSON(c echartsOption, extra map[string]any) (template.JS, error) {
	c.Validate()
	raw, err := json.Marshal(c.JSON())
	if err != nil {
		return "", err
	}
	var o map[string]any
	if err := json.Unmarshal(raw, &o); err != nil {
		return "", err
	}
	delete(o, "toolbox")
	o["animation"] = false
	merged := merge(o, normalize(extra)).(map[string]any)
	out, err := json.Marshal(merged)
	if err != nil {
		return "", err
	}
	return template.JS(out), nil
}

// normalize turns v into plain JSON values (maps, lists, numbers, strings).
func normalize(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps and lists of plain values are passed
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		panic(err)
	}
	return out
}

func merge(dst, src any) any {
	switch s := src.(type) {
	case map[string]any:
		d, ok := dst.(map[string]any)
		if !ok {
			return s
		}
		for k, v := range s {
			d[k] = merge(d[k], v)
		}
		return d
	case []any:
		d, ok := dst.([]any)
		if !ok {
			return s
		}
		for i, v := range s {
			if i < len(d) {
				d[i] = merge(d[i], v)
			} else {
				d = append(d, v)
			}
		}
		return d
	}
	return src
}

type obj = map[string]any

// p100 is a rate in percent, rounded to 0.01.
func p100(x float64) float64 { return math.Round(x*10000) / 100 }

// noTitle leaves titles to the page's headings.
func noTitle() charts.GlobalOpts { return charts.WithTitleOpts(opts.Title{Show: opts.Bool(false)}) }

func noLegend() charts.GlobalOpts { return charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}) }

func legendTop() charts.GlobalOpts {
	return charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"})
}

// tooltip is an axis or item tooltip with one of page.js's formatters.
func tooltip(trigger, hook string) obj {
	return obj{"trigger": trigger, "formatter": hook, "confine": true}
}

// errorBars is a custom series drawing intervals: data [category, lo, hi].
func errorBars(name string, data [][3]float64) *charts.Custom {
	c := charts.NewCustom()
	var d []opts.CustomData
	for _, v := range data {
		d = append(d, opts.CustomData{Value: []float64{v[0], v[1], v[2]}})
	}
	c.AddSeries(name, d)
	return c
}

func errorHook(horizontal bool) string {
	if horizontal {
		return "cardlab:errorbar-h"
	}
	return "cardlab:errorbar"
}

// --- the charts ------------------------------------------------------------------

func (m *model) charts() (map[string]*chartView, error) {
	out := map[string]*chartView{}
	add := func(cv *chartView, err error) error {
		if err != nil {
			return fmt.Errorf("chart %s: %w", cv.ID, err)
		}
		if cv.Option != "" {
			out[cv.ID] = cv
		}
		return nil
	}
	builders := []func() (*chartView, error){
		m.chartFactions, m.chartMatchups, m.chartSeats, m.chartCardRank, m.chartPowerScatter,
		m.chartRounds, m.chartDecisions, m.chartImpact, m.chartDiffFactions,
		m.chartDiffCards, m.chartSweep, m.chartSkill,
	}
	for _, b := range builders {
		if err := add(b()); err != nil {
			return nil, err
		}
	}
	vcs, err := m.viewCharts()
	if err != nil {
		return nil, err
	}
	for _, cv := range vcs {
		if _, ok := out[cv.ID]; ok || slices.Contains(chartOrder, cv.ID) {
			return nil, fmt.Errorf("chart %s: a view's chart has the id of another", cv.ID)
		}
		if err := add(cv, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// chartFactions: win share of every faction with its interval and the fair
// share.
func (m *model) chartFactions() (*chartView, error) {
	cv := &chartView{ID: "chart-factions", Title: m.say("Faction win shares"), Height: 360,
		Note: "Bars: share of games won (a shared victory counts as a share). Whiskers: 95% Wilson interval. Dashed line: the fair share."}
	if len(m.factions) == 0 {
		return cv, nil
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(noTitle(), noLegend(),
		charts.WithYAxisOpts(opts.YAxis{Name: "win share %", Min: 0}))
	var names []string
	var data []opts.BarData
	var bars [][3]float64
	fair := 0.0
	for i, f := range m.factions {
		names = append(names, f.Name)
		data = append(data, opts.BarData{Value: p100(f.Stats.WinRate), ItemStyle: &opts.ItemStyle{Color: f.Color}})
		bars = append(bars, [3]float64{float64(i), p100(f.Stats.CI95[0]), p100(f.Stats.CI95[1])})
		fair += m.expected(f.ID)
	}
	fair /= float64(len(m.factions))
	bar.SetXAxis(names).AddSeries("win share", data)
	bar.Overlap(errorBars("95% CI", bars))
	var err error
	cv.Option, err = optionJSON(bar, obj{
		"tooltip": tooltip("axis", "cardlab:ci"),
		"grid":    obj{"right": 44},
		// The axis name starts at the axis: centred on it, it was cut at
		// the page's left edge at 360 px.
		"yAxis": []obj{{"nameTextStyle": obj{"align": "left"}}},
		// Every faction named, wrapped if need be: by default ECharts
		// drops the labels that do not fit (Vulcan and Klingon at 360 px).
		"xAxis": []obj{{"axisLabel": obj{"interval": 0, "width": 56, "overflow": "break", "lineHeight": 14}}},
		"series": []obj{
			{"barMaxWidth": 80, "markLine": obj{"silent": true, "symbol": "none",
				"lineStyle": obj{"type": "dashed", "color": "#333"},
				// Right of the plot, where no bar is: inside it, the
				// label sat on the bars at 400 px.
				"label": obj{"formatter": "fair\n" + strconv.FormatFloat(p100(fair), 'f', -1, 64) + "%", "position": "end", "lineHeight": 14},
				"data":  []obj{{"yAxis": p100(fair)}}}},
			{"renderItem": errorHook(false), "z": 10},
		},
		"_cardlab": obj{"unit": "%"},
	})
	return cv, err
}

// chartMatchups: the head-to-head win share of each faction (row) against
// each other (column), 2-player lineups only.
func (m *model) chartMatchups() (*chartView, error) {
	cv := &chartView{ID: "chart-matchups", Title: "Head-to-head win shares", Height: 120 + 60*len(m.factions),
		Note: m.say("Each cell: the row faction's win share against the column faction over every seating, and below it ± the half-width of its 95% interval. * marks a matchup outside the tolerance band and significant after the Holm correction over all matchups. Blue: the row faction wins more than half; red: less.")}
	if m.oneSide() {
		return cv, nil // no head-to-head
	}
	idx := map[string]int{}
	var names []string
	for i, f := range m.factions {
		idx[f.ID] = i
		names = append(names, f.Name)
	}
	var data []opts.HeatMapData
	maxDev := 5.0
	md := m.matchupDev()
	for i, mu := range m.rep.Matchups {
		if len(mu.Lineup) != 2 {
			continue
		}
		mark := 0.0 // 1: outside the tolerance band and significant after Holm
		if v := md[i]; v != nil && v.out(m.tol) {
			mark = 1
		}
		for k, id := range mu.Lineup {
			opp := mu.Lineup[1-k]
			s := mu.Factions[id]
			row, ok1 := idx[id]
			col, ok2 := idx[opp]
			if !ok1 || !ok2 {
				continue
			}
			data = append(data, opts.HeatMapData{Name: m.facName(id) + " vs " + m.facName(opp),
				Value: []float64{float64(col), float64(row), p100(s.WinRate), p100(s.CI95[0]), p100(s.CI95[1]), float64(s.Games), mark}})
			maxDev = max(maxDev, math.Abs(p100(s.WinRate)-50))
		}
	}
	if len(data) == 0 {
		return cv, nil
	}
	span := math.Ceil(maxDev/5) * 5
	if m.tol > 0 {
		cv.Note += fmt.Sprintf(" Tolerance band: %s around 50%%.", m.tolText())
	}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(noTitle(), noLegend(),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "against", Data: names, NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: names}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: float32(50 - span), Max: float32(50 + span),
			Dimension: "2", InRange: &opts.VisualMapInRange{Color: []string{"#d7301f", "#f7f7f7", "#2b8cbe"}}}))
	hm.SetXAxis(names).AddSeries("win share", data)
	var err error
	cv.Option, err = optionJSON(hm, obj{
		"tooltip": tooltip("item", "cardlab:heatmap"),
		"grid":    obj{"left": 10, "right": 20, "top": 20, "bottom": 90, "containLabel": true},
		"yAxis":   []obj{{"inverse": true, "axisLabel": obj{"show": true}}},
		// Every column named, wrapped if need be: ECharts dropped the
		// labels that did not fit (Vulcan and Klingon at 360 px).
		"xAxis": []obj{{"axisLabel": obj{"interval": 0, "width": 56, "overflow": "break", "lineHeight": 14}}},
		"visualMap": []obj{{"orient": "horizontal", "left": "center", "bottom": 0, "text": []string{"wins more", "wins less"},
			"precision": 1}},
		"series": []obj{{"label": obj{"show": true, "formatter": "cardlab:heatlabel", "lineHeight": 15, "fontSize": 11}}},
	})
	return cv, err
}

// chartSeats: win share by seat and by turn order, per table size.
func (m *model) chartSeats() (*chartView, error) {
	cv := &chartView{ID: "chart-seats", Title: "Seat and turn-order advantage", Height: 340,
		Note: m.say("Seat: position at the table (seats rotate, so every faction sits everywhere equally often). Turn order: counted from the player who began round 1, over the games whose starter was drawn at random (the rules' starting faction begins every game it plays, which would lend the start its own strength). Dashed line: the fair share.")}
	if len(m.rep.Seats) == 0 {
		return cv, nil
	}
	var names []string
	var data []opts.BarData
	var bars [][3]float64
	multi := len(m.rep.Seats) > 1
	for _, s := range m.rep.Seats {
		prefix := ""
		if multi {
			prefix = fmt.Sprintf("%dp ", s.Players)
		}
		for _, st := range s.Seats {
			names = append(names, fmt.Sprintf("%sseat %d", prefix, st.Seat))
			data = append(data, opts.BarData{Value: p100(st.WinRate), ItemStyle: &opts.ItemStyle{Color: "#4e79a7"}})
			bars = append(bars, [3]float64{float64(len(bars)), p100(st.CI95[0]), p100(st.CI95[1])})
		}
		// The start apart from the factions: only the random-start games
		// (none in results made before they were counted).
		for _, st := range s.RandomStartOrder {
			names = append(names, prefix+analysis.TurnOrderLabel(st.Seat))
			data = append(data, opts.BarData{Value: p100(st.WinRate), ItemStyle: &opts.ItemStyle{Color: "#f28e2b"}})
			bars = append(bars, [3]float64{float64(len(bars)), p100(st.CI95[0]), p100(st.CI95[1])})
		}
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(noTitle(), noLegend(), charts.WithYAxisOpts(opts.YAxis{Name: "win share %", Min: 0}))
	bar.SetXAxis(names).AddSeries("win share", data)
	bar.Overlap(errorBars("95% CI", bars))
	first := obj{"barMaxWidth": 60}
	if !multi {
		e := p100(m.rep.Seats[0].Expected)
		first["markLine"] = obj{"silent": true, "symbol": "none", "lineStyle": obj{"type": "dashed", "color": "#333"},
			// Beyond the line's end: inside it would sit on the last bar,
			// which is about as high as the fair share.
			"label": obj{"formatter": "fair\n" + strconv.FormatFloat(e, 'f', -1, 64) + "%", "position": "end", "lineHeight": 14}, "data": []obj{{"yAxis": e}}}
	}
	var err error
	cv.Option, err = optionJSON(bar, obj{
		"tooltip":  tooltip("axis", "cardlab:ci"),
		"grid":     obj{"left": 30, "right": 44, "top": 40, "bottom": 20, "containLabel": true},
		"xAxis":    []obj{{"axisLabel": obj{"interval": 0, "width": 64, "overflow": "break", "lineHeight": 14}}},
		"yAxis":    []obj{{"nameTextStyle": obj{"align": "left"}}},
		"series":   []obj{first, {"renderItem": errorHook(false), "z": 10}},
		"_cardlab": obj{"unit": "%"},
	})
	return cv, err
}

// rankChart is a horizontal bar chart of cards ranked by a figure (in
// rates, shown as percentage points) with intervals; dim marks bars whose
// interval includes 0.
func rankChart(id, ttl, note, axis string, items []rankItem) (*chartView, error) {
	return rankChartIn(id, ttl, note, axis, "pts", 100, items)
}

// rankChartIn is rankChart for figures in unit ("pts" or "power"), shown
// multiplied by scale.
func rankChartIn(id, ttl, note, axis, unit string, scale float64, items []rankItem) (*chartView, error) {
	cv := &chartView{ID: id, Title: ttl, Note: note, Height: 80 + 22*len(items)}
	if len(items) == 0 {
		return cv, nil
	}
	var names []string
	var data []opts.BarData
	var bars [][3]float64
	for i, it := range items {
		names = append(names, it.name)
		st := &opts.ItemStyle{Color: it.color}
		sc := func(x float64) float64 { return math.Round(x*scale*100) / 100 }
		bd := opts.BarData{Name: it.name, Value: sc(it.value), ItemStyle: st}
		data = append(data, bd)
		bars = append(bars, [3]float64{float64(i), sc(it.ci[0]), sc(it.ci[1])})
	}
	bar := charts.NewBar()
	// A long axis name takes two lines: on one it ran past the chart's
	// edge at 360 px.
	if len(axis) > 30 && !strings.Contains(axis, "\n") {
		axis = strings.Replace(axis, ", ", ",\n", 1)
	}
	bar.SetGlobalOptions(noTitle(), noLegend(), charts.WithXAxisOpts(opts.XAxis{Name: axis}))
	bar.SetXAxis(names).AddSeries("figure", data)
	series := []obj{{"barMaxWidth": 18}}
	if !items[0].noCI {
		bar.Overlap(errorBars("95% CI", bars))
		series = append(series, obj{"renderItem": errorHook(true), "z": 10})
	}
	bar.XYReversal()
	var dataPatch []obj
	for _, it := range items {
		p := obj{}
		if it.dim {
			p["itemStyle"] = obj{"opacity": 0.45}
		}
		dataPatch = append(dataPatch, p)
	}
	series[0]["data"] = dataPatch
	var err error
	cv.Option, err = optionJSON(bar, obj{
		"tooltip": tooltip("axis", "cardlab:ci"),
		// The bottom has room for an axis name of two lines.
		"grid": obj{"left": 10, "right": 30, "top": 30, "bottom": 64, "containLabel": true},
		// Long names wrap, never cut ("Gravitational …"): on a narrow
		// screen every row has room for two lines.
		"yAxis":    []obj{{"inverse": true, "axisLabel": obj{"interval": 0, "width": 220, "overflow": "break", "lineHeight": 13}}},
		"xAxis":    []obj{{"nameLocation": "middle", "nameGap": 36}},
		"series":   series,
		"_cardlab": obj{"unit": unit, "names": itemsFactions(items), "narrowLabel": 110, "narrowWrap": true, "narrowHeight": 90 + 30*len(items)},
	})
	return cv, err
}

type rankItem struct {
	name, faction, color string
	value                float64
	ci                   [2]float64
	dim                  bool
	noCI                 bool // no interval to draw
}

func itemsFactions(items []rankItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.faction
	}
	return out
}

// ends returns the first and last n of xs (all of them if there are at
// most 2n).
func ends[T any](xs []T, n int) []T {
	if len(xs) <= 2*n {
		return xs
	}
	return append(slices.Clone(xs[:n]), xs[len(xs)-n:]...)
}

// chartCardRank: the cards at both ends of the card ranking — by value vs
// faction (over-powered first, flagged marked), or without card values by
// the correlational fallback, labelled so.
func (m *model) chartCardRank() (*chartView, error) {
	if m.metric.Key == "impact" {
		return &chartView{ID: "chart-cards"}, nil // the impact chart shows it
	}
	ranked := m.ranked()
	var items []rankItem
	for _, c := range ends(ranked, 15) {
		name := m.cardLabel(c.Info.Name, c.Faction)
		if m.metric.Key == "value" && c.Value != nil && c.Value.Flagged {
			name += " ●"
		}
		if k := m.skillCard(c.ID); k != nil && k.SkillDependent {
			name += " ◆"
		}
		items = append(items, rankItem{name: name, faction: m.facName(c.Faction), color: c.Fac.Color,
			value: c.Score, ci: c.CI, dim: c.Sig == 0})
	}
	n := min(15, len(ranked))
	if m.metric.Key == "value" {
		note := fmt.Sprintf(m.say("The %d cards that play furthest above and below their faction's typical card, of %d: %s. ")+
			"Whiskers: 95%% interval; ● and solid bars: flagged (%s); faded: not flagged. "+
			"Every card is ranked in the gallery and in balance.xlsx.%s", n, len(ranked), m.metric.Long, m.flagRule(), m.skillChartNote())
		return rankChartIn("chart-cards", m.say("Cards by value vs faction (win-share points)"), note, m.say("win-share points vs\nthe faction's typical card"), "pts", 1, items)
	}
	note := fmt.Sprintf("CORRELATIONAL: this result has no card values. The %d highest and %d lowest cards by %s: %s. Whiskers: 95%% interval (Newcombe); faded bars: the interval includes 0. "+
		"A card held or played while its owner is winning looks good whatever it does: do not read this as which card is too strong.", n, n, m.metric.Label, m.metric.Long)
	return rankChart("chart-cards", "Cards ranked by "+m.metric.Label, note, "percentage points (correlational)", items)
}

// chartPowerScatter: printed power against impact, or without an impact
// analysis against the card figure cards are ranked by. (The win share when
// played is no use here: when decks cycle, nearly every card is played in
// nearly every game and its played win share is its faction's.)
func (m *model) chartPowerScatter() (*chartView, error) {
	if m.metric.Key == "value" {
		return m.chartPlaysLike()
	}
	cv := &chartView{ID: "chart-power", Height: 420}
	impact := m.metric.Key == "impact"
	yName := "percentage points"
	cv.Title = "Printed power against " + m.metric.Label
	cv.Note = "Each dot is a card (jittered sideways so cards of equal power do not hide each other). " +
		m.metric.Label + ": " + m.metric.Long + ". Grey-ringed dots rest on too few games."
	if impact {
		yName = "impact, percentage points"
		cv.Title = "Printed power against impact"
		cv.Note = "Each dot is a card (jittered sideways). Impact: the change in its faction's win share when the card is replaced by a blank (ablation). A card far above the trend does more than its power suggests."
	}
	xName := "printed power"
	if !m.catalogOK {
		xName = "mean combat power counted in scored rows"
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(noTitle(), legendTop(),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: xName}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName}))
	n := 0
	var series []obj
	for _, f := range m.factions {
		var data []opts.ScatterData
		var patch []obj
		for i, c := range m.cards {
			if c.Faction != f.ID {
				continue
			}
			x := c.MeanPower
			if m.catalogOK {
				x = float64(c.Info.Power)
			}
			if impact && c.Impact == nil {
				continue
			}
			y := p100(c.Score)
			jit := 0.0
			if m.catalogOK {
				jit = (float64((i*7919)%13)/12 - 0.5) * 0.5
			}
			data = append(data, opts.ScatterData{Name: c.Info.Name, Value: []float64{x + jit, y, x}, SymbolSize: 9})
			p := obj{}
			if c.Low {
				p["itemStyle"] = obj{"borderColor": "#888", "borderWidth": 2, "opacity": 0.5}
			}
			patch = append(patch, p)
			n++
		}
		sc.AddSeries(f.Name, data)
		series = append(series, obj{"itemStyle": obj{"color": f.Color, "opacity": 0.8}, "data": patch})
	}
	if n == 0 {
		return cv, nil
	}
	var err error
	cv.Option, err = optionJSON(sc, obj{
		"tooltip":  tooltip("item", "cardlab:scatter"),
		"grid":     obj{"left": 60, "right": 30, "top": 50, "bottom": 50},
		"xAxis":    []obj{{"nameLocation": "middle", "nameGap": 28, "minInterval": 1}},
		"yAxis":    []obj{{"scale": true, "nameTextStyle": obj{"align": "left"}}},
		"series":   series,
		"_cardlab": obj{"unit": "pts"},
	})
	return cv, err
}

// chartPlaysLike: each card's printed power against the power it plays
// like; a card above the diagonal does more than its number says (its text
// adds), below it less.
func (m *model) chartPlaysLike() (*chartView, error) {
	u := m.unit()
	// A unit that is a step of the game's currency (a step of 10 MP, say) is
	// drawn in the currency: both axes times the step.
	k, axis, plural := 1.0, u.Short, u.Plural
	first := "The first power points of a card are worth more than the marginal one, so a plain low-power card sits above it"
	if u.Scale > 1 && u.Currency != "" {
		k, axis, plural = float64(u.Scale), u.Currency, u.Currency
		first = "The first " + u.Currency + " a card is worth count for more than the marginal ones, so a plain cheap card sits above it"
	}
	cv := &chartView{ID: "chart-power", Height: 420, Title: "Printed " + axis + " against the " + axis + " each card plays like",
		Note: m.say("Each dot is a card (jittered sideways so cards of equal " + axis + " do not hide each other). Up: one copy's value (win-share points against a blank) read in " + plural + " at its faction's price of a " + u.Name + " (%s). Dashed diagonal: plays exactly its printed " + axis + ". " + first + ": what the text adds is in the gallery, against the faction's own plain cards. Hover for the interval.")}
	if !m.catalogOK {
		return &chartView{ID: "chart-power"}, nil
	}
	cv.Note = fmt.Sprintf(cv.Note, m.priceNote())
	sc := charts.NewScatter()
	sc.SetGlobalOptions(noTitle(), legendTop(),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "printed " + axis}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "plays like, " + axis}))
	n, hi, lo := 0, 1.0, 0.0
	var series []obj
	for _, f := range m.factions {
		var data []opts.ScatterData
		for i, c := range m.cards {
			if c.Faction != f.ID || c.Value == nil {
				continue
			}
			x := float64(c.Info.Power) * k
			if k > 1 {
				x = float64(m.printedValue(&c.Info)) // exact, not the rounded steps
			}
			jit := (float64((i*7919)%13)/12 - 0.5) * 0.5 * k
			y := math.Round(c.Value.Power*k*100) / 100
			data = append(data, opts.ScatterData{Name: c.Info.Name, Value: []float64{x + jit, y, x}, SymbolSize: 9})
			hi = max(hi, x+jit, y)
			lo = min(lo, y)
			n++
		}
		sc.AddSeries(f.Name, data)
		series = append(series, obj{"itemStyle": obj{"color": f.Color, "opacity": 0.8}})
	}
	if n == 0 {
		return &chartView{ID: "chart-power"}, nil
	}
	// Both axes end at top, so the diagonal's end lies on the plot: a
	// markLine with an end outside an axis is not drawn at all.
	top := math.Ceil(hi)
	series[0]["markLine"] = obj{"silent": true, "symbol": "none", "lineStyle": obj{"type": "dashed", "color": "#555"},
		"label": obj{"show": false}, "data": []any{[]obj{{"coord": []float64{0, 0}}, {"coord": []float64{top, top}}}}}
	var err error
	cv.Option, err = optionJSON(sc, obj{
		"tooltip":  tooltip("item", "cardlab:scatter"),
		"grid":     obj{"left": 50, "right": 20, "top": 50, "bottom": 50},
		"xAxis":    []obj{{"nameLocation": "middle", "nameGap": 28, "minInterval": 1, "min": 0, "max": top}},
		"yAxis":    []obj{{"min": math.Floor(lo), "max": top, "nameTextStyle": obj{"align": "left"}}},
		"series":   series,
		"_cardlab": obj{"unit": axis, "yLabel": "plays like"},
	})
	return cv, err
}

// sharesChart draws a view's Shares chart: one bar per category split into
// each side's share (stacked), the intervals in the tooltip.
func (m *model) sharesChart(c *game.Chart) (*chartView, error) {
	sh := c.Shares
	n := len(sh.Categories)
	cv := &chartView{ID: c.ID, Title: c.Title, Height: 90 + 24*n, Note: c.Note}
	if n == 0 || len(m.factions) == 0 {
		return cv, nil
	}
	if len(sh.Values) != len(m.factions) || len(sh.CI) != len(m.factions) {
		return cv, fmt.Errorf("%d series of values and %d of intervals for %d sides", len(sh.Values), len(sh.CI), len(m.factions))
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(noTitle(), legendTop(), charts.WithXAxisOpts(opts.XAxis{Name: sh.Axis, Max: 100}))
	bar.SetXAxis(sh.Categories)
	var series []obj
	var cis [][]string
	for i, f := range m.factions {
		if len(sh.Values[i]) != n || len(sh.CI[i]) != n {
			return cv, fmt.Errorf("side %s: %d values and %d intervals for %d categories", f.ID, len(sh.Values[i]), len(sh.CI[i]), n)
		}
		var data []opts.BarData
		var row []string
		for j := range n {
			data = append(data, opts.BarData{Value: p100(sh.Values[i][j])})
			c := sh.CI[i][j]
			row = append(row, fmt.Sprintf("[%.1f, %.1f]", 100*c[0], 100*c[1]))
		}
		bar.AddSeries(f.Name, data, charts.WithBarChartOpts(opts.BarChart{Stack: sh.Stack}))
		series = append(series, obj{"itemStyle": obj{"color": f.Color}, "barMaxWidth": 18})
		cis = append(cis, row)
	}
	bar.XYReversal()
	var err error
	cv.Option, err = optionJSON(bar, obj{
		"tooltip": tooltip("axis", "cardlab:axis"),
		"grid":    obj{"left": 10, "right": 30, "top": 40, "bottom": 40, "containLabel": true},
		"yAxis":   []obj{{"inverse": true, "axisLabel": obj{"interval": 0, "width": 240, "overflow": "break", "lineHeight": 13}}},
		"xAxis":   []obj{{"nameLocation": "middle", "nameGap": 26, "max": 100}},
		"series":  series,
		// On a narrow screen the names wrap (a category's name can be too
		// long to cut), in rows tall enough for three lines.
		"_cardlab": obj{"unit": "%", "narrowLabel": 120, "narrowWrap": true, "narrowHeight": 90 + 44*n, "cis": cis},
	})
	return cv, err
}

// viewCharts draws the charts of the views' page sections, in order.
func (m *model) viewCharts() ([]*chartView, error) {
	var out []*chartView
	for _, p := range m.parts {
		if p.Section == nil {
			continue
		}
		for i := range p.Section.Charts {
			c := &p.Section.Charts[i]
			var cv *chartView
			var err error
			kinds := 0
			for _, set := range []bool{c.Shares != nil, c.Grid != nil, c.Points != nil} {
				if set {
					kinds++
				}
			}
			switch {
			case kinds != 1:
				return nil, fmt.Errorf("chart %s: not exactly one kind of chart set", c.ID)
			case c.Shares != nil:
				cv, err = m.sharesChart(c)
			case c.Grid != nil:
				cv, err = gridChart(c)
			case c.Points != nil:
				cv, err = pointsChart(c)
			default:
				return nil, fmt.Errorf("chart %s: not exactly one kind of chart set", c.ID)
			}
			if err != nil {
				return nil, fmt.Errorf("chart %s: %w", c.ID, err)
			}
			out = append(out, cv)
		}
	}
	return out, nil
}

// histChart is a bar chart of a histogram.
func histChart(id, ttl, note, axis string, bins []Bin) (*chartView, error) {
	cv := &chartView{ID: id, Title: ttl, Note: note, Height: 320}
	if len(bins) == 0 {
		return cv, nil
	}
	var names []string
	var data []opts.BarData
	for _, b := range bins {
		l := strconv.Itoa(b.From)
		if b.To != b.From {
			l += "–" + strconv.Itoa(b.To)
		}
		names = append(names, l)
		data = append(data, opts.BarData{Value: b.Games})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(noTitle(), noLegend(), charts.WithXAxisOpts(opts.XAxis{Name: axis}),
		charts.WithYAxisOpts(opts.YAxis{Name: "games"}))
	bar.SetXAxis(names).AddSeries("games", data, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#76b7b2"}))
	var err error
	cv.Option, err = optionJSON(bar, obj{
		"tooltip":  tooltip("axis", "cardlab:axis"),
		"grid":     obj{"left": 60, "right": 20, "top": 40, "bottom": 60},
		"xAxis":    []obj{{"nameLocation": "middle", "nameGap": 32}},
		"series":   []obj{{"barCategoryGap": "8%"}},
		"_cardlab": obj{"unit": "games"},
	})
	return cv, err
}

// chartRounds: the distribution of game lengths in rounds, or without one
// (a result without per-game records) the means of the game figures.
func (m *model) chartRounds() (*chartView, error) {
	if h := m.histograms(); h != nil {
		if m.roundBins(h) == nil {
			return &chartView{ID: "chart-rounds"}, nil
		}
		note := "Games by the number of rounds played."
		if ln := m.lengthNote(); ln != nil {
			note += ln.Chart
		}
		return histChart("chart-rounds", "Game length in rounds", note, "rounds", h.Rounds)
	}
	if m.perGame() != nil {
		return &chartView{ID: "chart-rounds"}, nil // the game's own figures are in the table
	}
	g := m.rep.Game
	cv := &chartView{ID: "chart-rounds", Title: "Game figures (means)", Height: 320,
		Note: "This result has no per-game records, so only means are shown; whiskers on rounds: ± one standard deviation (the spread of single games)."}
	names := []string{"rounds", "deployment turns per round", "passes", "reshuffles"}
	vals := []float64{g.RoundsMean, g.DeployTurnsPerRound, g.PassesMean, g.ReshufflesMean}
	var data []opts.BarData
	for _, v := range vals {
		data = append(data, opts.BarData{Value: math.Round(v*100) / 100, ItemStyle: &opts.ItemStyle{Color: "#76b7b2"}})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(noTitle(), noLegend())
	bar.SetXAxis(names).AddSeries("mean", data)
	bar.Overlap(errorBars("± sd", [][3]float64{{0, g.RoundsMean - g.RoundsSD, g.RoundsMean + g.RoundsSD}}))
	var err error
	cv.Option, err = optionJSON(bar, obj{
		"tooltip":  tooltip("axis", "cardlab:ci"),
		"xAxis":    []obj{{"axisLabel": obj{"interval": 0}}},
		"series":   []obj{{"barMaxWidth": 60}, {"renderItem": errorHook(false), "z": 10}},
		"_cardlab": obj{"unit": "", "ci": "± sd"},
	})
	return cv, err
}

// chartDecisions: the distribution of decisions per game.
func (m *model) chartDecisions() (*chartView, error) {
	h := m.histograms()
	if h == nil {
		return &chartView{ID: "chart-decisions"}, nil
	}
	return histChart("chart-decisions", "Game length in decisions",
		fmt.Sprintf("Games by the number of decisions the bots took (every placement, pass, discard, effect choice and bid); mean %.1f.", m.rep.Game.DecisionsMean),
		"decisions per game", h.Decisions)
}

// chartImpact: cards ranked by their ablation impact.
func (m *model) chartImpact() (*chartView, error) {
	im := m.d.Impact
	if im == nil {
		return &chartView{ID: "chart-impact"}, nil
	}
	var tested []analysis.CardImpact
	for _, c := range im.Cards {
		if c.Skipped == "" {
			tested = append(tested, c)
		}
	}
	slices.SortStableFunc(tested, func(a, b analysis.CardImpact) int { return cmp.Compare(b.Delta, a.Delta) })
	var items []rankItem
	for _, c := range ends(tested, 15) {
		items = append(items, rankItem{name: m.cardLabel(c.Name, c.Faction), faction: m.facName(c.Faction), color: m.facColor(c.Faction),
			value: c.Delta, ci: c.CI95, dim: !c.Significant})
	}
	note := fmt.Sprintf("Impact of a card: its faction's win share with the card minus with it replaced (%s), on the same games. "+
		"Whiskers: paired 95%% interval; faded bars: not significant after %s correction at α = %g. 15 highest and 15 lowest of %d cards tested.",
		im.Mode, im.Correction, im.Alpha, len(tested))
	if im.Ruleset.Game != "" {
		// Another game's ablation blanks one seat's copy in a mirror
		// (analysis.Impact through the Valuer): say whose.
		note = fmt.Sprintf("Impact of a card: its holder's win share with one copy minus with that copy blank (%s), on the same games; "+
			"where one side holds several seats, only the lineup's first seat of the side has its copy blanked, and its share is compared. "+
			"Whiskers: paired 95%% interval; faded bars: not significant after %s correction at α = %g. 15 highest and 15 lowest of %d cards tested.",
			im.Mode, im.Correction, im.Alpha, len(tested))
	}
	return rankChart("chart-impact", "Card impact (ablation)", note, "impact on win share, percentage points", items)
}

// chartDiffFactions: the paired change of every faction's win share.
func (m *model) chartDiffFactions() (*chartView, error) {
	df := m.d.Diff
	if df == nil || len(df.Factions) == 0 {
		return &chartView{ID: "chart-diff-factions"}, nil
	}
	var items []rankItem
	for _, f := range df.Factions {
		items = append(items, rankItem{name: m.facName(f.Faction), faction: m.facName(f.Faction), color: m.facColor(f.Faction),
			value: f.Delta, ci: f.CI95, dim: !f.Significant})
	}
	cv, err := rankChart("chart-diff-factions", m.say("Change of faction win shares (variant − base)"),
		fmt.Sprintf(m.say("Paired on the same games: each faction's win share under the new rules minus under the old. Whiskers: paired 95%% interval; faded: not significant after %s correction."), df.Correction),
		"change of win share, percentage points", items)
	if cv != nil {
		cv.Height = max(cv.Height, 220)
	}
	return cv, err
}

// chartDiffCards: the cards whose row win rate moved most (the share of
// their placements whose row their owner took: a figure of the card itself,
// where win shares when played or held move with the whole faction).
func (m *model) chartDiffCards() (*chartView, error) {
	df := m.d.Diff
	if df == nil || len(df.Cards) == 0 {
		return &chartView{ID: "chart-diff-cards"}, nil
	}
	cs := slices.Clone(df.Cards)
	slices.SortStableFunc(cs, func(a, b analysis.CardDelta) int {
		if a.Changed != b.Changed {
			if a.Changed {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(b.RowWinRate.Delta), math.Abs(a.RowWinRate.Delta))
	})
	if len(cs) > 20 {
		cs = cs[:20]
	}
	slices.SortStableFunc(cs, func(a, b analysis.CardDelta) int { return cmp.Compare(b.RowWinRate.Delta, a.RowWinRate.Delta) })
	var items []rankItem
	for _, c := range cs {
		name := m.cardLabel(c.Name, c.Faction)
		if c.Changed {
			name += " (changed)"
		}
		items = append(items, rankItem{name: name, faction: m.facName(c.Faction), color: m.facColor(c.Faction),
			value: c.RowWinRate.Delta, noCI: true, dim: !c.Changed})
	}
	return rankChart("chart-diff-cards", "Cards whose row win rate moved most",
		"Of the copies placed in a row, the share whose row went to the card's owner: new rules minus old (descriptive, no interval). The changed cards and the largest moves, 20 in all; changed cards are drawn solid.",
		"change of row win rate, percentage points", items)
}

// chartSweep: every faction's win share at each value swept.
func (m *model) chartSweep() (*chartView, error) {
	sw := m.d.Sweep
	if sw == nil || len(sw.Points) == 0 {
		return &chartView{ID: "chart-sweep"}, nil
	}
	what := sw.Field
	if sw.Card != nil {
		what = sw.Card.Name + ": " + sw.Field
	}
	cv := &chartView{ID: "chart-sweep", Title: "Sweep of " + what, Height: 380,
		Note: fmt.Sprintf(m.say("Every faction's win share as %s takes each value, on the same games. Now: %d; closest to the target share: %d. Dashed line: the target share."), what, sw.Current, sw.Best)}
	var xs []string
	for _, p := range sw.Points {
		xs = append(xs, strconv.Itoa(p.Value))
	}
	ln := charts.NewLine()
	ln.SetGlobalOptions(noTitle(), legendTop(), charts.WithYAxisOpts(opts.YAxis{Name: "win share %", Scale: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Name: sw.Field}))
	ln.SetXAxis(xs)
	var ids []string
	for _, f := range sw.Points[0].Factions {
		ids = append(ids, f.Faction)
	}
	var series []obj
	for k, id := range ids {
		var data []opts.LineData
		for _, p := range sw.Points {
			v := 0.0
			if k < len(p.Factions) {
				v = p100(p.Factions[k].Variant)
			}
			data = append(data, opts.LineData{Value: v})
		}
		ln.AddSeries(m.facName(id), data)
		s := obj{"itemStyle": obj{"color": m.facColor(id)}, "lineStyle": obj{"color": m.facColor(id)}}
		if k == 0 {
			s["markLine"] = obj{"silent": true, "symbol": "none", "lineStyle": obj{"type": "dashed", "color": "#333"},
				"data": []obj{{"yAxis": p100(sw.Target)}}}
		}
		series = append(series, s)
	}
	var err error
	cv.Option, err = optionJSON(ln, obj{
		"tooltip":  tooltip("axis", "cardlab:axis"),
		"grid":     obj{"left": 60, "right": 30, "top": 50, "bottom": 50},
		"xAxis":    []obj{{"nameLocation": "middle", "nameGap": 28}},
		"series":   series,
		"_cardlab": obj{"unit": "%"},
	})
	return cv, err
}

// chartSkill: every faction's win share at each skill level.
func (m *model) chartSkill() (*chartView, error) {
	sk := m.d.Skill
	if sk == nil || len(sk.Factions) == 0 {
		return &chartView{ID: "chart-skill"}, nil
	}
	cv := &chartView{ID: "chart-skill", Title: "Win shares by skill level", Height: 360,
		Note: m.say("Every seat played by the same bot at each level, on the same games. A faction whose line rises is stronger in skilled hands.")}
	ln := charts.NewLine()
	ln.SetGlobalOptions(noTitle(), legendTop(), charts.WithYAxisOpts(opts.YAxis{Name: "win share %", Scale: opts.Bool(true)}))
	ln.SetXAxis(sk.Levels)
	var series []obj
	for _, f := range sk.Factions {
		var data []opts.LineData
		for _, l := range f.Levels {
			data = append(data, opts.LineData{Value: p100(l.WinRate)})
		}
		ln.AddSeries(m.facName(f.Faction), data)
		series = append(series, obj{"itemStyle": obj{"color": m.facColor(f.Faction)}, "lineStyle": obj{"color": m.facColor(f.Faction)}})
	}
	var err error
	cv.Option, err = optionJSON(ln, obj{
		"tooltip":  tooltip("axis", "cardlab:axis"),
		"grid":     obj{"left": 60, "right": 30, "top": 50, "bottom": 40},
		"series":   series,
		"_cardlab": obj{"unit": "%"},
	})
	return cv, err
}
