package engine

import (
	"testing"
)

// One test per item of the rulebook's "Details on Special Card Effects" and
// per general rule; docs/rules.md names them. Seat 0 is Starfleet, seat 1
// Klingon.

func revealSetup(t *testing.T, rows ...SetupRow) *State {
	t.Helper()
	return build(t, Setup{Phase: Reveal, PauseBeforeScoring: true, Rows: rows})
}

func mkrow(target string, cs ...SetupCard) SetupRow { return SetupRow{Target: target, Cards: cs} }

// Admiral (S): five player cards in the row including the Admiral → 20.
func TestRuleAdmiral(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("sf-admiral", 0), up("kl-d7", 1), up("kl-d7", 1), up("sf-miranda", 0), up("sf-miranda", 0)))
	res := score(s, 0)
	if res.Power[0] != 20+3+3 || res.Power[1] != 8 || res.Winner != 0 {
		t.Fatalf("power %v winner %d, want [26 8] 0", res.Power, res.Winner)
	}
}

// Armada (S): power equals the strongest opponent's total.
func TestRuleArmada(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("kl-ktinga", 1), up("kl-kvort", 1), up("sf-armada", 0)))
	res := score(s, 0)
	if res.Power[0] != 11 || res.Power[1] != 11 || res.Winner != 1 || res.Reason != ReasonTieTop {
		t.Fatalf("got %+v", res)
	}
}

// Armada (S) special case: an opponent's Deflector steals its power; the
// Armada then has 0 itself, resulting in a tie.
func TestRuleArmadaStolen(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("sf-armada", 0), up("kl-deflector-shield", 1)))
	res := score(s, 0)
	if res.Power[0] != 0 || res.Power[1] != 0 || res.Reason != ReasonTieTop || res.Winner != 0 {
		t.Fatalf("got %+v", res)
	}
}

// Blockade (P): the card beneath is revealed only in the Reveal Phase, and
// the row need not reach four cards for the Deployment Phase to end.
func TestRuleBlockade(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-miranda", "sf-akira"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", down("kl-blockade", 1)),
		mkrow("wolf-359", up("kl-ktinga", 1), up("kl-hegh-ta", 1), up("kl-chtang", 1)),
	}})
	apply(t, s, PlaceAction(cid(t, "sf-miranda"), 0))
	if got := rowIDs(s, 0); got != "kl-blockade sf-miranda?" {
		t.Fatalf("row 0 = %s", got)
	}
	for _, a := range legal(s) {
		if a.Kind() == ActPlace && a.Row() == 0 {
			t.Fatalf("placement into a blockaded row is legal: %v", a)
		}
	}
	if s.Phase() != Deployment {
		t.Fatal("deployment ended early")
	}
	// Row 2 reaches four cards: the blockaded row counts as complete.
	apply(t, s, PlaceAction(cid(t, "kl-d7"), 1))
	if s.Phase() != Scoring {
		t.Fatalf("the Deployment Phase did not end with a blockaded row of two cards: phase %v", s.Phase())
	}
	if !s.Slot(Omniscient, 0, 1).FaceUp {
		t.Fatal("card beneath the Blockade not revealed in the Reveal Phase")
	}
}

// Deflector (S): steals only the base power of the card above; that card's
// scoring effects still count for its owner.
func TestRuleDeflector(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("kl-warriors", 1), up("kl-kronos-one", 1), up("sf-deflector", 0)))
	res := score(s, 0)
	// Kronos One: base 3 stolen; its +1 per other own Troops (the Warriors) stays.
	if res.Power[0] != 3 || res.Power[1] != 3+1 {
		t.Fatalf("power %v, want [3 4]", res.Power)
	}
}

// Blocker ship (P): cards placed under it are played face up and without
// effect; cards already under it are deactivated.
func TestRuleBlockerShipPlacement(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-miranda"}, {"kl-rotarran"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", down("sf-delta-flyer", 0)),
	}})
	apply(t, s, PlaceAction(cid(t, "kl-rotarran"), 0)) // reveals the Delta Flyer
	if !s.Slot(Omniscient, 0, 0).Active {
		t.Fatal("Delta Flyer not active")
	}
	log := &eventLog{}
	s.SetObserver(log)
	apply(t, s, PlaceAction(cid(t, "sf-miranda"), 0))
	if got := rowIDs(s, 0); got != "sf-delta-flyer kl-rotarran sf-miranda" {
		t.Fatalf("row = %s", got)
	}
	if b := log.kinds(EvBlocked); len(b) != 1 || b[0].Reason != ReasonUnderBlocker {
		t.Fatalf("Rotarran's one-time effect not blocked: %+v", b)
	}
	if s.Slot(Omniscient, 0, 0).Weakened != 0 {
		t.Fatal("Rotarran weakened the Delta Flyer")
	}
}

