package spacetrace

import (
	"math"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// playGreedy plays s out with the greedy bot on both seats and returns
// its actions as strings and seat 1's return.
func playGreedy(t *testing.T, s game.State) ([]string, float64) {
	t.Helper()
	var moves []string
	buf := make([]game.Action, 0, 64)
	for n := 0; !s.IsTerminal(); n++ {
		if n > 100000 {
			t.Fatal("game does not end")
		}
		legal := s.LegalActions(buf[:0])
		a := Greedy{}.Choose(s, legal)
		moves = append(moves, s.ActionString(a))
		s.Apply(a)
	}
	return moves, s.Returns()[0]
}

func zeroPerts(rs *Ruleset) [][]game.Perturb {
	return [][]game.Perturb{make([]game.Perturb, len(rs.Defs)), make([]game.Perturb, len(rs.Defs))}
}

// A null variant changes nothing: with no perturbation, the variant's game
// is the ruleset's own game move for move, on both rotations and with a
// state reused from game to game.
func TestValueNullVariant(t *testing.T) {
	rs := First()
	vs := rs.NewVariants()
	for seed := uint64(1); seed <= 40; seed++ {
		want, err := rs.NewState([]int{0, 0}, seed)
		if err != nil {
			t.Fatal(err)
		}
		wm, wr := playGreedy(t, want)
		for rot := 0; rot < 2; rot++ {
			s, err := vs.Variant([]int{0, 0}, rot, zeroPerts(rs), seed)
			if err != nil {
				t.Fatal(err)
			}
			gm, gr := playGreedy(t, s)
			if gr != wr || len(gm) != len(wm) {
				t.Fatalf("seed %d rot %d: return %v after %d moves, want %v after %d", seed, rot, gr, len(gm), wr, len(wm))
			}
			for i := range wm {
				if gm[i] != wm[i] {
					t.Fatalf("seed %d rot %d: move %d is %s, want %s", seed, rot, i, gm[i], wm[i])
				}
			}
		}
	}
}

// ValueCards: every card of the first game's deck in units of 10 MP, the
// MP reinforcements plain; a perturbation the deck cannot hold is cleared.
func TestValueCards(t *testing.T) {
	rs := First()
	if u := rs.ValueUnit(); u.Short != "MP/10" || u.Scale != ValueStep || u.Currency != "MP" {
		t.Errorf("unit %+v", u)
	}
	byID := map[string]game.ValueCard{}
	for _, vc := range rs.ValueCards(0) {
		byID[rs.Defs[vc.Index].ID] = vc
	}
	for _, c := range []struct {
		id    string
		value int
		plain bool
	}{{"fighters", 10, false}, {"interceptors", 6, false}, {"reinforcement-100", 10, true}, {"reinforcement-50", 5, true}} {
		vc, ok := byID[c.id]
		if !ok || vc.Value != c.value || vc.Plain != c.plain || !vc.Blankable {
			t.Errorf("%s: %+v (listed %v), want value %d plain %v", c.id, vc, ok, c.value, c.plain)
		}
	}
	// A card with one copy both blanked and shifted keeps the blank only;
	// a card not in the deck keeps nothing.
	one, out := -1, -1
	for _, e := range rs.Decks[0].Entries {
		if e.Copies == 1 && one < 0 {
			one = e.Card
		}
	}
	inDeck := map[int]bool{}
	for _, ci := range rs.Decks[0].List {
		inDeck[int(ci)] = true
	}
	for ci := range rs.Defs {
		if !inDeck[ci] {
			out = ci
			break
		}
	}
	pert := zeroPerts(rs)
	if one >= 0 {
		pert[0][one] = game.Perturb{Blank: true, Shift: 1}
	}
	if out >= 0 {
		pert[0][out] = game.Perturb{Blank: true, Shift: -1}
	}
	if _, err := rs.NewVariants().Variant([]int{0, 0}, 0, pert, 1); err != nil {
		t.Fatal(err)
	}
	if one >= 0 && pert[0][one] != (game.Perturb{Blank: true}) {
		t.Errorf("one-copy card %s: %+v left", rs.Defs[one].ID, pert[0][one])
	}
	if out >= 0 && pert[0][out] != (game.Perturb{}) {
		t.Errorf("card %s outside the deck: %+v left", rs.Defs[out].ID, pert[0][out])
	}
}

// Blanking a strong card costs its holder, and 10 MP more on a
// reinforcement does not: paired games (same seeds, both rotations) of the
// greedy bot, seat 1's copy perturbed.
func TestValueBlankCostsHolder(t *testing.T) {
	rs := First()
	vs := rs.NewVariants()
	const games = 600
	share := func(card string, p game.Perturb) (mean, se float64) {
		ci := rs.CardIndex(card)
		if ci < 0 {
			t.Fatalf("no card %s", card)
		}
		var sum, sum2 float64
		for seed := uint64(1); seed <= games; seed++ {
			for rot := 0; rot < 2; rot++ {
				base, err := vs.Variant([]int{0, 0}, rot, zeroPerts(rs), seed)
				if err != nil {
					t.Fatal(err)
				}
				_, r0 := playGreedy(t, base)
				pert := zeroPerts(rs)
				pert[0][ci] = p
				s, err := vs.Variant([]int{0, 0}, rot, pert, seed)
				if err != nil {
					t.Fatal(err)
				}
				_, r1 := playGreedy(t, s)
				// Seat q plays position (q+rot) mod 2: position 0 sits at seat rot.
				q := rot % 2
				if q == 1 {
					r0, r1 = 1-r0, 1-r1
				}
				d := r1 - r0
				sum += d
				sum2 += d * d
			}
		}
		n := float64(2 * games)
		mean = sum / n
		return mean, math.Sqrt((sum2/n - mean*mean) / n)
	}
	m, se := share("reinforcement-100", game.Perturb{Blank: true})
	t.Logf("blank reinforcement-100: %+.4f ± %.4f", m, se)
	if m >= -3*se || m >= 0 {
		t.Errorf("blanking one reinforcement-100 moves its holder's win share by %+.4f ± %.4f: want a clear loss", m, se)
	}
	m, se = share("fighters", game.Perturb{Blank: true})
	t.Logf("blank fighters: %+.4f ± %.4f", m, se)
	if m >= -3*se || m >= 0 {
		t.Errorf("blanking one fighters moves its holder's win share by %+.4f ± %.4f: want a clear loss", m, se)
	}
}

// The full game values every card of its deck — ships, reinforcements
// (the damage card too), tactics and commanders — at its printed MP in
// steps of 50 MP, and a unit move makes a tactic or commander a step
// cheaper (+1) or dearer (−1) like a ship; the blank in a commander's place
// can never be played.
func TestValueCardsFull(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	if u := rs.ValueUnit(); u.Short != "MP/50" || u.Scale != FullValueStep || u.Currency != "MP" || u.Name != "step of 50 MP" {
		t.Errorf("unit %+v", u)
	}
	byID := map[string]game.ValueCard{}
	for _, vc := range rs.ValueCards(0) {
		byID[rs.Defs[vc.Index].ID] = vc
	}
	for _, e := range rs.Decks[0].Entries {
		if _, ok := byID[rs.Defs[e.Card].ID]; !ok {
			t.Errorf("%s (%s) is in the deck but not valued", rs.Defs[e.Card].ID, rs.Defs[e.Card].Type)
		}
	}
	for _, c := range []struct {
		id           string
		value        int
		plain, lower bool
	}{
		{"fighters", 2, false, true},
		{"dreadnought", 6, false, true},
		{"reinforcement-100", 2, true, true},
		{"reinforcement-2", 1, false, true}, // 50 MP and 40 damage
		{"torpedo-salvo", 1, false, true},
		{"emp-burst", 1, false, true}, // 30 MP rounds to one step
		{"deserter", 2, false, true},
		{"veteran-commander", 1, false, true},
		{"logistics-commander", 2, false, true}, // 80 MP
	} {
		vc, ok := byID[c.id]
		if !ok || vc.Value != c.value || vc.Plain != c.plain || vc.Lower != c.lower || !vc.Blankable {
			t.Errorf("%s: %+v (listed %v), want value %d plain %v lower %v", c.id, vc, ok, c.value, c.plain, c.lower)
		}
	}
	// The Cards column the price curve reads is in the same unit.
	for _, gc := range rs.Cards() {
		if gc.ID != "logistics-commander" {
			continue
		}
		if col := gc.Columns[1]; col.Key != "mp/50" || col.Int != 2 {
			t.Errorf("logistics-commander's printed-value column %+v, want mp/50 = 2", col)
		}
	}
	vs := rs.NewVariants()
	for _, c := range []struct {
		id     string
		p      game.Perturb
		wantMP int // the perturbed copy's cost; -1: the blank
	}{
		{"torpedo-salvo", game.Perturb{Shift: 1}, 0},
		{"torpedo-salvo", game.Perturb{Shift: -1}, 100},
		{"logistics-commander", game.Perturb{Shift: 1}, 30},
		{"logistics-commander", game.Perturb{Shift: -1}, 130},
		{"veteran-commander", game.Perturb{Blank: true}, -1},
		{"emergency-repairs", game.Perturb{Blank: true}, -1},
	} {
		ci := rs.CardIndex(c.id)
		pert := zeroPerts(rs)
		pert[0][ci] = c.p
		st, err := vs.Variant([]int{0, 0}, 0, pert, 1)
		if err != nil {
			t.Fatal(err)
		}
		if pert[0][ci] != c.p {
			t.Fatalf("%s %+v cleared to %+v", c.id, c.p, pert[0][ci])
		}
		s := st.(*State)
		var got []*Card
		for _, di := range s.rs.Decks[0].List {
			if d := &s.rs.Defs[di]; int(di) >= len(rs.Defs) {
				got = append(got, d)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%s %+v: %d perturbed copies in the deck, want 1", c.id, c.p, len(got))
		}
		d := got[0]
		switch {
		case c.wantMP < 0:
			if !d.Blank || stackCard(d) {
				t.Errorf("%s blanked: %+v, want the blank (never on the stack)", c.id, d)
			}
		case d.ID != c.id || d.Type != rs.Defs[ci].Type || d.MP != c.wantMP || len(d.Effects) != len(rs.Defs[ci].Effects):
			t.Errorf("%s %+v: copy %s %s at %d MP with %d effects, want %d MP and the card's effects", c.id, c.p, d.ID, d.Type, d.MP, len(d.Effects), c.wantMP)
		}
	}
}

// A null variant of the full game plays the ruleset's own game move for
// move (tactics, commanders and their windows included).
func TestValueNullVariantFull(t *testing.T) {
	rs := Embedded(ReferenceRuleset)
	vs := rs.NewVariants()
	for seed := uint64(1); seed <= 15; seed++ {
		want, err := rs.NewState([]int{0, 0}, seed)
		if err != nil {
			t.Fatal(err)
		}
		wm, wr := playGreedy(t, want)
		for rot := 0; rot < 2; rot++ {
			s, err := vs.Variant([]int{0, 0}, rot, zeroPerts(rs), seed)
			if err != nil {
				t.Fatal(err)
			}
			gm, gr := playGreedy(t, s)
			if gr != wr || !slices.Equal(gm, wm) {
				t.Fatalf("seed %d rot %d: return %v after %d moves, want %v after %d", seed, rot, gr, len(gm), wr, len(wm))
			}
		}
	}
}
