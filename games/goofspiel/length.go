package goofspiel

// Length implements game.Lengther: the turns settled so far (a game's
// length in the Vocabulary's "turn").
func (s *State) Length() int { return s.turn }