// Blocker ship (P): if it is removed, blocked permanent and scoring effects
// become active again.
func TestRuleBlockerShipRemoved(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-miranda"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("wolf-359", up("kl-bird-of-prey", 1), up("sf-admiral", 0), up("sf-akira", 0)),
		mkrow("earth", down("sf-prometheus", 0)),
	}})
	if res := score(s, 0); res.Power[0] != 6 {
		t.Fatalf("blocked Admiral counted: %v", res.Power)
	}
	apply(t, s, PlaceAction(cid(t, "sf-miranda"), 1)) // reveals Prometheus
	if s.CurrentPlayer() != 0 {
		t.Fatal("strike ship choice not with its owner")
	}
	apply(t, s, SlotAction(0, 0)) // remove the Bird of Prey
	if res := score(s, 0); res.Power[0] != 5+6 {
		t.Fatalf("Admiral not active again: %v", res.Power)
	}
}

// Blocker ship (P): moved to another row, its effect stays active there.
func TestRuleBlockerShipMoved(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-miranda", "sf-akira"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("wolf-359", up("kl-bird-of-prey", 1)),
		mkrow("earth", down("kl-distress-signal", 1)),
	}})
	apply(t, s, PlaceAction(cid(t, "sf-miranda"), 1)) // reveals Distress Signal
	if s.CurrentPlayer() != 1 {
		t.Fatalf("distress signal decided by %d", s.CurrentPlayer())
	}
	apply(t, s, SlotAction(0, 0))
	if got := rowIDs(s, 1); got != "kl-distress-signal sf-miranda? kl-bird-of-prey" {
		t.Fatalf("row = %s", got)
	}
	apply(t, s, PlaceAction(cid(t, "kl-d7"), 0)) // Klingon's turn
	apply(t, s, PlaceAction(cid(t, "sf-akira"), 1))
	if in := s.Slot(Omniscient, 1, 3); !in.FaceUp || in.Active {
		t.Fatalf("card under the moved Bird of Prey: %+v", in)
	}
}

// Distress Signal (O): one-time effects of ships placed or moved this way
// are not executed.
func TestRuleDistressSignal(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-miranda"}, {"kl-rotarran", "kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", down("kl-distress-signal", 1)),
	}})
	apply(t, s, PlaceAction(cid(t, "sf-miranda"), 0))
	ls := legal(s)
	if !has(ls, HandAction(cid(t, "kl-rotarran"))) || !has(ls, DoneAction()) {
		t.Fatalf("options %v", ls)
	}
	apply(t, s, HandAction(cid(t, "kl-rotarran")))
	if got := rowIDs(s, 0); got != "kl-distress-signal sf-miranda kl-rotarran" {
		t.Fatalf("row = %s", got)
	}
	if s.Slot(Omniscient, 0, 1).Weakened != 0 {
		t.Fatal("Rotarran's one-time effect ran")
	}
}

// EMP (O): not optional; if only one of your own weapons is there, it goes.
func TestRuleWeaponPurgeOwnWeapon(t *testing.T) {
	s := revealSetup(t, mkrow("earth", up("sf-phaser-array", 0), down("sf-emp", 0)))
	if got := rowIDs(s, 0); got != "sf-emp" {
		t.Fatalf("row = %s", got)
	}
}

// EMP (O): the owner of the EMP chooses which weapon is removed.
func TestRuleWeaponPurgeOwnerChooses(t *testing.T) {
	s := revealSetup(t, mkrow("earth", up("kl-disruptor-cannon", 1), up("sf-phaser-array", 0), down("sf-emp", 0)))
	ls := legal(s)
	if s.CurrentPlayer() != 0 || len(ls) != 2 || has(ls, DoneAction()) {
		t.Fatalf("player %d options %v", s.CurrentPlayer(), ls)
	}
	apply(t, s, SlotAction(0, 0))
	if got := rowIDs(s, 0); got != "sf-phaser-array sf-emp" {
		t.Fatalf("row = %s", got)
	}
}

// Galaxy (S): with your Diplomat in the row you win regardless of power.
func TestRuleDiplomatCombo(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("kl-ktinga", 1), up("kl-kvort", 1), up("sf-galaxy", 0), up("sf-ambassador", 0)))
	if res := score(s, 0); res.Winner != 0 || res.Reason != ReasonCombo {
		t.Fatalf("got %+v", res)
	}
}

