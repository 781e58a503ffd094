package spacetrace

import (
	"math"
	"testing"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

// fullTable is a full-game state (the reference deck) with seat 0 active on
// turn 1, hands emptied and no MP; edit changes the rules.
func fullTable(t *testing.T, edit func(*Rules)) *State {
	t.Helper()
	rs := Embedded(ReferenceRuleset)
	if edit != nil {
		cp := *rs
		edit(&cp.Rules)
		rs = &cp
	}
	st, err := rs.NewState([]int{0, 0}, 3)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for p := 0; p < 2; p++ {
		s.P[p].Hand, s.P[p].HandN, s.P[p].MP = [MaxDefs]uint8{}, 0, 0
	}
	s.Active, s.First, s.Turn = 0, 0, 1
	return s
}

// put puts card id into seat p's Base fleet and returns its unit index.
func put(s *State, p int, id string) int {
	f := &s.P[p].Army.Fleets[BaseFleet]
	f.U[f.N] = ShipUnit(s.rs.Defs, s.rs.CardIndex(id))
	f.N++
	f.Sort()
	for i := 0; i < f.N; i++ {
		if !f.U[i].IsBase() && s.rs.Defs[f.U[i].Card].ID == id {
			return i
		}
	}
	return -1
}

func unitOf(s *State, p int, id string) *Unit {
	for fi := range s.P[p].Army.Fleets {
		f := &s.P[p].Army.Fleets[fi]
		for i := 0; i < f.N; i++ {
			if !f.U[i].IsBase() && s.rs.Defs[f.U[i].Card].ID == id {
				return &f.U[i]
			}
		}
	}
	return nil
}

func tac(s *State, id string, seat, fleet, i int) game.Action {
	return mk(actTactic, s.rs.CardIndex(id)<<8|packTgt(seat, fleet, i))
}

// TestCommanderAura: "auf eine Schiffskarte der jeweils angegebenen
// Klassen" (C1): the Veteran Commander on a class-I card gives its ships
// +1 AP and +1 LP; never on a class it does not list nor on the Base
// (commander.base_host: false); one a turn and one in play (T6: "maximal
// eine Commanderkarte"); "Wird ein Schiff mit einem Commander zerstört,
// werden beide Karten zerstört" — the commander leaves with its host, not
// as a wreck.
func TestCommanderAura(t *testing.T) {
	s := fullTable(t, nil)
	vet := s.rs.CardIndex("veteran-commander")
	fi := put(s, 0, "fighters")
	put(s, 0, "cruiser")
	give(s, 0, "veteran-commander", "veteran-commander")
	s.P[0].MP = 200
	var hosts []string
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actCommand {
			u := &s.P[0].Army.Fleets[int(a&0xffff)>>6&1].U[a&63]
			hosts = append(hosts, s.rs.Defs[u.Card].ID)
		}
	}
	if len(hosts) != 1 || hosts[0] != "fighters" {
		t.Fatalf("veteran hosts %v, want [fighters] (class I–II, not the Cruiser or the Base)", hosts)
	}
	s.Apply(mk(actCommand, vet<<7|BaseFleet<<6|fi))
	u := unitOf(s, 0, "fighters")
	if u.AP != 2 || u.LP != 2 || u.Cmd != int16(vet+1) || s.P[0].MP != 150 {
		t.Fatalf("host AP %d LP %d cmd %d MP %d", u.AP, u.LP, u.Cmd, s.P[0].MP)
	}
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actCommand {
			t.Fatal("a second commander in one turn (and with one in play)")
		}
	}
	s.Apply(mk(actEnd, 0))
	s.Apply(mk(actEnd, 0))
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actCommand {
			t.Fatal("a second commander in play")
		}
	}
	// The host falls: the commander goes with it, not a wreck.
	u = unitOf(s, 0, "fighters")
	u.Down, u.Alive = u.Alive, 0
	s.settle()
	if unitOf(s, 0, "fighters") != nil || s.commanderInPlay(0) || s.P[0].WreckMP != 100 {
		t.Fatalf("after the host fell: commander in play %v, wrecks %d MP", s.commanderInPlay(0), s.P[0].WreckMP)
	}
	// commander.base_host: true lets a class-IV commander sit on the Base.
	s = fullTable(t, func(r *Rules) { r.CommanderBaseHost = true })
	give(s, 0, "logistics-commander")
	s.P[0].MP = 80
	if !legal(s, mk(actCommand, s.rs.CardIndex("logistics-commander")<<7|BaseFleet<<6)) {
		t.Fatal("base_host: true, the Base is no host")
	}
}

