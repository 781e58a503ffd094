package greedy

import (
	"math"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// factionIDs are the default set's factions, seated in this order.
var factionIDs = []string{"starfleet", "vulcan", "romulan", "klingon"}

// Greedy's tables and shortcuts change only the work, never a choice: it
// must choose as the plain version of its rule (refGreedy) does, action for
// action, with agents reused between games of different lineups, player
// counts and rulesets (a variant whose cards lost their effects), and in
// positions that random play reaches.
func TestGreedyMatchesReference(t *testing.T) {
	rs := rules.Default()
	variant := *rs
	variant.Cards = append([]rules.Card(nil), rs.Cards...)
	for i := range variant.Cards {
		if i%3 == 0 {
			variant.Cards[i].Effect, variant.Cards[i].Kind = nil, rules.KindNone
		}
	}
	var fast [4]*Greedy
	var plain [4]*refGreedy
	for q := range fast {
		fast[q], plain[q] = New(uint64(q)), newRefGreedy(uint64(q))
	}
	n, decisions := 1200, 0
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		np := 2 + i/2%3 // the same count twice running, in other factions
		fs := make([]string, np)
		for k := range fs {
			fs[k] = factionIDs[(i+k)%4]
		}
		r := rs
		if i%5 == 2 {
			r = &variant
		}
		s, err := engine.New(r, engine.Config{Factions: fs, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < np; q++ {
			fast[q].Reseed(uint64(i*10 + q))
			plain[q].Reseed(uint64(i*10 + q))
		}
		walk := engine.NewRNG(uint64(i))
		randomSeats := i % 4 // these seats play at random half the time
		var buf []engine.Action
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			q := s.CurrentPlayer()
			a, b := fast[q].Choose(s, buf), plain[q].Choose(s, buf)
			decisions++
			if a != b {
				t.Fatalf("game %d (%v), decision %d: Greedy chose %v, the plain rule %v", i, fs, decisions, a, b)
			}
			if q < randomSeats && walk.Intn(2) == 0 {
				a = buf[walk.Intn(len(buf))]
			}
			s.Apply(a)
		}
	}
	t.Logf("%d decisions alike", decisions)
}

// When Greedy's decision counter wraps, no remembered gain may pass for one
// of the new decision's.
func TestGreedyMemoWraps(t *testing.T) {
	rs := rules.Default()
	g, ref := New(3), newRefGreedy(3)
	for d := range g.memo {
		for r := range g.memo[d] {
			g.memo[d][r], g.memoGen[d][r] = math.NaN(), 1 // stale, from decision 1
		}
	}
	g.gen = math.MaxUint32 - 1
	s, err := engine.New(rs, engine.Config{Factions: factionIDs[:2], Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	var buf []engine.Action
	for !s.IsTerminal() {
		buf = s.LegalActions(buf)
		if s.CurrentPlayer() == 0 {
			a, b := g.Choose(s, buf), ref.Choose(s, buf)
			if a != b {
				t.Fatalf("after the counter wrapped Greedy chose %v, the plain rule %v", a, b)
			}
			s.Apply(a)
			continue
		}
		s.Apply(buf[0])
	}
}

// One Greedy playing every seat, as ISMCTS's rollouts use it, keeps each
// seat's row summaries apart: asked through decide, as the runner asks
// (ai.Decide calls it for a Greedy), it chooses as the plain rule does.
func TestGreedyAllSeatsMatchesReference(t *testing.T) {
	rs := rules.Default()
	g, ref := New(3), newRefGreedy(3)
	n := 90
	if testing.Short() {
		n = 15
	}
	decisions := 0
	for i := 0; i < n; i++ {
		np := 2 + i%3
		fs := make([]string, np)
		for k := range fs {
			fs[k] = factionIDs[(i+k)%4]
		}
		s, err := engine.New(rs, engine.Config{Factions: fs, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		var legal, buf []engine.Action
		for !s.IsTerminal() {
			legal = s.LegalActions(legal)
			b := ref.Choose(s, legal)
			a, ok := g.Decide(s, &buf)
			decisions++
			if !ok || a != b {
				t.Fatalf("game %d (%v), decision %d: Greedy chose %v, the plain rule %v", i, fs, decisions, a, b)
			}
			s.Apply(a)
		}
	}
	t.Logf("%d decisions alike", decisions)
}

// refGreedy is Greedy's decision rule written plainly, as it was before
// Greedy was tuned for speed: every decision looks at every row, works out
// each target's worth and each card's effect from the ruleset, and scores
// each action on its own. Greedy must choose exactly as it does.
type refGreedy struct {
	rng   engine.RNG
	rs    *rules.Ruleset
	bonus [256]float64 // static worth of each card's effect, added to its power
	mean  []float64    // mean base power per faction
	h     [256]string  // handler name per card definition
	view  [rules.MaxRows]engine.RowView
	est   [rules.MaxRows][rules.MaxPlayers]float64
	w     [rules.MaxRows]float64
	opp   [rules.MaxRows]float64 // strongest opponent's estimate per row
	base  [rules.MaxRows]float64 // chance of winning each row as it stands
	// memo caches placement gains per (card, row) within one decision:
	// Teleport positions and shield/wave look-ahead ask for the same ones.
	memo    [256][rules.MaxRows]float64
	memoGen [256][rules.MaxRows]uint32
	gen     uint32
	looked  bool
	me      int
}

const refScale = greedyScale

func newRefGreedy(seed uint64) *refGreedy { return &refGreedy{rng: engine.NewRNG(seed)} }

func (g *refGreedy) prepare(rs *rules.Ruleset) {
	g.rs = rs
	// A reused agent may move to another ruleset (a variant in a paired
	// run): nothing of the last one may survive.
	g.h, g.bonus = [256]string{}, [256]float64{}
	g.mean = make([]float64, len(rs.Factions))
	for fi, f := range rs.Factions {
		tot, n := 0, 0
		for _, d := range f.Deck {
			tot += rs.Cards[d].Power * rs.Cards[d].Copies
			n += rs.Cards[d].Copies
		}
		if n > 0 {
			g.mean[fi] = float64(tot) / float64(n)
		}
	}
	for i := range rs.Cards {
		c := &rs.Cards[i]
		if i >= 256 || c.Effect == nil {
			continue
		}
		g.h[i] = c.Effect.Handler
		// Rough worth of effects whose value does not depend on the row.
		switch c.Effect.Handler {
		case "strike_ship":
			g.bonus[i] = 3
		case "flagship":
			g.bonus[i] = 2.5
		case "space_mines", "weapon_purge", "distress_signal", "bomb":
			g.bonus[i] = 1.5
		case "draw_cards":
			g.bonus[i] = 0.7 * float64(c.Effect.Arg("count").Int)
		case "spy", "blocker_ship", "scout_ship", "deactivate_above":
			g.bonus[i] = 1
		case "modify_power":
			g.bonus[i] = float64(c.Effect.Arg("amount").Int)
		case "power_per_card":
			g.bonus[i] = float64(c.Effect.Arg("amount").Int)
		}
	}
}

// refLogistic is the soft-sign sigmoid of the power margin over the scale:
// x/(1+|x|) with x = m/scale, computed as Greedy computes it.
func refLogistic(m float64) float64 {
	return 0.5 + 0.5*m/(refScale+math.Abs(m))
}

// look summarises every row from the deciding seat's view.
func (g *refGreedy) look(s *engine.State) {
	rs := s.Ruleset()
	n := s.NumPlayers()
	for r := 0; r < s.NumRows(); r++ {
		v := &g.view[r]
		s.ViewRow(g.me, r, v)
		for q := 0; q < n; q++ {
			g.est[r][q] = float64(v.Known[q]) + float64(v.Hidden[q])*g.mean[s.Faction(q)]
		}
		g.w[r] = 0
		if v.Target >= 0 {
			g.w[r] = targetWorth(rs, s, g.me, int(v.Target)) // unchanged by the rework: shared
		}
		g.opp[r] = 0
		for q := 0; q < n; q++ {
			if q != g.me && g.est[r][q] > g.opp[r] {
				g.opp[r] = g.est[r][q]
			}
		}
		g.base[r] = g.chance(s, r, 0, 0, false)
	}
}

// chance is the estimated chance that seat me wins row r if me gains add
// power and the strongest opponent loses sub.
func (g *refGreedy) chance(s *engine.State, r int, add, sub float64, addCard bool) float64 {
	if g.view[r].Top[g.me] < 0 && !addCard {
		return 0 // no card there: cannot win it
	}
	return refLogistic(g.est[r][g.me] + add - g.opp[r] + sub)
}

// worth is what card d adds when played to row r now.
func (g *refGreedy) worth(s *engine.State, d, r int) float64 {
	rs := s.Ruleset()
	c := &rs.Cards[d]
	v := &g.view[r]
	p := float64(c.Power) + g.bonus[d]
	maxOpp := g.opp[r]
	switch g.h[d] {
	case "admiral":
		p += float64(c.Effect.Arg("per_card").Int) * float64(v.Len+1)
	case "armada":
		p += maxOpp
	case "deflector":
		if v.Len > 0 {
			p += 2 // the base power above, usually an opponent's answer
		}
	case "diplomat_combo", "bonus_vs_target":
		if v.Target >= 0 && g.h[d] == "bonus_vs_target" {
			tt := c.Effect.Arg("target_type").Int
			if tt == 0 || tt-1 == int(rs.Targets[v.Target].Type) {
				p += float64(c.Effect.Arg("amount").Int)
			}
		}
		if g.h[d] == "diplomat_combo" {
			p += 2
		}
	case "weaken_above", "deactivate_above":
		amt := 2.0
		if g.h[d] == "weaken_above" {
			amt = float64(c.Effect.Arg("amount").Int)
		}
		if v.Len > 0 && v.Bottom >= 0 && !v.BottomDown {
			// The card above is known: helps against an opponent, hurts me.
			if v.Top[g.me] == v.Len-1 {
				p -= amt
			} else {
				p += amt
			}
		}
	case "blockade":
		if g.chance(s, r, float64(c.Power), 0, true) > 0.6 {
			p += 3
		} else {
			p -= 2
		}
	}
	return p
}

// gain is the weighted change in row r's outlook from adding power p.
func (g *refGreedy) gain(s *engine.State, r int, p float64) float64 {
	return g.w[r] * (g.chance(s, r, p, 0, true) - g.base[r])
}

// placeGain is gain(worth(d, r)), memoised for this decision.
func (g *refGreedy) placeGain(s *engine.State, d, r int) float64 {
	if d < 256 && g.memoGen[d][r] == g.gen {
		return g.memo[d][r]
	}
	v := g.gain(s, r, g.worth(s, d, r))
	if d < 256 {
		g.memo[d][r], g.memoGen[d][r] = v, g.gen
	}
	return v
}

// need makes sure the rows have been looked at for this decision.
func (g *refGreedy) need(s *engine.State) {
	if !g.looked {
		g.look(s)
		g.looked = true
	}
}

// Choose scores each legal action and returns the best (ties broken at
// random).
func (g *refGreedy) Choose(s *engine.State, legal []engine.Action) engine.Action {
	if len(legal) == 1 {
		return legal[0]
	}
	if g.rs != s.Ruleset() {
		g.prepare(s.Ruleset())
	}
	g.me = s.CurrentPlayer()
	g.looked = false
	g.gen++
	handler := s.PendingHandler()
	best, bestV, ties := legal[0], math.Inf(-1), 0
	for _, a := range legal {
		v := g.score(s, a, handler)
		switch {
		case v > bestV+1e-9:
			best, bestV, ties = a, v, 1
		case v > bestV-1e-9:
			ties++
			if g.rng.Intn(ties) == 0 {
				best = a
			}
		}
	}
	return best
}

func (g *refGreedy) score(s *engine.State, a engine.Action, handler string) float64 {
	rs := s.Ruleset()
	switch a.Kind() {
	case engine.ActPass, engine.ActDiscard, engine.ActDone:
	default:
		g.need(s)
	}
	switch a.Kind() {
	case engine.ActPlace:
		return g.placeGain(s, a.Card(), a.Row())
	case engine.ActPlaceAt:
		// Higher positions win ties.
		return g.placeGain(s, a.Card(), a.Row()) + 0.01*float64(int(g.view[a.Row()].Len)-a.Pos())
	case engine.ActShield:
		return g.bestPlacement(s, a.Card()) + 0.3
	case engine.ActWave:
		return g.bestPlacement(s, a.Card()) - 0.2
	case engine.ActPass:
		return -0.25
	case engine.ActDiscard:
		c := &rs.Cards[a.Card()]
		return 1.5 - float64(c.Power) - g.bonus[a.Card()]
	case engine.ActDone:
		return 0
	case engine.ActRow:
		if d := s.PendingCard(); d >= 0 {
			return g.placeGain(s, d, a.Row())
		}
		return g.w[a.Row()]
	case engine.ActHand:
		if handler == "negotiations" {
			r := s.PendingRow()
			if r < 0 || g.w[r] == 0 {
				return -1
			}
			c := &rs.Cards[a.Card()]
			// A strong bid is worth part of the target, the card is spent.
			return g.w[r]*(float64(c.Power)/8) - 0.4*float64(c.Power) - 0.5
		}
		// Distress Signal: a ship from hand, face up, into the pending row.
		if r := s.PendingRow(); r >= 0 {
			return g.gain(s, r, float64(rs.Cards[a.Card()].Power))
		}
		return 0
	case engine.ActSlot:
		return g.slotValue(s, a, handler)
	}
	return 0
}

// bestPlacement is the best gain any other hand card could make.
func (g *refGreedy) bestPlacement(s *engine.State, except int) float64 {
	best := 0.0
	for k := 0; k < s.HandLen(g.me); k++ {
		d := s.HandCard(g.me, g.me, k)
		if d == except {
			continue
		}
		for r := 0; r < s.NumRows(); r++ {
			if g.view[r].Open {
				if v := g.placeGain(s, d, r); v > best {
					best = v
				}
			}
		}
	}
	return best
}

// slotValue scores choosing the card at a.Row()/a.Pos(): removing it
// (Strike ship, EMP) or moving it into the pending row (Distress Signal).
func (g *refGreedy) slotValue(s *engine.State, a engine.Action, handler string) float64 {
	r := a.Row()
	in := s.Slot(g.me, r, a.Pos())
	p := g.mean[s.Faction(in.Owner)]
	if in.Card >= 0 {
		p = float64(s.Ruleset().Cards[in.Card].Power)
	}
	if handler == "distress_signal" {
		to := s.PendingRow()
		if to < 0 {
			return 0
		}
		return g.gain(s, to, p) - g.w[r]*(g.chance(s, r, 0, 0, false)-g.chance(s, r, -p, 0, false))
	}
	if in.Owner == g.me {
		return -g.w[r] * (g.chance(s, r, 0, 0, false) - g.chance(s, r, -p, 0, false))
	}
	return g.w[r] * (g.chance(s, r, 0, p, false) - g.chance(s, r, 0, 0, false))
}

func (g *refGreedy) Reseed(seed uint64) { g.rng = engine.NewRNG(seed) }
