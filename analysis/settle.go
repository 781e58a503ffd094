package analysis

import "math"

// DefaultSettleTolerance is the change between two skill levels, in win
// share (3 points), small enough to say a faction's share has stopped
// moving: issue 26 holds the strong tier to ±3 points of the reference.
const DefaultSettleTolerance = 0.03

// The states of a faction's share along a skill trace (SkillSettle.State).
const (
	// SettleSettled: every step from Level on is within ±Tolerance (its
	// 95% interval lies inside the band) — the share has stopped moving.
	SettleSettled = "settled"
	// SettleMoving: the last step changes the share significantly (Holm);
	// stronger play would likely move it further.
	SettleMoving = "moving"
	// SettleUnresolved: the last step is neither significant nor shown to
	// be within the band; more games would tell (GamesNeeded).
	SettleUnresolved = "unresolved"
)

// SkillSettle says where along the levels a faction's share stops moving.
//
// The claim "settled from level L" is an intersection–union test: it is
// made only when every later step's own 95% interval lies inside
// ±Tolerance, so no multiplicity correction is needed for it (Berger 1982);
// "moving" uses the Holm-corrected significance of the steps.
type SkillSettle struct {
	State string `json:"state"`
	// Level is the weakest level from which every step stays within the
	// band (settled only).
	Level string `json:"level,omitempty"`
	// Tolerance is the band's half-width in win share.
	Tolerance float64 `json:"tolerance"`
	// GamesNeeded (unresolved only) estimates the games per lineup at which
	// the last step's interval would fit inside the band if its change
	// stayed as measured (the half-width shrinks as 1/√games); 0 when the
	// measured change is itself at or beyond the band, so no number of
	// games would show it settled.
	GamesNeeded int `json:"games_per_lineup_needed,omitempty"`
}

// settle classifies one faction's steps (deltas[k]: level k → k+1) played
// on gamesPerLineup games per lineup.
func settle(levels []string, deltas []*FactionDelta, tol float64, gamesPerLineup int) SkillSettle {
	s := SkillSettle{Tolerance: tol}
	if len(deltas) == 0 {
		s.State = SettleUnresolved
		return s
	}
	from := len(deltas) // the first step of the run of steps within the band
	for k := len(deltas) - 1; k >= 0; k-- {
		d := deltas[k]
		if d.Significant || d.CI95[0] < -tol || d.CI95[1] > tol {
			break
		}
		from = k
	}
	last := deltas[len(deltas)-1]
	switch {
	case from < len(deltas):
		s.State, s.Level = SettleSettled, levels[from]
	case last.Significant:
		s.State = SettleMoving
	default:
		s.State = SettleUnresolved
		half := (last.CI95[1] - last.CI95[0]) / 2
		if room := tol - math.Abs(last.Delta); room > 0 && half > 0 {
			s.GamesNeeded = int(math.Ceil(float64(gamesPerLineup) * (half / room) * (half / room)))
		}
	}
	return s
}
