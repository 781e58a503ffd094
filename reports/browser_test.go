package reports

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/cardlab/cardlab/cards"
)

// The browser tests open the report page from disk in a headless Chromium
// with the network off. They skip when no Chromium is installed, unless
// CARDLAB_BROWSER_TESTS=1 (as in CI) makes that a failure. CARDLAB_CHROMIUM
// names the browser binary; screenshots go to CARDLAB_ARTIFACTS if set.

func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("CARDLAB_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "/usr/bin/chromium"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CARDLAB_BROWSER_TESTS") == "1" {
		t.Fatal("CARDLAB_BROWSER_TESTS=1 but no Chromium was found (apt-get install -y chromium, or set CARDLAB_CHROMIUM)")
	}
	t.Skip("skipping the browser test: no Chromium found (apt-get install -y chromium; CARDLAB_BROWSER_TESTS=1 makes this a failure)")
	return ""
}

// artifactDir is where screenshots go: $CARDLAB_ARTIFACTS or a temporary
// directory.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("CARDLAB_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// browserPage is a report page opened in Chromium, with what it did.
type browserPage struct {
	ctx context.Context
	mu  sync.Mutex
	// problems are console errors, uncaught exceptions and browser log errors.
	problems []string
	// requests are the network requests of the page (anything but file: and
	// data: URLs).
	requests []string
	dialogs  []string
}

func (p *browserPage) add(list *[]string, s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	*list = append(*list, s)
}

func (p *browserPage) snapshot() (problems, requests, dialogs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...), append([]string(nil), p.requests...), append([]string(nil), p.dialogs...)
}

// alertHook records calls of alert, confirm and prompt instead of opening
// dialogs, before any script of the page runs.
const alertHook = `window.__cardlabAlerts = [];
["alert", "confirm", "prompt"].forEach(function (k) {
  window[k] = function (m) { window.__cardlabAlerts.push(k + ":" + String(m)); };
});`

