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

// SpecError is every error of Parse: the spec itself is malformed (an
// unknown bot, a bad parameter), whatever game it is meant for. cardlab
// reports it as a usage error.
type SpecError struct{ Err error }

func (e *SpecError) Error() string { return e.Err.Error() }
func (e *SpecError) Unwrap() error { return e.Err }
