package engine

import (
	"fmt"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// ruleChecker watches a game's events and checks the rulebook properties
// that no single state shows (issue 13): the Deployment Phase never goes on
// once its end condition has held, the player whose turn it was ends it,
// the player after the ender begins the next round, and a scout's placement
// by any route never fires the card above it. after is called after every
// action; the first violation is kept in err.
type ruleChecker struct {
	err error
	// held: the end condition has held in this round's Deployment Phase,
	// first during holder's turn.
	held   bool
	holder int
	// ender of the last Deployment Phase (-1 before the first).
	ender int
	// scoutRow/scoutPos: a scout was just placed there (scoutRow -1: none);
	// until the table changes otherwise, the card above must not fire.
	scoutRow, scoutPos int
	rounds, scouts     int
}

func newRuleChecker() *ruleChecker { return &ruleChecker{ender: -1, scoutRow: -1} }

func (c *ruleChecker) fail(s *State, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("round %d: %s", s.round, fmt.Sprintf(format, args...))
	}
}

// endCondition reads the rulebook's condition afresh from the rows (not from
// the engine's cached masks): every row has cardsToEnd cards or an active
// Blockade.
func endCondition(s *State) bool {
	for r := 0; r < int(s.nrows); r++ {
		if int(s.rows[r].n) < s.fx.cardsToEnd && !s.closed(r) {
			return false
		}
	}
	return true
}

// watch notes the first moment the end condition holds.
func (c *ruleChecker) watch(s *State) {
	if s.phase == Deployment && !c.held && endCondition(s) {
		c.held, c.holder = true, int(s.turn)
	}
}

func (c *ruleChecker) OnEvent(s *State, e Event) {
	switch e.Kind {
	case EvRoundStart:
		if c.ender >= 0 && int(e.Player) != (c.ender+1)%s.fx.players {
			c.fail(s, "seat %d begins the round after seat %d ended the last", e.Player, c.ender)
		}
		c.held, c.scoutRow = false, -1
		c.rounds++
		return
	case EvDeploymentEnd:
		if c.held && int(e.Player) != c.holder {
			c.fail(s, "seat %d is recorded as ending the Deployment Phase; the end condition first held in seat %d's turn", e.Player, c.holder)
		}
		if !c.held && int(e.Player) != int(s.turn) {
			c.fail(s, "seat %d ended the Deployment Phase in seat %d's turn", e.Player, s.turn)
		}
		c.ender = int(e.Player)
	case EvPlaced:
		c.scoutRow = -1
		if e.Row >= 0 && e.Card >= 0 && s.fx.defPlace[e.Card] == handlers.PlaceScout {
			c.scouts++
			if !e.FaceUp {
				c.fail(s, "a scout was placed face down in row %d", e.Row)
			}
			c.scoutRow, c.scoutPos = int(e.Row), int(e.Pos)
		}
	case EvFired:
		if c.scoutRow >= 0 && int(e.Row) == c.scoutRow && int(e.Pos) == c.scoutPos-1 {
			c.fail(s, "the card above a scout just placed in row %d fired", e.Row)
		}
		c.scoutRow = -1
	case EvRevealed, EvBlocked:
		// the scout's own reveal of the card above
	default:
		c.scoutRow = -1
	}
	c.watch(s)
}

// after checks the state a decision is asked in.
func (c *ruleChecker) after(s *State) {
	c.watch(s) // a change without an event (a Deactivated marker)
	if c.held && s.phase == Deployment && !s.deployEnded {
		c.fail(s, "the end condition held in seat %d's turn but the Deployment Phase goes on (seat %d to act)", c.holder, s.CurrentPlayer())
	}
}
