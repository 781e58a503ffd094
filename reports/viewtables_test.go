package reports

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/internal/browser"
)

// viewGame is Alpha Tactics with one more view: a page section of a heat
// map and tables (game.Grid, game.PageTable) holding hostile names, so the
// page's drawing of any game's tables is tested without a game of its own.
type viewGame struct {
	alphatactics.Game
	id   string
	part *game.Part
}

func (g viewGame) ID() string { return g.id }

func (g viewGame) Views() []game.View {
	return append(alphatactics.Game{}.Views(), partView{g.part})
}

type partView struct{ p *game.Part }

func (partView) ID() string                                     { return "test-tables" }
func (v partView) Render(*game.ReportInput) (*game.Part, error) { return v.p, nil }

// tablePart is a section with a 3×3 grid (one cell empty, two marked)
// and two tables, names hostile.
func tablePart() *game.Part {
	nan := math.NaN()
	names := []string{hostileScript, hostileFaction, "plain"}
	g := &game.Grid{RowAxis: "attacker", ColAxis: "defender", Rows: names, Cols: names,
		Values: [][]float64{{0.5, 0.9, 0.1}, {0.2, nan, 0.6}, {0.7, 0.45, 0.5}},
		Lo:     [][]float64{{0.5, 0.88, 0.08}, {0.2, nan, 0.55}, {0.7, 0.4, 0.5}},
		Hi:     [][]float64{{0.5, 0.92, 0.12}, {0.2, nan, 0.65}, {0.7, 0.5, 0.5}},
		Marked: [][]bool{{true, false, false}, {true, false, false}, {false, false, false}},
		Mark:   "exact " + hostileImg, Mid: 0.5, High: "row wins", Low: "column holds"}
	// Two series of named points, one left out for its NaN, one with an
	// interval.
	pts := &game.Points{XAxis: "energy " + hostileImg, YAxis: "hulls", Series: []game.PointSeries{
		{Name: "parts " + hostileScript, Names: []string{hostileFaction, "gap", "plain"}, X: []float64{0, 1, 2}, Y: []float64{2, nan, 0.5},
			YLo: []float64{2, nan, 0.4}, YHi: []float64{2, nan, 0.6}},
		{Name: "stats", Names: []string{"+1 computer"}, X: []float64{-1}, Y: []float64{0.69}, YLo: []float64{0.69}, YHi: []float64{0.69}},
	}}
	sheet := game.Sheet{Name: "t", Columns: []game.SheetColumn{
		{Head: "fleet " + hostileImg, Doc: "the row " + hostileScript},
		{Head: "chance", Format: "0.0%", Doc: "a chance"},
		{Head: "cost", Format: "0.00", Doc: "a cost"},
		{Head: "count", Doc: "a count"},
	}, Rows: [][]game.SheetCell{
		{{Value: hostileFaction}, {Value: 0.4321, Mark: "exact"}, {Value: 2.5}, {Value: int64(3)}},
		{{Value: "plain"}, {Value: 0.5, Low: true}, {}, {Value: "12.5 [11.0, 14.0]"}},
	}}
	return &game.Part{Section: &game.PageSection{ID: "test-tables", Title: "Study " + hostileScript,
		Charts: []game.Chart{{ID: "chart-test-grid", Title: "Grid " + hostileImg, Note: "note " + hostileScript, Grid: g},
			{ID: "chart-test-points", Title: "Points " + hostileImg, Note: "cost " + hostileScript, Points: pts}},
		Tables: []game.PageTable{{Title: "Table " + hostileImg, Note: "from " + hostileScript, Sheet: sheet},
			{Title: "Folded", Note: "long", Sheet: sheet, Folded: true}}}}
}

var viewGames = map[string]*game.Part{}

// registerViewGame registers a viewGame showing p once under id.
func registerViewGame(id string, p *game.Part) {
	if _, ok := viewGames[id]; ok {
		return
	}
	viewGames[id] = p
	game.Register(viewGame{id: id, part: p})
}

// viewData is a small run whose result names the game id.
func viewData(t *testing.T, id string, p *game.Part) *Data {
	t.Helper()
	registerViewGame(id, p)
	d := testData(t, rules.Default(), 30)
	d.Report.Ruleset.Game = id
	return d
}