// TestCommanderIncome: the Logistics Commander's income comes at the start
// of each of its owner's turns (C1: the commander needs no battle).
func TestCommanderIncome(t *testing.T) {
	s := fullTable(t, nil)
	lc := s.rs.CardIndex("logistics-commander")
	i := put(s, 0, "cruiser")
	give(s, 0, "logistics-commander")
	s.P[0].MP = 80
	s.Apply(mk(actCommand, lc<<7|BaseFleet<<6|i))
	s.Apply(mk(actEnd, 0))
	if s.P[1].MP != 0 {
		t.Fatalf("the opponent got %d MP", s.P[1].MP)
	}
	s.Apply(mk(actEnd, 0))
	if s.Active != 0 || s.P[0].MP != 30 {
		t.Fatalf("seat %d active with %d MP, want seat 0 with 30", s.Active, s.P[0].MP)
	}
}

// TestReactionStack: "kann der Gegner sofort mit einer anderen Taktikkarte
// reagieren. Der Effekt der zuletzt gespielten Karte wird dann zuerst
// ausgeführt." (K1, K2): the active player's Torpedo Salvo on a damaged
// Cruiser, the other's Emergency Repairs in answer; the repair resolves
// first, so the salvo downs one ship and leaves 10 on the next (first in,
// first out would leave the Cruiser whole). Priority alternates; the
// non-active player pays with a reinforcement (T2).
func TestReactionStack(t *testing.T) {
	s := fullTable(t, nil)
	i := put(s, 1, "cruiser")
	u := unitOf(s, 1, "cruiser")
	u.Lead = 30
	give(s, 0, "torpedo-salvo")
	give(s, 1, "emergency-repairs", "reinforcement-50")
	s.P[0].MP = 50
	s.Apply(tac(s, "torpedo-salvo", 1, BaseFleet, i))
	if s.phase != phStack || s.CurrentPlayer() != 1 {
		t.Fatalf("phase %d seat %d: the opponent answers", s.phase, s.CurrentPlayer())
	}
	s.Apply(tac(s, "emergency-repairs", 1, BaseFleet, i))
	if s.phase != phPay || s.CurrentPlayer() != 1 {
		t.Fatalf("phase %d: the non-active player pays with its reinforcements", s.phase)
	}
	s.Apply(mk(actPay, s.rs.CardIndex("reinforcement-50")<<8))
	if s.phase != phMain || s.CurrentPlayer() != 0 || s.stackN != 0 {
		t.Fatalf("phase %d seat %d stack %d: resolved and back to the active player", s.phase, s.CurrentPlayer(), s.stackN)
	}
	u = unitOf(s, 1, "cruiser")
	if u.Alive != 1 || u.Lead != 10 || s.P[1].MP != 20 {
		t.Fatalf("cruiser alive %d lead %d, seat 2 MP %d; want 1, 10 (repair first), 20", u.Alive, u.Lead, s.P[1].MP)
	}
}

// TestTacticFizzles: "kann es passieren, dass eine Taktikkarte kein Ziel
// mehr für ihren Effekt hat … in jedem Fall abgelegt" (K3): an Antimatter
// Mine whose card the answering Torpedo Salvo destroyed first does nothing;
// it is gone from the hand and its MP stays spent.
func TestTacticFizzles(t *testing.T) {
	s := fullTable(t, nil)
	i := put(s, 1, "cruiser")
	unitOf(s, 1, "cruiser").Lead = 30
	put(s, 0, "fighters")
	give(s, 0, "antimatter-mine")
	give(s, 1, "torpedo-salvo")
	s.P[0].MP, s.P[1].MP = 40, 50
	s.Apply(tac(s, "antimatter-mine", 1, BaseFleet, i))
	s.Apply(tac(s, "torpedo-salvo", 1, BaseFleet, i)) // on its own Cruiser: 20 + 50 downs both ships
	if s.phase != phMain || unitOf(s, 1, "cruiser") != nil {
		t.Fatalf("phase %d: the Cruiser should be a wreck", s.phase)
	}
	if s.P[0].MP != 0 || s.P[0].HandN != 0 || s.P[1].WreckMP != 100 {
		t.Fatalf("mine's MP %d, hand %d, wrecks %d", s.P[0].MP, s.P[0].HandN, s.P[1].WreckMP)
	}
}

