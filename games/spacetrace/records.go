package spacetrace

import "github.com/cardlab/cardlab/game"

// Starter implements game.Starter: the starting seat, drawn at random under
// start: random (S3), so the report's first-player figures count from it.
func (s *State) Starter() (seat int, drawn bool) {
	return s.First, s.rs.Rules.Start == StartRandom
}

// Length implements game.Lengther: turns played (a game ended by a Base in
// the middle of a turn counts that turn).
func (s *State) Length() int {
	if s.phase == phOver && s.quiet < s.rs.Rules.QuietTurns && !s.timeout {
		return s.Turn + 1
	}
	return s.Turn
}

// SeatRecord implements game.Recorder: the score, the Base damage taken,
// the wreck MP, cards played, 3-card discards and ship cards removed.
func (s *State) SeatRecord(seat int, buf []game.Named) []game.Named {
	pl := &s.P[seat]
	return append(buf,
		game.Named{Key: "total", Value: s.Score(seat)},
		game.Named{Key: "base_damage", Value: s.BaseDamageOf(seat)},
		game.Named{Key: "wreck_mp", Value: pl.WreckMP},
		game.Named{Key: "played", Value: pl.Played},
		game.Named{Key: "discards", Value: pl.Discards},
		game.Named{Key: "removed", Value: pl.Removed})
}

// GameRecord implements game.Recorder: turns, and whether the game ended at
// the turn cap (E2's timeout).
func (s *State) GameRecord(buf []game.Named) []game.Named {
	t := 0
	if s.timeout {
		t = 1
	}
	return append(buf, game.Named{Key: "turns", Value: s.Length()}, game.Named{Key: "timeout", Value: t})
}
