package game

import (
	"fmt"
	"sort"
	"sync"
)

var (
	mu    sync.RWMutex
	games = map[string]Game{}
)

// Register makes g available by its ID. A game calls it from init, as a
// database/sql driver does; a nil game, an empty ID or an ID taken twice is
// a programming error and panics.
func Register(g Game) {
	if g == nil {
		panic("game: Register of a nil game")
	}
	id := g.ID()
	if id == "" {
		panic("game: Register of a game without an ID")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := games[id]; dup {
		panic(fmt.Sprintf("game: Register called twice for %q", id))
	}
	games[id] = g
}

// Lookup returns the game registered as id.
func Lookup(id string) (Game, bool) {
	mu.RLock()
	defer mu.RUnlock()
	g, ok := games[id]
	return g, ok
}

// Games returns the registered games, sorted by ID.
func Games() []Game {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Game, 0, len(games))
	for _, g := range games {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}
