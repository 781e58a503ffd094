package analysis

import (
	"context"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/spacetrace"
)

// CompareTiers pairs the tiers game by game: when the report's tier makes
// the lineup's first faction win every game the check tier makes it lose,
// its change is +100 points, significant, the other faction's −100, and a
// game one tier did not finish is left out of both.
func TestCompareTiers(t *testing.T) {
	rs := rules.Default()
	lineups := [][]string{{"starfleet", "klingon"}}
	const games = 40
	rep, chk := NewOutcomes(lineups, games), NewOutcomes(lineups, games)
	for i := range games {
		if err := rep.Record(&GameRecord{Index: i, Factions: []string{"starfleet", "klingon"}, Winners: []string{"starfleet"}}); err != nil {
			t.Fatal(err)
		}
		if i == 7 {
			continue // not finished at the check tier
		}
		w := []string{"klingon"}
		if i%10 == 0 {
			w = []string{"starfleet", "klingon"} // a shared victory: half a win each
		}
		if err := chk.Record(&GameRecord{Index: i, Factions: []string{"klingon", "starfleet"}, Winners: w}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rep.Record(&GameRecord{Index: games, Winners: []string{}}); err == nil {
		t.Error("a game beyond the lineups was recorded")
	}
	tc := CompareTiers(alphatactics.Ruleset{RS: rs}, lineups, games, []string{"strong"}, []string{"greedy"}, rep, chk, -1)
	if len(tc.Factions) != 2 || len(tc.Matchups) != 1 {
		t.Fatalf("%d factions, %d matchups", len(tc.Factions), len(tc.Matchups))
	}
	sf := tc.Factions[0]
	// 39 paired games: 4 shared at the check tier (0, 10, 20, 30), 35 lost.
	wantBase := 2.0 / 39
	if sf.Faction != "starfleet" || sf.Games != 39 || sf.Variant != 1 || !near(sf.Base, wantBase) || !near(sf.Delta, 1-wantBase) || !sf.Significant {
		t.Errorf("starfleet: %+v", sf)
	}
	if kl := tc.Factions[1]; !near(kl.Delta, -(1-wantBase)) || !kl.Significant {
		t.Errorf("klingon: %+v", kl)
	}
	if mu := tc.Matchups[0]; mu.Faction != "starfleet" || mu.Fair != 0.5 || !near(mu.Delta, sf.Delta) || mu.Games != 39 {
		t.Errorf("matchup: %+v", mu)
	}
	// Seat 1 holds Starfleet in even games (20 of the 39 paired) and
	// Klingon in odd ones (19): 20 wins at the report's tier, 19 + 4 × ½
	// at the check tier.
	if len(tc.Seats) != 2 {
		t.Fatalf("%d seats", len(tc.Seats))
	}
	if s := tc.Seats[0]; s.Players != 2 || s.Seat != 1 || s.Games != 39 || !near(s.Variant, 20.0/39) || !near(s.Base, 21.0/39) || s.Fair != 0.5 {
		t.Errorf("seat 1: %+v", s)
	}
}

func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }

// TestOutcomesMirroredSeats: in a lineup one side holds twice, the seats'
// own units place each outcome (seat q of game j at lineup position
// (q + j mod n) mod n), and a record without them is refused rather than
// read as a game nobody won.
func TestOutcomesMirroredSeats(t *testing.T) {
	o := NewOutcomes([][]string{{"player", "player"}}, 2)
	for _, c := range []struct {
		rec     GameRecord
		wantErr bool
	}{
		{GameRecord{Index: 0, Winners: []string{"player"}, Units: [4]int64{WinUnit, 0}}, false},
		{GameRecord{Index: 1, Winners: []string{"player"}, Units: [4]int64{WinUnit, 0}}, false},
		{GameRecord{Index: 1, Winners: []string{"player"}}, true},
	} {
		if err := o.Record(&c.rec); (err != nil) != c.wantErr {
			t.Errorf("game %d: error %v, want error %v", c.rec.Index, err, c.wantErr)
		}
	}
	// Game 0: seat 1 (position 0) won; game 1 rotated: seat 1 holds position 1.
	for _, c := range []struct{ i, k, want int }{{0, 0, WinUnit}, {0, 1, 0}, {1, 0, 0}, {1, 1, WinUnit}} {
		if got := o.a.outcome(c.i, c.k); got != c.want {
			t.Errorf("game %d position %d: %d, want %d", c.i, c.k, got, c.want)
		}
	}
}

// TestCompareTiersTurnOrder: in a mirror whose games say who began
// (Spacetrace) the check compares the seats in turn order, each tier's
// share of its starting seat being simulate's start-order share of the
// same games; a record naming a seat beyond the table as its starter is
// refused.
func TestCompareTiersTurnOrder(t *testing.T) {
	g := spacetrace.First()
	side := g.Sides()[0].ID
	lineups := [][]string{{side, side}}
	const games = 300
	outs := map[string]*Outcomes{}
	starter := map[string]float64{}
	for _, bot := range []string{"greedy", "random"} {
		o := NewOutcomes(lineups, games)
		run, err := Run(context.Background(), Config{Game: g, Matchups: lineups, Bots: []string{bot}, Games: games, Seed: 3, Workers: 2, Record: o.Record})
		if err != nil {
			t.Fatal(err)
		}
		outs[bot] = o
		s := run.Counts.Seats[0]
		starter[bot] = round6(float64(s.StartWins[0]) / float64(WinUnit*s.Games))
	}
	tc := CompareTiers(g, lineups, games, []string{"greedy"}, []string{"random"}, outs["greedy"], outs["random"], -1)
	if tc.SeatsCompared != ComparedTurnOrder || len(tc.Seats) != 2 || tc.Seats[0].Name != "starting seat" || tc.Seats[1].Name != "2nd in turn" {
		t.Fatalf("seats compared %q: %+v", tc.SeatsCompared, tc.Seats)
	}
	if s := tc.Seats[0]; s.Games != games || s.Variant != starter["greedy"] || s.Base != starter["random"] {
		t.Errorf("starting seat: greedy %v random %v, simulate counts %v and %v", s.Variant, s.Base, starter["greedy"], starter["random"])
	}
	if starter["greedy"] == 0.5 {
		t.Error("the starter's share is a half: the test cannot tell turn order from seats")
	}
	if err := outs["greedy"].Record(&GameRecord{Index: 0, StartSeat: 3, Units: [4]int64{WinUnit, 0}}); err == nil {
		t.Error("a starter beyond the table was recorded")
	}
}
