package ai

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// updateStrongMoves rewrites testdata/golden/strong-moves.golden:
//
//	go test ./games/alphatactics/ai -run TestStrongMovesGolden -update-strong-moves
var updateStrongMoves = flag.Bool("update-strong-moves", false, "rewrite testdata/golden/strong-moves.golden")

const strongMovesGolden = "../../../testdata/golden/strong-moves.golden"

// strongMoveCases are the specs and table sizes whose games are recorded:
// the default, and specs that take the rollouts' other paths (played out to
// the round's end, the race, greedy's rollouts).
var strongMoveCases = []struct {
	spec  string
	np    int
	games int
}{
	{"strong", 2, 20}, {"strong", 3, 4}, {"strong", 4, 4},
	{"strong:h=0,k=4,dets=2", 2, 2},
	{"strong:search=race,k=8", 2, 2},
	{"strong:roll=greedy,k=4", 2, 1},
}

// TestStrongMovesGolden: the strong bot's games, decision by decision, are
// those recorded. A change meant to save time without changing what the bot
// plays (issue 26: cheaper rollouts) must leave this file as it is; a change
// of its play rewrites it and says why.
func TestStrongMovesGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 37 games of the strong bot")
	}
	rs := rules.Default()
	var lines []string
	for _, c := range strongMoveCases {
		for g := 0; g < c.games; g++ {
			fs := make([]string, c.np)
			ag := make([]Agent, c.np)
			for p := range fs {
				fs[p] = factions[(g+p)%4]
				ag[p] = mustParse(t, c.spec, engine.SeedFor(26, uint64(g*8+p)))
			}
			s, err := engine.New(rs, engine.Config{Factions: fs, Seed: engine.SeedFor(27, uint64(c.np*100+g))})
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			var buf []engine.Action
			n := 0
			for !s.IsTerminal() {
				a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
				_ = binary.Write(h, binary.LittleEndian, uint64(a))
				s.Apply(a)
				n++
			}
			lines = append(lines, fmt.Sprintf("%s np=%d game=%d decisions=%d moves=%x returns=%v",
				c.spec, c.np, g, n, h.Sum(nil)[:12], s.Returns()))
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	if *updateStrongMoves {
		if err := os.WriteFile(strongMovesGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(strongMovesGolden)
	if err != nil {
		t.Fatalf("%v (run with -update-strong-moves to record)", err)
	}
	if got != string(want) {
		t.Fatalf("the strong bot's games changed:\ngot\n%swant\n%s", got, want)
	}
}
