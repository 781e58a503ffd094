package ai

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestISMCTSStopsOnRequest: a search with a huge budget returns within 2 s of
// the stop flag being set (issue 14 item 5: Ctrl-C reaches the search loop).
func TestISMCTSStopsOnRequest(t *testing.T) {
	rs, err := rules.Load(rules.DefaultFS(), "cards/default")
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(rs, engine.Config{Factions: []string{"starfleet", "klingon"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Reset(3)
	legal := s.LegalActions(nil)
	for len(legal) < 2 {
		s.Apply(legal[0])
		legal = s.LegalActions(legal)
	}
	b := NewISMCTS(5, 10_000_000, "greedy")
	var stop atomic.Bool
	b.SetStop(&stop)
	done := make(chan engine.Action)
	go func() { done <- b.Choose(s, legal) }()
	time.Sleep(300 * time.Millisecond)
	stop.Store(true)
	cancelled := time.Now()
	select {
	case a := <-done:
		if !slices.Contains(legal, a) {
			t.Errorf("returned %v, not a legal action", a)
		}
		t.Logf("returned %v after the stop", time.Since(cancelled))
	case <-time.After(2 * time.Second):
		t.Fatal("the search did not return within 2 s of the stop")
	}
}