// Galaxy (S): two combinations in one row tie; the topmost card decides.
func TestRuleDiplomatComboTie(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("sf-galaxy", 0), up("kl-vorcha", 1), up("kl-ambassador", 1), up("sf-ambassador", 0)))
	if res := score(s, 0); res.Winner != 0 || res.Reason != ReasonComboTie {
		t.Fatalf("got %+v", res)
	}
}

// Galaxy (S): if the Diplomat is without effect or blocked, the Galaxy
// still wins together with it.
func TestRuleDiplomatBlocked(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("kl-ktinga", 1), up("sf-galaxy", 0), up("kl-bird-of-prey", 1), up("sf-ambassador", 0)))
	if in := s.Slot(Omniscient, 0, 3); in.Active {
		t.Fatal("Ambassador not blocked")
	}
	if res := score(s, 0); res.Winner != 0 || res.Reason != ReasonCombo {
		t.Fatalf("got %+v", res)
	}
}

// Gravitational Wave (X): insert a card anywhere; a shielded card cannot be
// displaced, so positions above it are not legal.
func TestRuleGravitationalWave(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-gravitational-wave", "sf-akira"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1), up("kl-kvort", 1)),
		mkrow("wolf-359", up("kl-hegh-ta", 1), shielded("kl-chtang", 1)),
	}})
	apply(t, s, WaveAction(cid(t, "sf-gravitational-wave")))
	ls := legal(s)
	akira := cid(t, "sf-akira")
	for _, want := range []Action{PlaceAtAction(akira, 0, 0), PlaceAtAction(akira, 0, 1), PlaceAtAction(akira, 0, 2), PlaceAtAction(akira, 1, 2)} {
		if !has(ls, want) {
			t.Fatalf("missing %v in %v", want, ls)
		}
	}
	if has(ls, PlaceAtAction(akira, 1, 0)) || has(ls, PlaceAtAction(akira, 1, 1)) {
		t.Fatalf("insertion would displace a shielded card: %v", ls)
	}
	apply(t, s, PlaceAtAction(akira, 0, 1))
	if got := rowIDs(s, 0); got != "kl-ktinga sf-akira? kl-kvort" {
		t.Fatalf("row = %s", got)
	}
	if s.DiscardLen(0) != 1 || s.DiscardCard(0, 0) != cid(t, "sf-gravitational-wave") {
		t.Fatal("wave not on the discard pile")
	}
}

// Intrepid (X): played face up with immediate effect; the card above is
// revealed without effect; if the scout leaves, the blocked effects return.
func TestRuleScout(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-intrepid"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1), down("kl-warriors", 1)),
		mkrow("wolf-359", down("kl-tygokor", 1)),
	}})
	log := &eventLog{}
	s.SetObserver(log)
	apply(t, s, PlaceAction(cid(t, "sf-intrepid"), 0))
	in := s.Slot(Omniscient, 0, 1)
	if !in.FaceUp || in.Active || in.Blocked != ReasonScout || len(log.kinds(EvFired)) != 0 {
		t.Fatalf("warriors after scout: %+v", in)
	}
	if !s.Slot(Omniscient, 0, 2).FaceUp {
		t.Fatal("scout not face up")
	}
	apply(t, s, PlaceAction(cid(t, "kl-d7"), 1)) // reveals Ty'Gokor
	apply(t, s, SlotAction(0, 2))                // strikes the Intrepid
	if !s.Slot(Omniscient, 0, 1).Active {
		t.Fatal("warriors' permanent effect not back after the scout left")
	}
}

// Intrepid (X): moved under a face-down card, that card is revealed without
// effect too.
func TestRuleScoutMoved(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira"}, {"kl-rotarran"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", down("sf-distress-signal", 0)),
		mkrow("wolf-359", up("sf-intrepid", 0)),
	}})
	apply(t, s, PlaceAction(cid(t, "kl-rotarran"), 0)) // reveals Distress Signal
	apply(t, s, SlotAction(1, 0))                      // move the Intrepid under the Rotarran
	in := s.Slot(Omniscient, 0, 1)
	if !in.FaceUp || in.Blocked != ReasonScout {
		t.Fatalf("Rotarran: %+v (row %s)", in, rowIDs(s, 0))
	}
}

