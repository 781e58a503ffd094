package spacetrace

import (
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

// table is a first-game state with seat 0 active on turn t, hands emptied;
// give puts cards in a hand.
func table(t *testing.T, edit func(*Rules), turn int) *State {
	t.Helper()
	rs := First()
	if edit != nil {
		cp := *rs
		cp.Rules = rs.Rules
		edit(&cp.Rules)
		rs = &cp
	}
	st, err := rs.NewState([]int{0, 0}, 3)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for p := 0; p < 2; p++ {
		s.P[p].Hand, s.P[p].HandN = [MaxDefs]uint8{}, 0
	}
	s.Active, s.First, s.Turn = 0, 0, turn
	return s
}

func give(s *State, p int, ids ...string) {
	for _, id := range ids {
		s.P[p].Hand[s.rs.CardIndex(id)]++
		s.P[p].HandN++
	}
}

func legal(s *State, a game.Action) bool {
	return has(s.LegalActions(nil), a)
}

// TestFirstTurnBan: "Der beginnende Spieler darf in der ersten Runde keinen
// Angriff starten." (B1) — the other player may attack in its first turn;
// attack.first_turn_ban: false lifts it. One attack a turn (B2).
func TestFirstTurnBan(t *testing.T) {
	s := table(t, nil, 0)
	if legal(s, mk(actAttack, 0)) {
		t.Fatal("the starting player may attack in its first turn")
	}
	s.Apply(mk(actEnd, 0))
	if s.Active != 1 || !legal(s, mk(actAttack, 0)) {
		t.Fatal("the second player may not attack in its first turn")
	}
	s.Apply(mk(actAttack, 0)) // two Bases, nothing to order: fought at once
	if legal(s, mk(actAttack, 0)) {
		t.Fatal("a second attack in one turn")
	}
	s = table(t, func(r *Rules) { r.FirstTurnBan = false }, 0)
	if !legal(s, mk(actAttack, 0)) {
		t.Fatal("first_turn_ban: false still bans")
	}
}

// TestMPPool: "Überschüssige MP die in einem Zug nicht benutzt wurde,
// verfällt am Ende des Zuges" (T1): change stays for the turn (a 100 pays a
// 60-MP ship and leaves 40), and the pool is empty at the end of the turn;
// mp.pool: per_play drops the change.
func TestMPPool(t *testing.T) {
	s := table(t, nil, 1)
	give(s, 0, "reinforcement-100", "interceptors")
	ci := s.rs.CardIndex("interceptors")
	if legal(s, mk(actPlay, ci)) {
		t.Fatal("a ship playable without MP")
	}
	s.Apply(mk(actPlay, s.rs.CardIndex("reinforcement-100")))
	s.Apply(mk(actPlay, ci))
	if s.P[0].MP != 40 {
		t.Fatalf("pool %d after paying 60 of 100", s.P[0].MP)
	}
	s.Apply(mk(actEnd, 0))
	if s.P[0].MP != 0 {
		t.Fatalf("pool %d after the end of the turn", s.P[0].MP)
	}
	s = table(t, func(r *Rules) { r.MPPool = PoolPerPlay }, 1)
	give(s, 0, "reinforcement-100", "interceptors")
	s.Apply(mk(actPlay, s.rs.CardIndex("reinforcement-100")))
	s.Apply(mk(actPlay, ci))
	if s.P[0].MP != 0 {
		t.Fatalf("per_play: pool %d", s.P[0].MP)
	}
}

// TestDiscardThree: "3 Karten aus der Hand abwerfen, um entweder 100
// Manpower zu erhalten oder um eine neue Karte zu ziehen. Auf diese Art
// abgeworfene Schiffe werden aus dem Spiel entfernt" (T4): ships so
// discarded are removed from game, not wrecks.
func TestDiscardThree(t *testing.T) {
	s := table(t, nil, 1)
	give(s, 0, "fighters", "destroyers", "reinforcement-50")
	s.Apply(mk(actDiscardMP, 0))
	for _, id := range []string{"fighters", "destroyers", "reinforcement-50"} {
		s.Apply(mk(actDiscardPick, s.rs.CardIndex(id)))
	}
	if p := s.P[0]; p.MP != 100 || p.HandN != 0 || p.Removed != 2 || p.WreckMP != 0 {
		t.Fatalf("after the discard: %+v", p)
	}
	lib := s.P[0].LibN
	give(s, 0, "fighters", "destroyers", "cruiser")
	s.Apply(mk(actDiscardDraw, 0))
	for _, id := range []string{"fighters", "destroyers", "cruiser"} {
		s.Apply(mk(actDiscardPick, s.rs.CardIndex(id)))
	}
	if s.P[0].HandN != 1 || s.P[0].LibN != lib-1 {
		t.Fatalf("discard for a card: hand %d, library %d (was %d)", s.P[0].HandN, s.P[0].LibN, lib)
	}
	s.P[0].LibN = 0
	give(s, 0, "fighters", "destroyers")
	if legal(s, mk(actDiscardDraw, 0)) {
		t.Fatal("discard for a card offered with an empty library")
	}
}

// TestDoomstarDamagesOwnBase: "Fügt deinem Basisschiff 100 Schadenspunkte
// zu" (C6, doomstar.when: on_play), and a Base at 1000 damage loses the
// game even by its own card (E3).
func TestDoomstarDamagesOwnBase(t *testing.T) {
	s := table(t, nil, 1)
	give(s, 0, "doomstar")
	s.P[0].MP = 200
	s.Apply(mk(actPlay, s.rs.CardIndex("doomstar")))
	if d := s.BaseDamageOf(0); d != 100 {
		t.Fatalf("own Base damage %d", d)
	}
	s = table(t, nil, 1)
	give(s, 0, "doomstar")
	s.P[0].MP = 200
	DamageBase(s.P[0].Army.Base(), 950)
	s.Apply(mk(actPlay, s.rs.CardIndex("doomstar")))
	if !s.IsTerminal() || s.Returns()[1] != 1 {
		t.Fatalf("a Doomstar that destroys its own Base: over %v, returns %v", s.IsTerminal(), s.Returns())
	}
}

// TestPenguinsSacrifice: "Einige Karten oder Effekte erfordern das Opfern
// einer oder mehrerer anderer Karten … dass du die Karte nicht spielen
// kannst, wenn du nicht die erforderlichen Karten/Schiffe opfern kannst"
// (A7): from play by default; the sacrificed card is a wreck.
func TestPenguinsSacrifice(t *testing.T) {
	s := table(t, nil, 1)
	give(s, 0, "penguins", "fighters")
	s.P[0].MP = 300
	pg := s.rs.CardIndex("penguins")
	if legal(s, mk(actPlay, pg)) {
		t.Fatal("penguins playable with no class I card in play")
	}
	s.Apply(mk(actPlay, s.rs.CardIndex("fighters")))
	s.Apply(mk(actPlay, pg))
	if s.phase != phSacrifice {
		t.Fatal("no sacrifice asked")
	}
	la := s.LegalActions(nil)
	if len(la) != 1 {
		t.Fatalf("sacrifice choices %v", la)
	}
	s.Apply(la[0])
	f := &s.P[0].Army.Fleets[BaseFleet]
	if f.N != 2 || f.U[0].Card != int16(pg) || s.P[0].WreckMP != 100 {
		t.Fatalf("after the sacrifice: %d units, first %d, wrecks %d", f.N, f.U[0].Card, s.P[0].WreckMP)
	}
	s = table(t, func(r *Rules) { r.SacrificeFrom = FromHand }, 1)
	give(s, 0, "penguins", "fighters")
	s.P[0].MP = 100
	if !legal(s, mk(actPlay, pg)) {
		t.Fatal("sacrifice.from: hand — the fighters in hand do not pay")
	}
}

// TestQuietEnd: end condition 2, "Kein Spieler kann mehr Karten ziehen und
// kein Spieler kann oder will mehr Karten ausspielen und die folgenden
// Kämpfe würden keine Schiffe mehr zerstören" (E2): both libraries empty
// and end.quiet_turns turns with nothing played, destroyed or damaged. The
// less damaged Base wins (E3).
func TestQuietEnd(t *testing.T) {
	s := table(t, nil, 1)
	s.P[0].LibN, s.P[1].LibN = 0, 0
	DamageBase(s.P[0].Army.Base(), 10)
	s.Apply(mk(actEnd, 0))
	if s.IsTerminal() {
		t.Fatal("over after one quiet turn")
	}
	s.Apply(mk(actEnd, 0))
	if !s.IsTerminal() || s.Returns()[1] != 1 || s.Score(1) != 10 {
		t.Fatalf("after two quiet turns: over %v, returns %v", s.IsTerminal(), s.Returns())
	}
	s = table(t, func(r *Rules) { r.TurnCap = 3 }, 1)
	s.Apply(mk(actEnd, 0))
	s.Apply(mk(actEnd, 0))
	if !s.IsTerminal() || !s.Timeout() || s.Returns()[0] != 0.5 {
		t.Fatalf("turn cap: over %v timeout %v returns %v", s.IsTerminal(), s.Timeout(), s.Returns())
	}
}

// TestWreckedShipsScoring: "Jeder Spieler erhält die Menge MP der Wrecked
// Ships des Gegners als Punkte. Eine zerstörte Base zählt 500 MP." (E4).
func TestWreckedShipsScoring(t *testing.T) {
	s := table(t, func(r *Rules) { r.Scoring = ScoreWrecked }, 1)
	s.P[1].WreckMP = 300
	s.P[0].WreckMP = 100
	if s.Score(0) != 300 || s.Score(1) != 100 {
		t.Fatalf("scores %d %d", s.Score(0), s.Score(1))
	}
	DamageBase(s.P[1].Army.Base(), 1000)
	if s.Score(0) != 800 {
		t.Fatalf("a destroyed Base adds 500: %d", s.Score(0))
	}
}

// TestBattleOrderIsChosen: "Jeder Spieler (der aktive Spieler immer zuerst)
// muss vorher die Kampreihenfolge der Schiffe innerhalb jeder Klasse in
// seinen Flotten festlegen." (B3): the attacker orders first, then the
// defender, card by card in each class with a choice.
func TestBattleOrderIsChosen(t *testing.T) {
	s := table(t, nil, 1)
	give(s, 0, "fighters", "destroyers")
	s.P[0].MP = 200
	s.Apply(mk(actPlay, s.rs.CardIndex("fighters")))
	s.Apply(mk(actPlay, s.rs.CardIndex("destroyers")))
	s.P[1].Army.Fleets[BaseFleet].U[1] = ShipUnit(s.rs.Defs, s.rs.CardIndex("cruiser"))
	s.P[1].Army.Fleets[BaseFleet].U[2] = ShipUnit(s.rs.Defs, s.rs.CardIndex("cruiser"))
	s.P[1].Army.Fleets[BaseFleet].N = 3
	s.P[1].Army.Fleets[BaseFleet].Sort()
	s.Apply(mk(actAttack, 0))
	if s.phase != phOrder || s.CurrentPlayer() != 0 || len(s.LegalActions(nil)) != 2 {
		t.Fatalf("attacker's order: phase %d, seat %d", s.phase, s.CurrentPlayer())
	}
	s.Apply(mk(actOrder, 1)) // the destroyers first
	if s.CurrentPlayer() != 1 || len(s.LegalActions(nil)) != 2 {
		t.Fatalf("defender's order: seat %d, %v", s.CurrentPlayer(), s.LegalActions(nil))
	}
	s.Apply(mk(actOrder, 0))
	if s.phase != phMain || s.CurrentPlayer() != 0 {
		t.Fatal("the attack was not fought after both orders")
	}
	// The destroyers fired first in class I at the cruisers (class III):
	// 10 shots of 10 on 50-LP ships kill two; the fighters' shots stop.
	if f := &s.P[1].Army.Fleets[BaseFleet]; !f.U[1].Dead && !f.U[0].Dead {
		t.Fatalf("defender %+v %+v", f.U[0], f.U[1])
	}
}

// TestStarterIsRecorded: start: random draws the starting seat (S3) and
// the state reports it, so first-player figures count from it.
func TestStarterIsRecorded(t *testing.T) {
	rs := First()
	seen := [2]int{}
	for seed := uint64(0); seed < 40; seed++ {
		st, _ := rs.NewState([]int{0, 0}, seed)
		s := st.(*State)
		seat, drawn := s.Starter()
		if !drawn || seat != s.Active || s.CurrentPlayer() != seat {
			t.Fatalf("seed %d: starter %d drawn %v, active %d", seed, seat, drawn, s.Active)
		}
		seen[seat]++
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Fatalf("starters %v", seen)
	}
}

// TestMothershipOpensExtraFleet: "Mit einem »Mothership« kann man eine
// Extraflotte eröffnen und von nun an - jedoch nur als aktiver Spieler -
// Schiffskarten zwischen der »Base-Flotte« und der Extraflotte hin und her
// verschieben." (C2, T8) and "Im Kampf kann jeder Spieler entscheiden, ob
// seine Extraflotte mitkämpft … ob sie dann vor oder nach der »Base-Flotte«
// kämpft" (B4: the attacker first).
func TestMothershipOpensExtraFleet(t *testing.T) {
	rs := Embedded(SecondRuleset)
	st, err := rs.NewState([]int{0, 0}, 5)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	s.Active, s.First, s.Turn = 0, 0, 1
	s.P[0].Hand, s.P[0].HandN = [MaxDefs]uint8{}, 0
	give(s, 0, "mothership", "fighters")
	s.P[0].MP = 250
	s.Apply(mk(actPlay, rs.CardIndex("mothership")))
	a := &s.P[0].Army
	if a.Fleets[ExtraFleet].N != 1 || !rs.Defs[a.Fleets[ExtraFleet].U[0].Card].Opens() {
		t.Fatalf("extra fleet %d cards", a.Fleets[ExtraFleet].N)
	}
	if legal(s, mk(actMove, ExtraFleet<<8)) {
		t.Fatal("the Mothership holding its fleet open may move")
	}
	s.Apply(mk(actPlay, rs.CardIndex("fighters")))
	if a.Fleets[BaseFleet].N != 2 {
		t.Fatal("fighters not in the Base fleet")
	}
	s.Apply(mk(actMove, BaseFleet<<8)) // the fighters (class I) to the extra fleet
	if a.Fleets[ExtraFleet].N != 2 || a.Fleets[BaseFleet].N != 1 {
		t.Fatalf("after the move: base %d, extra %d", a.Fleets[BaseFleet].N, a.Fleets[ExtraFleet].N)
	}
	if legal(s, mk(actMove, ExtraFleet<<8)) {
		t.Fatal("a card moved twice in one turn")
	}
	s.Apply(mk(actAttack, 0))
	if s.phase != phJoin || s.CurrentPlayer() != 0 {
		t.Fatalf("phase %d, seat %d: the attacker chooses its extra fleet's part", s.phase, s.CurrentPlayer())
	}
	s.Apply(mk(actJoin, int(Before)))
	if s.phase != phMain {
		t.Fatal("the defender, without an extra fleet, was asked")
	}
	// The sacrifice of the Mothership discards its fleet (A7, C2).
	give(s, 0, "penguins")
	s.P[0].MP = 100
	s.Apply(mk(actPlay, rs.CardIndex("penguins")))
	s.Apply(mk(actSacrifice, ExtraFleet<<8)) // the fighters: class I
	if a.Fleets[ExtraFleet].N != 1 {
		t.Fatalf("extra fleet %d after sacrificing the fighters", a.Fleets[ExtraFleet].N)
	}
}

// TestSecondGameSuite runs the generic suite's parts on the second game,
// whose Motherships, extra fleets, moves and joins the default (the first
// game) never reaches.
func TestSecondGameSuite(t *testing.T) {
	rs := Embedded(SecondRuleset)
	t.Run("RandomGames", func(t *testing.T) { gametest.RandomGames(t, rs) })
	t.Run("Determinism", func(t *testing.T) { gametest.Determinism(t, rs) })
	t.Run("CloneIndependence", func(t *testing.T) { gametest.CloneIndependence(t, rs) })
	t.Run("Determinize", func(t *testing.T) { gametest.Determinize(t, rs) })
	t.Run("ZeroAllocs", func(t *testing.T) { gametest.ZeroAllocs(t, rs) })
}

// TestKnobs: the numbers a sweep changes, each written back where the
// designer edits it.
func TestKnobs(t *testing.T) {
	rs := First()
	find := func(name string) game.Knob {
		for _, k := range rs.Knobs() {
			if k.Name == name {
				return k
			}
		}
		t.Fatalf("no knob %s", name)
		return game.Knob{}
	}
	k := find("base.ap")
	x, err := k.With(rs, 0, 50)
	if err != nil || x.(*Ruleset).Rules.BaseAP != 50 || rs.Rules.BaseAP != 0 {
		t.Fatalf("base.ap: %v", err)
	}
	if f, line := k.Where(rs, 0); f != RulesFile || line != 13 {
		t.Fatalf("base.ap written at %s:%d", f, line)
	}
	ic := rs.CardIndex("interceptors")
	k = find("mp")
	x, err = k.With(rs, ic, 80)
	if err != nil || x.(*Ruleset).Defs[ic].MP != 80 || rs.Defs[ic].MP != 60 {
		t.Fatalf("mp: %v", err)
	}
	if f, line := k.Where(rs, ic); f != CardsFile || line != 64 {
		t.Fatalf("interceptors' mp written at %s:%d", f, line)
	}
	ds := rs.CardIndex("doomstar")
	k = find("self_damage.amount")
	x, err = k.With(rs, ds, 150)
	if err != nil || x.(*Ruleset).Defs[ds].Effect(SelfDamage).Amount != 150 || rs.Defs[ds].Effect(SelfDamage).Amount != 100 {
		t.Fatalf("self_damage.amount: %v", err)
	}
	if _, err := find("class").With(rs, ic, 2); err == nil {
		t.Fatal("class 2 accepted for a first-game deck's card")
	}
	gametest.Knobs(t, Embedded(SecondRuleset))
}

// TestFallenMothershipClosesFleet: after an attack that destroys the
// Mothership, its fleet is gone at once (C2, A6): no card may be moved into
// it, and the next Mothership opens a new one.
func TestFallenMothershipClosesFleet(t *testing.T) {
	rs := Embedded(SecondRuleset)
	st, _ := rs.NewState([]int{0, 0}, 5)
	s := st.(*State)
	s.Active, s.First, s.Turn = 0, 0, 1
	s.P[0].Hand, s.P[0].HandN = [MaxDefs]uint8{}, 0
	give(s, 0, "mothership", "fighters", "mothership")
	s.P[0].MP = 400
	s.Apply(mk(actPlay, rs.CardIndex("mothership")))
	s.Apply(mk(actPlay, rs.CardIndex("fighters")))
	// The defender: a Battleship (2 × 100/150) and a Dreadnought (200
	// AP), which kill the 20/300 Mothership in class battle IV.
	d := &s.P[1].Army.Fleets[BaseFleet]
	for _, id := range []string{"battleship", "dreadnought"} {
		d.U[d.N] = ShipUnit(rs.Defs, rs.CardIndex(id))
		d.N++
	}
	d.Sort()
	s.Apply(mk(actAttack, 0))
	for s.phase != phMain {
		if s.phase == phJoin {
			s.Apply(mk(actJoin, int(Before)))
			continue
		}
		s.Apply(s.LegalActions(nil)[0])
	}
	if n := s.P[0].Army.Fleets[ExtraFleet].N; n != 0 {
		t.Fatalf("extra fleet holds %d cards after its Mothership fell", n)
	}
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actMove {
			t.Fatalf("%s offered without an extra fleet", s.ActionString(a))
		}
	}
	s.Apply(mk(actPlay, rs.CardIndex("mothership")))
	if s.P[0].Army.Fleets[ExtraFleet].N != 1 {
		t.Fatal("a new Mothership does not open a new extra fleet")
	}
}

// TestFullGameSuite runs the generic suite's parts on the full game (the
// reference deck): commanders, tactics with their windows and the stack,
// damage cards.
func TestFullGameSuite(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	t.Run("RandomGames", func(t *testing.T) { gametest.RandomGames(t, rs) })
	t.Run("Determinism", func(t *testing.T) { gametest.Determinism(t, rs) })
	t.Run("CloneIndependence", func(t *testing.T) { gametest.CloneIndependence(t, rs) })
	t.Run("Determinize", func(t *testing.T) { gametest.Determinize(t, rs) })
	t.Run("ZeroAllocs", func(t *testing.T) { gametest.ZeroAllocs(t, rs) })
}