// TestViewTablesOnPage: a view's tables and heat map are on the page in
// its section, every name escaped, numbers in their column's format,
// marked cells bold with the mark as tooltip, a long table folded.
func TestViewTablesOnPage(t *testing.T) {
	d := viewData(t, "view-test", tablePart())
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	i := strings.Index(page, `<section id="test-tables">`)
	if i < 0 {
		t.Fatal("no section of the view on the page")
	}
	sec := page[i : i+strings.Index(page[i:], "</section>")]
	for _, want := range []string{
		"<h2>Study &lt;script&gt;alert(1)&lt;/script&gt;</h2>",
		`<div class="chart" id="chart-test-grid"`,
		"<h3>Table &lt;img src=x onerror=alert(2)&gt;</h3>",
		`<p class="note">from &lt;script&gt;alert(1)&lt;/script&gt;</p>`,
		`<th class="l" title="the row &lt;script&gt;alert(1)&lt;/script&gt;">fleet &lt;img src=x onerror=alert(2)&gt;</th>`,
		// a column holding a word ("12.5 [11.0, 14.0]" is a figure) is
		// left-aligned, head and cells: here none but the first
		`<th title="a count">count</th>`,
		`<td class="l">Klingon &lt;/script&gt;&lt;b id=&#34;inj&#34;&gt;Empire&lt;/b&gt; &amp; &#34;Co&#34;</td>`,
		`<td><b class="mark" title="exact">43.2%</b></td><td>2.50</td><td>3</td>`,
		`<td><span class="low" title="too few games">50.0%</span></td><td></td><td>12.5 [11.0, 14.0]</td>`,
		`<details class="viewtable"><summary><h3>Folded</h3></summary>`,
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("the view's section lacks %s", want)
		}
	}
	for _, bad := range []string{hostileScript, hostileImg, `<b id="inj">`} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	// The heat map's option: one datum per cell with a figure (8 of 9),
	// [column, row, %, lo, hi, marked].
	opt := chartOption(t, page, "chart-test-grid")
	data := opt["series"].([]any)[0].(map[string]any)["data"].([]any)
	if len(data) != 8 {
		t.Fatalf("%d cells in the heat map, want 8", len(data))
	}
	first := data[1].(map[string]any)["value"].([]any)
	if first[0] != 1.0 || first[1] != 0.0 || first[2] != 90.0 || first[3] != 88.0 || first[4] != 92.0 || first[5] != 0.0 {
		t.Errorf("cell (0,1) %v", first)
	}
	if m := data[3].(map[string]any)["value"].([]any); m[5] != 1.0 {
		t.Errorf("cell (1,0) is not marked: %v", m)
	}
	// The scatter: a series per PointSeries, the NaN point left out, each
	// point [x, y, lo, hi] named and labelled, the page's tooltip hook.
	if !strings.Contains(sec, `<div class="chart" id="chart-test-points"`) {
		t.Error("no scatter on the page")
	}
	po := chartOption(t, page, "chart-test-points")
	ser := po["series"].([]any)
	if len(ser) != 2 || po["tooltip"].(map[string]any)["formatter"] != "cardlab:points" {
		t.Fatalf("scatter series %v", ser)
	}
	pd := ser[0].(map[string]any)["data"].([]any)
	if len(pd) != 2 || pd[0].(map[string]any)["name"] != hostileFaction {
		t.Fatalf("scatter data %v", pd)
	}
	if v := pd[1].(map[string]any)["value"].([]any); v[0] != 2.0 || v[1] != 0.5 || v[2] != 0.4 || v[3] != 0.6 {
		t.Errorf("point plain %v", v)
	}
	if l := ser[0].(map[string]any)["label"].(map[string]any); l["show"] != true || l["formatter"] != "{b}" {
		t.Errorf("points unlabelled: %v", l)
	}
}

// A view's malformed table or chart is refused with its id, not drawn
// askew.
func TestViewTablesRefused(t *testing.T) {
	bad := map[string]func(p *game.Part) string{
		"two kinds": func(p *game.Part) string {
			p.Section.Charts[0].Shares = &game.Shares{}
			return "not exactly one kind"
		},
		"short row": func(p *game.Part) string {
			p.Section.Charts[0].Grid.Values[1] = p.Section.Charts[0].Grid.Values[1][:2]
			return "row 2: not one figure per column"
		},
		"rows": func(p *game.Part) string {
			g := p.Section.Charts[0].Grid
			g.Marked = g.Marked[:1]
			return "1 rows of marks for 3 rows"
		},
		"points": func(p *game.Part) string {
			p.Section.Charts[1].Points.Series[1].YHi = nil
			return `series "stats": 1 names, 1 x, 1 y, 1 low and 0 high ends`
		},
		"points and grid": func(p *game.Part) string {
			p.Section.Charts[1].Grid = p.Section.Charts[0].Grid
			return "not exactly one kind"
		},
		"long row": func(p *game.Part) string {
			r := &p.Section.Tables[0].Sheet.Rows[1]
			*r = append(*r, game.SheetCell{Value: "x"})
			return "row 2 has 5 cells for 4 columns"
		},
	}
	for name, spoil := range bad {
		t.Run(name, func(t *testing.T) {
			p := tablePart()
			want := spoil(p)
			d := viewData(t, "view-test-"+strings.ReplaceAll(name, " ", "-"), p)
			err := Write(filepath.Join(t.TempDir(), "r"), d, Options{Now: testNow})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want one saying %q", err, want)
			}
		})
	}
}

