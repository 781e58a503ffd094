package game

import (
	"slices"
	"testing"
)

// sortBytes sorts any set of distinct values as a comparison sort would.
func TestSortBytes(t *testing.T) {
	r := NewRNG(5)
	for n := 0; n <= 256; n += 1 + n/8 {
		var all [256]uint8
		for i := range all {
			all[i] = uint8(i)
		}
		r.shuffle(all[:])
		b := slices.Clone(all[:n])
		want := slices.Clone(b)
		slices.Sort(want)
		sortBytes(b)
		if !slices.Equal(b, want) {
			t.Fatalf("n=%d: %v, want %v", n, b, want)
		}
	}
}
