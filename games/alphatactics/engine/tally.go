package engine

import (
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// Tally is what the engine counts for metrics when one is attached
// (SetTally): the counters an observer would derive from events, added in
// place as the game goes, without building an event or calling anything.
// The metrics of a batch run come from it (analysis); scoring feeds it the
// row scores it computes anyway, so each won row is scored once (issue 16).
//
// The per-card and per-target counters add up over every game played with
// the tally attached, until the owner clears them. The per-game fields are
// cleared by Reset.
type Tally struct {
	// Per card definition.
	Placed       [256]int64 // copies placed in a row (a shield counts on its card's row)
	PlacedRowWon [256]int64 // … whose row went to their owner (at scoring or by Negotiations)
	Scored       [256]int64 // copies lying in a row when it was won at scoring
	PowerSum     [256]int64 // their counted combat power
	// Fired, Blocked, Fizzled count each kind's effect in its own terms
	// (docs/metrics.md, "Cards"): a one-time effect when revealed — run,
	// blocked, or run without doing anything; a permanent or scoring effect
	// per row scored with the card in it — in effect (Fired) or blocked; a
	// special card per use — a shield played, a Gravitational Wave played, a
	// Teleport placed (Fizzled: at the bottom, where any card goes), a scout
	// placed face up (Fizzled: nothing above to reveal).
	Fired   [256]int64
	Blocked [256]int64
	Fizzled [256]int64
	// Per target index.
	Laid       [64]int64
	Won        [64]int64
	Negotiated [64]int64
	Unclaimed  [64]int64
	Ties       [64]int64 // won on a tie (tie_top_card, combo_tie_top_card)
	MarginSum  [64]int64 // winner's power − runner-up's, over Won
	MarginSq   [64]int64
	// Captures[t*F+f]: target t taken by faction index f (F factions in the
	// ruleset), won or negotiated.
	Captures []int64

	// This game: card definitions drawn, played (placed or shielded, a
	// Gravitational Wave included), and dealt before round 1, as bit sets;
	// the seat that began round 1 (-1 before it).
	Drawn, Played, Opening [4]uint64
	Start                  int8

	places []tallyPlace // this round's placements, until their row is taken
}

type tallyPlace struct {
	def        uint8
	row, owner int8
}

// HasBit reports whether bit d is set in a Tally bit set.
func HasBit(b *[4]uint64, d int) bool { return b[uint8(d)>>6]&(1<<(uint8(d)&63)) != 0 }

func setBit(b *[4]uint64, d uint8) { b[d>>6] |= 1 << (d & 63) }

// SetTally attaches (or with nil detaches) a tally. Clones never carry it.
func (s *State) SetTally(t *Tally) {
	s.tally = t
	if t != nil && len(t.Captures) < 64*len(s.fx.rs.Factions) {
		t.Captures = make([]int64, 64*len(s.fx.rs.Factions))
	}
}

// newGame clears the per-game fields.
func (t *Tally) newGame() {
	t.Drawn, t.Played, t.Opening = [4]uint64{}, [4]uint64{}, [4]uint64{}
	t.Start = -1
	t.places = t.places[:0]
}

func (t *Tally) placed(d uint8, r, owner int) {
	setBit(&t.Played, d)
	t.Placed[d]++
	t.places = append(t.places, tallyPlace{def: d, row: int8(r), owner: int8(owner)})
}

// rowTaken settles this round's placements in row r: their row went to
// winner (-1: nobody).
func (t *Tally) rowTaken(r, winner int) {
	for k := range t.places {
		pl := &t.places[k]
		if int(pl.row) != r {
			continue
		}
		if int(pl.owner) == winner {
			t.PlacedRowWon[pl.def]++
		}
		pl.row = -1 // settled
	}
}

func (s *State) tallyCapture(t *Tally, target, winner int) {
	t.Captures[target*len(s.fx.rs.Factions)+s.fx.faction[winner]]++
}

// tallyRowWon counts a row won at scoring: res is the engine's score of
// the row and rs holds each card's contribution.
func (s *State) tallyRowWon(r int, res *RowResult, rs *handlers.RowScore) {
	t := s.tally
	tg, w := res.Target, res.Winner
	t.Won[tg]++
	if res.Reason == ReasonTieTop || res.Reason == ReasonComboTie {
		t.Ties[tg]++
	}
	s.tallyCapture(t, tg, w)
	runnerUp, first := 0, true
	for q := 0; q < s.fx.players; q++ {
		if q != w && res.HasCards[q] && (first || res.Power[q] > runnerUp) {
			runnerUp, first = res.Power[q], false
		}
	}
	m := int64(res.Power[w] - runnerUp)
	t.MarginSum[tg] += m
	t.MarginSq[tg] += m * m
	for k := 0; k < rs.N; k++ {
		c := &rs.Cards[k]
		v := c.Base + c.Mod + c.Bonus
		if v < 0 {
			v = 0 // as scoring counts it: a card never counts against its owner
		}
		d := uint8(c.Def)
		t.Scored[d]++
		t.PowerSum[d] += int64(v)
		// A permanent or scoring effect acts in the row as it is scored.
		if s.fx.defSpec[d] != nil && s.fx.defOne[d] == nil && s.fx.defPlace[d] == handlers.PlaceNormal {
			if c.Active {
				t.Fired[d]++
			} else {
				t.Blocked[d]++
			}
		}
	}
	t.rowTaken(r, w)
}
