package goofspiel

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// otherRuleset is a ruleset of another game as the command line could hand
// it over by mistake.
type otherRuleset struct{ *Ruleset }

func (otherRuleset) Game() string { return "other" }

// cheat bids a card it does not hold.
type cheat struct{}

func (cheat) Choose(game.State, []game.Action) game.Action { return 99 }

type first struct{}

func (first) Choose(_ game.State, legal []game.Action) game.Action { return legal[0] }

// The trace and the card list refuse what they cannot show, and write
// nothing then. (Their output is pinned by cmd/cardlab's goldens,
// play-goofspiel*.golden, and TestGoofspielPlayJSON.)
func TestPresentRefuses(t *testing.T) {
	rs := Default()
	tests := []struct {
		name string
		run  func(*bytes.Buffer) error
		want string
	}{
		{"another game's ruleset", func(w *bytes.Buffer) error {
			return Game{}.Trace(w, otherRuleset{rs}, game.TraceRequest{Seats: []int{0, 0}, Agents: []game.Agent{first{}, first{}}})
		}, "a trace of a other ruleset"},
		{"agents for seats", func(w *bytes.Buffer) error {
			return Game{}.Trace(w, rs, game.TraceRequest{Seats: []int{0, 0}, Agents: []game.Agent{first{}}})
		}, "1 agents for 2 seats"},
		{"too many seats", func(w *bytes.Buffer) error {
			return Game{}.Trace(w, rs, game.TraceRequest{Seats: make([]int, 5), Agents: make([]game.Agent, 5)})
		}, "5 seats"},
		{"an illegal bid", func(w *bytes.Buffer) error {
			return Game{}.Trace(w, rs, game.TraceRequest{Seats: []int{0, 0}, Agents: []game.Agent{first{}, cheat{}}, Bots: []string{"first", "cheat"}})
		}, "the bot of player 2 (cheat) bid 99, which it does not hold"},
		{"catalog of another game", func(w *bytes.Buffer) error { return Game{}.Catalog(w, otherRuleset{rs}, -1, "table") }, "the cards of a other ruleset"},
		{"catalog side", func(w *bytes.Buffer) error { return Game{}.Catalog(w, rs, 1, "table") }, "no side 1"},
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

// A tie carried past the last prize goes to nobody, and the trace says so.
func TestTraceCarryOnLastPrize(t *testing.T) {
	rs := Default()
	carry := *rs
	carry.Ties = Carry
	var w bytes.Buffer
	// Both bid their lowest card every turn: every turn ties.
	if err := (Game{}).Trace(&w, &carry, game.TraceRequest{Seats: []int{0, 0}, Agents: []game.Agent{first{}, first{}}, Bots: []string{"low", "low"}}); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	for _, want := range []string{" carried: ", "tie at 13 on the last prize: its 91 points go to nobody", "Shared victory: player 1, player 2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
}
