// Package gametest is the suite every registered game passes (design
// game-neutral-core.md §3.11; OpenSpiel's basic tests in spirit, ported from
// Alpha Tactics' property, peek and stream tests): its default ruleset
// loads and describes itself; thousands of random games end within a bound,
// offering legal actions only and always some while not over, and split a
// win of 1; the same seed plays the same game; clones and copies are
// independent, and Reset starts afresh; Determinize never changes what the
// viewer observes and leaves a playable state; a decision allocates
// nothing. games/all runs it for every game in game.Games().
package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// MaxDecisions bounds a game: a random game longer than this is a game that
// does not end. Alpha Tactics' random 4-player games take ~400 decisions.
const MaxDecisions = 20_000

// Run runs the whole suite for g, each part as a subtest.
func Run(t *testing.T, g game.Game) {
	rs, fsys := g.Default()
	if rs == nil || fsys == nil {
		t.Fatalf("%s: Default returned no ruleset or no files", g.ID())
	}
	t.Run("Load", func(t *testing.T) { Load(t, g) })
	t.Run("RandomGames", func(t *testing.T) { RandomGames(t, rs) })
	t.Run("Determinism", func(t *testing.T) { Determinism(t, rs) })
	t.Run("CloneIndependence", func(t *testing.T) { CloneIndependence(t, rs) })
	t.Run("Determinize", func(t *testing.T) { Determinize(t, rs) })
	t.Run("ZeroAllocs", func(t *testing.T) { ZeroAllocs(t, rs) })
	t.Run("Knobs", func(t *testing.T) { Knobs(t, rs) })
}

// Tables are the seatings the suite plays: every seat count the ruleset
// allows, each seat its own side in turn (one side on every seat when the
// game is mirrored and has fewer sides than seats).
func Tables(rs game.Ruleset) [][]int {
	lo, hi := rs.Seats()
	ns := len(rs.Sides())
	var out [][]int
	for n := lo; n <= hi; n++ {
		if !rs.Mirror() && n > ns {
			continue
		}
		seats := make([]int, n)
		for i := range seats {
			seats[i] = i % ns
		}
		out = append(out, seats)
	}
	return out
}

func newState(t testing.TB, rs game.Ruleset, seats []int, seed uint64) game.State {
	t.Helper()
	s, err := rs.NewState(seats, seed)
	if err != nil {
		t.Fatalf("NewState(%v, %d): %v", seats, seed, err)
	}
	return s
}

// Load checks g's default ruleset: it loads again from its own files with
// the same hash, describes its seats, sides, cards and schemas, and
// NewState refuses seats and sides it does not have.
func Load(t testing.TB, g game.Game) {
	rs, fsys := g.Default()
	if rs.Game() != g.ID() {
		t.Fatalf("default ruleset is of game %q, not %q", rs.Game(), g.ID())
	}
	info := rs.Info()
	if info.Name == "" || len(info.Hash) != 64 || len(info.Files) == 0 {
		t.Fatalf("default ruleset info: name %q, hash %q, %d files", info.Name, info.Hash, len(info.Files))
	}
	again, err := g.Load(fsys, ".")
	if err != nil {
		t.Fatalf("the default's own files do not load: %v", err)
	}
	if again.Info().Hash != info.Hash {
		t.Fatal("loading the default's files gives another ruleset")
	}
	lo, hi := rs.Seats()
	if lo < 1 || hi > game.MaxSeats || lo > hi {
		t.Fatalf("seats %d..%d", lo, hi)
	}
	if len(rs.Sides()) == 0 {
		t.Fatal("no sides")
	}
	for i, c := range rs.Cards() {
		if c.Index != i || c.ID == "" || c.Side < -1 || c.Side >= len(rs.Sides()) {
			t.Fatalf("card %d: %+v", i, c)
		}
	}
	schemas, err := g.Schemas()
	if err != nil || len(schemas) == 0 {
		t.Fatalf("schemas: %d, %v", len(schemas), err)
	}
	for name, data := range schemas {
		if !json.Valid(data) {
			t.Fatalf("schema %s is not JSON", name)
		}
	}
	if g.Name() == "" || g.Vocabulary().Side == "" || g.Vocabulary().Score == "" {
		t.Fatalf("name %q, vocabulary %+v", g.Name(), g.Vocabulary())
	}
	if _, err := rs.NewState(make([]int, hi+1), 1); hi < game.MaxSeats && err == nil {
		t.Fatalf("NewState accepted %d seats, above the ruleset's %d", hi+1, hi)
	}
	if _, err := rs.NewState([]int{len(rs.Sides())}, 1); err == nil {
		t.Fatal("NewState accepted a side the ruleset does not have")
	}
}

