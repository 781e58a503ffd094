package goofspiel

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

// The generic suite must catch what it claims to: each broken Goofspiel
// below fails the part that checks its promise (and only a broken one
// fails; TestGames in games/all runs the real one).

type bug int

const (
	noBug        bug = iota
	badReturns       // the win does not sum to 1
	ignoreSeed       // Reset deals from a hidden counter, not the seed
	sharedClone      // Clone returns the state itself
	peekOwn          // Determinize redeals the viewer's own bid too
	forgetReveal     // Determinize redeals a card every seat saw played
	leakObs          // Observation shows the turn's hidden bids
	blindObs         // Observation says nothing
	allocApply       // Apply allocates
)

var counter uint64

var sink []byte

type bugRules struct {
	*Ruleset
	bug bug
}

func (r bugRules) NewState(seats []int, seed uint64) (game.State, error) {
	s, err := r.Ruleset.NewState(seats, seed)
	if err != nil {
		return nil, err
	}
	b := &bugState{s.(*State), r.bug}
	b.Reset(seed)
	return b, nil
}

type bugState struct {
	*State
	bug bug
}

func (s *bugState) Returns() [game.MaxSeats]float64 {
	r := s.State.Returns()
	if s.bug == badReturns && s.IsTerminal() {
		r[0] += 0.5
	}
	return r
}

func (s *bugState) Reset(seed uint64) {
	if s.bug == ignoreSeed {
		counter++
		seed ^= counter
	}
	s.State.Reset(seed)
}

func (s *bugState) Clone() game.State {
	if s.bug == sharedClone {
		return s
	}
	return &bugState{s.State.Clone().(*State), s.bug}
}

func (s *bugState) CopyInto(dst game.State) { s.State.CopyInto(dst.(*bugState).State) }

func (s *bugState) Determinize(viewer int, rng *game.RNG) {
	switch s.bug {
	case peekOwn:
		viewer = -1
	case forgetReveal:
		// Swap a card some other seat still holds with one it played.
		q := (viewer + 1) % s.n
		full := ^uint64(0) >> (64 - s.rs.HandSize)
		played := full &^ s.hand[q]
		if s.bid[q] != 0 {
			played &^= 1 << (s.bid[q] - 1)
		}
		if played != 0 && s.hand[q] != 0 {
			s.hand[q] ^= s.hand[q]&-s.hand[q] | played&-played
		}
	}
	s.State.Determinize(viewer, rng)
}

func (s *bugState) Observation(seat int, buf []byte) []byte {
	switch s.bug {
	case blindObs:
		return buf
	case leakObs:
		buf = append(buf, s.bid[:]...)
	}
	return s.State.Observation(seat, buf)
}

func (s *bugState) Apply(a game.Action) {
	if s.bug == allocApply {
		sink = make([]byte, 16)
	}
	s.State.Apply(a)
}

// recorder is a testing.TB whose Fatal stops the part under test and
// records the message, so a test can expect a failure.
type recorder struct {
	testing.TB
	msg string
}

var errStop = errors.New("stopped")

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(errStop)
}
func (r *recorder) Fatal(args ...any)                 { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.Fatalf(format, args...) }
func (r *recorder) Logf(string, ...any)               {}

// failure runs part with a recorder and returns its failure message ("" when
// it passed).
func failure(t *testing.T, part func(testing.TB)) (msg string) {
	r := &recorder{TB: t}
	defer func() {
		if v := recover(); v != nil && v != errStop {
			panic(v)
		}
		msg = r.msg
	}()
	part(r)
	return ""
}

func TestSuiteCatchesBrokenGames(t *testing.T) {
	parts := map[string]func(testing.TB, game.Ruleset){
		"RandomGames": gametest.RandomGames, "Determinism": gametest.Determinism,
		"CloneIndependence": gametest.CloneIndependence, "Determinize": gametest.Determinize,
		"ZeroAllocs": gametest.ZeroAllocs,
	}
	for _, tc := range []struct {
		bug        bug
		part, want string
	}{
		{noBug, "", ""},
		{badReturns, "RandomGames", "sum to 1.5, not 1"},
		{ignoreSeed, "Determinism", "two games from one seed differ"},
		{sharedClone, "CloneIndependence", "play on differently"},
		{peekOwn, "Determinize", "changed what seat"},
		{forgetReveal, "Determinize", "changed what seat"},
		{leakObs, "Determinize", "changed what seat"},
		{blindObs, "Determinize", "observations never changed"},
		{allocApply, "ZeroAllocs", "allocations per random game"},
	} {
		rs := bugRules{Default(), tc.bug}
		for name, part := range parts {
			msg := failure(t, func(tb testing.TB) { part(tb, rs) })
			// Other parts may fail on a bug too (every part plays games
			// through Play's checks); the sound game fails none.
			switch {
			case name == tc.part && !strings.Contains(msg, tc.want):
				t.Errorf("bug %d: %s gave %q, want a failure with %q", tc.bug, name, msg, tc.want)
			case tc.bug == noBug && msg != "":
				t.Errorf("the sound game fails %s: %s", name, msg)
			}
		}
	}
}
