package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// checkAgreement is the promise every paired test keeps: its interval holds
// its estimate, is a real interval (never [0, 0]) inside [−1, 1], and
// excludes 0 exactly when the unadjusted p-value is below 0.05.
func checkAgreement(tt PairedTest) error {
	lo, hi := tt.CI95[0], tt.CI95[1]
	switch {
	case !(lo < hi):
		return fmt.Errorf("interval [%v, %v] is empty or a point", lo, hi)
	case lo < -1 || hi > 1:
		return fmt.Errorf("interval [%v, %v] leaves [-1, 1]", lo, hi)
	case tt.Delta < lo-1e-6 || tt.Delta > hi+1e-6:
		return fmt.Errorf("delta %v outside [%v, %v]", tt.Delta, lo, hi)
	}
	excludes := lo > 0 || hi < 0
	if excludes != (tt.P < 0.05) {
		return fmt.Errorf("interval [%v, %v] (excludes 0: %v) but p = %v (%s, %d of %d changed)",
			lo, hi, excludes, tt.P, tt.Test, tt.Changed, tt.Games)
	}
	return nil
}

// Property: for any per-game differences — few or many changed games,
// shared victories, all one way — the interval agrees with the p-value.
// Before issue 15 the exact sign test gave p while the interval stayed
// Student's t, and they disagreed (e.g. 9 of 11 changed games one way:
// t interval excludes 0, sign test p = 0.065), and no changed game gave [0, 0].
func TestIntervalAgreesWithTest(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 600).Draw(rt, "games")
		// Outcomes per game in win units for each arm: mostly unchanged,
		// some flips, some shared victories (6 = half a win, 4 = a third).
		changeRate := rapid.Float64Range(0, 0.3).Draw(rt, "change rate")
		bias := rapid.Float64Range(0, 1).Draw(rt, "bias")
		shared := rapid.Float64Range(0, 0.3).Draw(rt, "shared")
		seed := rapid.Uint64().Draw(rt, "seed")
		r := newSplitMix(seed)
		p := pairAcc{unit: WinUnit}
		for range n {
			a := 0
			if r.float() < 0.5 {
				a = WinUnit
			}
			b := a
			if r.float() < changeRate {
				if r.float() < bias {
					b = WinUnit
				} else {
					b = 0
				}
				if r.float() < shared {
					b = []int{6, 4, 3}[int(r.float()*3)]
				}
			}
			p.add(a, b)
		}
		tt := p.test(30)
		if err := checkAgreement(tt); err != nil {
			rt.Fatal(err)
		}
		if (tt.Changed == 0) != (tt.Test == TestNone) {
			rt.Fatalf("test %s with %d changed games", tt.Test, tt.Changed)
		}
	})
}

// splitMix is a tiny deterministic generator for test data.
type splitMix struct{ s uint64 }

func newSplitMix(seed uint64) *splitMix { return &splitMix{seed} }

