package engine

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// playTrace plays s to the end with actions drawn from its legal lists by a
// stream of its own, and returns every action taken followed by the seats'
// final totals.
func playTrace(t *testing.T, s *State, seed uint64) []int {
	t.Helper()
	rng := NewRNG(seed)
	var trace []int
	var buf []Action
	for steps := 0; !s.IsTerminal(); steps++ {
		if steps > 5000 {
			t.Fatal("game did not end")
		}
		buf = s.LegalActions(buf)
		a := buf[rng.Intn(len(buf))]
		trace = append(trace, int(a))
		s.Apply(a)
	}
	for p := 0; p < s.NumPlayers(); p++ {
		trace = append(trace, s.FinalScore(p).Total)
	}
	return trace
}

// A rebound state plays exactly the game a new one plays, whatever game it
// held before: a ruleset with other cards, another number of seats.
func TestRebindPlaysAsNew(t *testing.T) {
	rs := rules.Default()
	other := *rs
	other.Cards = append([]rules.Card(nil), rs.Cards...)
	for i := range other.Cards {
		other.Cards[i].Power += 2
	}
	lineups := [][]string{{"starfleet", "klingon"}, {"romulan", "vulcan", "klingon"}, {"vulcan", "romulan", "starfleet", "klingon"}}
	s, err := New(&other, Config{Factions: lineups[2], Seed: 99})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lineups {
		for seed := uint64(1); seed <= 20; seed++ {
			cfg := Config{Factions: l, Seed: seed}
			fresh, err := New(rs, cfg)
			if err != nil {
				t.Fatal(err)
			}
			want := playTrace(t, fresh, seed)
			playTrace(t, s, seed+100) // leave s in another game's state
			if err := s.Rebind(rs, cfg); err != nil {
				t.Fatal(err)
			}
			if got := playTrace(t, s, seed); !equalInts(got, want) {
				t.Fatalf("lineup %d seed %d: the rebound state played another game", i, seed)
			}
			if err := s.Rebind(&other, Config{Factions: lineups[(i+1)%len(lineups)], Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Rebind(rs, Config{Factions: []string{"starfleet"}}); err == nil {
		t.Fatal("Rebind accepted one seat")
	}
}
