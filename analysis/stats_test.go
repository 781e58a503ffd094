package analysis

import (
	"math"
	"testing"
)

// Wilson score intervals from Newcombe (1998), "Two-sided confidence
// intervals for the single proportion: comparison of seven methods",
// Statistics in Medicine 17, table II, method 3 (score, no continuity
// correction), to four decimals.
func TestWilsonKnownValues(t *testing.T) {
	tests := []struct {
		k, n   float64
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{29, 29, 0.8830, 1}, // mirror of 0/29
		{5, 10, 0.2366, 0.7634},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.k, tt.n, Z95)
		if math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%v/%v) = [%.4f, %.4f], want [%.4f, %.4f]", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
	if lo, hi := Wilson(0, 0, Z95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0/0) = [%v, %v], want [0, 1]", lo, hi)
	}
	// Fractional successes (shared victories) lie between their neighbours.
	l1, _ := Wilson(10, 40, Z95)
	lh, _ := Wilson(10.5, 40, Z95)
	l2, _ := Wilson(11, 40, Z95)
	if !(l1 < lh && lh < l2) {
		t.Errorf("Wilson not monotone in fractional successes: %v %v %v", l1, lh, l2)
	}
}

// Differences of independent proportions from Newcombe (1998), "Interval
// estimation for the difference between independent proportions: comparison
// of eleven methods", Statistics in Medicine 17, table II, method 10.
func TestNewcombeDiffKnownValues(t *testing.T) {
	tests := []struct {
		s1, n1, s2, n2 float64
		lo, hi         float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{6, 7, 2, 7, 0.0582, 0.8062},
		{5, 56, 0, 29, -0.0381, 0.1926},
	}
	for _, tt := range tests {
		lo, hi := NewcombeDiff(tt.s1, tt.n1, tt.s2, tt.n2, Z95)
		if math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("NewcombeDiff(%v/%v - %v/%v) = [%.4f, %.4f], want [%.4f, %.4f]", tt.s1, tt.n1, tt.s2, tt.n2, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestMeanSD(t *testing.T) {
	// 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7).
	var n, sum, sq int64
	for _, v := range []int64{2, 4, 4, 4, 5, 5, 7, 9} {
		n, sum, sq = n+1, sum+v, sq+v*v
	}
	m, sd := meanSD(n, sum, sq)
	if m != 5 || math.Abs(sd-math.Sqrt(32.0/7)) > 1e-12 {
		t.Errorf("meanSD = %v, %v", m, sd)
	}
	if m, sd := meanSD(0, 0, 0); m != 0 || sd != 0 {
		t.Errorf("meanSD of nothing = %v, %v", m, sd)
	}
}
