package engine

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Test helpers for rulebook scenarios. Seat 0 is Starfleet, seat 1 Klingon
// unless a test says otherwise.

func up(id string, owner int) SetupCard   { return SetupCard{Card: id, Owner: owner, FaceUp: true} }
func down(id string, owner int) SetupCard { return SetupCard{Card: id, Owner: owner} }

func shielded(id string, owner int) SetupCard {
	return SetupCard{Card: id, Owner: owner, Shielded: true}
}

func build(t testing.TB, su Setup) *State {
	t.Helper()
	if su.Factions == nil {
		su.Factions = []string{"starfleet", "klingon"}
	}
	// Stop before the Scoring Phase so the rows stay to be inspected.
	su.PauseBeforeScoring = true
	s, err := NewSetup(rules.Default(), su)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	return s
}

func cid(t testing.TB, id string) int {
	t.Helper()
	c, ok := rules.Default().CardByID(id)
	if !ok {
		t.Fatalf("no card %q", id)
	}
	return c.Index
}

// rowIDs lists row r top to bottom as ids, face-down cards marked with "?".
func rowIDs(s *State, r int) string {
	var out []string
	for k := 0; k < s.RowLen(r); k++ {
		in := s.Slot(Omniscient, r, k)
		id := s.fx.rs.Cards[in.Card].ID
		if !in.FaceUp {
			id += "?"
		}
		out = append(out, id)
	}
	return strings.Join(out, " ")
}

func apply(t testing.TB, s *State, a Action) {
	t.Helper()
	if err := s.ApplyChecked(a); err != nil {
		var buf []Action
		t.Fatalf("%v; legal: %v", err, s.LegalActions(buf))
	}
	if err := s.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
}

func legal(s *State) []Action { return s.LegalActions(nil) }

func has(actions []Action, a Action) bool {
	for _, x := range actions {
		if x == a {
			return true
		}
	}
	return false
}

func score(s *State, r int) RowResult { return s.ScoreRow(r, new(handlers.RowScore)) }

type eventLog struct{ ev []Event }

func (l *eventLog) OnEvent(s *State, e Event) { l.ev = append(l.ev, e) }

func (l *eventLog) kinds(k EventKind) []Event {
	var out []Event
	for _, e := range l.ev {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func buildRS() *rules.Ruleset { return rules.Default() }
