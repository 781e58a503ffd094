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

// What the entries of a paired result compare in a mirror (SweepResult and
// DiffResult's Compared; "" where they are the sides).
const (
	// ComparedTurnOrder: the seat that began each game (StarterSide), then
	// the seats after it in turn ("2nd in turn", …).
	ComparedTurnOrder = "turn order"
	// ComparedSeats: the seats in table order ("seat 1", …), each with its
	// bot, in a mirror whose games do not say who began (Goofspiel's
	// simultaneous bids).
	ComparedSeats = "seats"
)

// TurnOrderName names the seat pos places after the starter in turn order
// (0: StarterSide), as sweep and diff's entries do.
func TurnOrderName(pos int) string {
	if pos == 0 {
		return StarterSide
	}
	return TurnOrderLabel(pos + 1)
}

// pairedEntities are what sweep and diff compare: gameEntities, but in a
// mirror whose games say who began (game.Starter: Spacetrace) the seats in
// turn order from the starter — the starting seat's share is the figure a
// designer tunes there, which seat 1 against seat 2 averages away when the
// starter is drawn. compared says which (ComparedTurnOrder, ComparedSeats,
// or "" for the sides).
func pairedEntities(g game.Ruleset, lineups [][]string) (names []string, pair func(cfg *PairedConfig, a, b *arm, k int) pairAcc, compared string) {
	names, pair = gameEntities(g, lineups)
	if !comparesSeats(g) {
		return names, pair, ""
	}
	if !startsGames(g, lineups) {
		return names, pair, ComparedSeats
	}
	for k := range names {
		names[k] = TurnOrderName(k)
	}
	return names, pairTurn, ComparedTurnOrder
}

// startsGames reports whether g's games say which seat began them: its
// state for the first lineup is a game.Starter.
func startsGames(g game.Ruleset, lineups [][]string) bool {
	if len(lineups) == 0 {
		return false
	}
	st, err := g.NewState(make([]int, len(lineups[0])), 0)
	if err != nil {
		return false
	}
	_, ok := st.(game.Starter)
	return ok
}

// didYouMean is ", did you mean "x"?" when a candidate is close to s.
func didYouMean(s string, candidates []string) string {
	if c := cards.Suggest(s, candidates); c != "" {
		return fmt.Sprintf(", did you mean %q?", c)
	}
	return ""
}
