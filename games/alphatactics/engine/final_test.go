package engine

import (
	"testing"
)

// endWith ends a game with the given targets held per seat.
func endWith(t *testing.T, factions []string, held [][]string) *State {
	t.Helper()
	rs := buildRS()
	s, err := New(rs, Config{Factions: factions, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for p, ids := range held {
		for _, id := range ids {
			tg, ok := rs.TargetByID(id)
			if !ok {
				t.Fatalf("no target %q", id)
			}
			s.players[p].won |= 1 << uint(tg.Index)
		}
	}
	s.finish()
	return s
}

// End of the game: +2 VP per planet of your own faction; Starfleet and
// Vulcan both score the blue Federation planets; combination bonuses count.
func TestRuleFinalScore(t *testing.T) {
	s := endWith(t, []string{"starfleet", "vulcan"}, [][]string{{"earth", "andoria"}, {"vulcan", "pjem", "betazed"}})
	sf, vu := s.FinalScore(0), s.FinalScore(1)
	if sf != (Final{TargetVP: 7, BonusVP: 0, PlanetBonus: 4, Total: 11, Planets: 2, Targets: 2}) {
		t.Fatalf("starfleet %+v", sf)
	}
	// Vulcan: 4+2+2 VP, +2 for P'Jem with Vulcan, +2 per own planet (2) and
	// +2 for the Federation planet Betazed.
	if vu != (Final{TargetVP: 8, BonusVP: 2, PlanetBonus: 6, Total: 16, Planets: 3, Targets: 3}) {
		t.Fatalf("vulcan %+v", vu)
	}
	if r := s.Returns(); r[0] != 0 || r[1] != 1 {
		t.Fatalf("returns %v", r)
	}
}

// End of the game: a tie in VP goes to the player with more planets.
func TestRuleFinalTiePlanets(t *testing.T) {
	// Klingon: Chin'toka (3) + Briar Patch (2) = 5 VP, no planet; Romulan:
	// Remus (2) + its planet bonus (2) + Mutara Nebula (1) = 5 VP, 1 planet.
	s := endWith(t, []string{"klingon", "romulan"}, [][]string{{"chintoka", "briar-patch"}, {"remus", "mutara-nebula"}})
	k, r := s.FinalScore(0), s.FinalScore(1)
	if k.Total != r.Total {
		t.Fatalf("not a tie: %+v %+v", k, r)
	}
	if ret := s.Returns(); ret[1] != 1 || ret[0] != 0 {
		t.Fatalf("returns %v, want romulan (more planets)", ret)
	}
}

// End of the game: still tied, the players share the victory.
func TestRuleFinalSharedVictory(t *testing.T) {
	s := endWith(t, []string{"klingon", "romulan"}, [][]string{{"briar-patch"}, {"beta-quadrant"}})
	if ret := s.Returns(); ret[0] != 0.5 || ret[1] != 0.5 {
		t.Fatalf("returns %v, want a shared victory", ret)
	}
}

// Engine decision: a row nobody has a card in goes back under the target
// pile and is fought over again.
func TestRuleEmptyRowTargetReturns(t *testing.T) {
	log := &eventLog{}
	s, err := NewSetup(buildRS(), Setup{Factions: []string{"starfleet", "klingon"}, Phase: Reveal, Observer: log, Rows: []SetupRow{
		mkrow("earth", up("sf-akira", 0)),
		mkrow("wolf-359"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	u := log.kinds(EvRowUnclaimed)
	if len(u) != 1 || u[0].Value != 1 {
		t.Fatalf("unclaimed events %+v", u)
	}
	if err := s.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	if s.TargetsLeft() != 24-1-4 {
		t.Fatalf("targets left %d", s.TargetsLeft())
	}
}

// Engine decision: when every player passes in succession, the Deployment
// Phase ends (nothing else could end it).
func TestRuleAllPass(t *testing.T) {
	s := build(t, Setup{Rows: []SetupRow{mkrow("earth", up("sf-akira", 0))}})
	apply(t, s, PassAction())
	apply(t, s, DoneAction())
	if s.Phase() != Deployment {
		t.Fatal("one pass ended the phase")
	}
	apply(t, s, PassAction())
	apply(t, s, DoneAction())
	if s.Phase() != Scoring {
		t.Fatalf("phase %v after everyone passed", s.Phase())
	}
}

// Rule: more than four cards in hand is allowed; the player draws only when
// below four.
func TestRuleHandAboveFour(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira", "sf-miranda", "sf-miranda", "sf-miranda", "sf-excelsior", "sf-phaser-array"}, {"kl-d7"}}, Rows: []SetupRow{
		mkrow("earth"),
	}})
	apply(t, s, PlaceAction(cid(t, "sf-akira"), 0))
	if s.HandLen(0) != 5 {
		t.Fatalf("hand %d, want 5 (no draw above four)", s.HandLen(0))
	}
}

// Rule: when the draw pile is empty the discard pile is shuffled into a new
// draw pile.
func TestRuleReshuffle(t *testing.T) {
	all := deckIDs(t, "starfleet")
	s := build(t, Setup{Hands: [][]string{all, {"kl-d7"}}, Rows: []SetupRow{mkrow("earth")}})
	// Discard all but three cards: the refill must reshuffle the discards.
	apply(t, s, PassAction())
	for s.HandLen(0) > 3 {
		apply(t, s, DiscardAction(s.HandCard(0, 0, 0)))
	}
	apply(t, s, DoneAction())
	if s.HandLen(0) != 4 || s.DiscardLen(0) != 0 || s.DrawLen(0) != 29 {
		t.Fatalf("hand %d discard %d draw %d", s.HandLen(0), s.DiscardLen(0), s.DrawLen(0))
	}
}

// Engine decision: a Deployment Phase that lasts MaxDeployTurns turns ends,
// so that no choice of actions can keep a round going forever.
func TestRuleDeploymentTurnLimit(t *testing.T) {
	s := build(t, Setup{Hands: [][]string{{"sf-akira", "sf-miranda"}, {"kl-d7"}}, Rows: []SetupRow{mkrow("earth")}})
	s.deployTurns = MaxDeployTurns - 1
	apply(t, s, PlaceAction(cid(t, "sf-akira"), 0))
	if s.Phase() != Scoring {
		t.Fatalf("phase %v after %d turns", s.Phase(), MaxDeployTurns)
	}
}
