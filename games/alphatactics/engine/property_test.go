package engine

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// gamesPerCount is the number of random games per player count in the
// property tests (the engine issue asks for at least 10,000); -short runs
// fewer.
func gamesPerCount() int {
	if testing.Short() {
		return 1000
	}
	return 10000
}

// TestPropertyRandomGames plays random games for 2, 3 and 4 players and
// checks after every action that every card is in exactly one place and
// every target in at most one, that no shield lies in a row except on its
// protected card and no scout face down (CheckInvariants), that games end,
// and that no handler panics (a panic fails the test). A ruleChecker
// watching every event adds the rulebook's turn-order properties: the
// Deployment Phase never goes on once its end condition has held, the
// player whose turn it was ends it, the next round begins with the player
// after them, and a scout's placement by any route never fires the card
// above it.
func TestPropertyRandomGames(t *testing.T) {
	rs := rules.Default()
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			t.Parallel()
			awarded, rounds, scouts := 0, 0, 0
			for g := 0; g < gamesPerCount(); g++ {
				seed := SeedFor(uint64(n), uint64(g))
				// Rotate factions so every faction and seat is exercised.
				f := make([]string, n)
				for i := range f {
					f[i] = allFactions[(g+i)%4]
				}
				rc := newRuleChecker()
				s := playRandom(t, rs, f, seed, true, rc)
				for p := 0; p < n; p++ {
					awarded += len(s.Won(p))
				}
				rounds, scouts = rounds+rc.rounds, scouts+rc.scouts
			}
			if awarded == 0 || rounds == 0 || scouts == 0 {
				t.Fatalf("nothing exercised: %d targets awarded, %d rounds, %d scouts placed", awarded, rounds, scouts)
			}
			t.Logf("%d games, %d rounds, %d scout placements checked", gamesPerCount(), rounds, scouts)
		})
	}
}

// TestPropertyDeterminism: the same seed gives the same event stream, for
// any choice of factions and seeds rapid draws.
func TestPropertyDeterminism(t *testing.T) {
	rs := rules.Default()
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 4).Draw(rt, "players")
		perm := rapid.Permutation(allFactions).Draw(rt, "factions")
		seed := rapid.Uint64().Draw(rt, "seed")
		var a, b []Event
		playRandom(t, rs, perm[:n], seed, false, ObserverFunc(func(s *State, e Event) { a = append(a, e) }))
		playRandom(t, rs, perm[:n], seed, false, ObserverFunc(func(s *State, e Event) { b = append(b, e) }))
		if len(a) != len(b) {
			rt.Fatalf("event streams differ in length: %d vs %d", len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				rt.Fatalf("event %d differs: %+v vs %+v", i, a[i], b[i])
			}
		}
	})
}

// TestPropertyObserverFree: attaching an observer changes nothing about the
// game (the observer only watches).
func TestPropertyObserverFree(t *testing.T) {
	rs := rules.Default()
	for seed := uint64(0); seed < 200; seed++ {
		a := playRandom(t, rs, allFactions[:3], seed, false, nil)
		b := playRandom(t, rs, allFactions[:3], seed, false, ObserverFunc(func(*State, Event) {}))
		if a.Returns() != b.Returns() || a.Stats() != b.Stats() {
			t.Fatalf("seed %d: observer changed the game", seed)
		}
	}
}

// TestPropertyCloneIndependent: a clone played on does not touch the
// original, and replaying the original's choices on a clone ends the same.
func TestPropertyCloneIndependent(t *testing.T) {
	rs := rules.Default()
	s, _ := New(rs, Config{Factions: allFactions[:2], Seed: 5})
	bot := NewRNG(1)
	var buf []Action
	for i := 0; i < 40; i++ {
		buf = s.LegalActions(buf)
		s.Apply(buf[bot.Intn(len(buf))])
	}
	before := *s
	c := s.Clone()
	for !c.IsTerminal() {
		buf = c.LegalActions(buf)
		c.Apply(buf[bot.Intn(len(buf))])
	}
	after := *s
	if before.rows != after.rows || before.players != after.players || before.rng != after.rng || before.phase != after.phase {
		t.Fatal("playing a clone changed the original")
	}
}
