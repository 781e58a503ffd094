package engine

import "github.com/cardlab/cardlab/game"

// RNG is the games' generator (game.RNG, SplitMix64), by value inside the
// state so that cloning a state clones its chance stream. The engine's
// names for it and its seeds stay, so the engine reads as before.
type RNG = game.RNG

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return game.NewRNG(seed) }

// Mix is game.Mix, the SplitMix64 finaliser.
func Mix(z uint64) uint64 { return game.Mix(z) }

// SeedFor is game.SeedFor: the seed of game index i of a batch.
func SeedFor(master uint64, i uint64) uint64 { return game.SeedFor(master, i) }
