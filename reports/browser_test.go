package reports

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/internal/browser"
)

// The browser tests open the report's pages from disk in a headless Chromium
// with the network off (package internal/browser: skipped without Chromium,
// required with CARDLAB_BROWSER_TESTS=1; screenshots to CARDLAB_ARTIFACTS).

type chartState struct {
	ID      string  `json:"id"`
	Canvas  bool    `json:"canvas"`
	W       float64 `json:"w"`
	H       float64 `json:"h"`
	Painted int     `json:"painted"`
	Error   string  `json:"error"`
}

// chartsJS reports every chart container: its canvas (or svg), its size and
// how many of a sample of its pixels are painted.
const chartsJS = `Array.from(document.querySelectorAll(".chart")).map(function (el) {
  var c = el.querySelector("canvas, svg");
  var r = c ? c.getBoundingClientRect() : {width: 0, height: 0};
  var painted = 0;
  if (c && c.tagName === "CANVAS" && c.width > 0 && c.height > 0) {
    var d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (var i = 3; i < d.length; i += 4 * 97) { if (d[i] > 0) painted++; }
  }
  return {id: el.id, canvas: !!c, w: r.width, h: r.height, painted: painted, error: el.getAttribute("data-error") || ""};
})`

// labelsJS reports, for every chart, what a reader would miss: a label
// cut short (ECharts' "…" of overflow: truncate), an axis name or the fair
// share's label reaching outside the chart, the fair share's label over the
// plot (where it sat on the bars), and a category label ECharts left out
// for want of room (the heatmap's Vulcan and Klingon columns at 400 px).
// Numbers on a category axis (a histogram's bins) may be thinned out.
const labelsJS = `Array.from(document.querySelectorAll(".chart")).map(function (el) {
  var inst = echarts.getInstanceByDom(el);
  if (!inst) { return {id: el.id, problems: ["no chart"]}; }
  var zr = inst.getZr(), W = zr.getWidth(), H = zr.getHeight(), opt = inst.getOption();
  var norm = function (s) { return String(s).replace(/\s+/g, ""); };
  var axes = [].concat(opt.xAxis || [], opt.yAxis || []);
  var names = [], problems = [], drawn = [];
  axes.forEach(function (a) { if (a.name) { names.push(norm(a.name)); } });
  var g = inst.getModel().getComponent("grid");
  var gr = g && g.coordinateSystem ? g.coordinateSystem.getRect() : null;
  zr.storage.getDisplayList(true).forEach(function (d) {
    var txt = d.style && d.style.text;
    if (txt == null || txt === "" || d.ignore || d.invisible) { return; }
    txt = String(txt);
    drawn.push(norm(txt));
    if (/…|\.\.\./.test(txt)) { problems.push("cut short: " + txt); }
    var r = d.getBoundingRect().clone(), m = d.getComputedTransform();
    if (m) { r.applyTransform(m); }
    var fair = /^fair/.test(txt);
    if ((fair || names.indexOf(norm(txt)) >= 0) && (r.x < -0.5 || r.y < -0.5 || r.x + r.width > W + 0.5 || r.y + r.height > H + 0.5)) {
      problems.push("outside the chart: " + txt + " at " + Math.round(r.x) + ".." + Math.round(r.x + r.width) + " of " + W);
    }
    if (fair && gr && r.x < gr.x + gr.width) { problems.push("the fair-share label lies over the plot: " + txt); }
  });
  // A wrapped label is drawn a line at a time, its lines in order. A name
  // on both axes (the heatmap's factions) must be drawn twice.
  var joined = drawn.join(""), need = {};
  axes.forEach(function (a) {
    if (a.type !== "category" || !a.data || a.show === false || (a.axisLabel && a.axisLabel.show === false)) { return; }
    a.data.forEach(function (c) {
      var v = norm(c !== null && typeof c === "object" ? c.value : c);
      if (!/^[\d.,–-]*$/.test(v)) { need[v] = (need[v] || 0) + 1; }
    });
  });
  Object.keys(need).forEach(function (v) {
    var have = 0;
    for (var i = joined.indexOf(v); i >= 0; i = joined.indexOf(v, i + v.length)) { have++; }
    if (have < need[v]) { problems.push("label not drawn: " + v + " (drawn " + have + " of " + need[v] + " times)"); }
  });
  return {id: el.id, problems: problems};
})`

type chartLabels struct {
	ID       string   `json:"id"`
	Problems []string `json:"problems"`
}