func TestCellText(t *testing.T) {
	for _, tc := range []struct {
		v      any
		format string
		want   string
		text   bool
	}{
		{0.4321, "0.0%", "43.2%", false},
		{1.0, "0%", "100%", false},
		{2.456, "0.00", "2.46", false},
		{157500.0, "", "157500", false},
		{0.125, "", "0.125", false},
		{int64(-3), "0.0%", "-3", false},
		{math.NaN(), "0.00", "", false},
		{math.Inf(1), "", "", false},
		{nil, "0.0%", "", false},
		{"40.3 [39.6, 41.0]", "", "40.3 [39.6, 41.0]", false},
		{"> 8", "0.00", "> 8", false},
		{"≥ 0.5", "", "≥ 0.5", false},
		{"+Cruiser def", "", "+Cruiser def", true},
		{"as printed", "", "as printed", true},
		{"", "", "", true},
		{true, "", "true", true},
	} {
		got, text := cellText(tc.v, tc.format)
		if got != tc.want || text != tc.text {
			t.Errorf("cellText(%v, %q) = %q, %v; want %q, %v", tc.v, tc.format, got, text, tc.want, tc.text)
		}
	}
}

// The view's heat map and tables in a browser, wide and at 360 px: the
// heat map draws, its tooltip shows the names escaped, the tables scroll
// inside their box, nothing goes wrong in the console.
func TestViewTablesBrowser(t *testing.T) {
	browser.Path(t)
	d := viewData(t, "view-test", tablePart())
	dir := filepath.Join(t.TempDir(), "r")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1280, 360} {
		p := openReport(t, filepath.Join(dir, "index.html"), width)
		var grid *chartState
		for _, c := range browser.Eval[[]chartState](t, p, chartsJS) {
			if c.ID == "chart-test-grid" {
				grid = &c
			}
		}
		if grid == nil || !grid.Canvas || grid.W <= 0 || grid.Painted == 0 || grid.Error != "" {
			t.Fatalf("%d px: the heat map did not draw: %+v", width, grid)
		}
		tip := browser.Eval[string](t, p, `(function () {
  var c = echarts.getInstanceByDom(document.getElementById("chart-test-grid"));
  c.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 0});
  var tip = document.querySelector("#chart-test-grid div[style*='z-index']");
  return tip ? tip.innerHTML : "";
})()`)
		if !strings.Contains(tip, "attacker &lt;script&gt;") || !strings.Contains(tip, "(exact &lt;img") || strings.Contains(tip, "<script>") {
			t.Errorf("%d px: tooltip %q", width, tip)
		}
		var sc *chartState
		for _, c := range browser.Eval[[]chartState](t, p, chartsJS) {
			if c.ID == "chart-test-points" {
				sc = &c
			}
		}
		if sc == nil || !sc.Canvas || sc.W <= 0 || sc.Painted == 0 || sc.Error != "" {
			t.Fatalf("%d px: the scatter did not draw: %+v", width, sc)
		}
		ptip := browser.Eval[string](t, p, `(function () {
  var c = echarts.getInstanceByDom(document.getElementById("chart-test-points"));
  c.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 1});
  var tip = document.querySelector("#chart-test-points div[style*='z-index']");
  var html = tip ? tip.innerHTML + " @" + Math.round(tip.getBoundingClientRect().right) : "";
  c.dispatchAction({type: "hideTip"});
  return html;
})()`)
		if !strings.Contains(ptip, "<b>plain</b> · parts &lt;script&gt;") || !strings.Contains(ptip, "energy &lt;img") || !strings.Contains(ptip, "95% CI 0.4 to 0.6") {
			t.Errorf("%d px: scatter tooltip %q", width, ptip)
		}
		if n := browser.Eval[int](t, p, `document.querySelectorAll("#test-tables table.data").length`); n != 2 {
			t.Errorf("%d px: %d tables in the view's section, want 2", width, n)
		}
		p.NoPageScroll(t)
		p.Screenshot(t, "report-view-tables-"+map[int]string{1280: "wide", 360: "narrow"}[width]+".png")
		p.CheckClean(t)
	}
}

// chartOption is the ECharts option of chart id as the page holds it.
func chartOption(t *testing.T, page, id string) map[string]any {
	t.Helper()
	start := `<script type="application/json" id="` + id + `-option">`
	i := strings.Index(page, start)
	if i < 0 {
		t.Fatalf("no option of chart %s in the page", id)
	}
	body := page[i+len(start):]
	body = body[:strings.Index(body, "</script>")]
	var o map[string]any
	if err := json.Unmarshal([]byte(body), &o); err != nil {
		t.Fatalf("chart %s: %v", id, err)
	}
	return o
}