// Play plays s to its end with uniformly random legal choices from rng,
// checking the contracts at every decision; it returns a hash of every legal
// list, choice and seat's observation (the game's stream, chance included
// as the seats see it) and the number of decisions.
func Play(t testing.TB, s game.State, rng *game.RNG) (stream uint64, decisions int) {
	t.Helper()
	return play(t, s, rng, true)
}

// play is Play, hashing the observations only when observe is set (a
// determinized twin's playout needs the checks, not the stream).
func play(t testing.TB, s game.State, rng *game.RNG, observe bool) (stream uint64, decisions int) {
	t.Helper()
	h := fnv.New64a()
	var buf []game.Action
	var word [4]byte
	var obs []byte
	for !s.IsTerminal() {
		for q := 0; observe && q < s.NumSeats(); q++ {
			obs = s.Observation(q, obs[:0])
			h.Write(obs)
		}
		if decisions == MaxDecisions {
			t.Fatalf("no end after %d decisions", MaxDecisions)
		}
		p := s.CurrentPlayer()
		if p < 0 || p >= s.NumSeats() {
			t.Fatalf("decision %d: current player %d of %d seats", decisions, p, s.NumSeats())
		}
		buf = s.LegalActions(buf)
		if len(buf) == 0 {
			t.Fatalf("decision %d: no legal action while the game is not over", decisions)
		}
		for i, a := range buf {
			if slices.Contains(buf[:i], a) {
				t.Fatalf("decision %d: %s offered twice", decisions, s.ActionString(a))
			}
			word = [4]byte{byte(a), byte(a >> 8), byte(a >> 16), byte(a >> 24)}
			h.Write(word[:])
		}
		a := buf[rng.Intn(len(buf))]
		h.Write([]byte{0xff, byte(p)})
		s.Apply(a)
		decisions++
	}
	if p := s.CurrentPlayer(); p != -1 {
		t.Fatalf("game over with current player %d", p)
	}
	if buf = s.LegalActions(buf); len(buf) != 0 {
		t.Fatalf("game over with legal actions %v", buf)
	}
	checkReturns(t, s)
	for q := 0; q < s.NumSeats(); q++ {
		word = [4]byte{byte(s.Score(q)), byte(s.Score(q) >> 8)}
		h.Write(word[:])
		fmt.Fprintf(h, "%v", s.Returns()[q])
	}
	return h.Sum64(), decisions
}

