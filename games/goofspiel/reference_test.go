package goofspiel_test

import (
	"math"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// TestOpenSpielPlaythroughs replays the games of OpenSpiel's stored
// playthroughs of goofspiel (google-deepmind/open_spiel at 112b7770,
// open_spiel/integration_tests/playthroughs/goofspiel.txt — the same game as
// goofspiel_egocentric.txt and goofspiel_turn_based.txt — and
// goofspiel_random_points_order.txt): four cards, the prizes in the order
// the playthrough turned them up, the same bids (OpenSpiel's action a is
// bid a+1). The points after every turn and the result are OpenSpiel's.
func TestOpenSpielPlaythroughs(t *testing.T) {
	for _, pt := range []struct {
		name   string
		prizes string // in the order turned up
		bids   [][2]int
		points [][2]int // after each turn
	}{
		{"goofspiel.txt", "[4, 3, 2, 1]", [][2]int{{3, 4}, {2, 1}, {4, 2}, {1, 3}}, [][2]int{{0, 4}, {3, 4}, {5, 4}, {5, 5}}},
		{"goofspiel_random_points_order.txt", "[4, 2, 1, 3]", [][2]int{{1, 1}, {3, 2}, {4, 3}, {2, 4}}, [][2]int{{0, 0}, {2, 0}, {3, 0}, {3, 3}}},
	} {
		text := "game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 2}\ncards: 4\nprizes: " + pt.prizes + "\n"
		rs, err := goofspiel.Load(fstest.MapFS{goofspiel.RulesFile: {Data: []byte(text)}}, "")
		if err != nil {
			t.Fatal(err)
		}
		// A seed whose shuffle keeps rules.yaml's order, so the prizes come
		// up as in the playthrough.
		var s *goofspiel.State
		for seed := uint64(0); ; seed++ {
			s = goofspiel.New(rs, 2, seed)
			if inOrder(s, rs) {
				break
			}
		}
		for turn, b := range pt.bids {
			s.Apply(game.Action(b[0]))
			s.Apply(game.Action(b[1]))
			if got := [2]int{s.Score(0), s.Score(1)}; got != pt.points[turn] {
				t.Fatalf("%s, turn %d: points %v, OpenSpiel %v", pt.name, turn+1, got, pt.points[turn])
			}
		}
		// Both end 5–5 and 3–3: a draw, OpenSpiel's returns [0, 0]; shared here.
		if !s.IsTerminal() || s.Returns() != [game.MaxSeats]float64{0.5, 0.5} {
			t.Errorf("%s: over %v, returns %v; OpenSpiel: a draw", pt.name, s.IsTerminal(), s.Returns())
		}
	}
}

// inOrder reports whether s deals its prizes in rules.yaml's order: it
// plays a copy out with both bidding their lowest card, the tie discarding
// every prize, and reads each prize as it comes up.
func inOrder(s *goofspiel.State, rs *goofspiel.Ruleset) bool {
	c := s.Clone().(*goofspiel.State)
	for turn := 0; !c.IsTerminal(); turn++ {
		if c.Prize() != rs.Prizes[turn] {
			return false
		}
		low := c.LegalActions(nil)[0]
		c.Apply(low)
		c.Apply(low)
	}
	return true
}

// outcome plays n two-seat games of the default ruleset with a in seat
// `seat` and b in the other, and counts a's wins, draws and losses.
func outcome(t *testing.T, a, b string, seat, n int, seed uint64) (win, draw, loss int) {
	rs := goofspiel.Default()
	for i := 0; i < n; i++ {
		gs := game.SeedFor(seed, uint64(i))
		s, err := rs.NewState([]int{0, 0}, gs)
		if err != nil {
			t.Fatal(err)
		}
		ag := make([]game.Agent, 2)
		x, err1 := bots.ParseFor(rs, a, game.SeedFor(gs, 1))
		y, err2 := bots.ParseFor(rs, b, game.SeedFor(gs, 2))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		ag[seat], ag[1-seat] = x, y
		if _, _, err := game.PlayGeneric(s, ag, nil, nil, nil); err != nil {
			t.Fatal(err)
		}
		switch r := s.Returns(); {
		case r[seat] == 1:
			win++
		case r[seat] == 0:
			loss++
		default:
			draw++
		}
	}
	return
}

// TestReferenceFigures sets the default two-player game against what is
// known of it (docs/rules-goofspiel.md, "Reference figures"):
//   - random against random is symmetric (OpenSpiel's goofspiel is a
//     symmetric zero-sum game; sequence_form_lp_test.py and
//     value_iteration_test.py check its value 0): each seat's win share
//     (a draw shared) is 1/2 within 4 standard errors;
//   - the prize-matching bid against a random bidder: 957 wins in 1,000
//     OpenSpiel games (Tubbz-alt/goofspiel, deterministic_vs_random.ipynb,
//     draws counted as no win); greedy's win rate here must agree within
//     3.29 standard errors of the difference (99.9%).
func TestReferenceFigures(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 4000
	}
	for seat := range 2 {
		w, d, _ := outcome(t, "random", "random", seat, n, 5+uint64(seat))
		share := (float64(w) + float64(d)/2) / float64(n)
		se := math.Sqrt(share * (1 - share) / float64(n))
		t.Logf("random in seat %d against random: win share %.4f ± %.4f (95%%), draws %.4f, %d games", seat+1, share, 1.96*se, float64(d)/float64(n), n)
		if math.Abs(share-0.5) > 4*se {
			t.Errorf("random in seat %d wins %.4f of the games (standard error %.4f): not symmetric", seat+1, share, se)
		}
	}
	const refWins, refGames = 957, 1000
	ref := float64(refWins) / refGames
	for seat := range 2 {
		w, d, l := outcome(t, "greedy", "random", seat, n, 7+uint64(seat))
		p := float64(w) / float64(n)
		se := math.Sqrt(p*(1-p)/float64(n) + ref*(1-ref)/refGames)
		t.Logf("greedy in seat %d against random: wins %.4f, draws %.4f, losses %.4f of %d games; OpenSpiel %.3f of %d (difference %.4f, %.1f standard errors)",
			seat+1, p, float64(d)/float64(n), float64(l)/float64(n), n, ref, refGames, p-ref, (p-ref)/se)
		if math.Abs(p-ref) > 3.29*se {
			t.Errorf("greedy in seat %d wins %.4f against random; OpenSpiel's matching bot %.3f (standard error of the difference %.4f)", seat+1, p, ref, se)
		}
	}
}

// BenchmarkSearch: one ismcts decision of 500 iterations from the opening
// of a default two-player game (ns/iteration is the search's cost).
func BenchmarkSearch(b *testing.B) {
	rs := goofspiel.Default()
	s, _ := rs.NewState([]int{0, 0}, 1)
	a, err := bots.ParseFor(rs, "ismcts", 1)
	if err != nil {
		b.Fatal(err)
	}
	legal := s.LegalActions(nil)
	a.Choose(s, legal)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Choose(s, legal)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bots.DefaultIterations), "ns/iteration")
}
