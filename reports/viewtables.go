package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/cardlab/cardlab/game"
)

// A view's tables, heat maps and scatter plots on the web page
// (game.PageTable, game.Grid, game.Points): drawn from the neutral shapes alone, whatever the game.

// viewTable is a game.PageTable as the page template draws it: every cell
// already text (html/template escapes it).
type viewTable struct {
	Title, Note string
	Folded      bool
	Heads       []viewHead
	Rows        [][]viewCell
}

type viewHead struct {
	Name, Doc string
	Left      bool
}

type viewCell struct {
	Text, Mark string
	Low, Left  bool
}

// pageTable turns t into the page's table; an error is a row longer than
// the heads (a view's bug, refused rather than drawn askew).
func pageTable(t *game.PageTable) (viewTable, error) {
	vt := viewTable{Title: t.Title, Note: t.Note, Folded: t.Folded}
	cols := t.Sheet.Columns
	for _, c := range cols {
		vt.Heads = append(vt.Heads, viewHead{Name: c.Head, Doc: c.Doc})
	}
	// A column of words is left-aligned, head and cells alike; one of
	// figures right-aligned.
	left := make([]bool, len(cols))
	for i, r := range t.Sheet.Rows {
		if len(r) > len(cols) {
			return vt, fmt.Errorf("table %q: row %d has %d cells for %d columns", t.Title, i+1, len(r), len(cols))
		}
		row := make([]viewCell, len(cols))
		for j, c := range r {
			text, isText := cellText(c.Value, cols[j].Format)
			row[j] = viewCell{Text: text, Mark: c.Mark, Low: c.Low}
			left[j] = left[j] || (isText && text != "")
		}
		vt.Rows = append(vt.Rows, row)
	}
	for j := range left {
		vt.Heads[j].Left = left[j]
		for _, row := range vt.Rows {
			row[j].Left = left[j]
		}
	}
	return vt, nil
}

// cellText formats a sheet cell by its column's number format: "0.0%" a
// fraction in percent with one decimal, "0.00" two decimals, "" as the
// number reads. isText is true for a string that is not a figure (its
// column is left-aligned).
func cellText(v any, format string) (text string, isText bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		// A figure may carry its interval ("40.3 [39.6, 41.0]") or a
		// bound ("> 8"): still a figure.
		f := strings.Fields(strings.TrimLeft(x, "<>≤≥ ") + " x")[0]
		_, err := strconv.ParseFloat(f, 64)
		return x, err != nil
	case int64:
		return strconv.FormatInt(x, 10), false
	case int:
		return strconv.Itoa(x), false
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", false
		}
		pct := strings.HasSuffix(format, "%")
		f := strings.TrimSuffix(format, "%")
		dec := -1
		if f != "" {
			dec = 0
			if i := strings.IndexByte(f, '.'); i >= 0 {
				dec = len(f) - i - 1
			}
		}
		if pct {
			x *= 100
		}
		s := strconv.FormatFloat(x, 'f', dec, 64)
		if pct {
			s += "%"
		}
		return s, false
	}
	return fmt.Sprint(v), true
}

// viewTables are the page tables of a view's section.
func viewTables(s *game.PageSection) ([]viewTable, error) {
	var out []viewTable
	for i := range s.Tables {
		vt, err := pageTable(&s.Tables[i])
		if err != nil {
			return nil, fmt.Errorf("reports: view section %s: %w", s.ID, err)
		}
		out = append(out, vt)
	}
	return out, nil
}

