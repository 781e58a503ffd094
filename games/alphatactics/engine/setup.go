package engine

import (
	"fmt"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Setup describes a position to start from instead of a fresh deal: rows
// with their cards, optionally hands. Scenarios (cardlab score) and the
// rulebook scenario tests use it. Cards named here are taken out of their
// owner's shuffled deck; everything not named stays shuffled as usual.
type Setup struct {
	Factions []string
	Seed     uint64
	// Phase is Deployment (Turn acts next) or Reveal (the Reveal Phase runs
	// from the start, shields first).
	Phase Phase
	Turn  int
	Rows  []SetupRow
	// Hands, when non-nil, replaces each seat's hand (by card id).
	Hands [][]string
	// PauseBeforeScoring stops the game at the Scoring phase with the rows
	// intact, so that ScoreRow can explain each row.
	PauseBeforeScoring bool
	Observer           Observer
}

// SetupRow is one row: its target (id; "" for a row whose target was taken)
// and its cards from top to bottom.
type SetupRow struct {
	Target string
	Cards  []SetupCard
}

// SetupCard is a card in a row.
type SetupCard struct {
	Card     string // card id
	Owner    int    // seat
	FaceUp   bool
	Shielded bool // a shield of the owner's lies on it (Deployment only)
}

// NewSetup builds the position described by su.
func NewSetup(rs *rules.Ruleset, su Setup) (*State, error) {
	fx, err := newFixed(rs, su.Factions)
	if err != nil {
		return nil, err
	}
	if len(su.Rows) == 0 || len(su.Rows) > maxRows {
		return nil, fmt.Errorf("%w: a setup needs 1 to %d rows, got %d", ErrConfig, maxRows, len(su.Rows))
	}
	// The observer is attached once the position stands: the throw-away
	// deal below is not part of the story.
	s := &State{core: core{fx: fx, rng: NewRNG(su.Seed), pauseScoring: su.PauseBeforeScoring, epoch: newEpoch()}}
	s.setup() // a normal deal, then rearranged
	// Return the dealt hands and the laid-out targets, so that any card can
	// be named.
	for p := 0; p < fx.players; p++ {
		pl := &s.players[p]
		for pl.hand.n > 0 {
			pl.draw.push(pl.hand.pop())
		}
	}
	for r := 0; r < int(s.nrows); r++ {
		s.targets.push(uint8(s.rows[r].target))
	}
	s.nrows = 0
	take := func(p int, id string) (uint8, error) {
		c, ok := rs.CardByID(id)
		if !ok {
			return 0, fmt.Errorf("%w: unknown card %q", ErrConfig, id)
		}
		if p < 0 || p >= fx.players {
			return 0, fmt.Errorf("%w: card %q: no seat %d", ErrConfig, id, p)
		}
		d := &s.players[p].draw
		for k := 0; k < int(d.n); k++ {
			if s.defOf(d.c[k]) == c.Index {
				return d.removeAt(k), nil
			}
		}
		return 0, fmt.Errorf("%w: seat %d (%s) has no copy of %q left", ErrConfig, p, rs.Factions[fx.faction[p]].ID, id)
	}
	for r, sr := range su.Rows {
		row := &s.rows[r]
		row.n, row.rules, row.target = 0, 0, -1
		if sr.Target != "" {
			t, ok := rs.TargetByID(sr.Target)
			if !ok {
				return nil, fmt.Errorf("%w: unknown target %q", ErrConfig, sr.Target)
			}
			found := false
			for k := 0; k < int(s.targets.n); k++ {
				if int(s.targets.c[k]) == t.Index {
					s.targets.removeAt(k)
					found = true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("%w: target %q used twice", ErrConfig, sr.Target)
			}
			row.target = int8(t.Index)
		}
		if len(sr.Cards) > MaxRowLen {
			return nil, fmt.Errorf("%w: row %d has more than %d cards", ErrConfig, r+1, MaxRowLen)
		}
		for _, sc := range sr.Cards {
			i, err := take(sc.Owner, sc.Card)
			if err != nil {
				return nil, err
			}
			if !s.placeableAlone(s.defOf(i)) {
				return nil, fmt.Errorf("%w: row %d: %q is a shield, which lies only on the card it protects (mark that card shielded)", ErrConfig, r+1, sc.Card)
			}
			sl := slot{inst: i, blockedBy: noInst, shield: noInst}
			if sc.FaceUp {
				sl.flags = fFaceUp
			} else if !s.mayLieFaceDown(i) {
				return nil, fmt.Errorf("%w: row %d: %q is a scout, which is always played face up", ErrConfig, r+1, sc.Card)
			}
			if sc.Shielded {
				sh, ok := s.findShield(sc.Owner)
				if !ok {
					return nil, fmt.Errorf("%w: seat %d has no shield card left for %q", ErrConfig, sc.Owner, sc.Card)
				}
				sl.shield = sh
			}
			s.insertSlot(r, int(row.n), sl.inst, sl.flags, sl.shield, 0)
		}
		s.nrows++
	}
	if su.Hands != nil {
		for p, hand := range su.Hands {
			if p >= fx.players {
				return nil, fmt.Errorf("%w: hands for %d seats", ErrConfig, len(su.Hands))
			}
			for _, id := range hand {
				i, err := take(p, id)
				if err != nil {
					return nil, err
				}
				s.players[p].hand.push(i)
			}
		}
	} else {
		for p := 0; p < fx.players; p++ {
			s.refill(p)
		}
	}
	s.turn = uint8(su.Turn % fx.players)
	s.phase = Deployment
	s.resetMasks()
	s.obs = su.Observer
	if su.Phase == Reveal {
		s.turnOpen = true
		s.deployEnded = true
		s.ender = s.turn
		s.advance()
	}
	return s, nil
}

func (s *State) findShield(p int) (uint8, bool) {
	d := &s.players[p].draw
	for k := 0; k < int(d.n); k++ {
		if s.fx.defPlace[s.defOf(d.c[k])] == handlers.PlaceShieldOther {
			return d.removeAt(k), true
		}
	}
	return 0, false
}