// TestSpecialReinforcement: "Der andere Spieler darf nur Taktikkarten
// (einschließlich der erforderlichen Reinforcements) spielen." (T2, T3):
// Reinforcement 2's damage goes on the stack; the active player may play it
// at any time, the other only as payment unless reinf.special_anytime.
// "Deals 40 damage to any target" (C7): a Base takes all 40.
func TestSpecialReinforcement(t *testing.T) {
	for _, anytime := range []bool{false, true} {
		s := fullTable(t, func(r *Rules) { r.SpecialAnytime = anytime })
		r2 := s.rs.CardIndex("reinforcement-2")
		give(s, 0, "reinforcement-2")
		give(s, 1, "reinforcement-2")
		if legal(s, mk(actPlay, r2)) {
			t.Fatal("a damage reinforcement played without a target")
		}
		s.Apply(mk(actTactic, r2<<8|packTgt(1, BaseFleet, 0)))
		if s.phase == phStack != anytime {
			t.Fatalf("special_anytime %v: phase %d after the active player's Reinforcement 2", anytime, s.phase)
		}
		if anytime {
			s.Apply(mk(actPass, 0))
		}
		if s.BaseDamageOf(1) != 40 || s.P[0].MP != 50 {
			t.Fatalf("base damage %d, MP %d; want 40, 50", s.BaseDamageOf(1), s.P[0].MP)
		}
	}
}

// TestDamageSpill: C7's reading "On a ship card the damage spills ship by
// ship within that card" (damage.spill: card); damage.spill: ship hits the
// front ship only.
func TestDamageSpill(t *testing.T) {
	for _, tc := range []struct {
		spill       int
		alive, lead int32
	}{{SpillCard, 1, 10}, {SpillShip, 1, 0}} {
		s := fullTable(t, func(r *Rules) { r.DamageSpill = tc.spill })
		i := put(s, 1, "cruiser")
		give(s, 0, "torpedo-salvo")
		s.P[0].MP = 50
		s.Apply(tac(s, "torpedo-salvo", 1, BaseFleet, i))
		if u := unitOf(s, 1, "cruiser"); u.Alive != tc.alive || u.Lead != tc.lead {
			t.Errorf("spill %d: alive %d lead %d, want %d %d", tc.spill, u.Alive, u.Lead, tc.alive, tc.lead)
		}
	}
}

// attackTo starts seat 0's attack and plays until seat p has a choice in a
// window of kind win (the others passing).
func attackTo(t *testing.T, s *State, p, win int) {
	t.Helper()
	s.Apply(mk(actAttack, 0))
	for s.phase != phStack || s.CurrentPlayer() != p || s.win != win {
		if s.phase == phMain || s.phase == phOver {
			t.Fatalf("no window %d for seat %d", win, p)
		}
		ls := s.LegalActions(nil)
		if s.phase == phStack {
			s.Apply(mk(actPass, 0))
		} else {
			s.Apply(ls[0])
		}
	}
}

// TestEMPBurst: a tactic window before each class battle (K1) lets the
// defender jam the attacker's class-I ships for that class battle (EMP
// Burst, A4's jam by a card): 10 Destroyers against 100 Fighters (the
// rulebook's example, 90 Fighters left) now leave all 100, and the jam
// ends with the class battle.
func TestEMPBurst(t *testing.T) {
	s := fullTable(t, nil)
	put(s, 0, "destroyers")
	put(s, 1, "fighters")
	give(s, 1, "emp-burst")
	s.P[1].MP = 30
	attackTo(t, s, 1, winClass)
	if s.k != 1 {
		t.Fatalf("window before class battle %d", s.k)
	}
	s.Apply(mk(actTactic, s.rs.CardIndex("emp-burst")<<8))
	if s.phase != phMain {
		t.Fatalf("phase %d after the attack", s.phase)
	}
	if f := unitOf(s, 1, "fighters"); f == nil || f.Alive != 100 || unitOf(s, 0, "destroyers") != nil {
		t.Fatalf("fighters %v, destroyers %v", f, unitOf(s, 0, "destroyers"))
	}
}

