package analysis

import (
	"fmt"
	"slices"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// gameEntities are what a paired comparison of g's games compares: its
// sides in the lineups (in Sides() order), or, where every seat plays the
// one side (a mirror, Goofspiel), the seats "seat 1"… with their bots —
// the side's share is fair by construction there.
func gameEntities(g game.Ruleset, lineups [][]string) ([]string, func(cfg *PairedConfig, a, b *arm, k int) pairAcc) {
	if comparesSeats(g) {
		n := 0
		for _, l := range lineups {
			n = max(n, len(l))
		}
		names := make([]string, n)
		for q := range names {
			names[q] = fmt.Sprintf("seat %d", q+1)
		}
		return names, pairSeat
	}
	var names []string
	for _, s := range g.Sides() {
		for _, l := range lineups {
			if slices.Contains(l, s.ID) {
				names = append(names, s.ID)
				break
			}
		}
	}
	return names, func(cfg *PairedConfig, a, b *arm, k int) pairAcc { return pairFaction(cfg, a, b, names[k]) }
}

// comparesSeats reports whether g's comparisons are by seat: every seat
// plays its one side (a mirror), so the side is fair by construction.
func comparesSeats(g game.Ruleset) bool { return g.Mirror() && len(g.Sides()) == 1 }

// didYouMean is ", did you mean "x"?" when a candidate is close to s.
func didYouMean(s string, candidates []string) string {
	if c := cards.Suggest(s, candidates); c != "" {
		return fmt.Sprintf(", did you mean %q?", c)
	}
	return ""
}
