package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cardlab/cardlab/internal/browser"
)

const raptorPower = "    name: Raptor\n    type: ship\n    kind: X\n    power: 2"

// syncBuffer is a bytes.Buffer safe for the watcher's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWatch runs watch on dir until the test ends; it returns the live
// page's URL, the output and a stop function that waits for watch to end.
func startWatch(t *testing.T, dir string) (url string, out *syncBuffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	ready := make(chan string, 1)
	opts := &WatchOptions{Out: out, ErrOut: out, Context: ctx, RulesDir: dir, Matchups: []string{"starfleet,klingon"},
		Bots: "random", Games: 30, Seed: 1, Workers: 2, Debounce: 100 * time.Millisecond, Values: true, Precision: 50,
		Ready: func(u string) { ready <- u }}
	done := make(chan error, 1)
	go func() { done <- watchRun(opts) }()
	select {
	case url = <-ready:
	case err := <-done:
		t.Fatalf("watch ended before serving: %v\n%s", err, out)
	case <-time.After(20 * time.Second):
		t.Fatal("watch did not start")
	}
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("watch did not stop within 10 s of Ctrl-C")
		}
		return nil
	}
	t.Cleanup(func() { stop() })
	return url, out, stop
}

func waitOutput(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(out.String(), want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("watch never printed %q:\n%s", want, out)
}

func TestWatchUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"watch"}, "watch needs --rules DIR"},
		{[]string{"watch", "--rules", t.TempDir(), "--port", "70000"}, "--port must be"},
		{[]string{"watch", "--rules", t.TempDir(), "--games", "abc"}, `--games must be a whole number, got "abc"`},
	} {
		code, stdout, stderr := cardlab(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.msg) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.msg)
		}
	}
}

// On every save watch validates (errors at once, file:line:col) and plays
// the comparison with the ruleset as it was when it started; Ctrl-C stops
// it cleanly.
func TestWatchSaves(t *testing.T) {
	dir := writeDefault(t)
	_, out, stop := startWatch(t, dir)
	waitOutput(t, out, "save a file to compare")
	corrupt(t, dir, "klingon.yaml", raptorPower, "    name: Raptor\n    type: ship\n    kind: X\n    power: two")
	waitOutput(t, out, "klingon.yaml:")
	if !strings.Contains(out.String(), `power: expected an integer`) {
		t.Errorf("the error is not shown with its position:\n%s", out)
	}
	corrupt(t, dir, "klingon.yaml", "power: two", "power: 4")
	waitOutput(t, out, "changed: Raptor: power: 2 → 4")
	waitOutput(t, out, "Klingon")
	if err := stop(); err != nil {
		t.Errorf("watch after Ctrl-C: %v", err)
	}
	if !strings.HasSuffix(strings.TrimSpace(out.String()), "stopped") {
		t.Errorf("watch did not say it stopped:\n%s", out)
	}
}

// The live page shows a new result after a file of the ruleset is edited,
// with no console error and nothing fetched from outside.
func TestWatchLivePage(t *testing.T) {
	browser.Path(t)
	dir := writeDefault(t)
	url, out, _ := startWatch(t, dir)
	p := browser.Open(t, 1280)
	p.Navigate(t, url)
	p.WaitFor(t, `document.documentElement.getAttribute("data-status") === "waiting"`, 30*time.Second)
	corrupt(t, dir, "klingon.yaml", raptorPower, "    name: Raptor\n    type: ship\n    kind: X\n    power: 4")
	p.WaitFor(t, `document.documentElement.getAttribute("data-status") === "done"`, 60*time.Second)
	changes := browser.Eval[string](t, p, `document.getElementById("live-changes").textContent`)
	if !strings.Contains(changes, "Raptor (kl-raptor): power: 2 → 4") {
		t.Errorf("the live page does not show the edit: %q\n%s", changes, out)
	}
	if n := browser.Eval[int](t, p, `document.querySelectorAll("#live-factions tbody tr").length`); n != 2 {
		t.Errorf("the live page shows %d factions, want 2", n)
	}
	seq := browser.Eval[string](t, p, `document.documentElement.getAttribute("data-seq")`)
	corrupt(t, dir, "klingon.yaml", "power: 4", "power: four")
	p.WaitFor(t, `document.documentElement.getAttribute("data-status") === "invalid"`, 30*time.Second)
	if errs := browser.Eval[string](t, p, `document.getElementById("live-errors").textContent`); !strings.Contains(errs, "klingon.yaml:") {
		t.Errorf("the live page does not show the error with its position: %q", errs)
	}
	if now := browser.Eval[string](t, p, `document.documentElement.getAttribute("data-seq")`); now == seq {
		t.Error("the page did not update")
	}
	p.NoPageScroll(t)
	p.Screenshot(t, "watch.png")
	p.CheckClean(t)
	// From a phone: the same page, 400 px wide, no sideways scroll.
	narrow := browser.Open(t, 400)
	narrow.Navigate(t, url)
	narrow.WaitFor(t, `document.documentElement.getAttribute("data-status") === "invalid"`, 30*time.Second)
	if n := browser.Eval[int](t, narrow, `document.querySelectorAll("#live-factions tbody tr").length`); n != 2 {
		t.Errorf("a page opened while the ruleset has errors shows %d factions of the last result, want 2", n)
	}
	narrow.NoPageScroll(t)
	narrow.Screenshot(t, "watch-400.png")
	narrow.CheckClean(t)
}