// TestPsionicBlast: C8's reading "Removes one enemy ship card from the
// current battle: it neither fires nor can be targeted until the battle
// ends" — the defender removes the attacking Destroyers before the fleet
// battle: they fire nothing, lose nothing, and are back afterwards. The
// Base "kann nicht aus dem Kampf entfernt werden".
func TestPsionicBlast(t *testing.T) {
	s := fullTable(t, nil)
	put(s, 0, "destroyers")
	put(s, 1, "fighters")
	give(s, 1, "psionic-blast")
	s.P[1].MP = 50
	attackTo(t, s, 1, winFleet)
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actTactic && s.unitAt(int(a&0xff)).IsBase() {
			t.Fatal("the Base may be removed from the battle")
		}
	}
	s.Apply(tac(s, "psionic-blast", 0, BaseFleet, 0))
	d, f := unitOf(s, 0, "destroyers"), unitOf(s, 1, "fighters")
	if s.phase != phMain || d == nil || d.Alive != 10 || d.Removed || f.Alive != 100 {
		t.Fatalf("phase %d destroyers %+v fighters alive %d", s.phase, d, f.Alive)
	}
}

// TestGreedyPlaysFullGame: in the full game the greedy bot plays
// commanders, tactics and Reinforcement 2, not only ships.
func TestGreedyPlaysFullGame(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	g := Greedy{}
	played := map[string]int{}
	for i := 0; i < 100; i++ {
		st, _ := rs.NewState([]int{0, 0}, uint64(i))
		s := st.(*State)
		var buf []game.Action
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			a := g.Choose(s, buf)
			if !has(buf, a) {
				t.Fatalf("greedy chose %s, not legal", s.ActionString(a))
			}
			switch int(a >> 16) {
			case actTactic:
				played[rs.Defs[int(a&0xffff)>>8].ID]++
			case actCommand:
				played["commander"]++
			}
			s.Apply(a)
		}
	}
	for _, id := range []string{"commander", "antimatter-mine", "emp-burst", "psionic-blast", "reinforcement-2", "torpedo-salvo", "deserter"} {
		if played[id] == 0 {
			t.Errorf("greedy never played %s in 100 games (%v)", id, played)
		}
	}
}

// TestWindowAfterAction: K4's reading "Yes, as a window after the action":
// after the active player plays a ship the other player may answer with a
// tactic (here an Antimatter Mine on the new card: 5 Fighters gone), then
// the active player goes on; without a playable tactic no window opens.
func TestWindowAfterAction(t *testing.T) {
	s := fullTable(t, nil)
	give(s, 0, "fighters", "destroyers")
	give(s, 1, "antimatter-mine")
	s.P[0].MP, s.P[1].MP = 200, 40
	s.Apply(mk(actPlay, s.rs.CardIndex("fighters")))
	if s.phase != phStack || s.CurrentPlayer() != 1 || !legal(s, mk(actPass, 0)) {
		t.Fatalf("phase %d seat %d: the other player's window", s.phase, s.CurrentPlayer())
	}
	s.Apply(tac(s, "antimatter-mine", 0, BaseFleet, 0))
	if s.phase != phMain || s.CurrentPlayer() != 0 || unitOf(s, 0, "fighters").Alive != 95 {
		t.Fatalf("phase %d seat %d fighters %d", s.phase, s.CurrentPlayer(), unitOf(s, 0, "fighters").Alive)
	}
	s.Apply(mk(actPlay, s.rs.CardIndex("destroyers")))
	if s.phase != phMain {
		t.Fatal("a window for a player with nothing to play")
	}
}