func (r *splitMix) float() float64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// The intervals keep their promise: exact coverage, by enumerating every
// outcome of n paired games with whole victories (b games gained, c lost,
// trinomial), of the whole procedure — the inverted sign test below 25
// changed games, Student's t above. Coverage is at least 95% wherever the
// sign test decides, and near 95% where t takes over.
func TestIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates every outcome")
	}
	for _, c := range []struct {
		n              int
		pChange, qPlus float64
	}{
		{100, 0.02, 0.5}, {100, 0.05, 0.8}, {100, 0.1, 0.98},
		{300, 0.01, 0.5}, {300, 0.03, 0.7}, {300, 0.05, 0.9}, {300, 0.08, 0.5}, {300, 0.08, 0.65},
		{1000, 0.005, 0.99}, {1000, 0.02, 0.6}, {2000, 0.03, 0.55},
	} {
		pp, pm := c.pChange*c.qPlus, c.pChange*(1-c.qPlus)
		delta := pp - pm
		cover, smallCover, smallMass := 0.0, 0.0, 0.0
		changed := distuv.Binomial{N: float64(c.n), P: c.pChange}
		for m := 0; m <= c.n; m++ {
			pm := changed.Prob(float64(m))
			if pm < 1e-12 {
				continue
			}
			split := distuv.Binomial{N: float64(m), P: c.qPlus}
			for b := 0; b <= m; b++ {
				pr := pm * split.Prob(float64(b))
				if pr < 1e-14 {
					continue
				}
				acc := pairAcc{unit: WinUnit, n: int64(c.n), changed: int64(m), pos: int64(b), neg: int64(m - b)}
				acc.posMag[WinUnit], acc.negMag[WinUnit] = int64(b), int64(m-b)
				acc.sumD = int64(WinUnit * (2*b - m))
				acc.sqD = int64(WinUnit * WinUnit * m)
				// Arms' own sums only feed the unpaired interval.
				tt := acc.test(0)
				in := tt.CI95[0] <= delta+1e-9 && delta-1e-9 <= tt.CI95[1]
				if in {
					cover += pr
				}
				if m < signExactBelow {
					smallMass += pr
					if in {
						smallCover += pr
					}
				}
			}
		}
		small := math.NaN()
		if smallMass > 0 {
			small = smallCover / smallMass
		}
		t.Logf("n %4d, change %.3f, q %.2f (Δ %+.4f): coverage %.4f; given < 25 changed %.4f (%.0f%% of runs)",
			c.n, c.pChange, c.qPlus, delta, cover, small, 100*smallMass)
		if smallMass > 0.5 && !(small >= 0.95) {
			t.Errorf("n %d, change %v, q %v: the sign-test interval covers %.4f < 0.95", c.n, c.pChange, c.qPlus, small)
		}
		if !(cover >= 0.93) {
			t.Errorf("n %d, change %v, q %v: coverage %.4f", c.n, c.pChange, c.qPlus, cover)
		}
	}
}

// Real diffs: a one-card change (the D7 Battle Cruiser one power stronger)
// over many seeds and small runs, where few games change and the exact sign
// test decides. Every faction's interval agrees with its p-value. (The
// audit found 18% of such faction tests printing an interval that excluded
// 0 with p ≥ 0.05.)
func TestDiffIntervalsAgreeOverSeeds(t *testing.T) {
	a := loadDefault(t)
	b := Variant(a, "kl-d7 power +1", func(v *rules.Ruleset) {
		c, _ := v.CardByID("kl-d7")
		v.Cards[c.Index].Power++
	})
	seeds := 30
	if testing.Short() {
		seeds = 8
	}
	tests, sign := 0, 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		res, err := Diff(context.Background(), DiffConfig{Base: alphatactics.Ruleset{RS: a}, Variant: alphatactics.Ruleset{RS: b},
			PairedConfig: PairedConfig{Matchups: allPairs(a), Bots: []string{"random"}, Games: 100, Seed: seed, Workers: 2}})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Factions {
			tests++
			if f.Test == TestSignExact {
				sign++
			}
			if err := checkAgreement(f.PairedTest); err != nil {
				t.Errorf("seed %d, %s: %v", seed, f.Faction, err)
			}
		}
	}
	t.Logf("%d faction tests, %d by the exact sign test", tests, sign)
	if sign == 0 {
		t.Error("no test was decided by the sign test: the check proves nothing")
	}
}

// The minimum detectable effect keeps its promise: a true change of MDE80
// is flagged about 80% of the time at the corrected level. Simulated:
// 2,000 paired games, 30% of them changed, the change MDE80 itself (a fixed
// point, since the spread of the differences depends on the change), the
// level of Holm's first step over 4 factions.
func TestMinDetectablePower(t *testing.T) {
	const n, changed, tests = 2000, 0.3, 4
	level := DefaultAlpha / tests
	delta := 0.05
	for range 20 {
		sd := math.Sqrt(changed - delta*delta)
		delta = minDetectable(n, sd, level)
	}
	q := (1 + delta/changed) / 2 // P(a changed game goes the second arm's way)
	r := newSplitMix(7)
	const runs = 1500
	hits := 0
	for range runs {
		p := pairAcc{unit: WinUnit}
		for range n {
			b := 0
			if r.float() < changed {
				if r.float() < q {
					b = WinUnit
				} else {
					b = -WinUnit
				}
			}
			if b >= 0 {
				p.add(0, b)
			} else {
				p.add(WinUnit, 0)
			}
		}
		tt := p.test(0)
		if tt.P < level {
			hits++
		}
	}
	power := float64(hits) / runs
	t.Logf("MDE80 %.4f: flagged in %.3f of %d runs", delta, power, runs)
	if power < 0.76 || power > 0.84 {
		t.Errorf("a change of MDE80 = %.4f is detected with power %.3f, want about 0.80", delta, power)
	}
	// With no changed game the figure is what the sign test can flag at
	// all: 8 games all one way at level 0.05/4 (2·2⁻⁸ < 0.0125).
	if got := minDetectable(300, 0, level); !approx(got, 8.0/300, 1e-12) {
		t.Errorf("minDetectable with sd 0 = %v, want 8/300", got)
	}
}

