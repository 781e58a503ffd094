// Package alphatactics registers Star Trek Conquest – Alpha Tactics with
// cardlab's games (game.Register): a thin adapter from the contracts of
// package game to its ruleset (rules), effects (handlers) and engine. The
// batch runner plays through it once per game: State.PlayOut
// (game.PlayOuter) is the runner's concrete decision loop with bots.Decide,
// so no decision crosses an interface and nothing Alpha Tactics computes
// changes with it. The bots still play the engine's State until they move
// onto the contracts (design game-neutral-core.md §3.14, step 6).
package alphatactics

import (
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"unsafe"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/faces"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// ID is Alpha Tactics' key in the registry and in rules.yaml's `game:`.
const ID = rules.GameID

func init() { game.Register(Game{}) }

// The engine's bounds are the contracts': a seat index or a Returns array
// means the same on both sides.
var _ = [1]struct{}{}[rules.MaxPlayers-game.MaxSeats]

// Game is Alpha Tactics as a game.Game.
type Game struct{}

// ID implements game.Game.
func (Game) ID() string { return ID }

// Name implements game.Game.
func (Game) Name() string { return "Star Trek Conquest – Alpha Tactics" }

// Vocabulary implements game.Game: factions score victory points over rounds.
func (Game) Vocabulary() game.Vocabulary {
	return game.Vocabulary{Side: "faction", Sides: "factions", Score: "VP", Length: "round"}
}

// Load implements game.Game with rules.Load: dir names the ruleset in
// messages and is the directory of fsys it is read from.
func (Game) Load(fsys fs.FS, dir string) (game.Ruleset, error) {
	sub, err := game.RulesetFS(fsys, dir)
	if err != nil {
		return nil, err
	}
	rs, err := rules.Load(sub, dir)
	if err != nil {
		return nil, err
	}
	return Ruleset{rs}, nil
}

// Default implements game.Game: the embedded reconstructed v1.2.4 set.
func (Game) Default() (game.Ruleset, fs.FS) { return Ruleset{rules.Default()}, rules.DefaultFS() }

// Effects implements game.Game.
func (Game) Effects() *effects.Registry { return handlers.AlphaTactics }

// Schemas implements game.Game: rules.schema.json, targets.schema.json and
// deck.schema.json, as `cardlab schema` writes them.
func (Game) Schemas() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, kind := range rules.SchemaKinds {
		data, err := rules.Schema(kind)
		if err != nil {
			return nil, err
		}
		out[rules.SchemaFile(kind)] = data
	}
	return out, nil
}

// Faces implements game.Facer: a deck per faction and one of targets
// (package faces), without measured values.
func (Game) Faces(rs game.Ruleset) (*game.FaceSet, error) {
	r, ok := rs.(Ruleset)
	if !ok {
		return nil, fmt.Errorf("alphatactics: faces of a %s ruleset", rs.Game())
	}
	return faces.New(r.RS, nil), nil
}

// Ruleset is an Alpha Tactics ruleset as a game.Ruleset.
type Ruleset struct{ RS *rules.Ruleset }

// Game implements game.Ruleset.
func (Ruleset) Game() string { return ID }

// Info implements game.Ruleset.
func (r Ruleset) Info() game.Info {
	return game.Info{Name: r.RS.Name, Version: r.RS.Version, Hash: r.RS.Hash, Files: r.RS.Files}
}

// Seats implements game.Ruleset: rules.yaml's players range.
func (r Ruleset) Seats() (min, max int) { return r.RS.Rules.MinPlayers, r.RS.Rules.MaxPlayers }

// Sides implements game.Ruleset: the factions in rules.yaml's order.
func (r Ruleset) Sides() []game.Side {
	out := make([]game.Side, len(r.RS.Factions))
	for i, f := range r.RS.Factions {
		out[i] = game.Side{ID: f.ID, Name: f.Name, Color: f.Color, Pos: f.Pos}
	}
	return out
}

// Mirror implements game.Ruleset: a faction plays one seat of a game.
func (Ruleset) Mirror() bool { return false }