func checkReturns(t testing.TB, s game.State) {
	t.Helper()
	r := s.Returns()
	sum := 0.0
	for q, v := range r {
		if v < 0 || v > 1 || (q >= s.NumSeats() && v != 0) {
			t.Fatalf("returns %v", r)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("returns %v sum to %v, not 1", r, sum)
	}
}

func games(full int) int {
	if testing.Short() {
		return full / 10
	}
	return full
}

// RandomGames plays 2,000 random games per seat count (200 with -short)
// through Play's checks.
func RandomGames(t testing.TB, rs game.Ruleset) {
	n := games(2000)
	for _, seats := range Tables(rs) {
		total, longest := 0, 0
		for i := 0; i < n; i++ {
			s := newState(t, rs, seats, uint64(i))
			if s.NumSeats() != len(seats) {
				t.Fatalf("%d seats, want %d", s.NumSeats(), len(seats))
			}
			rng := game.NewRNG(uint64(i) ^ 0x5eed)
			_, d := Play(t, s, &rng)
			total += d
			longest = max(longest, d)
		}
		t.Logf("%d seats: %d random games, %.1f decisions on average, %d at most", len(seats), n, float64(total)/float64(n), longest)
	}
}

// Determinism checks that one seed plays one game, from New and after
// Reset, and that the seeds play different games.
func Determinism(t testing.TB, rs game.Ruleset) {
	n := games(200)
	for _, seats := range Tables(rs) {
		reused := newState(t, rs, seats, 0)
		streams := map[uint64]bool{}
		for i := 0; i < n; i++ {
			seed := uint64(i) * 7919
			a := newState(t, rs, seats, seed)
			b := newState(t, rs, seats, seed)
			ra, rb, rc := game.NewRNG(seed), game.NewRNG(seed), game.NewRNG(seed)
			ha, _ := Play(t, a, &ra)
			hb, _ := Play(t, b, &rb)
			if ha != hb || a.Returns() != b.Returns() {
				t.Fatalf("%v seed %d: two games from one seed differ", seats, seed)
			}
			// Reset on a played state starts the same game afresh.
			reused.Reset(seed)
			if hc, _ := Play(t, reused, &rc); hc != ha {
				t.Fatalf("%v seed %d: Reset does not replay the game New deals", seats, seed)
			}
			streams[ha] = true
		}
		// A stream that ignores the seed would pass the above.
		if len(streams) < n/2 {
			t.Fatalf("%v: only %d distinct games from %d seeds", seats, len(streams), n)
		}
	}
}

// walk plays k random decisions (fewer if the game ends).
func walk(s game.State, rng *game.RNG, k int) {
	var buf []game.Action
	for ; k > 0 && !s.IsTerminal(); k-- {
		buf = s.LegalActions(buf)
		s.Apply(buf[rng.Intn(len(buf))])
	}
}

// CloneIndependence checks that a state, its clone and a CopyInto copy
// play on alike after other clones and copies were played out.
func CloneIndependence(t testing.TB, rs game.Ruleset) {
	n := games(200)
	for _, seats := range Tables(rs) {
		for i := 0; i < n; i++ {
			seed := uint64(i)
			s := newState(t, rs, seats, seed)
			r := game.NewRNG(seed * 3)
			walk(s, &r, r.Intn(60))
			ref := s.Clone()
			copied := newState(t, rs, seats, seed+1)
			s.CopyInto(copied)
			// Playing the clone out and a copy out must not touch s.
			junk := game.NewRNG(seed ^ 99)
			Play(t, s.Clone(), &junk)
			scratch := newState(t, rs, seats, seed+2)
			s.CopyInto(scratch)
			Play(t, scratch, &junk)
			r1, r2, r3 := game.NewRNG(seed), game.NewRNG(seed), game.NewRNG(seed)
			h1, _ := Play(t, s, &r1)
			h2, _ := Play(t, ref, &r2)
			h3, _ := Play(t, copied, &r3)
			if h1 != h2 || h1 != h3 {
				t.Fatalf("%v seed %d: a state, its clone and its copy play on differently", seats, seed)
			}
		}
	}
}

// Determinize checks at random points of random games that Determinize
// leaves the viewer's observation, the seat to move and the deciding
// viewer's choices unchanged and the state playable, and that the seats'
// observations change during a game.
func Determinize(t testing.TB, rs game.Ruleset) {
	n := games(300)
	changed, tried := 0, 0
	for _, seats := range Tables(rs) {
		for i := 0; i < n; i++ {
			seed := uint64(i)
			s := newState(t, rs, seats, seed)
			r := game.NewRNG(seed * 31)
			seen := map[string]bool{}
			for !s.IsTerminal() {
				for v := 0; v < s.NumSeats(); v++ {
					seen[string(s.Observation(v, nil))] = true
				}
				if r.Intn(8) == 0 {
					changed += checkDeterminize(t, s, r.Intn(s.NumSeats()), seed)
					changed += checkDeterminize(t, s, s.CurrentPlayer(), seed+1)
					tried += 2
				}
				walk(s, &r, 1)
			}
			// An observation that says nothing would make the check empty.
			if len(seen) < 2 {
				t.Fatalf("%v seed %d: the observations never changed during a game", seats, seed)
			}
		}
	}
	t.Logf("Determinize changed the hidden state %d times of %d", changed, tried)
}

// checkDeterminize determinizes a clone of s for viewer and checks that the
// viewer observes the same, decides among the same actions, and that the
// clone plays to a proper end. It reports 1 when some other seat's
// observation changed (the hidden part was redealt), else 0.
func checkDeterminize(t testing.TB, s game.State, viewer int, seed uint64) int {
	t.Helper()
	twin := s.Clone()
	rng := game.NewRNG(seed ^ 0xd17e)
	twin.Determinize(viewer, &rng)
	if a, b := s.Observation(viewer, nil), twin.Observation(viewer, nil); !bytes.Equal(a, b) {
		t.Fatalf("seed %d: Determinize(%d) changed what seat %d observes", seed, viewer, viewer)
	}
	if twin.CurrentPlayer() != s.CurrentPlayer() || twin.IsTerminal() != s.IsTerminal() {
		t.Fatalf("seed %d: Determinize(%d) changed whose turn it is", seed, viewer)
	}
	if viewer == s.CurrentPlayer() && !slices.Equal(s.LegalActions(nil), twin.LegalActions(nil)) {
		t.Fatalf("seed %d: Determinize(%d) changed the deciding viewer's choices", seed, viewer)
	}
	diff := 0
	for q := 0; q < s.NumSeats(); q++ {
		if q != viewer && !bytes.Equal(s.Observation(q, nil), twin.Observation(q, nil)) {
			diff = 1
		}
	}
	r := game.NewRNG(seed)
	play(t, twin, &r, false)
	return diff
}

// ZeroAllocs checks that a random playout from a copied start allocates
// nothing.
func ZeroAllocs(t testing.TB, rs game.Ruleset) {
	for _, seats := range Tables(rs) {
		base := newState(t, rs, seats, 1)
		work := newState(t, rs, seats, 2)
		buf := make([]game.Action, 0, 64)
		rng := game.NewRNG(3)
		decisions := 0
		playout := func() {
			base.CopyInto(work)
			for !work.IsTerminal() {
				buf = work.LegalActions(buf)
				work.Apply(buf[rng.Intn(len(buf))])
				decisions++
			}
		}
		playout() // warm up the states' scratch buffers
		if allocs := testing.AllocsPerRun(50, playout); allocs != 0 {
			t.Fatalf("%v: %.1f allocations per random game, want 0", seats, allocs)
		}
	}
}

// Playthrough is the text a game's playthrough golden holds (design §3.11
// item 5): for every seat count, ten seeded random games as their decision
// count, stream hash (Play's: legal lists, choices, observations), scores
// and returns; and the first game of the smallest table move by move. A
// change to it is a change to what the game plays, to be made on purpose.
func Playthrough(t testing.TB, rs game.Ruleset) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s %s %s: random play, game.NewRNG(seed ^ 0x5eed) choosing\n", rs.Game(), rs.Info().Name, rs.Info().Version)
	for ti, seats := range Tables(rs) {
		for seed := uint64(0); seed < 10; seed++ {
			s := newState(t, rs, seats, seed)
			if ti == 0 && seed == 0 {
				moves := s.Clone()
				rng := game.NewRNG(seed ^ 0x5eed)
				var buf []game.Action
				for !moves.IsTerminal() {
					buf = moves.LegalActions(buf)
					a := buf[rng.Intn(len(buf))]
					fmt.Fprintf(&b, "seat %d of %d: %s (of %d)\n", moves.CurrentPlayer(), len(seats), moves.ActionString(a), len(buf))
					moves.Apply(a)
				}
			}
			rng := game.NewRNG(seed ^ 0x5eed)
			h, d := Play(t, s, &rng)
			scores := make([]int, len(seats))
			for q := range scores {
				scores[q] = s.Score(q)
			}
			ret := s.Returns()
			fmt.Fprintf(&b, "%d seats, seed %d: %d decisions, stream %016x, scores %v, returns %.4g\n",
				len(seats), seed, d, h, scores, ret[:len(seats)])
		}
	}
	return b.Bytes()
}
