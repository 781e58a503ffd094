package bots

import "sync/atomic"

// Stoppable is implemented by an agent whose search can take long (ISMCTS
// with a large budget). Once stop is true its Choose returns within a few
// iterations with a cut-short choice; a runner then abandons the game rather
// than play on with weakened choices. Random and greedy decide in
// microseconds and need no stop.
type Stoppable interface {
	SetStop(stop *atomic.Bool)
}