// gridChart draws a view's Grid: a heat map with each cell's figure in
// percent, bold where marked, its interval (or the mark) in the tooltip;
// the colour scale is centred on Mid.
func gridChart(c *game.Chart) (*chartView, error) {
	g := c.Grid
	cv := &chartView{ID: c.ID, Title: c.Title, Note: c.Note, Height: 130 + 46*len(g.Rows)}
	if len(g.Rows) == 0 || len(g.Cols) == 0 {
		return cv, nil
	}
	for _, m := range [][][]float64{g.Values, g.Lo, g.Hi} {
		if len(m) != len(g.Rows) {
			return cv, fmt.Errorf("%d rows of figures for %d rows", len(m), len(g.Rows))
		}
	}
	if g.Marked != nil && len(g.Marked) != len(g.Rows) {
		return cv, fmt.Errorf("%d rows of marks for %d rows", len(g.Marked), len(g.Rows))
	}
	var data []opts.HeatMapData
	span := 0.05
	for i, r := range g.Rows {
		if len(g.Values[i]) != len(g.Cols) || len(g.Lo[i]) != len(g.Cols) || len(g.Hi[i]) != len(g.Cols) ||
			(g.Marked != nil && len(g.Marked[i]) != len(g.Cols)) {
			return cv, fmt.Errorf("row %d: not one figure per column (%d columns)", i+1, len(g.Cols))
		}
		for j, col := range g.Cols {
			v := g.Values[i][j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			mark := 0.0
			if g.Marked != nil && g.Marked[i][j] {
				mark = 1
			}
			data = append(data, opts.HeatMapData{Name: g.RowAxis + " " + r + " · " + g.ColAxis + " " + col,
				Value: []float64{float64(j), float64(i), p100(v), p100(g.Lo[i][j]), p100(g.Hi[i][j]), mark}})
			span = max(span, math.Abs(v-g.Mid))
		}
	}
	if len(data) == 0 {
		return cv, nil
	}
	lo, hi := 100*math.Max(0, g.Mid-span), 100*math.Min(1, g.Mid+span)
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(noTitle(), noLegend(),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: g.ColAxis, Data: g.Cols, NameLocation: "middle", NameGap: 40}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Name: g.RowAxis, Data: g.Rows}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: float32(math.Floor(lo)), Max: float32(math.Ceil(hi)),
			Dimension: "2", InRange: &opts.VisualMapInRange{Color: []string{"#d7301f", "#f7f7f7", "#2b8cbe"}}}))
	hm.SetXAxis(g.Cols).AddSeries("figure", data)
	var err error
	cv.Option, err = optionJSON(hm, obj{
		// A long name wraps inside the window (confine alone let it run
		// 140 px past a 360 px screen).
		"tooltip": merge(tooltip("item", "cardlab:grid"), obj{"extraCssText": "max-width: 80vw; white-space: normal; overflow-wrap: anywhere;"}),
		"grid":    obj{"left": 10, "right": 20, "top": 30, "bottom": 100, "containLabel": true},
		"yAxis":   []obj{{"inverse": true, "axisLabel": obj{"show": true}, "nameLocation": "start"}},
		"xAxis":   []obj{{"axisLabel": obj{"interval": 0, "width": 90, "overflow": "break", "lineHeight": 14}}},
		"visualMap": []obj{{"orient": "horizontal", "left": "center", "bottom": 0, "text": []string{g.High, g.Low},
			"precision": 1}},
		"series":   []obj{{"label": obj{"show": true, "formatter": "cardlab:gridlabel", "fontSize": 12, "rich": obj{"b": obj{"fontWeight": "bold", "fontSize": 12}}}}},
		"_cardlab": obj{"mark": g.Mark, "cols": len(g.Cols) + 1, "labelMinCell": 46},
	})
	return cv, err
}

// pointsChart draws a view's Points: a scatter of named points, one colour
// per series, each labelled with its name, its coordinates and interval in
// the tooltip.
func pointsChart(c *game.Chart) (*chartView, error) {
	pc := c.Points
	cv := &chartView{ID: c.ID, Title: c.Title, Note: c.Note, Height: 380}
	sc := charts.NewScatter()
	legend := noLegend() // one series: the title says what the points are
	if len(pc.Series) > 1 {
		legend = legendTop()
	}
	sc.SetGlobalOptions(noTitle(), legend,
		charts.WithXAxisOpts(opts.XAxis{Name: pc.XAxis}), charts.WithYAxisOpts(opts.YAxis{Name: pc.YAxis}))
	var series []obj
	n := 0
	for k, s := range pc.Series {
		m := len(s.Names)
		if len(s.X) != m || len(s.Y) != m || len(s.YLo) != m || len(s.YHi) != m {
			return cv, fmt.Errorf("series %q: %d names, %d x, %d y, %d low and %d high ends", s.Name, m, len(s.X), len(s.Y), len(s.YLo), len(s.YHi))
		}
		var data []opts.ScatterData
		for i := range m {
			v := []float64{s.X[i], s.Y[i], s.YLo[i], s.YHi[i]}
			if slices.ContainsFunc(v, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }) {
				continue
			}
			data = append(data, opts.ScatterData{Name: s.Names[i], Value: v, SymbolSize: 9})
		}
		n += len(data)
		sc.AddSeries(s.Name, data)
		series = append(series, obj{"itemStyle": obj{"color": palette[k%len(palette)], "opacity": 0.85},
			"label":       obj{"show": true, "position": "right", "formatter": "{b}", "fontSize": 11, "color": "#333"},
			"labelLayout": obj{"hideOverlap": true}})
	}
	if n == 0 {
		return cv, nil
	}
	var err error
	cv.Option, err = optionJSON(sc, obj{
		// A long name wraps inside the window, as the heat map's does.
		"tooltip":  merge(tooltip("item", "cardlab:points"), obj{"extraCssText": "max-width: 80vw; white-space: normal; overflow-wrap: anywhere;"}),
		"grid":     obj{"left": 60, "right": 130, "top": 50, "bottom": 50},
		"xAxis":    []obj{{"nameLocation": "middle", "nameGap": 28, "scale": true}},
		"yAxis":    []obj{{"scale": true, "nameTextStyle": obj{"align": "left"}}},
		"series":   series,
		"_cardlab": obj{"x": pc.XAxis, "y": pc.YAxis},
	})
	return cv, err
}
