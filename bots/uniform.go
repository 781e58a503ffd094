package bots

import "github.com/cardlab/cardlab/game"

// Uniform is the random bot of any game: it chooses uniformly among the
// legal actions of a game.State (design game-neutral-core.md §3.8). Alpha
// Tactics keeps its own random (games/alphatactics/ai.Random), with its
// pass rule and its list-free sampler.
type Uniform struct{ rng game.RNG }

// NewUniform returns a Uniform bot seeded with seed.
func NewUniform(seed uint64) *Uniform { return &Uniform{rng: game.NewRNG(seed)} }

// Reseed starts the bot over as NewUniform(seed) would.
func (u *Uniform) Reseed(seed uint64) { u.rng = game.NewRNG(seed) }

// Choose implements game.Agent.
func (u *Uniform) Choose(_ game.State, legal []game.Action) game.Action {
	return legal[u.rng.Intn(len(legal))]
}
