package engine

import (
	"slices"
	"testing"
)

// sortFrom sorts any set of distinct values within 64 of its lower bound as
// a comparison sort would.
func TestSortFrom(t *testing.T) {
	r := NewRNG(5)
	for _, lo := range []uint8{0, 17, 192} {
		for n := 0; n <= 64; n += 1 + n/8 {
			var all [64]uint8
			for i := range all {
				all[i] = lo + uint8(i)
			}
			r.Shuffle(all[:])
			b := slices.Clone(all[:n])
			want := slices.Clone(b)
			slices.Sort(want)
			sortFrom(b, lo)
			if !slices.Equal(b, want) {
				t.Fatalf("lo=%d n=%d: %v, want %v", lo, n, b, want)
			}
		}
	}
}
