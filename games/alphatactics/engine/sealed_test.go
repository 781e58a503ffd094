package engine

import (
	"slices"
	"testing"
)

// Negotiations (O): "All cards are played face down and revealed
// simultaneously." Participation is sealed as much as the card: a later
// bidder cannot tell whether an earlier one took part — not from the hand
// counts, not from the hands it saw, not from what Determinize makes of
// the state — and the bids are shown together after the last decision.
func TestRuleNegotiationsSealed(t *testing.T) {
	var events [2][]Event
	mk := func(k int) *State {
		return build(t, Setup{Factions: []string{"starfleet", "klingon", "romulan"}, Phase: Reveal,
			Hands:    [][]string{{"sf-akira", "sf-miranda"}, {"kl-ktinga", "kl-d7"}, {"ro-scimitar"}},
			Rows:     []SetupRow{mkrow("earth", down("sf-negotiations", 0))},
			Observer: ObserverFunc(func(_ *State, e Event) { events[k] = append(events[k], e) })})
	}
	bid, pass := mk(0), mk(1)
	if bid.CurrentPlayer() != 0 || pass.CurrentPlayer() != 0 {
		t.Fatalf("first bidder %d", bid.CurrentPlayer())
	}
	apply(t, bid, HandAction(cid(t, "sf-akira")))
	apply(t, pass, DoneAction())
	// Seat 1 decides next and sees the same in both.
	if bid.CurrentPlayer() != 1 || pass.CurrentPlayer() != 1 {
		t.Fatalf("next bidder %d / %d", bid.CurrentPlayer(), pass.CurrentPlayer())
	}
	if bid.HandLen(0) != pass.HandLen(0) {
		t.Errorf("seat 0's hand holds %d cards after a bid and %d after none: participation shows", bid.HandLen(0), pass.HandLen(0))
	}
	if !slices.Equal(bid.LegalActions(nil), pass.LegalActions(nil)) {
		t.Error("seat 1's options differ with seat 0's sealed decision")
	}
	for k := 0; k < bid.HandLen(0); k++ {
		if bid.HandCard(1, 0, k) != -1 {
			t.Error("seat 1 sees seat 0's hand")
		}
	}
	for s, st := range []*State{bid, pass} {
		if err := st.CheckInvariants(); err != nil {
			t.Fatalf("state %d: %v", s, err)
		}
	}
	// Two states seat 1 cannot tell apart determinize alike.
	a, b := bid.Clone(), pass.Clone()
	ra, rb := NewRNG(7), NewRNG(7)
	a.Determinize(1, &ra)
	b.Determinize(1, &rb)
	if a.players[0].bid != b.players[0].bid || !slices.Equal(a.players[0].hand.cards(), b.players[0].hand.cards()) {
		t.Errorf("Determinize for seat 1 tells a bid (%d, hand %v) from none (%d, hand %v)",
			a.players[0].bid, a.players[0].hand.cards(), b.players[0].bid, b.players[0].hand.cards())
	}
	// Over many determinizations seat 0 sometimes bids, sometimes not.
	bids := 0
	for i := range 200 {
		c := pass.Clone()
		r := NewRNG(uint64(i))
		c.Determinize(1, &r)
		if c.players[0].bid != noInst {
			bids++
			if !slices.Contains(c.players[0].hand.cards(), c.players[0].bid) {
				t.Fatal("a determinized bid is not in its hand")
			}
		}
	}
	if bids == 0 || bids == 200 {
		t.Errorf("seat 0 bids in %d of 200 determinizations: its sealed decision is not drawn again", bids)
	}
	// No event before the reveal tells the table who took part.
	for _, st := range []*State{bid, pass} {
		apply(t, st, HandAction(cid(t, "kl-ktinga")))
		apply(t, st, DoneAction())
	}
	for k, evs := range events {
		var order []EventKind
		for _, e := range evs {
			if e.Kind == EvBid || e.Kind == EvBidRevealed {
				order = append(order, e.Kind)
			}
		}
		if want := []EventKind{EvBid, EvBid, EvBid, EvBidRevealed, EvBidRevealed, EvBidRevealed}; !slices.Equal(order[:min(6, len(order))], want) {
			t.Errorf("branch %d: bid events %v, want three sealed decisions, then three reveals", k, order)
		}
	}
	// The bids were real: 6 against 6 bid again, and without seat 0's bid
	// Klingon takes the target.
	if bid.CurrentPlayer() != 0 || bid.RowTarget(0) < 0 {
		t.Errorf("6 : 6 did not bid again: player %d target %d", bid.CurrentPlayer(), bid.RowTarget(0))
	}
	if pass.RowTarget(0) != -1 || len(pass.Won(1)) != 1 {
		t.Errorf("klingon did not take the target alone: won %v", pass.Won(1))
	}
}