// TestHandMax: S5 "no hand limit is stated" keeps hand.max: 0; another
// value makes the active player discard down to it at the end of its turn,
// card by card, before the restoration and the other player's draw; a ship
// so discarded is a wreck.
func TestHandMax(t *testing.T) {
	s := fullTable(t, func(r *Rules) { r.HandMax = 2 })
	give(s, 0, "fighters", "cruiser", "reinforcement-100", "torpedo-salvo")
	s.Apply(mk(actEnd, 0))
	if s.phase != phHandMax || s.CurrentPlayer() != 0 {
		t.Fatalf("phase %d seat %d: discard down to 2", s.phase, s.CurrentPlayer())
	}
	if legal(s, mk(actEnd, 0)) || !legal(s, mk(actDiscardPick, s.rs.CardIndex("cruiser"))) {
		t.Fatal("the hand-limit discard offers the wrong choices")
	}
	s.Apply(mk(actDiscardPick, s.rs.CardIndex("cruiser")))
	s.Apply(mk(actDiscardPick, s.rs.CardIndex("torpedo-salvo")))
	if s.phase != phMain || s.Active != 1 || s.P[0].HandN != 2 || s.P[0].WreckMP != 100 {
		t.Fatalf("phase %d active %d hand %d wrecks %d", s.phase, s.Active, s.P[0].HandN, s.P[0].WreckMP)
	}
}

// TestOptionalDiscards: E5's optional rules — "jederzeit eine beliebige
// Karte abwerfen um 30 MP" (opt.discard1_mp) and "zwei beliebige Karten
// abwerfen um eine neue Karte zu ziehen" (opt.discard2_draw); off by
// default; a ship so discarded is a wreck (no removal is stated).
func TestOptionalDiscards(t *testing.T) {
	s := fullTable(t, nil)
	give(s, 0, "fighters", "cruiser")
	for _, a := range s.LegalActions(nil) {
		if k := int(a >> 16); k == actDiscard1 || k == actDiscard2 {
			t.Fatal("an optional discard offered with the options off")
		}
	}
	s = fullTable(t, func(r *Rules) { r.Discard1MP, r.Discard2Draw = 30, true })
	give(s, 0, "fighters", "cruiser", "eagles")
	s.Apply(mk(actDiscard1, s.rs.CardIndex("fighters")))
	if s.P[0].MP != 30 || s.P[0].WreckMP != 100 || s.P[0].HandN != 2 {
		t.Fatalf("after discarding for MP: MP %d wrecks %d hand %d", s.P[0].MP, s.P[0].WreckMP, s.P[0].HandN)
	}
	lib := s.P[0].LibN
	s.Apply(mk(actDiscard2, 0))
	s.Apply(mk(actDiscardPick, s.rs.CardIndex("cruiser")))
	s.Apply(mk(actDiscardPick, s.rs.CardIndex("eagles")))
	if s.phase != phMain || s.P[0].HandN != 1 || s.P[0].LibN != lib-1 || s.P[0].WreckMP != 250 || s.P[0].Removed != 0 {
		t.Fatalf("after discarding 2 for a card: phase %d hand %d wrecks %d removed %d", s.phase, s.P[0].HandN, s.P[0].WreckMP, s.P[0].Removed)
	}
}

// TestFullGameOptionsSuite: the generic suite's parts on the full game with
// a hand limit and every optional rule on.
func TestFullGameOptionsSuite(t *testing.T) {
	cp := *Embedded(ReferenceRuleset)
	cp.Rules.HandMax, cp.Rules.Discard1MP, cp.Rules.Discard2Draw, cp.Rules.SplitReinf = 5, 30, true, true
	rs := &cp
	t.Run("RandomGames", func(t *testing.T) { gametest.RandomGames(t, rs) })
	t.Run("Determinize", func(t *testing.T) { gametest.Determinize(t, rs) })
	t.Run("ZeroAllocs", func(t *testing.T) { gametest.ZeroAllocs(t, rs) })
}

// TestGreedyDamageReinforcement: a damage reinforcement is a stack play
// (it needs a target); the greedy bot never plays it as a plain one, even
// when its MP would pay for a ship (the card-value experiment met this).
func TestGreedyDamageReinforcement(t *testing.T) {
	s := fullTable(t, nil)
	give(s, 0, "reinforcement-2", "cruiser")
	s.P[0].MP = 50
	ls := s.LegalActions(nil)
	if a := (Greedy{}).Choose(s, ls); !has(ls, a) {
		t.Fatalf("greedy chose %s, not legal", s.ActionString(a))
	}
}