// Negotiations (O): sealed bids; only base power counts; ties bid again;
// the winner takes the target at once; bidders draw back up.
func TestRuleNegotiations(t *testing.T) {
	s := build(t, Setup{Phase: Reveal, PauseBeforeScoring: true,
		Hands: [][]string{{"sf-akira", "sf-miranda"}, {"kl-ktinga", "kl-d7"}},
		Rows:  []SetupRow{mkrow("earth", down("sf-negotiations", 0))}})
	if s.CurrentPlayer() != 0 {
		t.Fatalf("first bidder %d", s.CurrentPlayer())
	}
	apply(t, s, HandAction(cid(t, "sf-akira")))
	if s.HandCard(1, 0, 0) != -1 && s.players[0].bid != noInst && s.HandLen(0) == 1 {
		t.Fatal("bid not sealed")
	}
	apply(t, s, HandAction(cid(t, "kl-ktinga"))) // 6 : 6, both bid again
	if s.CurrentPlayer() != 0 || s.RowTarget(0) < 0 {
		t.Fatalf("no re-bid: player %d target %d", s.CurrentPlayer(), s.RowTarget(0))
	}
	apply(t, s, HandAction(cid(t, "sf-miranda")))
	apply(t, s, HandAction(cid(t, "kl-d7")))
	if s.RowTarget(0) != -1 || len(s.Won(1)) != 1 {
		t.Fatalf("klingon did not take the target: won %v", s.Won(1))
	}
	if s.HandLen(0) != 4 || s.HandLen(1) != 4 {
		t.Fatalf("bidders did not draw back up: %d %d", s.HandLen(0), s.HandLen(1))
	}
}

// Negotiations (O): participation is optional.
func TestRuleNegotiationsOptional(t *testing.T) {
	s := build(t, Setup{Phase: Reveal, PauseBeforeScoring: true,
		Rows: []SetupRow{mkrow("earth", down("sf-negotiations", 0))}})
	apply(t, s, DoneAction())
	apply(t, s, DoneAction())
	if s.RowTarget(0) < 0 || s.Phase() != Scoring {
		t.Fatal("target taken without bids")
	}
}

// Prometheus (O): face-down and face-up cards can be chosen.
func TestRuleStrikeShip(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira"}, {"kl-kvort"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", down("kl-d7", 1)),
		mkrow("wolf-359", down("sf-prometheus", 0)),
	}})
	apply(t, s, PlaceAction(cid(t, "kl-kvort"), 1))
	ls := legal(s)
	if !has(ls, SlotAction(0, 0)) || !has(ls, SlotAction(1, 1)) || has(ls, SlotAction(1, 0)) || !has(ls, DoneAction()) {
		t.Fatalf("options %v", ls)
	}
	apply(t, s, SlotAction(0, 0))
	if s.RowLen(0) != 0 || s.DiscardLen(1) != 1 {
		t.Fatal("face-down card not removed to its owner's discard pile")
	}
}

// S31 Spy (O): all players draw back up to four before showing their hands.
func TestRuleSpy(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira"}, {"kl-kvort", "kl-d7"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", down("sf-s31-spy", 0)),
	}})
	apply(t, s, PlaceAction(cid(t, "kl-kvort"), 0))
	if s.HandLen(0) != 4 || s.HandLen(1) != 4 {
		t.Fatalf("hands %d %d", s.HandLen(0), s.HandLen(1))
	}
	for k := 0; k < s.HandLen(1); k++ {
		if s.HandCard(0, 1, k) < 0 {
			t.Fatal("spy did not see the opponent's hand")
		}
	}
	if s.HandCard(1, 0, 0) >= 0 {
		t.Fatal("the opponent saw the spy owner's hand")
	}
	// Once the opponent plays, the knowledge is stale.
	apply(t, s, PassAction())
	apply(t, s, DoneAction())
	apply(t, s, PlaceAction(s.HandCard(Omniscient, 1, 0), 0))
	if s.HandCard(0, 1, 0) >= 0 {
		t.Fatal("spy knowledge survived a change of hand")
	}
}