// Cards implements game.Ruleset: the player cards, with power, kind and
// type as their columns.
func (r Ruleset) Cards() []game.Card {
	out := make([]game.Card, len(r.RS.Cards))
	for i := range r.RS.Cards {
		c := &r.RS.Cards[i]
		var fx []string
		if c.Effect != nil {
			fx = []string{c.Effect.Handler}
		}
		out[i] = game.Card{
			Index: c.Index, ID: c.ID, Name: c.Name, Side: c.Faction, Copies: c.Copies,
			Text: c.Text, Tags: c.Tags, Effects: fx, Pos: c.Pos,
			Columns: []game.Column{
				{Key: "power", Text: fmt.Sprint(c.Power), Int: c.Power, IsInt: true},
				{Key: "kind", Text: c.Kind.String()},
				{Key: "type", Text: c.Type.String()},
			},
		}
	}
	return out
}

// errSide reports a seat given a side the ruleset does not have.
var errSide = errors.New("alphatactics: no such side")

// NewState implements game.Ruleset with engine.New.
func (r Ruleset) NewState(seats []int, seed uint64) (game.State, error) {
	ids := make([]string, len(seats))
	for i, f := range seats {
		if f < 0 || f >= len(r.RS.Factions) {
			return nil, fmt.Errorf("%w: seat %d plays side %d of %d", errSide, i, f, len(r.RS.Factions))
		}
		ids[i] = r.RS.Factions[f].ID
	}
	s, err := engine.New(r.RS, engine.Config{Factions: ids, Seed: seed})
	if err != nil {
		return nil, err
	}
	return &State{S: s}, nil
}

// State is an Alpha Tactics game as a game.State. The engine's actions are
// the contracts' (both uint32, the same packing).
type State struct {
	S     *engine.State
	dbuf  []engine.Action // PlayOut's scratch for bots.Decide
	gbuf  []game.Action   // PlayOut's scratch when it plays generically
	ag    [rules.MaxPlayers]bots.Agent
	moves []game.Action // PlayOut's, as the caller gave it
	stop  *atomic.Bool  // PlayOut's
}

// NumSeats implements game.State.
func (s *State) NumSeats() int { return s.S.NumPlayers() }

// CurrentPlayer implements game.State.
func (s *State) CurrentPlayer() int { return s.S.CurrentPlayer() }

// LegalActions implements game.State: the engine lists into buf itself.
// Its Action and the contracts' are both a uint32 with the same packing, so
// the slice is read as the other type instead of copied: a copy cost a
// search through the contracts about 350 instructions an iteration, most
// of its overhead (docs/architecture.md, "Core migration", step 6).
func (s *State) LegalActions(buf []game.Action) []game.Action {
	return asGame(s.S.LegalActions(asEngine(buf)))
}

// The conversions below rely on the two action types' layout being one.
var _ = [1]struct{}{}[unsafe.Sizeof(engine.Action(0))-unsafe.Sizeof(game.Action(0))]

func asEngine(b []game.Action) []engine.Action {
	return unsafe.Slice((*engine.Action)(unsafe.SliceData(b)), cap(b))[:len(b)]
}

func asGame(b []engine.Action) []game.Action {
	return unsafe.Slice((*game.Action)(unsafe.SliceData(b)), cap(b))[:len(b)]
}

// Apply implements game.State.
func (s *State) Apply(a game.Action) { s.S.Apply(engine.Action(a)) }

// IsTerminal implements game.State.
func (s *State) IsTerminal() bool { return s.S.IsTerminal() }

// Returns implements game.State.
func (s *State) Returns() [game.MaxSeats]float64 { return s.S.Returns() }

// Score implements game.State: the VP total, as it stands until the game is
// over.
func (s *State) Score(seat int) int { return s.S.ProvisionalScore(seat).Total }

// Reset implements game.State.
func (s *State) Reset(seed uint64) { s.S.Reset(seed) }

// Clone implements game.State.
func (s *State) Clone() game.State { return &State{S: s.S.Clone()} }

// CopyInto implements game.State; dst must be an Alpha Tactics state.
func (s *State) CopyInto(dst game.State) {
	d := dst.(*State)
	if d.S == nil {
		d.S = new(engine.State)
	}
	s.S.CopyInto(d.S)
}

// Determinize implements game.State.
func (s *State) Determinize(viewer int, rng *game.RNG) { s.S.Determinize(viewer, rng) }

// ActionString implements game.State.
func (s *State) ActionString(a game.Action) string { return engine.Action(a).String() }

// Observation implements game.State with the engine's viewer-sided reading
// (view.go): the phase, round and deciding seat; each row's target and its
// cards (identity when seat may see it, owner, face, shield); every hand
// (seat's own cards and spied ones by identity, the rest as -1), pile
// sizes, the face-up discard piles and the targets left.
func (s *State) Observation(seat int, buf []byte) []byte {
	e := s.S
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
