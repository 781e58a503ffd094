package alphatactics

// Length implements game.Lengther: the rounds played so far, as the game
// records count them ("rounds").
func (s *State) Length() int { return int(s.S.Stats().Rounds) }