// checkLabels fails the test for every label a chart cuts, leaves out or
// draws over its bars (issue 25, item 14).
func checkLabels(t *testing.T, p *browser.Page) {
	t.Helper()
	for _, c := range browser.Eval[[]chartLabels](t, p, labelsJS) {
		for _, pr := range c.Problems {
			t.Errorf("chart %s: %s", c.ID, pr)
		}
	}
}

// openReport opens the report page, width px wide, and waits for its charts.
func openReport(t *testing.T, path string, width int) *browser.Page {
	t.Helper()
	p := browser.OpenFile(t, path, width)
	p.WaitFor(t, `document.documentElement.hasAttribute("data-charts")`, 30*time.Second)
	return p
}

// checkPage: every chart drawn, the sections in the order a designer asks,
// the gallery linked, no sideways scroll, nothing wrong in the console.
func checkPage(t *testing.T, p *browser.Page, d *Data, shot string) {
	t.Helper()
	charts := browser.Eval[[]chartState](t, p, chartsJS)
	if len(charts) < 7 {
		t.Errorf("%d charts on the page, want at least 7", len(charts))
	}
	drawn := browser.Eval[string](t, p, `document.documentElement.getAttribute("data-charts")`)
	if drawn != fmt.Sprint(len(charts)) {
		t.Errorf("page.js drew %s of %d charts", drawn, len(charts))
	}
	for _, c := range charts {
		if !c.Canvas || c.W <= 0 || c.H <= 0 || c.Painted == 0 || c.Error != "" {
			t.Errorf("chart %s did not render: %+v", c.ID, c)
		}
	}
	want := []string{"verdict", "factions", "cards", "matchups", "seats", "targets", "games", "methods"}
	if d.Report.Quality != nil {
		// after the games; a result made before it has none
		want = append(slices.Clone(want[:7]), "quality", "methods")
	}
	if d.Diff != nil {
		want = append([]string{"verdict", "changes"}, want[1:]...)
	}
	got := browser.Eval[[]string](t, p, `Array.from(document.querySelectorAll("main > section")).map(function (s) { return s.id; })`)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sections %v, want %v", got, want)
	}
	if n := browser.Eval[int](t, p, `document.querySelectorAll('a[href="cards.html"]').length`); n == 0 {
		t.Error("the page does not link the gallery cards.html")
	}
	if v := browser.Eval[string](t, p, `document.querySelector("p.verdict").textContent`); v == "" {
		t.Error("no verdict")
	}
	checkLabels(t, p)
	p.NoPageScroll(t)
	p.Screenshot(t, shot)
	p.CheckClean(t)
}

// checkGallery: one card face per card, beside its own figures (its value
// first when there is one), nine to a printed page, no handler names.
func checkGallery(t *testing.T, path string, d *Data, width int, shot string) {
	t.Helper()
	p := browser.OpenFile(t, path, width)
	p.WaitFor(t, `document.readyState === "complete"`, 30*time.Second)
	if n := browser.Eval[int](t, p, `document.querySelectorAll("#gallery .gcard .face").length`); n != len(d.Cards) {
		t.Errorf("the gallery shows %d cards, the result has %d", n, len(d.Cards))
	}
	if big := browser.Eval[int](t, p, `Array.from(document.querySelectorAll(".gpage")).filter(function (g) { return g.children.length > 9; }).length`); big != 0 {
		t.Errorf("%d gallery pages hold more than nine cards", big)
	}
	// A face's type line is "type · kind", never the engine's handler.
	if d.Meta != nil && d.Meta.Catalog != nil {
		lines := browser.Eval[[]string](t, p, `Array.from(document.querySelectorAll(".face .typeline")).map(function (f) { return f.textContent; })`)
		for i, c := range d.Meta.Catalog.Cards {
			if i < len(lines) && strings.Count(lines[i], "·") != 1 {
				t.Errorf("a card face's type line is %q: more than type and kind", lines[i])
				break
			}
			_ = c
		}
	}
	if d.Cards[0].Value != nil {
		if first := browser.Eval[string](t, p, `document.querySelector(".gcard .figs dt").textContent`); first != "Value vs faction" {
			t.Errorf("a card's first figure is %q, want its value", first)
		}
	}
	for _, dup := range []string{"Win when drawn", "Win when played", "Games"} {
		if n := browser.Eval[int](t, p, `Array.from(document.querySelectorAll(".figs dt")).filter(function (d) { return d.textContent === "`+dup+`"; }).length`); n != 0 {
			t.Errorf("cards show %q, a figure of their faction", dup)
		}
	}
	p.NoPageScroll(t)
	p.Screenshot(t, shot)
	p.CheckClean(t)
}

