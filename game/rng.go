package game

import "math/bits"

// RNG is a small, copyable pseudo-random generator (SplitMix64). It lives by
// value inside the game state so that cloning a state clones its chance
// stream, and it never allocates.
type RNG struct{ s uint64 }

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{s: seed} }

// Uint64 returns the next value.
func (r *RNG) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return Mix(r.s)
}

// Mix is the SplitMix64 finaliser; Mix(master ^ Mix(index)) style seeds
// derive independent per-game streams.
func Mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// SeedFor derives the seed of game index i from a master seed, so a batch's
// games do not depend on how they are split between workers.
func SeedFor(master uint64, i uint64) uint64 {
	return Mix(master + 0x9e3779b97f4a7c15*(i+1))
}

// Intn returns a uniform value in [0, n) (Lemire's multiply-shift method
// with rejection, so there is no modulo bias).
func (r *RNG) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	hi, lo := bits.Mul64(r.Uint64(), uint64(n))
	if lo < uint64(n) {
		t := -uint64(n) % uint64(n)
		for lo < t {
			hi, lo = bits.Mul64(r.Uint64(), uint64(n))
		}
	}
	return int(hi)
}

// Shuffle is a Fisher–Yates shuffle drawing r.Intn(i+1) for i = len(c)-1
// down to 1, with Intn written out so the state stays in a register (a
// reshuffle draws ~30 values; the calls were a third of its cost).
func (r *RNG) Shuffle(c []uint8) {
	st := r.s
	for i := len(c) - 1; i > 0; i-- {
		n := uint64(i + 1)
		st += 0x9e3779b97f4a7c15
		hi, lo := bits.Mul64(Mix(st), n)
		if lo < n {
			t := -n % n
			for lo < t {
				st += 0x9e3779b97f4a7c15
				hi, lo = bits.Mul64(Mix(st), n)
			}
		}
		c[i], c[hi] = c[hi], c[i]
	}
	r.s = st
}
