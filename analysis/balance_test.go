package analysis

import (
	"math"
	"testing"
)

// The race's intervals are simultaneous: Bonferroni over every side of
// every candidate at every stage.
func TestRaceZ(t *testing.T) {
	tests := []struct {
		m, k, stages int
		want         float64
	}{
		{1, 1, 1, Z95},
		{10, 4, 3, 3.5293}, // 120 intervals: 1 − 0.05/240
		{6, 2, 3, 3.1970},  // 36 intervals
		{0, 4, 3, 2.8653},  // no candidate counts as one: 12 intervals
	}
	for _, tt := range tests {
		if got := raceZ(tt.m, tt.k, tt.stages); math.Abs(got-tt.want) > 5e-4 {
			t.Errorf("raceZ(%d, %d, %d) = %.4f, want %.4f", tt.m, tt.k, tt.stages, got, tt.want)
		}
	}
}

// A candidate 10 points out on 500 games per side is dropped against one
// at fair share by unadjusted 95% intervals, but not by the race's
// simultaneous ones over ten candidates: the games do not tell them apart
// once ten were compared.
func TestRaceKeepCorrected(t *testing.T) {
	at := func(z float64, shares ...float64) []SideShare {
		var out []SideShare
		for _, s := range shares {
			lo, hi := Wilson(s*500, 500, z)
			out = append(out, SideShare{Share: s, CI95: [2]float64{lo, hi}, Fair: 0.5, Games: 500})
		}
		return out
	}
	for _, tt := range []struct {
		name string
		z    float64
		want []bool
	}{
		{"unadjusted", Z95, []bool{false, true}},
		{"ten candidates, two sides, three stages", raceZ(10, 2, 3), []bool{true, true}},
	} {
		keep, _, _ := raceKeep([][]SideShare{at(tt.z, 0.6, 0.4), at(tt.z, 0.5, 0.5)})
		if keep[0] != tt.want[0] || keep[1] != tt.want[1] {
			t.Errorf("%s: keep %v, want %v", tt.name, keep, tt.want)
		}
	}
	// Far enough apart, the corrected race still drops.
	z := raceZ(10, 2, 3)
	if keep, _, _ := raceKeep([][]SideShare{at(z, 0.7, 0.3), at(z, 0.5, 0.5)}); keep[0] || !keep[1] {
		t.Errorf("20 points out is kept against fair share: %v", keep)
	}
}

// The preference (the card most out of line) picks only among edits
// measured to improve on the package; if none did, the closest.
func TestRacePick(t *testing.T) {
	c := []BalanceCandidate{
		{outlier: 5, measuredObj: 0.12}, // most out of line, measured worse than the package
		{outlier: 1, measuredObj: 0.08},
		{outlier: 0, measuredObj: 0.07},
	}
	if got := pick(c, []int{0, 1, 2}, 0.10, 0.01); got != 1 {
		t.Errorf("pick = %d, want 1 (the most out of line of those that improved)", got)
	}
	if got := pick(c, []int{0, 1, 2}, 0.05, 0.01); got != 2 {
		t.Errorf("none improved: pick = %d, want 2 (the closest)", got)
	}
	if got := pick(c, []int{0}, 0.20, 0.01); got != 0 {
		t.Errorf("pick = %d, want 0", got)
	}
	// The suspect's edit measured far behind the best: the best.
	if got := pick(c, []int{0, 1, 2}, 0.10, 0.005); got != 2 {
		t.Errorf("pick = %d, want 2 (the out-of-line card measured more than the margin behind)", got)
	}
	// Within the band of the best but giving up more than half its
	// improvement (0.09 against the package's 0.10, the best 0.07): the
	// best; an edit that does more than half the best's work is preferred.
	d := []BalanceCandidate{{outlier: 5, measuredObj: 0.09}, {outlier: 0, measuredObj: 0.07}}
	if got := pick(d, []int{0, 1}, 0.10, 0.02); got != 1 {
		t.Errorf("pick = %d, want 1 (the out-of-line card does a third of the best's improvement)", got)
	}
	d[0].measuredObj = 0.084
	if got := pick(d, []int{0, 1}, 0.10, 0.02); got != 0 {
		t.Errorf("pick = %d, want 0 (the out-of-line card does more than half the best's improvement)", got)
	}
}