// The page works from disk with the network off at 1400, 400 and 360 px: every
// chart draws, the sections come in order, nothing scrolls sideways, nothing
// is fetched, nothing goes wrong in the console; the gallery page too.
func TestReportBrowser(t *testing.T) {
	browser.Path(t)
	for _, tc := range []struct {
		name string
		d    *Data
	}{{"run", testData(t, rules.Default(), 60)}, {"values-base", fixtureData(true)}} {
		dir := filepath.Join(t.TempDir(), "report")
		if err := Write(dir, tc.d, Options{Now: testNow}); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int{1400, 400, 360} {
			t.Run(fmt.Sprintf("%s/%dpx", tc.name, width), func(t *testing.T) {
				p := openReport(t, filepath.Join(dir, "index.html"), width)
				checkPage(t, p, tc.d, fmt.Sprintf("report-%s-%d.png", tc.name, width))
				if n := browser.Eval[int](t, p, `window.__cardlabAlerts.length`); n != 0 {
					t.Errorf("the page called alert %d times", n)
				}
				checkGallery(t, filepath.Join(dir, "cards.html"), tc.d, width, fmt.Sprintf("cards-%s-%d.png", tc.name, width))
			})
		}
	}
}

// A hostile ruleset runs no script and injects no element: its names and
// texts appear as text.
func TestReportBrowserHostile(t *testing.T) {
	browser.Path(t)
	d := testData(t, hostileRuleset(t), 40)
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	p := openReport(t, filepath.Join(dir, "index.html"), 1280)
	checkPage(t, p, d, "report-hostile.png")
	if alerts := browser.Eval[[]string](t, p, `window.__cardlabAlerts`); len(alerts) != 0 {
		t.Errorf("ruleset text ran as script: %v", alerts)
	}
	if _, _, dialogs := p.Snapshot(); len(dialogs) != 0 {
		t.Errorf("dialogs opened: %v", dialogs)
	}
	if n := browser.Eval[int](t, p, `document.querySelectorAll("img, #inj, svg[onload], i, textarea").length`); n != 0 {
		t.Errorf("%d elements injected by ruleset text", n)
	}
	scripts := browser.Eval[int](t, p, `document.scripts.length`)
	opts := browser.Eval[int](t, p, `document.querySelectorAll('script[type="application/json"]').length`)
	if scripts != opts+2 {
		t.Errorf("%d scripts in the page, want %d chart options + ECharts + page.js", scripts, opts)
	}
	// The tooltips escape names too: show the hostile faction's.
	html := browser.Eval[string](t, p, `(function () {
  var c = echarts.getInstanceByDom(document.getElementById("chart-factions"));
  c.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 3});
  var tip = document.querySelector("#chart-factions div[style*='z-index']");
  return tip ? tip.innerHTML : "";
})()`)
	if !strings.Contains(html, "&lt;b id=") || strings.Contains(html, "<b id=") {
		t.Errorf("the tooltip of the hostile faction does not show its name escaped: %q", html)
	}
	if n := browser.Eval[int](t, p, `document.querySelectorAll("#inj").length`); n != 0 {
		t.Error("a tooltip injected an element")
	}
	g := browser.OpenFile(t, filepath.Join(dir, "cards.html"), 1280)
	g.WaitFor(t, `document.readyState === "complete"`, 30*time.Second)
	if n := browser.Eval[int](t, g, `document.querySelectorAll("img, #inj, svg[onload], i, textarea, script").length`); n != 0 {
		t.Errorf("%d elements injected into the gallery by ruleset text", n)
	}
	text := browser.Eval[string](t, g, `document.getElementById("gallery").innerText`)
	for _, h := range []string{hostileScript, hostileImg, hostileFormula, "Ωμέγα 🚀 中文", `Klingon </script><b id="inj">Empire</b> & "Co"`} {
		if !strings.Contains(text, h) {
			t.Errorf("the gallery does not show %q as text", h)
		}
	}
	g.CheckClean(t)
}

// Cards of several factions that share a name are labelled with their
// faction in the charts: four "Blockade"s were told apart only by colour.
func TestCardLabelNamesTheFaction(t *testing.T) {
	m := newModel(testData(t, rules.Default(), 8), Options{Now: testNow})
	for _, tc := range []struct{ name, faction, want string }{
		{"Blockade", "romulan", "Blockade (Romulan)"},
		{"Blockade", "starfleet", "Blockade (Starfleet)"},
		{"Scimitar", "romulan", "Scimitar"},
	} {
		if got := m.cardLabel(tc.name, tc.faction); got != tc.want {
			t.Errorf("cardLabel(%q, %q) = %q, want %q", tc.name, tc.faction, got, tc.want)
		}
	}
}
