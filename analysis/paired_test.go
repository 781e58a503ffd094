package analysis

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
)

func approx(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestPairedStatsFunctions(t *testing.T) {
	// Student's t quantiles from tables.
	for _, c := range []struct{ p, df, want float64 }{
		{0.975, 1, 12.7062047}, {0.975, 10, 2.2281389}, {0.975, 30, 2.0422725},
		{0.975, 1e7, 1.959964}, {0.995, 5, 4.0321430}, {0.025, 10, -2.2281389},
	} {
		if got := StudentTQuantile(c.p, c.df); !approx(got, c.want, 1e-5) {
			t.Errorf("StudentTQuantile(%v, %v) = %v, want %v", c.p, c.df, got, c.want)
		}
	}
	if p := StudentTTwoSided(2.2281389, 10); !approx(p, 0.05, 1e-6) {
		t.Errorf("StudentTTwoSided(2.228, 10) = %v, want 0.05", p)
	}
	if p := StudentTTwoSided(0, 10); !approx(p, 1, 1e-12) {
		t.Errorf("StudentTTwoSided(0, 10) = %v, want 1", p)
	}
	// Exact sign test: 2·(1/2)^5 for 0 of 5; 2·(1+10)/1024 for 1 of 10.
	for _, c := range []struct {
		pos, neg int64
		want     float64
	}{{0, 5, 0.0625}, {5, 0, 0.0625}, {1, 9, 22.0 / 1024}, {3, 3, 1}, {0, 0, 1}, {10, 0, 2.0 / 1024}} {
		if got := SignTestP(c.pos, c.neg); !approx(got, c.want, 1e-12) {
			t.Errorf("SignTestP(%d, %d) = %v, want %v", c.pos, c.neg, got, c.want)
		}
	}
	// Holm and Benjamini–Hochberg on a textbook example.
	p := []float64{0.01, 0.04, 0.03, 0.005}
	wantHolm := []float64{0.03, 0.06, 0.06, 0.02}
	wantBH := []float64{0.02, 0.04, 0.04, 0.02}
	h, bh := Holm(p), BenjaminiHochberg(p)
	for i := range p {
		if !approx(h[i], wantHolm[i], 1e-12) || !approx(bh[i], wantBH[i], 1e-12) {
			t.Fatalf("Holm %v (want %v), BH %v (want %v)", h, wantHolm, bh, wantBH)
		}
	}
}

func TestPairAccTest(t *testing.T) {
	// Identical arms: no test, nothing significant.
	var p pairAcc
	p.unit = WinUnit
	for i := 0; i < 100; i++ {
		u := (i % 2) * WinUnit
		p.add(u, u)
	}
	tt := p.test(30)
	// Not [0, 0]: 100 unchanged games still allow a change of up to
	// 1 − 0.025^(1/100) = 3.6% of games (Clopper–Pearson).
	if tt.Test != TestNone || tt.P != 1 || tt.Delta != 0 || tt.Changed != 0 ||
		!approx(tt.CI95[1], 1-math.Pow(0.025, 0.01), 1e-6) || tt.CI95[0] != -tt.CI95[1] {
		t.Errorf("identical arms: %+v", tt)
	}
	// A few changed games: the exact sign test.
	p.add(0, WinUnit)
	p.add(0, WinUnit)
	tt = p.test(30)
	if tt.Test != TestSignExact || !approx(tt.P, 0.5, 1e-9) || tt.Changed != 2 {
		t.Errorf("two changed games: %+v", tt)
	}
	// Many changed games, all one way: the paired t-test.
	var q pairAcc
	q.unit = WinUnit
	for i := 0; i < 200; i++ {
		switch {
		case i%4 == 0:
			q.add(0, WinUnit)
		case i%4 == 1:
			q.add(WinUnit, WinUnit)
		default:
			q.add(0, 0)
		}
	}
	tt = q.test(30)
	if tt.Test != TestPairedT || tt.P > 1e-6 || !approx(tt.Delta, 0.25, 1e-9) || tt.CI95[0] <= 0 {
		t.Errorf("one-sided change: %+v", tt)
	}
	// Pairing removes the between-game spread: the paired interval is
	// narrower than the unpaired one.
	if tt.WidthRatio <= 1 {
		t.Errorf("width ratio %v, want > 1", tt.WidthRatio)
	}
}

// The arms of a paired run play exactly the games of `cardlab simulate`,
// with the same counts where the arm counts, in every game (Goofspiel: a
// mirror, one side on every seat).
func TestPairedMatchesSimulate(t *testing.T) {
	for _, tc := range []struct {
		g       game.Ruleset
		lineups [][]string
		bot     string
	}{
		{alphatactics.Ruleset{RS: rules.Default()}, [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan", "klingon"}}, "random"},
		{goofspiel.Default(), [][]string{{"player", "player"}, {"player", "player", "player"}}, "random"},
	} {
		cfg := Config{Game: tc.g, Matchups: tc.lineups, Bots: []string{tc.bot}, Games: 40, Seed: 9, Workers: 2, KeepGames: true}
		want := mustRun(t, cfg)
		pc := &PairedConfig{Matchups: tc.lineups, Bots: []string{tc.bot}, Games: 40, Seed: 9, Workers: 3}
		a := &arm{g: tc.g, counts: true}
		if _, _, err := runArms(context.Background(), pc, []*arm{a}); err != nil {
			t.Fatal(err)
		}
		// Run replays its game-quality sample; the arms do not (quality.go).
		if want.Counts.Quality == nil || want.Counts.Quality.Games == 0 {
			t.Fatalf("%s: Run counted no game-quality sample", tc.g.Game())
		}
		if a.Counts.Quality != nil {
			t.Fatalf("%s: a paired arm counted a game-quality sample", tc.g.Game())
		}
		want.Counts.Quality = nil
		wj, _ := json.Marshal(want.Counts)
		gj, _ := json.Marshal(a.Counts)
		if string(wj) != string(gj) {
			t.Fatalf("%s: counts differ from Run:\n%s\n%s", tc.g.Game(), wj, gj)
		}
		for _, r := range want.Records {
			n := len(r.Factions)
			rot := (r.Index % 40) % n
			for q := range n {
				if u := a.outcome(r.Index, (q+rot)%n); int64(u) != r.Units[q] {
					t.Fatalf("%s game %d: seat %d has %d units in the arm, %d in Run", tc.g.Game(), r.Index, q+1, u, r.Units[q])
				}
			}
		}
	}
}

func TestPairedDeterministicAcrossWorkers(t *testing.T) {
	rs := rules.Default()
	run := func(workers int) string {
		res, err := Impact(context.Background(), ImpactConfig{Game: alphatactics.Ruleset{RS: rs}, Cards: []string{"kl-d7", "sf-miranda", "vu-suurok"},
			PairedConfig: PairedConfig{Matchups: allPairs(rs), Bots: []string{"random"}, Games: 60, Seed: 4, Workers: workers}})
		if err != nil {
			t.Fatal(err)
		}
		res.Timing = Timing{}
		b, _ := json.Marshal(res)
		return string(b)
	}
	if a, b := run(1), run(3); a != b {
		t.Fatalf("results differ with the number of workers:\n%s\n%s", a, b)
	}
}

func TestPairedCancelled(t *testing.T) {
	rs := rules.Default()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Diff(ctx, DiffConfig{Base: alphatactics.Ruleset{RS: rs}, Variant: alphatactics.Ruleset{RS: rs},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Games: 20, Seed: 1, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Significant {
		t.Errorf("cancelled diff: partial %v, significant %v", res.Partial, res.Significant)
	}
}