// TestDeserter: C3's reading — "Swap the own and the opposing highest-MP
// ship cards (Base excluded, Motherships allowed; ties chosen by the
// caster). Damage stays until end of turn; control changes, but
// discard-pile ownership does not. A swapped Mothership opens an extra
// fleet for its new controller (or joins the Base fleet); its former fleet
// falls back into its owner's Base fleet." (deserter.mothership_mode).
func TestDeserter(t *testing.T) {
	s := fullTable(t, nil)
	put(s, 0, "fighters")
	put(s, 0, "cruiser")
	put(s, 1, "dreadnought")
	unitOf(s, 1, "dreadnought").Lead = 50
	give(s, 0, "deserter")
	s.P[0].MP = 100
	des := s.rs.CardIndex("deserter")
	n := 0
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actTactic && int(a&0xffff)>>8 == des {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d deserter plays, want 2 (Fighters and Cruiser tie at 100 MP)", n)
	}
	s.Apply(mk(actTactic, des<<8|1<<4)) // own tie #2 (the Cruiser) for the Dreadnought (#1)
	d, c := unitOf(s, 0, "dreadnought"), unitOf(s, 1, "cruiser")
	if d == nil || c == nil || d.Lead != 50 || !d.Swapped || !c.Swapped || unitOf(s, 0, "cruiser") != nil {
		t.Fatalf("after the swap: dreadnought %+v, cruiser %+v", d, c)
	}
	d.Alive, d.Down, d.Lead = 0, 1, 0
	s.settle()
	if s.P[1].WreckMP != 300 || s.P[0].WreckMP != 0 {
		t.Fatalf("wrecks %d, %d: the Dreadnought is seat 2's wreck", s.P[0].WreckMP, s.P[1].WreckMP)
	}
	for _, mode := range []int{OpenFleet, JoinBase} {
		s := fullTable(t, func(r *Rules) { r.DeserterMothership = mode })
		put(s, 0, "cruiser")
		m := s.rs.CardIndex("mothership")
		f := &s.P[1].Army.Fleets[ExtraFleet]
		f.U[0], f.U[1] = ShipUnit(s.rs.Defs, s.rs.CardIndex("destroyers")), ShipUnit(s.rs.Defs, m)
		f.N = 2
		give(s, 0, "deserter")
		s.P[0].MP = 100
		s.Apply(mk(actTactic, des<<8))
		a0, a1 := &s.P[0].Army, &s.P[1].Army
		want := ExtraFleet
		if mode == JoinBase {
			want = BaseFleet
		}
		if g := &a0.Fleets[want]; g.N == 0 || g.U[g.N-1].Card != int16(m) {
			t.Errorf("mode %d: the Mothership is not in seat 1's fleet %d", mode, want)
		}
		if a1.Fleets[ExtraFleet].N != 0 || unitOf(s, 1, "destroyers") != &a1.Fleets[BaseFleet].U[0] {
			t.Errorf("mode %d: seat 2's extra fleet did not fall back into its Base fleet", mode)
		}
	}
	// Not during the attack.
	s = fullTable(t, nil)
	put(s, 0, "cruiser")
	put(s, 1, "fighters")
	give(s, 1, "deserter", "psionic-blast")
	s.P[1].MP = 200
	attackTo(t, s, 1, winFleet)
	for _, a := range s.LegalActions(nil) {
		if int(a>>16) == actTactic && int(a&0xffff)>>8 == des {
			t.Fatal("Deserter offered during the attack")
		}
	}
}

