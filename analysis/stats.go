package analysis

import "math"

// Z95 is the standard normal quantile for a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for a proportion of successes
// out of n trials at normal quantile z (Z95 for 95%). successes may be
// fractional (a shared victory counts as a share of a win). With n = 0 the
// interval is [0, 1]: nothing is known.
//
// The Wilson interval keeps its coverage near the nominal level for small n
// and for proportions near 0 or 1, where the textbook p ± z·se interval
// fails (Newcombe 1998, "Two-sided confidence intervals for the single
// proportion", method 3).
func Wilson(successes, n, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := successes / n
	if p < 0 {
		p = 0
	} else if p > 1 {
		p = 1
	}
	z2 := z * z
	den := 1 + z2/n
	mid := p + z2/(2*n)
	half := z * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	lo, hi = (mid-half)/den, (mid+half)/den
	// At p = 0 or 1 one bound is exactly 0 or 1; rounding must not push it
	// past.
	if p == 0 || lo < 0 {
		lo = 0
	}
	if p == 1 || hi > 1 {
		hi = 1
	}
	return lo, hi
}

// NewcombeDiff returns a confidence interval for the difference p1 - p2 of
// two independent proportions (s1 of n1 and s2 of n2) by Newcombe's hybrid
// score method (1998, "Interval estimation for the difference between
// independent proportions", method 10), built from the two Wilson intervals.
// With either n = 0 it returns [-1, 1].
func NewcombeDiff(s1, n1, s2, n2, z float64) (lo, hi float64) {
	if n1 <= 0 || n2 <= 0 {
		return -1, 1
	}
	p1, p2 := s1/n1, s2/n2
	l1, u1 := Wilson(s1, n1, z)
	l2, u2 := Wilson(s2, n2, z)
	d := p1 - p2
	lo = d - math.Sqrt((p1-l1)*(p1-l1)+(u2-p2)*(u2-p2))
	hi = d + math.Sqrt((u1-p1)*(u1-p1)+(p2-l2)*(p2-l2))
	return math.Max(lo, -1), math.Min(hi, 1)
}

// meanSD returns the mean and the sample standard deviation of n values
// from their sum and sum of squares (sd 0 for fewer than two values).
func meanSD(n, sum, sumSq int64) (mean, sd float64) {
	if n <= 0 {
		return 0, 0
	}
	fn, fs := float64(n), float64(sum)
	mean = fs / fn
	if n < 2 {
		return mean, 0
	}
	v := (float64(sumSq) - fs*fs/fn) / (fn - 1)
	if v < 0 {
		v = 0 // rounding
	}
	return mean, math.Sqrt(v)
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// round6 rounds to six decimals, so that reports stay short and a rate
// computed from the same counts always prints the same digits.
func round6(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	r := math.Round(x*1e6) / 1e6
	if r == 0 {
		return 0 // no -0
	}
	return r
}

// interval is a rounded [lo, hi] pair as reported in JSON.
func interval(lo, hi float64) [2]float64 { return [2]float64{round6(lo), round6(hi)} }
