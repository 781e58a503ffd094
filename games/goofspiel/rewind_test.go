package goofspiel

import (
	"testing"

	"github.com/cardlab/cardlab/game"
)

// Rewind (game.Simultaneous) takes the turn back to its first bid for the
// seat to bid, whatever the hidden bids were: two games that differ only in
// seat 0's hidden bid rewind to one state, the turn's start; the first
// bidder's state, and a state after the reveal, are left as they are.
func TestRewind(t *testing.T) {
	var _ game.Simultaneous = (*State)(nil)
	rs := rules(t, small)
	start := New(rs, 3, 4)
	low, high := New(rs, 3, 4), New(rs, 3, 4)
	play(low, 1, 2)
	play(high, 3, 1)
	for _, s := range []*State{low, high} {
		s.Rewind(2)
		if *s != *start {
			t.Fatalf("rewound to %+v, want the turn's start %+v", *s, *start)
		}
	}
	first := New(rs, 3, 4)
	first.Rewind(0)
	if *first != *start {
		t.Fatal("the first bidder's state changed")
	}
	after := New(rs, 2, 4)
	play(after, 1, 2)
	before := *after
	after.Rewind(0)
	if *after != before {
		t.Fatal("a state after the reveal changed")
	}
	wrong := New(rs, 3, 4)
	play(wrong, 2)
	before = *wrong
	wrong.Rewind(2) // not the seat to bid
	if *wrong != before {
		t.Fatal("a rewind for a seat not to bid changed the state")
	}
}