// TestFullGameNeverPeeks: the greedy bot and the search (with Spacetrace's
// evaluator) choose alike in a full-game position and its twin redealt
// for the deciding seat — tactic windows and payments included.
func TestFullGameNeverPeeks(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	differ, total, windows := 0, 0, 0
	for i := 0; i < 120; i++ {
		st, _ := rs.NewState([]int{0, 0}, uint64(i))
		s := st.(*State)
		walk := game.NewRNG(uint64(i) + 5)
		var buf []game.Action
		for k := 10 + walk.Intn(60); k > 0 && !s.IsTerminal(); k-- {
			buf = s.LegalActions(buf)
			if walk.Intn(2) == 0 {
				s.Apply(buf[walk.Intn(len(buf))])
			} else {
				s.Apply(Greedy{}.Choose(s, buf))
			}
		}
		if s.IsTerminal() {
			continue
		}
		if s.phase == phStack || s.phase == phPay {
			windows++
		}
		v := s.CurrentPlayer()
		twin := s.Clone().(*State)
		r := game.NewRNG(uint64(i) + 1000)
		twin.Determinize(v, &r)
		total++
		if string(s.Observation(1-v, nil)) != string(twin.Observation(1-v, nil)) {
			differ++
		}
		la, lb := s.LegalActions(nil), twin.LegalActions(nil)
		if x, y := (Greedy{}).Choose(s, la), (Greedy{}).Choose(twin, lb); x != y {
			t.Fatalf("position %d: greedy chose %s in one, %s in its twin", i, s.ActionString(x), twin.ActionString(y))
		}
		a, err := bots.NewSearchFor(rs, map[string]string{"iters": "20"}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := bots.NewSearchFor(rs, map[string]string{"iters": "20"}, uint64(i))
		if x, y := a.Choose(s, la), b.Choose(twin, lb); x != y {
			t.Fatalf("position %d: the search chose %s in one, %s in its twin", i, s.ActionString(x), twin.ActionString(y))
		}
	}
	if differ < total/2 {
		t.Fatalf("only %d of %d twins differ in hidden information", differ, total)
	}
	t.Logf("%d positions (%d in a window or payment), %d with hidden information redealt", total, windows, differ)
}

// TestGreedySacrificeFromExtraFleet: the greedy bot's cheapest sacrifice
// reads a card in the extra fleet (fleet<<8 | index) — it once indexed the
// Base fleet with it and crashed.
func TestGreedySacrificeFromExtraFleet(t *testing.T) {
	s := fullTable(t, nil)
	f := &s.P[0].Army.Fleets[ExtraFleet]
	f.U[0], f.U[1] = ShipUnit(s.rs.Defs, s.rs.CardIndex("interceptors")), ShipUnit(s.rs.Defs, s.rs.CardIndex("mothership"))
	f.N = 2
	put(s, 0, "fighters")
	give(s, 0, "penguins")
	s.P[0].MP = 100
	s.Apply(mk(actPlay, s.rs.CardIndex("penguins")))
	ls := s.LegalActions(nil)
	if s.phase != phSacrifice || len(ls) != 2 {
		t.Fatalf("phase %d, %d sacrifices", s.phase, len(ls))
	}
	if a := (Greedy{}).Choose(s, ls); a != mk(actSacrifice, ExtraFleet<<8) {
		t.Fatalf("greedy sacrificed %s, want the 60-MP Interceptors", s.ActionString(a))
	}
}

// TestSplitReinforcements: E5 "Man darf seine Reinforcements aussortieren
// und auf einen extra-Haufen legen. Immer, wenn man eine Karte zieht darf
// man wählen, von welchem Nachziehstapel man zieht." (opt.split_reinf):
// each draw with both piles left is the drawer's choice.
func TestSplitReinforcements(t *testing.T) {
	cp := *Embedded(ReferenceRuleset)
	cp.Rules.SplitReinf = true
	st, err := cp.NewState([]int{0, 0}, 9)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if s.phase != phDraw || s.P[0].RLibN+s.P[0].LibN != 40 || s.P[0].PendDraw < 4 {
		t.Fatalf("phase %d, piles %d+%d, pending %d", s.phase, s.P[0].LibN, s.P[0].RLibN, s.P[0].PendDraw)
	}
	for _, ci := range s.P[0].RLib[:s.P[0].RLibN] {
		if cp.Defs[ci].Type != Reinforcement {
			t.Fatalf("%s in the reinforcement pile", cp.Defs[ci].ID)
		}
	}
	// The opening hands: every draw from the reinforcements.
	for s.phase == phDraw {
		s.Apply(mk(actDrawFrom, 1))
	}
	for p := 0; p < 2; p++ {
		for ci := range cp.Defs {
			if s.P[p].Hand[ci] > 0 && cp.Defs[ci].Type != Reinforcement {
				t.Fatalf("seat %d drew %s from the reinforcements", p+1, cp.Defs[ci].ID)
			}
		}
	}
	if s.phase != phMain || s.P[s.First].HandN != 6 || s.P[1-s.First].HandN != 4 {
		t.Fatalf("phase %d, hands %d and %d", s.phase, s.P[s.First].HandN, s.P[1-s.First].HandN)
	}
}

// TestGreedyOptionalDiscards: the greedy bot uses E5's optional discards
// when they pay, as it does the 3-card discard — a single discard for MP
// when it makes a ship affordable with fewer cards than the 3-card discard
// takes, the cheapest spare card going; never the 2-card discard for a
// draw, which did not pay.
func TestGreedyOptionalDiscards(t *testing.T) {
	for _, c := range []struct {
		name   string
		d1     int
		d2     bool
		mp     int
		hand   []string
		want   int    // action kind
		wantID string // the card discarded (actDiscard1)
	}{
		{"one discard reaches fighters", 30, false, 80, []string{"fighters", "cruiser", "dreadnought"}, actDiscard1, "cruiser"},
		{"two discards reach fighters", 30, false, 40, []string{"fighters", "eagles", "dreadnought", "battleship"}, actDiscard1, "eagles"},
		{"option off", 0, false, 80, []string{"fighters", "cruiser", "dreadnought"}, actEnd, ""},
		{"three discards: the 3-card discard instead", 30, false, 20, []string{"fighters", "cruiser", "dreadnought", "battleship", "doomstar"}, actDiscardMP, ""},
		{"too few spare cards", 30, false, 40, []string{"fighters", "cruiser"}, actEnd, ""},
		// Measured not to pay (TestGreedyOptionalDiscardsPay's figures in
		// rules-spacetrace.md): never chosen, even by a stuck hand.
		{"2-card discard not chosen", 30, true, 0, []string{"dreadnought", "battleship", "doomstar"}, actEnd, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := fullTable(t, func(r *Rules) { r.Discard1MP, r.Discard2Draw = c.d1, c.d2 })
			give(s, 0, c.hand...)
			s.P[0].MP = c.mp
			ls := s.LegalActions(nil)
			a := Greedy{}.Choose(s, ls)
			if !has(ls, a) {
				t.Fatalf("greedy chose %s, not legal", s.ActionString(a))
			}
			if int(a>>16) != c.want || (c.wantID != "" && int(a&0xffff) != s.rs.CardIndex(c.wantID)) {
				t.Fatalf("greedy chose %s", s.ActionString(a))
			}
		})
	}
}