// Sovereign (O): the drawn card is played face down into any row as in a
// normal turn and reveals the card above. It is played: the owner picks the
// row but cannot decline and keep the card (no free draw).
func TestRuleFlagship(t *testing.T) {
	all := deckIDs(t, "starfleet", "sf-sovereign", "sf-akira")
	s := build(t, Setup{Hands: [][]string{all, {"kl-kvort"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", down("sf-sovereign", 0)),
		mkrow("wolf-359", down("kl-d7", 1)),
	}})
	n := s.HandLen(0)
	apply(t, s, PlaceAction(cid(t, "kl-kvort"), 0))
	ls := legal(s)
	if s.CurrentPlayer() != 0 || len(ls) != 2 || !has(ls, RowAction(0)) || !has(ls, RowAction(1)) {
		t.Fatalf("player %d options %v, want the two rows and no decline", s.CurrentPlayer(), ls)
	}
	apply(t, s, RowAction(1))
	if got := rowIDs(s, 1); got != "kl-d7 sf-akira?" {
		t.Fatalf("row = %s", got)
	}
	if !s.Slot(Omniscient, 1, 0).FaceUp {
		t.Fatal("the card above the Flagship's card was not revealed")
	}
	if s.HandLen(0) != n {
		t.Fatalf("hand %d after the Flagship, want %d: the drawn card must leave it", s.HandLen(0), n)
	}
}

// Sovereign (O): with no row open nothing could be played, so nothing is
// drawn either — the effect is never a free draw.
func TestRuleFlagshipNoRow(t *testing.T) {
	log := &eventLog{}
	build(t, Setup{Phase: Reveal, Observer: log, Rows: []SetupRow{
		mkrow("earth", up("kl-blockade", 1), down("sf-sovereign", 0)),
	}})
	if d := log.kinds(EvDrawn); len(d) != 0 {
		t.Fatalf("the Flagship drew with no row open: %+v", d)
	}
	if f := log.kinds(EvFizzled); len(f) != 1 || int(f[0].Card) != cid(t, "sf-sovereign") {
		t.Fatalf("fizzles %+v", f)
	}
}

// Sovereign (O): Transphasic Shields drawn this way cannot be played.
func TestRuleFlagshipShield(t *testing.T) {
	all := deckIDs(t, "starfleet", "sf-sovereign", "sf-transphasic-shields")
	s := build(t, Setup{Hands: [][]string{all, {"kl-kvort"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", down("sf-sovereign", 0)),
	}})
	n := s.HandLen(0)
	apply(t, s, PlaceAction(cid(t, "kl-kvort"), 0))
	if s.CurrentPlayer() != 0 || s.nframes != 0 || s.HandLen(0) != n+1 {
		t.Fatalf("shield not kept in hand: frames %d hand %d", s.nframes, s.HandLen(0))
	}
}

// deckIDs lists a faction's cards (copies repeated) except the named ones,
// so that a test can leave exactly those in the draw pile.
func deckIDs(t *testing.T, faction string, except ...string) []string {
	rs := buildRS()
	f, _ := rs.FactionByID(faction)
	skip := map[string]int{}
	for _, e := range except {
		skip[e]++
	}
	var out []string
	for _, d := range f.Deck {
		c := rs.Cards[d]
		for k := 0; k < c.Copies; k++ {
			if skip[c.ID] > 0 {
				skip[c.ID]--
				continue
			}
			out = append(out, c.ID)
		}
	}
	return out
}

// Space Mines (O): not optional — the nearest ship above goes, even your own.
func TestRuleSpaceMines(t *testing.T) {
	s := revealSetup(t, mkrow("earth", up("kl-ktinga", 1), up("sf-akira", 0), up("sf-phaser-array", 0), down("sf-space-mines", 0)))
	if got := rowIDs(s, 0); got != "kl-ktinga sf-phaser-array sf-space-mines" {
		t.Fatalf("row = %s", got)
	}
}

// Subspace Bomb (O): face-down and revealed cards are removed; the bomb
// itself stays.
func TestRuleBomb(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira"}, {"kl-hegh-ta"}}, Turn: 1, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1), up("kl-d7", 1), down("kl-kvort", 1), down("sf-subspace-bomb", 0)),
	}})
	apply(t, s, PlaceAction(cid(t, "kl-hegh-ta"), 0))
	if got := rowIDs(s, 0); got != "kl-ktinga sf-subspace-bomb kl-hegh-ta" {
		t.Fatalf("row = %s", got)
	}
}

// Teleport (X): placed at any position, cards shift down; a shielded card
// cannot be shifted.
func TestRuleTeleport(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-teleport"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1), shielded("kl-kvort", 1)),
		mkrow("wolf-359", up("kl-hegh-ta", 1), down("kl-chtang", 1)),
	}})
	tp := cid(t, "sf-teleport")
	ls := legal(s)
	if has(ls, PlaceAtAction(tp, 0, 0)) || has(ls, PlaceAtAction(tp, 0, 1)) || !has(ls, PlaceAction(tp, 0)) {
		t.Fatalf("teleport may displace a shielded card: %v", ls)
	}
	if !has(ls, PlaceAtAction(tp, 1, 0)) || !has(ls, PlaceAtAction(tp, 1, 1)) {
		t.Fatalf("teleport positions missing: %v", ls)
	}
	apply(t, s, PlaceAtAction(tp, 1, 1))
	if got := rowIDs(s, 1); got != "kl-hegh-ta sf-teleport? kl-chtang?" {
		t.Fatalf("row = %s", got)
	}
}