// The verdict of a diff without a significant change states what the run
// could detect with 80% power, and says so when nothing changed at all.
func TestDiffVerdictStatesDetectableEffect(t *testing.T) {
	f := func(name string, delta, lo, hi, p, mde float64, changed int64) FactionDelta {
		return FactionDelta{Faction: name, PairedTest: PairedTest{Games: 300, Changed: changed, Delta: delta,
			CI95: [2]float64{lo, hi}, P: p, PAdj: math.Min(1, 4*p), MDE80: mde}}
	}
	r := &DiffResult{Alpha: 0.05, Changes: []Change{{Kind: "card"}}, Factions: []FactionDelta{
		f("starfleet", -0.007, -0.024, 0.016, 0.5, 0.027, 2),
		f("klingon", 0.018, 0.001, 0.044, 0.031, 0.028, 7),
	}}
	v := diffVerdict(r)
	for _, want := range []string{"no significant change", "klingon +1.8 points [+0.1, +4.4]",
		"its own interval excludes 0, p 0.031, but not after correcting for 2 factions", "±2.8 points in any one faction with 80% power"} {
		if !strings.Contains(v, want) {
			t.Errorf("verdict lacks %q: %s", want, v)
		}
	}
	for i := range r.Factions {
		r.Factions[i].Changed, r.Factions[i].Delta = 0, 0
		r.Factions[i].CI95 = [2]float64{-0.012, 0.012}
	}
	if v := diffVerdict(r); !strings.Contains(v, "no game changed") || !strings.Contains(v, "within ±1.2 points") {
		t.Errorf("nothing changed: %s", v)
	}
}

// The exact sign test with changes of different sizes (shared victories)
// equals brute-force enumeration of every sign pattern.
func TestSignTailsMixedSizes(t *testing.T) {
	p := pairAcc{unit: WinUnit}
	pos, neg := []int{12, 6, 6, 4}, []int{12, 3, 8}
	for _, k := range pos {
		p.add(0, k)
	}
	for _, k := range neg {
		p.add(k, 0)
	}
	for range 40 {
		p.add(0, 0)
	}
	sizes := append(slices.Clone(pos), neg...)
	u := 0
	for _, k := range pos {
		u += k
	}
	for _, q := range []float64{0.1, 0.5, 0.73} {
		ge, le := 0.0, 0.0
		for mask := 0; mask < 1<<len(sizes); mask++ {
			pr, sum := 1.0, 0
			for i, k := range sizes {
				if mask&(1<<i) != 0 {
					pr *= q
					sum += k
				} else {
					pr *= 1 - q
				}
			}
			if sum >= u {
				ge += pr
			}
			if sum <= u {
				le += pr
			}
		}
		gotGE, gotLE := p.signTails(q)
		if !approx(gotGE, ge, 1e-12) || !approx(gotLE, le, 1e-12) {
			t.Errorf("q %v: tails %v, %v; enumeration %v, %v", q, gotGE, gotLE, ge, le)
		}
		if q == 0.5 {
			if want := math.Min(1, 2*math.Min(ge, le)); !approx(p.signExactP(), want, 1e-12) {
				t.Errorf("p %v, want %v", p.signExactP(), want)
			}
		}
	}
	if err := checkAgreement(p.test(0)); err != nil {
		t.Error(err)
	}
}
