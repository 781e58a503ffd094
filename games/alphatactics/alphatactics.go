// Package alphatactics registers Star Trek Conquest – Alpha Tactics with
// cardlab's games (game.Register): a thin adapter from the contracts of
// package game to its ruleset (rules), effects (handlers) and engine. The
// batch runner plays through it once per game: State.PlayOut
// (game.PlayOuter) is the runner's concrete decision loop with ai.Decide,
// so no decision crosses an interface and nothing Alpha Tactics computes
// changes with it. The bots still play the engine's State until they move
// onto the contracts (design game-neutral-core.md §3.14, step 6).
package alphatactics

import (
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"

	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/faces"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/alphatactics/views"
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

// FacesWithValues implements game.ValueFacer: the faces of Faces with each
// player card's measured value (faces.ReadValues) in its corner.
func (Game) FacesWithValues(rs game.Ruleset, file string) (*game.FaceSet, *game.ValueNotes, error) {
	r, ok := rs.(Ruleset)
	if !ok {
		return nil, nil, fmt.Errorf("alphatactics: faces of a %s ruleset", rs.Game())
	}
	v, err := faces.ReadValues(file, r.RS)
	if err != nil {
		return nil, nil, err
	}
	notes := &game.ValueNotes{HashMatches: v.HashMatches, Stale: v.Stale, StaleLine: faces.StaleLine, Unknown: v.Unknown}
	return faces.New(r.RS, v), notes, nil
}

// LoadDir implements game.DirLoader with rules.LoadDir, whose messages name
// the files under dir as they always have.
func (Game) LoadDir(dir string) (game.Ruleset, error) {
	rs, err := rules.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	return Ruleset{rs}, nil
}

// Views implements game.Viewer: targets and effects (package views).
func (Game) Views() []game.View { return views.All() }

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

// Catalog implements game.Catalogued: the rules' rounds and starting
// faction, and the targets.
func (r Ruleset) Catalog() game.Catalog { return views.Catalog(r.RS) }

// Summary implements game.Summarizer: validate's "4 factions, 120 player
// cards, 9 targets" (the player cards counted by copies).
func (r Ruleset) Summary() string {
	players := 0
	for _, c := range r.RS.Cards {
		players += c.Copies
	}
	return fmt.Sprintf("%d factions, %d player cards, %d targets", len(r.RS.Factions), players, len(r.RS.Targets))
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
	return &State{Contract: engine.Contract{S: s}}, nil
}

// State is an Alpha Tactics game as a game.State: the engine's contract
// (engine.Contract) with the batch runner's own loop, PlayOut.
type State struct {
	engine.Contract
	dbuf  []engine.Action // PlayOut's scratch for ai.Decide
	gbuf  []game.Action   // PlayOut's scratch when it plays generically
	ag    [rules.MaxPlayers]ai.Agent
	moves []game.Action // PlayOut's, as the caller gave it
	stop  *atomic.Bool  // PlayOut's
}

// Clone implements game.State: a State, so the clone plays out as this one.
func (s *State) Clone() game.State { return &State{Contract: engine.Contract{S: s.S.Clone()}} }
