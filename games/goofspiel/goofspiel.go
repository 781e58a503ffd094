// Package goofspiel registers Goofspiel with cardlab's games (game.Register):
// the public-domain bidding game in which every player holds the bid cards
// 1..N, a prize card is turned up each turn, all bid one card face down at
// once, and the single highest bid takes the prize's points (a tie for
// highest discards it, or with `ties: carry` adds it to the next prize).
// Most prize points wins; equal points share the win.
//
// It is the game that proves the neutral core (design game-neutral-core.md):
// mirrored (every seat plays the one side, "player"), with simultaneous
// hidden bids and no rows or targets. The simultaneous bid is played as
// sequential actions in seat order, and a later bidder's view (Observation,
// Determinize) holds only the bids revealed at the end of earlier turns.
// docs/rules-goofspiel.md gives every rule reading with the test that pins it.
package goofspiel

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
)

// ID is Goofspiel's key in the registry and in rules.yaml's `game:`.
const ID = "goofspiel"

func init() { game.Register(Game{}) }

//go:embed default/rules.yaml
var defaultFiles embed.FS

// Game is Goofspiel as a game.Game.
type Game struct{}

// ID implements game.Game.
func (Game) ID() string { return ID }

// Name implements game.Game.
func (Game) Name() string { return "Goofspiel" }

// Vocabulary implements game.Game: players score prize points over turns.
func (Game) Vocabulary() game.Vocabulary {
	return game.Vocabulary{Side: "player", Sides: "players", Score: "points", Length: "turn"}
}

// Load implements game.Game: dir names the ruleset in messages and is the
// directory of fsys it is read from.
func (Game) Load(fsys fs.FS, dir string) (game.Ruleset, error) {
	sub, err := game.RulesetFS(fsys, dir)
	if err != nil {
		return nil, err
	}
	rs, err := Load(sub, dir)
	if err != nil {
		return nil, err
	}
	return rs, nil
}

// Default implements game.Game: the classic 13-card game for 2–4 players.
func (Game) Default() (game.Ruleset, fs.FS) { return Default(), DefaultFS() }

// Effects implements game.Game: Goofspiel's cards have no effects.
func (Game) Effects() *effects.Registry { return nil }

// Schemas implements game.Game: rules.schema.json.
func (Game) Schemas() (map[string][]byte, error) {
	data, err := Schema()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"rules.schema.json": data}, nil
}

// DefaultFS is the embedded default ruleset's directory.
func DefaultFS() fs.FS {
	sub, err := fs.Sub(defaultFiles, "default")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Default is the embedded default ruleset, loaded once and shared (a
// Ruleset is immutable).
func Default() *Ruleset { return loadDefault() }

var loadDefault = sync.OnceValue(func() *Ruleset {
	rs, err := Load(DefaultFS(), "")
	if err != nil {
		panic("goofspiel: the embedded default ruleset does not load: " + err.Error())
	}
	return rs
})