// openReport opens the page at path (file://) offline.
func openReport(t *testing.T, path string) *browserPage {
	t.Helper()
	exe := chromiumPath(t)
	base, cancelBase := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancelBase)
	alloc, cancelAlloc := chromedp.NewExecAllocator(base,
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		// Networking off: every request goes to a proxy that is not there.
		chromedp.ProxyServer("127.0.0.1:9"),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	p := &browserPage{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // starts the browser, attaches the tab
		t.Fatalf("starting %s: %v", exe, err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					if a.Value != nil {
						args = append(args, string(a.Value))
					} else {
						args = append(args, a.Description)
					}
				}
				p.add(&p.problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.add(&p.problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				p.add(&p.problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			u := ev.Request.URL
			if !strings.HasPrefix(u, "file:") && !strings.HasPrefix(u, "data:") {
				p.add(&p.requests, u)
			}
		case *page.EventJavascriptDialogOpening:
			p.add(&p.dialogs, string(ev.Type)+": "+ev.Message)
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	offline := []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: offline}); err != nil {
		t.Fatalf("network emulation: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true,
		DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatalf("network state: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: alertHook}); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+abs)); err != nil {
		t.Fatalf("opening %s: %v", abs, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.documentElement.hasAttribute("data-charts")`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the page never drew its charts: %v", err)
	}
	return p
}

func eval[T any](t *testing.T, p *browserPage, js string) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

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

func checkPage(t *testing.T, p *browserPage, d *Data, shot string) {
	t.Helper()
	charts := eval[[]chartState](t, p, chartsJS)
	if len(charts) < 7 {
		t.Errorf("%d charts on the page, want at least 7", len(charts))
	}
	drawn := eval[string](t, p, `document.documentElement.getAttribute("data-charts")`)
	if drawn != fmt.Sprint(len(charts)) {
		t.Errorf("page.js drew %s of %d charts", drawn, len(charts))
	}
	for _, c := range charts {
		if !c.Canvas || c.W <= 0 || c.H <= 0 || c.Painted == 0 || c.Error != "" {
			t.Errorf("chart %s did not render: %+v", c.ID, c)
		}
	}
	gallery := eval[int](t, p, `document.querySelectorAll("#gallery .gcard .face").length`)
	if gallery != len(d.Cards) {
		t.Errorf("the gallery shows %d cards, the result has %d", gallery, len(d.Cards))
	}
	if big := eval[int](t, p, `Array.from(document.querySelectorAll(".gpage")).filter(function (g) { return g.children.length > 9; }).length`); big != 0 {
		t.Errorf("%d gallery pages hold more than nine cards", big)
	}
	for _, id := range []string{"findings", "factions", "matchups", "seats", "cards", "targets", "games", "gallery", "methods"} {
		if !eval[bool](t, p, `!!document.getElementById("`+id+`")`) {
			t.Errorf("no section #%s", id)
		}
	}
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	out := filepath.Join(artifactDir(t), shot)
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", out)
	problems, requests, _ := p.snapshot()
	for _, pr := range problems {
		t.Errorf("browser: %s", pr)
	}
	for _, r := range requests {
		t.Errorf("the page requested %s: it must work offline", r)
	}
}

// The page works from disk with the network off: every chart draws, the
// gallery is there, nothing is fetched, nothing goes wrong in the console.
func TestReportBrowser(t *testing.T) {
	chromiumPath(t)
	d := testData(t, cards.Default(), 60)
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	p := openReport(t, filepath.Join(dir, "index.html"))
	checkPage(t, p, d, "report.png")
	if n := eval[int](t, p, `window.__cardlabAlerts.length`); n != 0 {
		t.Errorf("the page called alert %d times", n)
	}
}

// A hostile ruleset runs no script and injects no element: its names and
// texts appear as text.
func TestReportBrowserHostile(t *testing.T) {
	chromiumPath(t)
	d := testData(t, hostileRuleset(t), 40)
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(dir, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	p := openReport(t, filepath.Join(dir, "index.html"))
	checkPage(t, p, d, "report-hostile.png")
	if alerts := eval[[]string](t, p, `window.__cardlabAlerts`); len(alerts) != 0 {
		t.Errorf("ruleset text ran as script: %v", alerts)
	}
	if _, _, dialogs := p.snapshot(); len(dialogs) != 0 {
		t.Errorf("dialogs opened: %v", dialogs)
	}
	if n := eval[int](t, p, `document.querySelectorAll("img, #inj, svg[onload], i, textarea").length`); n != 0 {
		t.Errorf("%d elements injected by ruleset text", n)
	}
	scripts := eval[int](t, p, `document.scripts.length`)
	opts := eval[int](t, p, `document.querySelectorAll('script[type="application/json"]').length`)
	if scripts != opts+2 {
		t.Errorf("%d scripts in the page, want %d chart options + ECharts + page.js", scripts, opts)
	}
	text := eval[string](t, p, `document.getElementById("gallery").innerText`)
	for _, h := range []string{hostileScript, hostileImg, hostileFormula, "Ωμέγα 🚀 中文", `Klingon </script><b id="inj">Empire</b> & "Co"`} {
		if !strings.Contains(text, h) {
			t.Errorf("the gallery does not show %q as text", h)
		}
	}
	// The tooltips escape names too: show the hostile faction's.
	html := eval[string](t, p, `(function () {
  var c = echarts.getInstanceByDom(document.getElementById("chart-factions"));
  c.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 3});
  var tip = document.querySelector("#chart-factions div[style*='z-index']");
  return tip ? tip.innerHTML : "";
})()`)
	if !strings.Contains(html, "&lt;b id=") || strings.Contains(html, "<b id=") {
		t.Errorf("the tooltip of the hostile faction does not show its name escaped: %q", html)
	}
	if n := eval[int](t, p, `document.querySelectorAll("#inj").length`); n != 0 {
		t.Error("a tooltip injected an element")
	}
}
