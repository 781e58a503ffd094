package game

// Lengther is implemented by a State that can say how long its game has
// run in its Vocabulary's Length unit (Alpha Tactics: rounds begun;
// Goofspiel: turns settled). The game-quality sample reads it once a game
// is over; a game without it has its length counted in decisions.
type Lengther interface {
	Length() int
}