// TestWatchRefusesForeignHost is issue 24 item 10 end to end: `curl -H
// 'Host: evil.example' 127.0.0.1:PORT/state.json` returned card names and
// results (DNS rebinding); now 403, while the printed address works.
func TestWatchRefusesForeignHost(t *testing.T) {
	dir := writeDefault(t)
	u, _, _ := startWatch(t, dir)
	get := func(host string) int {
		req, err := http.NewRequest("GET", u+"state.json", nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	port := u[strings.LastIndex(u, ":")+1 : len(u)-1]
	for host, want := range map[string]int{"": 200, "localhost:" + port: 200, "evil.example": 403, "evil.example:" + port: 403} {
		if got := get(host); got != want {
			t.Errorf("Host %q: %d, want %d", host, got, want)
		}
	}
}

// The live page of a Goofspiel ruleset heads its rows "Seat" (a mirror
// compares seats) and its cards' side column "Player", in the game's words.
func TestWatchGoofspielLivePage(t *testing.T) {
	browser.Path(t)
	dir := initGoofspiel(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	ready := make(chan string, 1)
	opts := &WatchOptions{Out: out, ErrOut: out, Context: ctx, RulesDir: dir, Matchups: []string{"player,player"},
		Bots: "greedy,random", BotsSet: true, Games: 200, Seed: 1, Workers: 1, Debounce: 100 * time.Millisecond, Values: true,
		Precision: 50, Ready: func(u string) { ready <- u }}
	done := make(chan error, 1)
	go func() { done <- watchRun(opts) }()
	var url string
	select {
	case url = <-ready:
	case err := <-done:
		t.Fatalf("watch ended before serving: %v\n%s", err, out)
	case <-time.After(20 * time.Second):
		t.Fatal("watch did not start")
	}
	p := browser.Open(t, 1280)
	p.Navigate(t, url)
	p.WaitFor(t, `document.documentElement.getAttribute("data-status") === "waiting"`, 30*time.Second)
	file := filepath.Join(dir, "rules.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), "prizes: [1, 2,", "prizes: [1000, 2,", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p.WaitFor(t, `document.documentElement.getAttribute("data-status") === "done"`, 60*time.Second)
	if h := browser.Eval[string](t, p, `document.getElementById("live-rows-head").textContent`); h != "Seat" {
		t.Errorf("the rows' heading is %q, want Seat\n%s", h, out)
	}
	if h := browser.Eval[string](t, p, `document.getElementById("live-side-head").textContent`); h != "Player" {
		t.Errorf("the cards' side heading is %q, want Player", h)
	}
	if n := browser.Eval[int](t, p, `document.querySelectorAll("#live-factions tbody tr").length`); n != 2 {
		t.Errorf("the live page shows %d seats, want 2", n)
	}
	p.Screenshot(t, "watch-goofspiel.png")
	p.CheckClean(t)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("watch after Ctrl-C: %v", err)
	}
}
