package engine

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

var allFactions = []string{"starfleet", "vulcan", "romulan", "klingon"}

// fataler is what playRandom needs of a test: a *testing.T or a *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// playRandom plays a whole game choosing uniformly among legal actions with
// a bot stream separate from the game's chance stream.
func playRandom(t fataler, rs *rules.Ruleset, factions []string, seed uint64, check bool, obs Observer) *State {
	s, err := New(rs, Config{Factions: factions, Seed: seed, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	bot := NewRNG(seed ^ 0xb07)
	buf := make([]Action, 0, 256)
	for steps := 0; !s.IsTerminal(); steps++ {
		if steps > 100000 {
			t.Fatalf("seed %d: game does not terminate", seed)
		}
		buf = s.LegalActions(buf)
		if len(buf) == 0 {
			t.Fatalf("seed %d: no legal action for player %d in phase %v", seed, s.CurrentPlayer(), s.Phase())
		}
		s.Apply(buf[bot.Intn(len(buf))])
		if check {
			if err := s.CheckInvariants(); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, steps, err)
			}
			if rc, ok := obs.(*ruleChecker); ok {
				if rc.after(s); rc.err != nil {
					t.Fatalf("%v seed %d step %d: %v", factions, seed, steps, rc.err)
				}
			}
		}
	}
	return s
}

func TestRandomGamesSmoke(t *testing.T) {
	rs := rules.Default()
	for n := 2; n <= 4; n++ {
		for seed := uint64(0); seed < 50; seed++ {
			s := playRandom(t, rs, allFactions[:n], seed, true, nil)
			sum := 0.0
			for _, w := range s.Returns() {
				sum += w
			}
			if sum < 0.999 || sum > 1.001 {
				t.Fatalf("win shares sum to %v", sum)
			}
		}
	}
}
