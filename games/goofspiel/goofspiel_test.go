package goofspiel

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

func TestRegistered(t *testing.T) {
	g, ok := game.Lookup(ID)
	if !ok {
		t.Fatal("goofspiel is not registered")
	}
	rs, _ := g.Default()
	if lo, hi := rs.Seats(); lo != 2 || hi != 4 || !rs.Mirror() || len(rs.Sides()) != 1 {
		t.Fatalf("seats %d..%d, mirror %v, sides %v", lo, hi, rs.Mirror(), rs.Sides())
	}
	d := Default()
	if d.HandSize != 13 || len(d.Prizes) != 13 || d.Ties != Discard || len(rs.Cards()) != 26 {
		t.Fatalf("default: %d cards, prizes %v, ties %v", d.HandSize, d.Prizes, d.Ties)
	}
}

// rules builds a ruleset from rules.yaml text.
func rules(t testing.TB, text string) *Ruleset {
	t.Helper()
	rs, err := Load(fstest.MapFS{RulesFile: {Data: []byte(text)}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

const small = "game: goofspiel\nname: t\nversion: \"1\"\nplayers: {min: 2, max: 4}\ncards: 3\n"

// play applies bids in seat order.
func play(s *State, bids ...int) {
	for _, b := range bids {
		s.Apply(game.Action(b))
	}
}

// fixPrizes puts the prize deck in rules.yaml's order, so a scenario knows
// which prize is up.
func fixPrizes(s *State) {
	for i := range s.turns {
		s.deck[i] = uint8(i)
	}
	s.pot = s.rs.Prizes[0]
}

// "The highest bid takes the prize": its points go to the one highest bidder.
func TestHighestBidTakesPrize(t *testing.T) {
	s := New(rules(t, small+"prizes: [5, 1, 2]\n"), 2, 1)
	fixPrizes(s)
	play(s, 3, 1)
	if s.Score(0) != 5 || s.Score(1) != 0 || s.Turn() != 1 || s.Prize() != 1 {
		t.Fatalf("scores %d %d, turn %d, prize %d", s.Score(0), s.Score(1), s.Turn(), s.Prize())
	}
	if s.LastBids() != [game.MaxSeats]uint8{3, 1} {
		t.Fatalf("revealed %v", s.LastBids())
	}
}

// "Ties discard it": a tie for highest loses the prize, even at three
// seats where a lower bid is unique.
func TestTieDiscards(t *testing.T) {
	s := New(rules(t, small+"prizes: [5, 1, 2]\n"), 3, 1)
	fixPrizes(s)
	play(s, 3, 3, 1)
	if s.Score(0)+s.Score(1)+s.Score(2) != 0 || s.Pot() != 1 {
		t.Fatalf("scores %d %d %d, pot %d", s.Score(0), s.Score(1), s.Score(2), s.Pot())
	}
}

// `ties: carry`: a tied prize's points go to the next prize's taker; what
// is still carried after the last turn is lost.
func TestTieCarries(t *testing.T) {
	s := New(rules(t, small+"prizes: [5, 1, 2]\nties: carry\n"), 2, 1)
	fixPrizes(s)
	play(s, 2, 2)
	if s.Pot() != 6 {
		t.Fatalf("pot %d after a tie, want 5+1", s.Pot())
	}
	play(s, 1, 3)
	if s.Score(1) != 6 || s.Pot() != 2 {
		t.Fatalf("seat 1 has %d, pot %d", s.Score(1), s.Pot())
	}
	play(s, 3, 1)
	if !s.IsTerminal() || s.Score(0) != 2 || s.Returns() != [game.MaxSeats]float64{0, 1} {
		t.Fatalf("end: %d %d %v", s.Score(0), s.Score(1), s.Returns())
	}
}

// "Most prize points wins, equal points share the win."
func TestEqualPointsShare(t *testing.T) {
	s := New(rules(t, small+"prizes: [2, 2, 1]\n"), 3, 1)
	fixPrizes(s)
	play(s, 3, 1, 2) // seat 0 takes 2
	play(s, 1, 3, 1) // seat 1 takes 2
	play(s, 2, 2, 3) // seat 2 takes 1
	if r := s.Returns(); r != [game.MaxSeats]float64{0.5, 0.5, 0} {
		t.Fatalf("returns %v", r)
	}
}

// "Every player bids one card face down at once": a later bidder observes
// the same whatever the earlier one bid, its choices are the same, and
// Determinize for it redeals the hidden bid from the earlier bidder's hand.
func TestLaterBidderCannotSeeBid(t *testing.T) {
	rs := rules(t, small)
	low, high := New(rs, 2, 4), New(rs, 2, 4)
	play(low, 1)
	play(high, 3)
	if !bytes.Equal(low.Observation(1, nil), high.Observation(1, nil)) {
		t.Fatal("seat 1 observes seat 0's hidden bid")
	}
	if bytes.Equal(low.Observation(0, nil), high.Observation(0, nil)) {
		t.Fatal("seat 0 does not observe its own bid")
	}
	if low.Hand(1, 0) != 0b111 || low.Hand(0, 0) != 0b110 || low.Hand(-1, 0) != 0b110 {
		t.Fatalf("hands as seen: %b %b", low.Hand(1, 0), low.Hand(0, 0))
	}
	seen := map[uint8]bool{}
	for i := uint64(0); i < 200; i++ {
		twin := low.Clone().(*State)
		r := game.NewRNG(i)
		twin.Determinize(1, &r)
		seen[twin.bid[0]] = true
		if twin.hand[0]|1<<(twin.bid[0]-1) != 0b111 {
			t.Fatalf("determinized hand %b and bid %d", twin.hand[0], twin.bid[0])
		}
	}
	if len(seen) != 3 {
		t.Fatalf("determinized bids %v, want all of 1..3", seen)
	}
}

// "Cards already played are public after the reveal": Determinize keeps
// every revealed bid, the prizes turned up and the scores, and redeals the
// unseen prize order.
func TestDeterminizeKeepsRevealed(t *testing.T) {
	rs := Default()
	s := New(rs, 2, 9)
	play(s, 13, 1, 5)
	orders := map[[MaxCards]uint8]bool{}
	for i := uint64(0); i < 50; i++ {
		twin := s.Clone().(*State)
		r := game.NewRNG(i)
		twin.Determinize(1, &r)
		if twin.Hand(1, 0) != s.Hand(1, 0) {
			t.Fatal("seat 0's public hand changed")
		}
		if twin.deck[0] != s.deck[0] || twin.deck[1] != s.deck[1] || twin.Score(0) != s.Score(0) || twin.hand[1] != s.hand[1] {
			t.Fatal("Determinize changed what was revealed")
		}
		orders[twin.deck] = true
	}
	if len(orders) < 40 {
		t.Fatalf("only %d prize orders in 50 determinizations", len(orders))
	}
}

// "A prize deck is shuffled": each seed deals a permutation of the prize
// list, the same one every time.
func TestPrizeDeck(t *testing.T) {
	rs := Default()
	firsts := map[uint8]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		a, b := New(rs, 2, seed), New(rs, 2, seed)
		if a.deck != b.deck {
			t.Fatal("one seed, two decks")
		}
		var seen [MaxCards]bool
		for _, i := range a.deck[:a.turns] {
			if seen[i] {
				t.Fatalf("seed %d: prize %d twice", seed, i)
			}
			seen[i] = true
		}
		firsts[a.deck[0]] = true
	}
	if len(firsts) != 13 {
		t.Fatalf("only %d different first prizes in 200 seeds", len(firsts))
	}
}

func TestIllegalBidPanics(t *testing.T) {
	s := New(Default(), 2, 1)
	play(s, 5)
	defer func() {
		if recover() == nil {
			t.Fatal("a second bid of a played card was accepted")
		}
	}()
	s.Apply(game.Action(14))
}

func TestNewStateSeats(t *testing.T) {
	rs := Default()
	for _, seats := range [][]int{{0}, {0, 0, 0, 0, 0}, {0, 1}} {
		if _, err := rs.NewState(seats, 1); err == nil || !strings.HasPrefix(err.Error(), "goofspiel: ") {
			t.Errorf("seats %v: error %v", seats, err)
		}
	}
}

// Every broken value is reported at its file:line:col, with "did you mean"
// where a word was misspelt.
func TestLoadErrors(t *testing.T) {
	base := "game: goofspiel\nname: g\nversion: \"1\"\nplayers: {min: 2, max: 4}\ncards: 5\n"
	for _, tc := range []struct{ name, text, want string }{
		{"unknown key", base + "prize: [1]\n", `x/rules.yaml:6:1: unknown key "prize" in rules.yaml, did you mean "prizes"?`},
		{"other game", strings.Replace(base, "goofspiel", "alphatactics", 1), `x/rules.yaml:1:7: game: "alphatactics" is not "goofspiel"`},
		{"too many prizes", base + "prizes: [1, 2, 3, 4, 5, 6]\n", `x/rules.yaml:6:25: prizes: 6 prizes but 5 bid cards`},
		{"negative prize", base + "prizes: [1, -2]\n", `x/rules.yaml:6:13: prizes[1]: -2 is out of range (0..1000)`},
		{"zero prizes", base + "prizes: [0, 0]\n", `x/rules.yaml:6:9: prizes: every prize is worth 0`},
		{"empty prizes", base + "prizes: []\n", `x/rules.yaml:6:9: prizes: the list is empty`},
		{"prizes not a list", base + "prizes: 3\n", `x/rules.yaml:6:9: prizes: expected a list of prize values, got`},
		{"ties misspelt", base + "ties: cary\n", `x/rules.yaml:6:7: unknown tie rule "cary", did you mean "carry"?`},
		{"min above max", strings.Replace(base, "max: 4", "max: 3", 1) + "", ""},
		{"max below min", strings.Replace(base, "{min: 2, max: 4}", "{min: 3, max: 2}", 1), `x/rules.yaml:4:24: players: max 2 is below min 3`},
		{"five players", strings.Replace(base, "max: 4", "max: 5", 1), `x/rules.yaml:4:24: max: 5 is out of range (2..4)`},
		{"players key", strings.Replace(base, "min: 2", "mni: 2", 1), `x/rules.yaml:4:11: unknown key "mni" in players, did you mean "min"?`},
		{"too many cards", strings.Replace(base, "cards: 5", "cards: 65", 1), `x/rules.yaml:5:8: cards: 65 is out of range (1..64)`},
		{"missing cards", strings.Replace(base, "cards: 5\n", "", 1), `x/rules.yaml:1:1: missing required key "cards" in rules.yaml`},
		{"version a number", strings.Replace(base, `"1"`, "1.10", 1), `x/rules.yaml:3:10: version: expected a string, got`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{RulesFile: {Data: []byte(tc.text)}}, "x")
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestLoadFiles(t *testing.T) {
	good := []byte(small)
	_, err := Load(fstest.MapFS{RulesFile: {Data: good}, "rule.yaml": {Data: good}}, "x")
	if err == nil || !strings.Contains(err.Error(), `x/rule.yaml: unknown ruleset file; a Goofspiel ruleset is the one file rules.yaml, did you mean "rules.yaml"?`) {
		t.Fatalf("stray file: %v", err)
	}
	_, err = Load(fstest.MapFS{"notes.txt": {Data: good}}, "x")
	if err == nil || !strings.Contains(err.Error(), "x: no rules.yaml in the ruleset directory") {
		t.Fatalf("no rules.yaml: %v", err)
	}
	rs := rules(t, small)
	if len(rs.Prizes) != 3 || rs.Prizes[2] != 3 || rs.Hash == "" {
		t.Fatalf("default prizes %v", rs.Prizes)
	}
	if _, ok := Load(fstest.MapFS{RulesFile: {Data: []byte("game: [\n")}}, "x"); ok == nil {
		t.Fatal("a syntax error loaded")
	}
}

// FuzzLoad: any rules.yaml either loads into a ruleset whose games play to
// an end, or fails with positioned errors; never a panic.
func FuzzLoad(f *testing.F) {
	def, _ := Game{}.Default()
	f.Add(def.Info().Files[RulesFile])
	f.Add([]byte(small + "prizes: [0, 7, 1]\nties: carry\n"))
	f.Add([]byte(small + "prizes: [0, 0]\n"))
	f.Add([]byte("game: goofspiel\ncards: 64\nplayers: {min: 4, max: 4}\nname: x\nversion: y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := Load(fstest.MapFS{RulesFile: {Data: data}}, "fuzz")
		if err != nil {
			if rs != nil {
				t.Fatal("ruleset returned along with errors")
			}
			list, ok := err.(cards.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if e.Msg == "" || !strings.HasPrefix(e.Pos.File, "fuzz") || strings.Contains(e.Msg, "cannot parse YAML") {
					t.Fatalf("malformed error %q at %+v", e.Msg, e.Pos)
				}
			}
			return
		}
		if rs.HandSize < 1 || rs.HandSize > MaxCards || len(rs.Prizes) < 1 || len(rs.Prizes) > rs.HandSize ||
			rs.MinPlayers < 2 || rs.MinPlayers > rs.MaxPlayers || rs.MaxPlayers > game.MaxSeats {
			t.Fatalf("loaded an invalid ruleset %+v", rs)
		}
		for n := rs.MinPlayers; n <= rs.MaxPlayers; n++ {
			s := New(rs, n, 1)
			var buf []game.Action
			for !s.IsTerminal() {
				buf = s.LegalActions(buf)
				s.Apply(buf[len(buf)/2])
			}
			sum := 0.0
			for _, v := range s.Returns() {
				sum += v
			}
			if sum < 0.999 || sum > 1.001 {
				t.Fatalf("returns %v", s.Returns())
			}
		}
	})
}

// BenchmarkRandomGame plays default 2-player games with uniformly random
// bids from a copied start: ns/decision and allocs per game (0).
func BenchmarkRandomGame(b *testing.B) {
	rs := Default()
	base, work := New(rs, 2, 1), New(rs, 2, 1)
	rng := game.NewRNG(7)
	buf := make([]game.Action, 0, MaxCards)
	decisions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		base.Reset(uint64(i))
		base.CopyInto(work)
		for !work.IsTerminal() {
			buf = work.LegalActions(buf)
			work.Apply(buf[rng.Intn(len(buf))])
			decisions++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
}
