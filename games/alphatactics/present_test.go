package alphatactics

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The presentation the command line asks for refuses what it cannot show
// rather than showing something else: an agent that is not an Alpha
// Tactics bot, a side the ruleset lacks. (Its output is pinned by the
// commands' goldens: testdata/golden/play-*.golden and the score tests.)
func TestPresentRefuses(t *testing.T) {
	rs := Ruleset{rules.Default()}
	at, err := bots.ParseFor(rs, "random", 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func(*bytes.Buffer) error
		want string
	}{
		{"foreign agent", func(w *bytes.Buffer) error {
			return Game{}.Trace(w, rs, game.TraceRequest{Seats: []int{0, 1}, Agents: []game.Agent{at, bots.NewUniform(2)}})
		}, "seat 2's agent"},
		{"no such side", func(w *bytes.Buffer) error {
			return Game{}.Trace(w, rs, game.TraceRequest{Seats: []int{0, 9}, Agents: []game.Agent{at, at}})
		}, "no such side"},
		{"catalog side", func(w *bytes.Buffer) error { return Game{}.Catalog(w, rs, 9, "table") }, "no such side"},
		{"catalog format", func(w *bytes.Buffer) error { return Game{}.Catalog(w, rs, -1, "pdf") }, `no card list format "pdf"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w bytes.Buffer
			err := tt.run(&w)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if w.Len() != 0 {
				t.Errorf("wrote %q before failing", w.String())
			}
		})
	}
}
