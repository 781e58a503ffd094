package reports

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cardlab/cardlab/analysis"
)

// The live page of `cardlab watch`: one HTML page (styles and script
// inlined, nothing fetched) that follows the server's state over
// server-sent events and redraws itself.
var (
	//go:embed assets/live.html
	liveHTML string
	//go:embed assets/live.js
	liveJS string
)

// LiveState is what `cardlab watch` shows after each save: whether the
// ruleset is valid, and the paired comparison with the baseline — every
// faction's change and the cards whose value moved.
type LiveState struct {
	// Seq counts the states published; the page shows the newest.
	Seq int `json:"seq"`
	// Status is "waiting", "running", "invalid" (the ruleset has errors),
	// "done" or "failed".
	Status  string `json:"status"`
	Message string `json:"message"`
	// File is the file whose save started this state, "" at the start.
	File string `json:"file,omitempty"`
	Time string `json:"time"`
	// Errors are the ruleset's errors, file:line:col: message.
	Errors   []string      `json:"errors,omitempty"`
	Verdict  string        `json:"verdict,omitempty"`
	Changes  []LiveChange  `json:"changes,omitempty"`
	Factions []LiveFaction `json:"factions,omitempty"`
	Cards    []LiveCard    `json:"cards,omitempty"`
	// Rows is what the win-share rows are, in the game's words: its side
	// ("faction"), or "seat" where every seat plays its one side (a mirror
	// such as Goofspiel compares seats). Side is the game's side, for the
	// cards' column and what a card's value is against.
	Rows string `json:"rows,omitempty"`
	Side string `json:"side,omitempty"`
	// CardsNote says why no card is listed, or how they were chosen.
	CardsNote string `json:"cards_note,omitempty"`
	Games     int64  `json:"games,omitempty"`
	// Bots says which bots played the comparison.
	Bots    string  `json:"bots,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	// Progress is the share of the current run's games played (0–1).
	Progress float64 `json:"progress,omitempty"`
}

// LiveChange is one edit against the baseline.
type LiveChange struct {
	Name string `json:"name"`
	ID   string `json:"id,omitempty"`
	What string `json:"what"`
}

// LiveFaction is one faction's win share under the baseline and now, on
// the same games.
type LiveFaction struct {
	Name        string     `json:"name"`
	Color       string     `json:"color"`
	Base        float64    `json:"base"`
	Now         float64    `json:"now"`
	Delta       float64    `json:"delta"`
	CI95        [2]float64 `json:"ci95"`
	Significant bool       `json:"significant"`
}

// LiveCard is a card whose value vs its faction moved (or that was edited).
type LiveCard struct {
	Name    string     `json:"name"`
	Faction string     `json:"faction"`
	Color   string     `json:"color"`
	Before  *float64   `json:"before"`
	After   float64    `json:"after"`
	Delta   float64    `json:"delta"`
	CI95    [2]float64 `json:"ci95"`
	Moved   bool       `json:"moved"`
	Edited  bool       `json:"edited"`
}

// maxLiveCards is how many cards the live view lists.
const maxLiveCards = 12

// LiveResult is the state after a run: cur holds the report of the edited
// ruleset with its comparison against the baseline (Diff); base is the
// baseline's own report, for the card values before the edit (nil: none).
func LiveResult(cur, base *Data, o Options) *LiveState {
	m := newModel(cur, o)
	w := m.words()
	st := &LiveState{Status: "done", Time: stamp(m.now), Games: cur.Games, Rows: w.Side, Side: w.Side,
		Bots: fmt.Sprintf("Every figure comes from games of the %s bot.", botsName(cur.Config.Bots))}
	rows := w.Sides // the rows in the plural, for the notes
	if m.oneSide() {
		st.Rows, rows = "seat", "seats"
	}
	if df := cur.Diff; df != nil {
		st.Verdict = df.Verdict
		for _, c := range m.changes() {
			st.Changes = append(st.Changes, LiveChange{Name: c.Name, ID: c.ID, What: c.What()})
		}
		for _, f := range df.Factions {
			st.Factions = append(st.Factions, LiveFaction{Name: m.facName(f.Faction), Color: m.facColor(f.Faction),
				Base: f.Base, Now: f.Variant, Delta: f.Delta, CI95: f.CI95, Significant: f.Significant})
		}
		st.Seconds = df.Timing.Seconds
	}
	st.Seconds += cur.Timing.Seconds
	edited := map[string]bool{}
	if cur.Diff != nil {
		for _, c := range cur.Diff.Changes {
			if c.Kind == "card" {
				edited[c.ID] = true
			}
		}
	}
	before := map[string]*float64{}
	var beforeCI = map[string][2]float64{}
	if base != nil {
		for _, k := range base.Cards {
			if k.Value != nil {
				v := k.Value.VsFactionPts
				before[k.ID] = &v
				beforeCI[k.ID] = k.Value.VsFactionPtsCI95
			}
		}
	}
	valued := false
	var all []LiveCard
	var tested []int    // indices into all of the cards with a value before
	var pvals []float64 // their p-values, in the same order
	for _, c := range m.cards {
		v := c.Value
		if v == nil {
			continue
		}
		valued = true
		lc := LiveCard{Name: c.Info.Name, Faction: c.Fac.Name, Color: c.Fac.Color, Before: before[c.ID], After: v.VsFactionPts,
			CI95: v.VsFactionPtsCI95, Edited: edited[c.ID]}
		if b := lc.Before; b != nil {
			lc.Delta = v.VsFactionPts - *b
			// The difference against its standard error, the two runs'
			// intervals taken as independent normal ones.
			if se := math.Hypot(halfWidth(v.VsFactionPtsCI95), halfWidth(beforeCI[c.ID])) / 1.959964; se > 0 {
				tested = append(tested, len(all))
				pvals = append(pvals, math.Erfc(math.Abs(lc.Delta)/se/math.Sqrt2))
			}
		}
		all = append(all, lc)
	}
	// Moved: significant at 5% after Benjamini–Hochberg over every card
	// tested, so that a save does not show a handful of cards by chance.
	for k, padj := range analysis.BenjaminiHochberg(pvals) {
		all[tested[k]].Moved = padj < 0.05
	}
	for _, lc := range all {
		if lc.Moved || lc.Edited {
			st.Cards = append(st.Cards, lc)
		}
	}
	slices.SortStableFunc(st.Cards, func(a, b LiveCard) int {
		if a.Edited != b.Edited {
			if a.Edited {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(b.Delta), math.Abs(a.Delta))
	})
	if len(st.Cards) > maxLiveCards {
		st.Cards = st.Cards[:maxLiveCards]
	}
	switch {
	case !valued:
		st.CardsNote = "This cardlab run estimated no card values, so only the " + rows + "' changes are shown; once the report estimates card values, the cards whose value moved appear here."
	case len(st.Cards) == 0:
		st.CardsNote = m.say("No card's value vs its faction moved significantly (5%, Benjamini–Hochberg over all cards).")
	default:
		st.CardsNote = m.say("Edited cards first, then the largest significant moves of value vs faction (win-share points; 5%, Benjamini–Hochberg over all cards).")
	}
	st.Message = fmt.Sprintf("compared with the baseline on %d paired games per lineup", cur.Config.Games)
	return st
}

// orSide is word, or "side" for a state that names none.
func orSide(word string) string {
	if word == "" {
		return "side"
	}
	return word
}

func halfWidth(ci [2]float64) float64 { return (ci[1] - ci[0]) / 2 }

// Text is the state as the terminal shows it.
func (st *LiveState) Text() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	switch st.Status {
	case "invalid":
		p("%s  the ruleset has errors — fix them and save again:\n", st.Time)
		for _, e := range st.Errors {
			p("  %s\n", printable(e))
		}
		return b.String()
	case "failed", "waiting", "running":
		p("%s  %s\n", st.Time, printable(st.Message))
		return b.String()
	}
	p("%s  %s (%.1f s)\n", st.Time, st.Message, st.Seconds)
	if st.Verdict != "" {
		p("  %s\n", printable(st.Verdict))
	}
	for _, c := range st.Changes {
		p("  changed: %s: %s\n", printable(c.Name), printable(c.What))
	}
	if len(st.Factions) > 0 {
		p("  %-22s %7s %7s %9s  %s\n", orSide(st.Rows), "before", "now", "Δ points", "95% interval")
		for _, f := range st.Factions {
			mark := ""
			if f.Significant {
				mark = "  significant"
			}
			p("  %-22s %6.1f%% %6.1f%% %+9.1f  [%+.1f, %+.1f]%s\n", clip(f.Name, 22), 100*f.Base, 100*f.Now, 100*f.Delta,
				100*f.CI95[0], 100*f.CI95[1], mark)
		}
	}
	if len(st.Cards) > 0 {
		p("  %-30s %8s %8s %8s   (value vs %s, win-share points)\n", "card", "before", "now", "Δ", orSide(st.Side))
		for _, c := range st.Cards {
			before := "–"
			if c.Before != nil {
				before = fmt.Sprintf("%+.1f", *c.Before)
			}
			mark := ""
			if c.Edited {
				mark = "  edited"
			}
			p("  %-30s %8s %+8.1f %+8.1f%s\n", clip(c.Name, 30), before, c.After, c.Delta, mark)
		}
	}
	if st.CardsNote != "" {
		p("  %s\n", st.CardsNote)
	}
	return b.String()
}

// printable replaces control characters: names are data, and no control
// character of theirs reaches the terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// clip shortens s to n runes for a terminal column, printable characters
// only.
func clip(s string, n int) string {
	r := []rune(printable(s))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}

// LiveServer serves the live page of `cardlab watch`: "/" the page,
// "/state.json" the newest state, "/events" every new state as a
// server-sent event.
type LiveServer struct {
	title string
	mu    sync.Mutex
	seq   int
	state []byte
	// done is the newest finished result: a page opened during a run or
	// while the ruleset has errors still shows it.
	done    []byte
	changed chan struct{} // closed and replaced on every Publish
}

// NewLiveServer serves a page titled with the ruleset's name.
func NewLiveServer(title string) *LiveServer {
	return &LiveServer{title: title, state: []byte(`{"seq":0,"status":"waiting","message":"starting"}`), changed: make(chan struct{})}
}

// Publish makes st the newest state (its Seq is set here) and wakes every
// page.
func (s *LiveServer) Publish(st *LiveState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	c := *st
	c.Seq = s.seq
	if c.Time == "" {
		c.Time = stamp(time.Now())
	}
	data, err := json.Marshal(&c)
	if err != nil {
		data = []byte(fmt.Sprintf(`{"seq":%d,"status":"failed","message":%q}`, s.seq, err.Error()))
	}
	s.state = data
	if c.Status == "done" {
		s.done = data
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *LiveServer) current() ([]byte, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.changed
}

var liveTemplate = sync.OnceValues(func() (*template.Template, error) {
	if l := strings.ToLower(liveJS); strings.Contains(l, "</script") || strings.Contains(l, "<!--") {
		return nil, fmt.Errorf("reports: live.js cannot be inlined")
	}
	return template.New("live").Parse(liveHTML)
})

// ServeHTTP implements http.Handler.
func (s *LiveServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		tpl, err := liveTemplate()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = tpl.Execute(w, struct {
			Title string
			CSS   template.CSS
			JS    template.JS
		}{s.title, template.CSS(pageCSS), template.JS(liveJS)})
	case "/state.json":
		st, _ := s.current()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(st)
	case "/events":
		fl, ok := w.(http.Flusher)
		if !ok {
			http.Error(w, "streaming unsupported", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		s.mu.Lock()
		done, cur := s.done, s.state
		s.mu.Unlock()
		if done != nil && !bytes.Equal(done, cur) {
			if _, err := fmt.Fprintf(w, "data: %s\n\n", done); err != nil {
				return
			}
		}
		for {
			st, changed := s.current()
			if _, err := fmt.Fprintf(w, "data: %s\n\n", st); err != nil {
				return
			}
			fl.Flush()
			select {
			case <-changed:
			case <-r.Context().Done():
				return
			}
		}
	default:
		http.NotFound(w, r)
	}
}

// LoopbackOnly serves h only to requests whose Host header names the
// loopback address the page is served on, addr ("127.0.0.1:PORT"):
// localhost, 127.0.0.1 or [::1] with that port (without it when the port
// is 80, as browsers send it). Any other name is refused with 403 Forbidden:
// a web page that rebinds its own DNS name to 127.0.0.1 (DNS rebinding)
// must not read the ruleset's cards and results.
func LoopbackOnly(addr string, h http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr)
	ok := map[string]bool{strings.ToLower(addr): true}
	for _, host := range []string{"localhost", "127.0.0.1", "[::1]"} {
		ok[host+":"+port] = true
		if port == "80" {
			ok[host] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ok[strings.ToLower(r.Host)] {
			http.Error(w, "forbidden: the live page answers only to its loopback address", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}
