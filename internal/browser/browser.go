// Package browser opens pages in a headless Chromium for the tests of the
// report page and of `cardlab watch`'s live page: offline (every request
// outside file: and loopback fails), recording console errors, uncaught
// exceptions, network requests and dialogs.
//
// Tests skip when no Chromium is installed, unless CARDLAB_BROWSER_TESTS=1
// (as in CI) makes that a failure. CARDLAB_CHROMIUM names the browser
// binary; screenshots go to CARDLAB_ARTIFACTS if set.
package browser

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

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Path is the Chromium to use; without one the test is skipped (or fails
// under CARDLAB_BROWSER_TESTS=1).
func Path(t testing.TB) string {
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

// ArtifactDir is where screenshots go: $CARDLAB_ARTIFACTS or a temporary
// directory.
func ArtifactDir(t testing.TB) string {
	if d := os.Getenv("CARDLAB_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// Page is a page opened in Chromium, with what it did.
type Page struct {
	Ctx context.Context
	mu  sync.Mutex
	// problems are console errors, uncaught exceptions and browser log errors.
	problems []string
	// requests are the network requests of the page (anything but file:,
	// data: and loopback URLs).
	requests []string
	dialogs  []string
}

func (p *Page) add(list *[]string, s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	*list = append(*list, s)
}

// Snapshot returns what the page did so far.
func (p *Page) Snapshot() (problems, requests, dialogs []string) {
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

// Open starts a browser with a window width px wide (the page's
// innerWidth) and returns a blank page; Navigate loads a URL into it.
func Open(t testing.TB, width int) *Page {
	t.Helper()
	exe := Path(t)
	base, cancelBase := context.WithTimeout(context.Background(), 3*time.Minute)
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
		// Networking off: every request goes to a proxy that is not there,
		// except to this machine (the live page of cardlab watch).
		chromedp.ProxyServer("127.0.0.1:9"),
		chromedp.Flag("proxy-bypass-list", "<-loopback>;127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, 900),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	p := &Page{Ctx: ctx}
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
			if !strings.HasPrefix(u, "file:") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "http://127.0.0.1:") {
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
	// The viewport exactly width wide, whatever the window decorations.
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(width), Height: 900, DeviceScaleFactor: 1}); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: alertHook}); err != nil {
		t.Fatal(err)
	}
	return p
}

// OpenFile opens the page at path (file://) offline, width px wide.
func OpenFile(t testing.TB, path string, width int) *Page {
	t.Helper()
	p := Open(t, width)
	offline := []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
	if _, err := chromedp.Call(p.Ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: offline}); err != nil {
		t.Fatalf("network emulation: %v", err)
	}
	if _, err := chromedp.Call(p.Ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true,
		DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
		t.Fatalf("network state: %v", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	p.Navigate(t, "file://"+abs)
	return p
}

// Navigate loads url.
func (p *Page) Navigate(t testing.TB, url string) {
	t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
}

// WaitFor polls js until it is true.
func (p *Page) WaitFor(t testing.TB, js string, timeout time.Duration) {
	t.Helper()
	if _, err := chromedp.Run(p.Ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(timeout))); err != nil {
		t.Fatalf("waiting for %s: %v", js, err)
	}
}

// Eval evaluates js in the page.
func Eval[T any](t testing.TB, p *Page, js string) T {
	t.Helper()
	v, err := chromedp.Run(p.Ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// Screenshot saves the whole page as a PNG named name in ArtifactDir.
func (p *Page) Screenshot(t testing.TB, name string) {
	t.Helper()
	png, err := chromedp.Run(p.Ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	out := filepath.Join(ArtifactDir(t), name)
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", out)
}

// CheckClean fails the test for every console error, exception or network
// request outside this machine the page made.
func (p *Page) CheckClean(t testing.TB) {
	t.Helper()
	problems, requests, _ := p.Snapshot()
	for _, pr := range problems {
		t.Errorf("browser: %s", pr)
	}
	for _, r := range requests {
		t.Errorf("the page requested %s: it must work offline", r)
	}
}

// NoPageScroll fails the test when the page scrolls sideways: wider than
// the window.
func (p *Page) NoPageScroll(t testing.TB) {
	t.Helper()
	sw := Eval[float64](t, p, `document.documentElement.scrollWidth`)
	iw := Eval[float64](t, p, `window.innerWidth`)
	if sw > iw {
		wide := Eval[[]string](t, p, `Array.from(document.querySelectorAll("body *")).filter(function (e) {
  var r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 && !e.closest(".scroll");
}).slice(0, 8).map(function (e) { return e.tagName + "." + e.className + "#" + e.id + " right " + Math.round(e.getBoundingClientRect().right); })`)
		t.Errorf("the page is %.0f px wide in a %.0f px window (it scrolls sideways); too wide: %v", sw, iw, wide)
	}
}
