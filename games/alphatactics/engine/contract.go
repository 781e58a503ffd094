package engine

import (
	"unsafe"

	"github.com/cardlab/cardlab/game"
)

// Contract is an engine State as a game.State: what the neutral layers and
// the searches over the contracts (bots.Search) see of an Alpha Tactics
// game. games/alphatactics embeds it in its State, which adds the batch
// runner's loop; ISMCTS wraps the state it is asked about in one. The
// engine's Action and the contracts' are both a uint32 with one packing.
type Contract struct {
	S *State
	// memo is each seat's last provisional score with what it rests on:
	// the targets the seat holds, under the state's epoch (unique to a line
	// of play, new at every Reset, copy and rebinding, so a memo never
	// outlives its ruleset). The game-quality replay reads every seat's
	// Score after every decision while the held targets change a few times
	// a game (docs/metrics.md, "Game quality").
	memo [game.MaxSeats]scoreMemo
}

type scoreMemo struct {
	epoch, won uint64
	total      int
}

// Holder is a game.State over an engine State: Contract and every type that
// embeds it. CopyInto copies into any Holder, and an evaluator reaches the
// engine through it.
type Holder interface{ Hold() *Contract }

// Hold implements Holder.
func (c *Contract) Hold() *Contract { return c }

// Hold is s's Contract; s must be a Holder. A Contract itself, a search's
// scratch state, is told by a comparison of types rather than the runtime's
// interface lookup (once or twice an iteration of a search).
func Hold(s game.State) *Contract {
	if c, ok := s.(*Contract); ok {
		return c
	}
	return s.(Holder).Hold()
}

// NumSeats implements game.State.
func (c *Contract) NumSeats() int { return c.S.NumPlayers() }

// CurrentPlayer implements game.State.
func (c *Contract) CurrentPlayer() int { return c.S.CurrentPlayer() }

// LegalActions implements game.State: the engine lists into buf itself,
// read as its own Action type instead of copied (a copy cost a search
// through the contracts about 350 instructions an iteration, most of its
// overhead: docs/architecture.md, "Core migration", step 6).
func (c *Contract) LegalActions(buf []game.Action) []game.Action {
	return GameActions(c.S.LegalActions(EngineActions(buf)))
}

// The conversions below rely on the two action types' layout being one.
var _ = [1]struct{}{}[unsafe.Sizeof(Action(0))-unsafe.Sizeof(game.Action(0))]

// EngineActions is b read as engine actions, sharing its array.
func EngineActions(b []game.Action) []Action {
	return unsafe.Slice((*Action)(unsafe.SliceData(b)), cap(b))[:len(b)]
}

// GameActions is b read as the contracts' actions, sharing its array.
func GameActions(b []Action) []game.Action {
	return unsafe.Slice((*game.Action)(unsafe.SliceData(b)), cap(b))[:len(b)]
}

// Apply implements game.State.
func (c *Contract) Apply(a game.Action) { c.S.Apply(Action(a)) }

// IsTerminal implements game.State.
func (c *Contract) IsTerminal() bool { return c.S.IsTerminal() }

// Returns implements game.State.
func (c *Contract) Returns() [game.MaxSeats]float64 { return c.S.Returns() }

// Score implements game.State: the VP total, as it stands until the game is
// over.
func (c *Contract) Score(seat int) int {
	e := c.S
	if e.phase == GameOver {
		return e.final[seat].Total
	}
	m, won := &c.memo[seat], e.players[seat].won
	if m.epoch != e.epoch || m.won != won {
		*m = scoreMemo{epoch: e.epoch, won: won, total: e.scoreHeld(seat).Total}
	}
	return m.total
}

// Reset implements game.State.
func (c *Contract) Reset(seed uint64) { c.S.Reset(seed) }

// Clone implements game.State.
func (c *Contract) Clone() game.State { return &Contract{S: c.S.Clone()} }

// CopyInto implements game.State; dst must be a Holder (an Alpha Tactics
// state).
func (c *Contract) CopyInto(dst game.State) {
	d := Hold(dst)
	if d.S == nil {
		d.S = new(State)
	}
	c.S.CopyInto(d.S)
}

// Determinize implements game.State.
func (c *Contract) Determinize(viewer int, rng *game.RNG) { c.S.Determinize(viewer, rng) }

// ActionString implements game.State.
func (c *Contract) ActionString(a game.Action) string { return Action(a).String() }

// Observation implements game.State with the viewer-sided reading
// (view.go): the phase, round and deciding seat; each row's target and its
// cards (identity when seat may see it, owner, face, shield); every hand
// (seat's own cards and spied ones by identity, the rest as -1), pile
// sizes, the face-up discard piles and the targets left.
func (c *Contract) Observation(seat int, buf []byte) []byte {
	e := c.S
	buf = append(buf, byte(e.Phase()), byte(e.Round()), byte(e.CurrentPlayer()+1), byte(e.TargetsLeft()))
	for r := 0; r < e.NumRows(); r++ {
		buf = append(buf, byte(e.RowTarget(r)+1), byte(e.RowLen(r)))
		for k := 0; k < e.RowLen(r); k++ {
			sl := e.Slot(seat, r, k)
			buf = append(buf, byte(sl.Card+1), byte(sl.Owner), b2u(sl.FaceUp)|b2u(sl.Shielded)<<1|b2u(sl.PowerCover)<<2, byte(sl.Weakened))
		}
	}
	for p := 0; p < e.NumPlayers(); p++ {
		buf = append(buf, byte(e.HandLen(p)), byte(e.DrawLen(p)), byte(e.DiscardLen(p)))
		for k := 0; k < e.HandLen(p); k++ {
			buf = append(buf, byte(e.HandCard(seat, p, k)+1))
		}
		for k := 0; k < e.DiscardLen(p); k++ {
			buf = append(buf, byte(e.DiscardCard(p, k)))
		}
	}
	return buf
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
