package analysis

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// scripted is a game.State whose scores after each decision are given:
// scores[k] are the seats' scores after k decisions (scores[0] at the
// start). Only what replayQuality calls is implemented.
type scripted struct {
	game.State
	scores [][]int
	ret    [game.MaxSeats]float64
	k      int
}

func (s *scripted) NumSeats() int                            { return len(s.scores[0]) }
func (s *scripted) Reset(uint64)                             { s.k = 0 }
func (s *scripted) Apply(game.Action)                        { s.k++ }
func (s *scripted) Score(q int) int                          { return s.scores[s.k][q] }
func (s *scripted) IsTerminal() bool                         { return s.k == len(s.scores)-1 }
func (s *scripted) Returns() [game.MaxSeats]float64          { return s.ret }
func (s *scripted) LegalActions([]game.Action) []game.Action { return nil }

// Lead changes and decisiveness as docs/metrics.md ("Game quality") defines
// them, on scripted score paths.
func TestReplayQuality(t *testing.T) {
	for _, tc := range []struct {
		name       string
		scores     [][]int
		ret        [game.MaxSeats]float64
		leads      int64
		leadBP     int64
		decisive   bool
		decisiveBP int64
	}{
		// Level, then each decision hands the lead over: 3 of 3; the winner
		// passes the loser's best (2) only at the last decision.
		{"seesaw", [][]int{{0, 0}, {1, 0}, {1, 2}, {3, 2}}, [4]float64{1, 0}, 3, 10000, true, 10000},
		// One change (level → seat 1 ahead) of 4; the loser never beats 2,
		// the winner is at 5 after the first decision: decided at 1 of 4.
		{"early", [][]int{{0, 0}, {5, 0}, {5, 1}, {6, 1}, {6, 2}}, [4]float64{1, 0}, 1, 2500, true, 2500},
		// Rounded half up: 1 of 3 is 3333 bp, 2 of 3 6667.
		{"thirds", [][]int{{0, 0}, {0, 1}, {0, 1}, {2, 1}}, [4]float64{1, 0}, 2, 6667, true, 10000},
		// The winner's score never lies above the loser's best: the whole game.
		{"tiebreak", [][]int{{0, 0}, {3, 3}, {3, 3}}, [4]float64{0, 1}, 0, 0, true, 10000},
		// Everyone shares the victory: no seat that did not win, no
		// decisiveness.
		{"draw", [][]int{{0, 0}, {1, 1}}, [4]float64{0.5, 0.5}, 0, 0, false, 0},
		// Three seats; ties are part of the leading set.
		{"three", [][]int{{0, 0, 0}, {1, 1, 0}, {1, 1, 0}, {1, 2, 4}}, [4]float64{0, 0, 1}, 2, 6667, true, 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scripted{scores: tc.scores, ret: tc.ret}
			moves := make([]game.Action, len(tc.scores)-1)
			g, _ := replayQuality(s, 1, moves, tc.ret, nil)
			want := qualityGame{length: int64(len(moves)), leads: tc.leads, leadBP: tc.leadBP, decisive: tc.decisive, decisiveBP: tc.decisiveBP}
			if g != want {
				t.Errorf("got %+v, want %+v", g, want)
			}
		})
	}
}

// The sample is chosen by game index: the same counts whatever the workers,
// and the shards' counts add up to the whole run's exactly.
func TestQualityIndependentOfWorkersAndShards(t *testing.T) {
	for _, g := range []game.Ruleset{nil, goofspiel.Default()} {
		cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan", "klingon"}},
			Games: 300, Seed: 5, Workers: 1}
		if g != nil {
			cfg = Config{Game: g, Matchups: [][]string{{"player", "player"}}, Games: 600, Seed: 5, Workers: 1}
		}
		whole := mustRun(t, cfg)
		q := whole.Counts.Quality
		if q == nil || q.Every != int64(QualityEvery) || q.Measured != 1 {
			t.Fatalf("quality counts %+v", q)
		}
		if want := int64((len(cfg.Matchups)*cfg.Games + QualityEvery - 1) / QualityEvery); q.Games != want {
			t.Errorf("%d sampled games, want %d", q.Games, want)
		}
		cfg.Workers = 3
		if w3 := mustRun(t, cfg); *w3.Counts.Quality != *q {
			t.Errorf("3 workers: %+v, 1 worker: %+v", *w3.Counts.Quality, *q)
		}
		var files []File
		for k := 1; k <= 3; k++ {
			c := cfg
			c.Shard = Shard{K: k, N: 3}
			files = append(files, File{Name: "s" + string(rune('0'+k)), Report: mustRun(t, c).Report("test")})
		}
		merged, err := Merge(files)
		if err != nil {
			t.Fatal(err)
		}
		if *merged.Raw.Quality != *q {
			t.Errorf("merged shards: %+v, whole run: %+v", *merged.Raw.Quality, *q)
		}
		rep := whole.Report("test")
		if !jsonEqual(t, merged.Quality, rep.Quality) {
			t.Errorf("merged figures differ from the whole run's")
		}
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(x) == string(y)
}

