package reports

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The live state lists every faction's paired change and the cards whose
// value vs faction moved beyond its interval, edited cards first.
func TestLiveResult(t *testing.T) {
	base := fixtureData(false)
	cur := fixtureData(true)
	cur.Cards[0].Value.VsFactionPts = 5.7 // Thalaron Pulse: +3.1 → +5.7 pts, intervals ±1
	cur.Cards[0].Value.VsFactionPtsCI95 = [2]float64{4.7, 6.7}
	st := LiveResult(cur, base, Options{Now: testNow})
	if st.Status != "done" || len(st.Factions) != 2 || !st.Factions[0].Significant {
		t.Fatalf("state %+v", st)
	}
	if st.Bots != "Every figure comes from games of the greedy bot." {
		t.Errorf("the live page says of the bots %q", st.Bots)
	}
	var names []string
	for _, c := range st.Cards {
		names = append(names, c.Name)
	}
	if len(st.Cards) != 2 || !st.Cards[0].Edited || st.Cards[1].Name != "Thalaron Pulse" || !st.Cards[1].Moved {
		t.Fatalf("cards %v: want the edited card, then Thalaron Pulse moved", names)
	}
	if d := st.Cards[1].Delta; d < 2.57 || d > 2.59 {
		t.Errorf("Thalaron Pulse moved %+.2f, want +2.58", d)
	}
	text := st.Text()
	for _, want := range []string{"changed: Q*Bert_[x] <b>bold</b> & `tick` | pipe: power: 2 → 3", "Romulan", "Thalaron Pulse", "+3.1", "+5.7"} {
		if !strings.Contains(text, want) {
			t.Errorf("the terminal text has no %q:\n%s", want, text)
		}
	}
	// Without values (this cardlab today): factions only, and why.
	for i := range cur.Cards {
		cur.Cards[i].Value = nil
	}
	if st := LiveResult(cur, base, Options{}); len(st.Cards) != 0 || !strings.Contains(st.CardsNote, "no card values") {
		t.Errorf("without values: cards %v, note %q", st.Cards, st.CardsNote)
	}
}

// The server hands out the page, the newest state and its events.
func TestLiveServer(t *testing.T) {
	s := NewLiveServer(`Fixture <b>1.0</b>`)
	srv := httptest.NewServer(s)
	defer srv.Close()
	s.Publish(&LiveState{Status: "running", Message: "comparing"})
	res, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), "Fixture &lt;b&gt;1.0&lt;/b&gt;") || strings.Contains(string(page), "<b>1.0") {
		t.Error("the live page does not escape the ruleset's name")
	}
	res, err = http.Get(srv.URL + "/state.json")
	if err != nil {
		t.Fatal(err)
	}
	var st LiveState
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil || st.Seq != 1 || st.Status != "running" {
		t.Errorf("state %+v, %v", st, err)
	}
	res.Body.Close()
	if res, _ := http.Get(srv.URL + "/nothing"); res.StatusCode != http.StatusNotFound {
		t.Errorf("/nothing: %d", res.StatusCode)
	}
}

// A move that one test alone would call significant (z ≈ 2.2, p ≈ 0.03)
// is not shown among several cards: Benjamini–Hochberg over all of them.
func TestLiveResultCorrectsForManyCards(t *testing.T) {
	base := fixtureData(false)
	cur := fixtureData(false)
	tested := 0
	for _, c := range cur.Cards {
		if c.Value != nil {
			tested++
		}
	}
	if tested < 2 {
		t.Fatalf("the fixture values %d cards; the test needs two or more", tested)
	}
	b := base.Cards[0].Value
	half := (b.VsFactionPtsCI95[1] - b.VsFactionPtsCI95[0]) / 2
	shift := 2.2 * half * 1.4142 / 1.959964 // 2.2 standard errors of the difference
	cur.Cards[0].Value.VsFactionPts += shift
	cur.Cards[0].Value.VsFactionPtsCI95[0] += shift
	cur.Cards[0].Value.VsFactionPtsCI95[1] += shift
	if st := LiveResult(cur, base, Options{Now: testNow}); len(st.Cards) != 0 {
		t.Errorf("%d cards shown for a move of 2.2 standard errors among %d: %+v", len(st.Cards), tested, st.Cards)
	}
	cur.Cards[0].Value.VsFactionPts += 3 * half // far beyond: shown
	if st := LiveResult(cur, base, Options{Now: testNow}); len(st.Cards) != 1 || !st.Cards[0].Moved {
		t.Errorf("a large move not shown: %+v", st.Cards)
	}
}

// TestLoopbackOnly is issue 24 item 10: the live page answered any Host
// header, so a page on evil.example rebinding its name to 127.0.0.1 could
// read state.json. Only the loopback names with the port are served.
func TestLoopbackOnly(t *testing.T) {
	h := LoopbackOnly("127.0.0.1:8123", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	for _, tt := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:8123", 200}, {"localhost:8123", 200}, {"LocalHost:8123", 200}, {"[::1]:8123", 200},
		{"evil.example", 403}, {"evil.example:8123", 403}, {"localhost", 403}, {"127.0.0.1", 403},
		{"localhost:8124", 403}, {"127.0.0.2:8123", 403}, {"localhost.:8123", 403}, {"", 403},
		{"127.0.0.1:8123.evil.example", 403}, {"0.0.0.0:8123", 403},
	} {
		r := httptest.NewRequest("GET", "/state.json", nil)
		r.Host = tt.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("Host %q: %d, want %d", tt.host, w.Code, tt.want)
		}
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "localhost"
	w := httptest.NewRecorder()
	LoopbackOnly("127.0.0.1:80", h).ServeHTTP(w, r)
	if w.Code != 403 { // the inner guard is for 8123
		t.Errorf("port 80 nested: %d", w.Code)
	}
	w = httptest.NewRecorder()
	LoopbackOnly("127.0.0.1:80", http.NotFoundHandler()).ServeHTTP(w, r)
	if w.Code != 404 {
		t.Errorf("port 80, Host localhost: %d, want it served (404 from the handler)", w.Code)
	}
}
