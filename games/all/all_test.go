package all

import (
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

// TestGames runs the generic suite for every registered game, so a game
// added to this package is covered without a line here.
func TestGames(t *testing.T) {
	gs := game.Games()
	if len(gs) < 2 {
		t.Fatalf("%d games registered; alphatactics and goofspiel at least", len(gs))
	}
	for _, g := range gs {
		t.Run(g.ID(), func(t *testing.T) { gametest.Run(t, g) })
	}
}