// The figures read what the counts say: Goofspiel is always 13 turns, 26
// decisions; shares lie in [0, 1] with their intervals around them.
func TestQualityFigures(t *testing.T) {
	res := mustRun(t, Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}}, Games: 1024, Seed: 2, Workers: 2})
	q := res.Report("test").Quality
	if q == nil || q.Sampled != 1024/QualityEvery || q.Games != 1024 {
		t.Fatalf("quality %+v", q)
	}
	if q.Length.Mean != 13 || q.Length.SD != 0 || q.LengthInDecisions || q.Decisions.Mean != 26 {
		t.Errorf("length %+v (in decisions %v), decisions %+v", q.Length, q.LengthInDecisions, q.Decisions)
	}
	for name, s := range map[string]MeanStats{"lead change": q.LeadChangeShare, "decisiveness": q.Decisiveness} {
		if s.Mean <= 0 || s.Mean > 1 || s.CI95[0] > s.Mean || s.CI95[1] < s.Mean {
			t.Errorf("%s %+v", name, s)
		}
	}
	if len(q.Starter) != 1 || q.Starter[0].Expected != 0.5 || q.Draws.N != 1024 {
		t.Errorf("starter %+v, draws %+v", q.Starter, q.Draws)
	}
}

// Check refuses quality counts that cannot be; a result without them (made
// before they were counted) still verifies.
func TestQualityCheck(t *testing.T) {
	res := mustRun(t, Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}}, Games: 256, Seed: 2, Workers: 2})
	for _, tc := range []struct {
		edit func(q *QualityCounts)
		want string
	}{
		{func(q *QualityCounts) { q.Games = 1000 }, "sampled games of"},
		{func(q *QualityCounts) { q.LeadBP = 10001 * q.Games }, "share above 1"},
		{func(q *QualityCounts) { q.DecisiveGames = q.Games + 1 }, "decisive games"},
		{func(q *QualityCounts) { q.Every = 0 }, "sampling stride"},
		{func(q *QualityCounts) { q.LeadChanges = -1 }, "between 0 and"},
	} {
		c := cloneCounts(res.Counts)
		tc.edit(c.Quality)
		if err := c.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check: %v, want %q", err, tc.want)
		}
	}
	rep := res.Report("test")
	rep.Raw = cloneCounts(res.Counts)
	rep.Raw.Quality, rep.Quality = nil, nil
	rep.Checksum = rep.Sum()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "quality") {
		t.Fatal("a result without quality counts writes the key")
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Verify(); err != nil {
		t.Errorf("a result without quality counts: %v", err)
	}
	if err := sameLayout(res.Counts, back.Raw); err == nil || !strings.Contains(err.Error(), "quality") {
		t.Errorf("shards with quality counts and without: %v", err)
	}
}

// A mean of shares has its interval cut to [0, 1]; other means do not.
func TestQualityMeanInterval(t *testing.T) {
	// per-game shares 1, 1, 0.5: mean 0.833, mean + 1.96·sd/√3 = 1.16
	if s := meanStats(3, 25000, 225_000_000, bpOne, 30); s.CI95[1] != 1 || s.CI95[0] >= s.Mean || !s.LowN {
		t.Errorf("shares: %+v", s)
	}
	if s := meanStats(3, 25000, 225_000_000, 1, 3); s.CI95[1] <= 10000 || s.LowN {
		t.Errorf("counts: %+v", s)
	}
}

// TestQualityStrideByTier: a run whose bots search samples every
// QualityEveryCostly-th game (the replay is a few thousandths of such a
// game), one of cheap bots every QualityEvery-th, and the stride is the
// run's, so shards agree.
func TestQualityStrideByTier(t *testing.T) {
	for _, tc := range []struct {
		bots []string
		want int
	}{
		{[]string{"random"}, QualityEvery},
		{[]string{"greedy", "random"}, QualityEvery},
		{[]string{"ismcts:iters=5"}, QualityEveryCostly},
		{[]string{"random", "ISMCTS:iters=5"}, QualityEveryCostly},
	} {
		if got := qualityStride(tc.bots); got != tc.want {
			t.Errorf("qualityStride(%v) = %d, want %d", tc.bots, got, tc.want)
		}
	}
	res := mustRun(t, Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}}, Bots: []string{"ismcts:iters=5"}, Games: 64, Seed: 3, Workers: 2})
	if q := res.Counts.Quality; q == nil || q.Every != QualityEveryCostly || q.Games != 64/QualityEveryCostly {
		t.Fatalf("ismcts run's quality counts %+v, want every %d, %d games", q, QualityEveryCostly, 64/QualityEveryCostly)
	}
}