// noOptDiscards is the greedy bot without E5's optional discards: the
// baseline TestGreedyOptionalDiscardsPay measures them against.
type noOptDiscards struct{ buf []game.Action }

func (b *noOptDiscards) Choose(st game.State, legal []game.Action) game.Action {
	b.buf = b.buf[:0]
	for _, a := range legal {
		if k := int(a >> 16); k != actDiscard1 && k != actDiscard2 {
			b.buf = append(b.buf, a)
		}
	}
	return Greedy{}.Choose(st, b.buf)
}

// TestGreedyOptionalDiscardsPay: with both optional discards on (30 MP a
// single discard), the greedy bot that uses them beats the one that does
// not on the reference deck (the same deals with the seats swapped): 51.7%
// ± 0.6.
func TestGreedyOptionalDiscardsPay(t *testing.T) {
	cp := *Embedded(ReferenceRuleset)
	cp.Rules.Discard1MP, cp.Rules.Discard2Draw = 30, true
	rs := &cp
	base := &noOptDiscards{}
	const deals = 4000
	var sum, sum2 float64
	buf := make([]game.Action, 0, 64)
	for seed := uint64(1); seed <= deals; seed++ {
		for seat := 0; seat < 2; seat++ {
			st, err := rs.NewState([]int{0, 0}, seed)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; !st.IsTerminal(); n++ {
				if n > 100000 {
					t.Fatal("game does not end")
				}
				legal := st.LegalActions(buf[:0])
				var a game.Action
				if st.CurrentPlayer() == seat {
					a = Greedy{}.Choose(st, legal)
				} else {
					a = base.Choose(st, legal)
				}
				st.Apply(a)
			}
			r := st.Returns()[seat]
			sum += r
			sum2 += r * r
		}
	}
	n := float64(2 * deals)
	m := sum / n
	se := math.Sqrt((sum2/n - m*m) / n)
	t.Logf("the greedy with the optional discards wins %.3f ± %.3f against the greedy without", m, se)
	if m-2*se <= 0.5 {
		t.Errorf("the optional discards do not pay: %.3f ± %.3f", m, se)
	}
}
