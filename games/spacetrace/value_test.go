package spacetrace

import (
	"math"
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
	rs := Default()
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
	rs := Default()
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
	rs := Default()
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