// Transphasic Shields (X): a two-card turn; the protected card is
// untouchable in the Deployment Phase; the shield comes off at the start of
// the Reveal Phase.
func TestRuleShield(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-transphasic-shields", "sf-akira"}, {"kl-kvort", "kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1)),
		mkrow("wolf-359", down("kl-tygokor", 1)),
	}})
	apply(t, s, ShieldAction(cid(t, "sf-transphasic-shields")))
	if s.CurrentPlayer() != 0 {
		t.Fatal("shield turn incomplete")
	}
	apply(t, s, PlaceAction(cid(t, "sf-akira"), 0))
	if in := s.Slot(Omniscient, 0, 1); !in.Shielded || in.FaceUp {
		t.Fatalf("akira: %+v", in)
	}
	apply(t, s, PlaceAction(cid(t, "kl-kvort"), 1)) // reveals Ty'Gokor
	if has(legal(s), SlotAction(0, 1)) {
		t.Fatal("a shielded card can be struck")
	}
	apply(t, s, DoneAction())
	// Placing under the shielded card does not reveal it.
	apply(t, s, PassAction())
	apply(t, s, DoneAction())
	apply(t, s, PlaceAction(cid(t, "kl-d7"), 0))
	if s.Slot(Omniscient, 0, 1).FaceUp {
		t.Fatal("shielded card revealed")
	}
	st := s.Clone()
	st.startReveal()
	if st.Slot(Omniscient, 0, 1).Shielded || st.DiscardLen(0) == 0 {
		t.Fatal("shield not removed at the start of the Reveal Phase")
	}
}

// General rule: ties go to the tied player whose card lies highest.
func TestRuleTieTopCard(t *testing.T) {
	s := revealSetup(t, mkrow("wolf-359", up("sf-miranda", 0), up("kl-d7", 1), up("sf-phaser-array", 0), up("kl-hegh-ta", 1)))
	if res := score(s, 0); res.Power[0] != 8 || res.Power[1] != 8 || res.Winner != 0 || res.Reason != ReasonTieTop {
		t.Fatalf("got %+v", res)
	}
}

// General rule: the Deployment Phase is over even if the card that ended it
// is removed at once.
func TestRuleDeploymentEndsEvenIfRemoved(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1), up("kl-d7", 1), up("kl-hegh-ta", 1), down("kl-tygokor", 1)),
	}})
	apply(t, s, PlaceAction(cid(t, "sf-akira"), 0)) // 5 cards: phase over; reveals Ty'Gokor
	apply(t, s, SlotAction(0, 4))                   // Klingon strikes the Akira
	if s.Phase() == Deployment {
		t.Fatal("Deployment Phase resumed after the triggering card was removed")
	}
}

// General rule: placing a card reveals the card above it and runs its
// effect; after playing, the player draws back up to four.
func TestRulePlacementRevealsAndRefills(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira", "sf-miranda"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth", up("kl-ktinga", 1), down("kl-rotarran", 1)),
	}})
	apply(t, s, PlaceAction(cid(t, "sf-akira"), 0))
	if !s.Slot(Omniscient, 0, 1).FaceUp || s.Slot(Omniscient, 0, 0).Weakened != 2 {
		t.Fatal("Rotarran not revealed with its effect")
	}
	if s.HandLen(0) != 4 {
		t.Fatalf("hand %d after playing, want 4", s.HandLen(0))
	}
}

// General rule: the Reveal Phase goes through the rows left to right and
// each row top to bottom.
func TestRuleRevealOrder(t *testing.T) {
	log := &eventLog{}
	build(t, Setup{Phase: Reveal, PauseBeforeScoring: true, Observer: log, Rows: []SetupRow{
		mkrow("earth", down("sf-akira", 0), down("kl-d7", 1)),
		mkrow("wolf-359", down("kl-ktinga", 1), down("sf-miranda", 0)),
	}})
	var got [][2]int8
	for _, e := range log.kinds(EvRevealed) {
		got = append(got, [2]int8{e.Row, e.Pos})
	}
	want := [][2]int8{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	if len(got) != len(want) {
		t.Fatalf("revealed %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("reveal order %v, want %v", got, want)
		}
	}
}

// General rule: Starfleet begins round 1 if playing.
func TestRuleStarfleetStarts(t *testing.T) {
	s, err := New(buildRS(), Config{Factions: []string{"klingon", "vulcan", "starfleet"}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.CurrentPlayer() != 2 {
		t.Fatalf("round 1 starts with seat %d", s.CurrentPlayer())
	}
}

// General rule: the next round starts with the player after the one who
// ended the last; cards on the table go to their owners' discard piles and
// hands are kept.
func TestRuleNextRoundStarter(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		ender, checked := -1, false
		var handBefore [4]int
		obs := ObserverFunc(func(s *State, e Event) {
			switch e.Kind {
			case EvDeploymentEnd:
				ender = int(e.Player)
			case EvRoundEnd:
				for p := 0; p < s.NumPlayers(); p++ {
					handBefore[p] = s.HandLen(p)
				}
			case EvRoundStart:
				if ender >= 0 {
					if int(e.Player) != (ender+1)%s.NumPlayers() {
						t.Fatalf("seed %d: round started by %d after %d ended", seed, e.Player, ender)
					}
					for p := 0; p < s.NumPlayers(); p++ {
						if s.HandLen(p) != handBefore[p] {
							t.Fatalf("hand of %d changed between rounds", p)
						}
					}
					checked = true
				}
			}
		})
		playRandom(t, buildRS(), allFactions[:3], seed, false, obs)
		if !checked {
			t.Fatal("no round transition seen")
		}
	}
}

// General rule: the Deployment Phase ends at the first moment every row is
// complete, whatever completed it — the placement, the reveal it causes, or
// an effect that removes or moves a card — and the player whose turn it was
// ended it, so the next round starts with the player after them.
func TestRuleDeploymentEndAfterAnyChange(t *testing.T) {
	full := mkrow("wolf-359", up("kl-ktinga", 1), up("kl-hegh-ta", 1), up("kl-chtang", 1))
	tests := []struct {
		name    string
		rows    []SetupRow
		hands   [][]string
		actions func(t *testing.T) []Action
	}{
		{
			// The placement leaves two cards in row 1; the Blockade it
			// reveals makes the row complete.
			name:  "reveal of a Blockade",
			rows:  []SetupRow{mkrow("earth", down("kl-blockade", 1)), mkrow("wolf-359", up("kl-ktinga", 1), up("kl-hegh-ta", 1), up("kl-chtang", 1), up("kl-kvort", 1))},
			hands: [][]string{{"sf-akira"}, {"kl-d7"}},
			actions: func(t *testing.T) []Action {
				return []Action{PlaceAction(cid(t, "sf-akira"), 0)}
			},
		},
		{
			// The strike ship the placement reveals removes the blocker
			// ship that silenced the Blockade.
			name:  "strike ship removes a blocker ship",
			rows:  []SetupRow{mkrow("earth", up("sf-delta-flyer", 0), up("kl-blockade", 1)), mkrow("wolf-359", up("kl-ktinga", 1), up("kl-hegh-ta", 1), up("kl-chtang", 1), down("kl-tygokor", 1))},
			hands: [][]string{{"sf-akira"}, {"kl-d7"}},
			actions: func(t *testing.T) []Action {
				return []Action{PlaceAction(cid(t, "sf-akira"), 1), SlotAction(0, 0)}
			},
		},
		{
			// Distress Signal moves the blocker ship away from the Blockade.
			name:  "Distress Signal moves a blocker ship",
			rows:  []SetupRow{mkrow("earth", up("kl-bird-of-prey", 1), up("kl-blockade", 1)), mkrow("wolf-359", up("kl-ktinga", 1), up("kl-hegh-ta", 1), up("kl-chtang", 1), down("kl-distress-signal", 1))},
			hands: [][]string{{"sf-akira"}, {"kl-d7"}},
			actions: func(t *testing.T) []Action {
				return []Action{PlaceAction(cid(t, "sf-akira"), 1), SlotAction(0, 0)}
			},
		},
		{
			// The Flagship's card completes the last row.
			name:  "Flagship plays the fourth card",
			rows:  []SetupRow{mkrow("earth", up("kl-warriors", 1), up("kl-general", 1), down("sf-sovereign", 0)), full},
			hands: [][]string{deckIDs(t, "starfleet", "sf-sovereign", "sf-akira"), {"kl-d7"}},
			actions: func(t *testing.T) []Action {
				return []Action{PlaceAction(cid(t, "sf-miranda"), 0), RowAction(1)}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &eventLog{}
			s := build(t, Setup{Hands: tt.hands, Rows: tt.rows, Observer: log})
			for _, a := range tt.actions(t) {
				apply(t, s, a)
			}
			if s.Phase() != Scoring {
				t.Fatalf("phase %v, player %d to act: the Deployment Phase went on (rows: %q / %q)", s.Phase(), s.CurrentPlayer(), rowIDs(s, 0), rowIDs(s, 1))
			}
			if e := log.kinds(EvDeploymentEnd); len(e) != 1 || e[0].Player != 0 {
				t.Fatalf("deployment end events %+v, want one by seat 0", e)
			}
			s.ResumeScoring()
			if s.Phase() == Deployment && s.CurrentPlayer() != 1 {
				t.Fatalf("next round begins with seat %d, want 1", s.CurrentPlayer())
			}
		})
	}
}

// Intrepid (X): by every route a scout is played face up and the card above
// it is revealed without effect — its own special effect, which Distress
// Signal ("one-time effects of placed or moved ships are not executed"),
// Gravitational Wave and the Flagship's placement leave in force.
func TestRuleScoutAnyRoute(t *testing.T) {
	tests := []struct {
		name    string
		su      Setup
		actions func(t *testing.T) []Action
		row     int // the scout's row; the Rotarran lies directly above it
	}{
		{
			name: "Distress Signal from hand",
			su: Setup{Turn: 1, Hands: [][]string{{"sf-intrepid"}, {"kl-rotarran"}}, Rows: []SetupRow{
				mkrow("earth", down("sf-distress-signal", 0)),
			}},
			actions: func(t *testing.T) []Action {
				return []Action{PlaceAction(cid(t, "kl-rotarran"), 0), HandAction(cid(t, "sf-intrepid"))}
			},
		},
		{
			name: "Gravitational Wave",
			su: Setup{Hands: [][]string{{"sf-gravitational-wave", "sf-intrepid"}, {"kl-d7"}}, Rows: []SetupRow{
				mkrow("earth", up("kl-ktinga", 1), down("kl-rotarran", 1)),
			}},
			actions: func(t *testing.T) []Action {
				return []Action{WaveAction(cid(t, "sf-gravitational-wave")), PlaceAtAction(cid(t, "sf-intrepid"), 0, 2)}
			},
		},
		{
			name: "Flagship",
			su: Setup{Turn: 1, Hands: [][]string{deckIDs(t, "starfleet", "sf-sovereign", "sf-intrepid"), {"kl-kvort"}}, Rows: []SetupRow{
				mkrow("earth", down("sf-sovereign", 0)),
				mkrow("wolf-359", up("kl-ktinga", 1), down("kl-rotarran", 1)),
			}},
			actions: func(t *testing.T) []Action {
				return []Action{PlaceAction(cid(t, "kl-kvort"), 0), RowAction(1)}
			},
			row: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &eventLog{}
			tt.su.Observer = log
			s := build(t, tt.su)
			for _, a := range tt.actions(t) {
				apply(t, s, a)
			}
			n := s.RowLen(tt.row)
			scout, above := s.Slot(Omniscient, tt.row, n-1), s.Slot(Omniscient, tt.row, n-2)
			if scout.Card != cid(t, "sf-intrepid") || !scout.FaceUp {
				t.Fatalf("row %s: the scout is not face up at the bottom", rowIDs(s, tt.row))
			}
			if !above.FaceUp || above.Blocked != ReasonScout {
				t.Fatalf("card above the scout: %+v", above)
			}
			for _, e := range log.kinds(EvFired) {
				if int(e.Card) == cid(t, "kl-rotarran") {
					t.Fatal("the Rotarran's one-time effect ran")
				}
			}
			if w := s.Slot(Omniscient, tt.row, n-3).Weakened; w != 0 {
				t.Fatalf("the card above the Rotarran was weakened by %d", w)
			}
		})
	}
}

// Gravitational Wave (X) and Transphasic Shields (X): the Wave never inserts
// a shield as a card of its own — a shield is only ever played "on top of"
// the card it protects — and with nothing else to insert the Wave is not
// playable as a Wave.
func TestRuleGravitationalWaveNoShield(t *testing.T) {
	wave, shields, akira := cid(t, "sf-gravitational-wave"), cid(t, "sf-transphasic-shields"), cid(t, "sf-akira")
	rows := []SetupRow{mkrow("earth", up("kl-ktinga", 1), up("kl-kvort", 1))}
	s := build(t, Setup{Hands: [][]string{{"sf-gravitational-wave", "sf-transphasic-shields", "sf-akira"}, {"kl-d7"}}, Rows: rows})
	apply(t, s, WaveAction(wave))
	ls := legal(s)
	for _, a := range ls {
		if a.Card() == shields {
			t.Fatalf("the Wave may insert the shield: %v", a)
		}
	}
	if !has(ls, PlaceAtAction(akira, 0, 1)) {
		t.Fatalf("the Wave may not insert the Akira: %v", ls)
	}

	s = build(t, Setup{Hands: [][]string{{"sf-gravitational-wave", "sf-transphasic-shields"}, {"kl-d7"}}, Rows: rows})
	if ls := legal(s); has(ls, WaveAction(wave)) {
		t.Fatalf("a Wave with only a shield beside it is playable as a Wave: %v", ls)
	}
}
