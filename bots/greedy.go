package bots

import (
	"math"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// Greedy looks one decision ahead. It scores every legal action from what
// its seat can see — each row's standing weighted by what the target is
// worth to it (victory points, its planet bonus, denying an opponent's), the
// immediate worth of the card's effect, and for every card it cannot see the
// average power of the owner's deck — and takes the best. It copies no game
// state: a score is a few additions on a per-row summary (game.RowView).
//
// The standing of a row is turned into a chance of winning it with a
// logistic curve of the estimated power margin, so a card goes where it
// changes the outcome most: not to rows already safe, nor to rows already
// lost.
type Greedy struct {
	rng   game.RNG
	rs    *cards.Ruleset
	bonus [256]float64 // static worth of each card's effect, added to its power
	mean  []float64    // mean base power per faction
	h     [256]string  // handler name per card definition
	view  [cards.MaxRows]game.RowView
	est   [cards.MaxRows][cards.MaxPlayers]float64
	w     [cards.MaxRows]float64
	opp   [cards.MaxRows]float64 // strongest opponent's estimate per row
	base  [cards.MaxRows]float64 // chance of winning each row as it stands
	// memo caches placement gains per (card, row) within one decision:
	// Teleport positions and shield/wave look-ahead ask for the same ones.
	memo    [256][cards.MaxRows]float64
	memoGen [256][cards.MaxRows]uint32
	gen     uint32
	looked  bool
	me      int
}

// Scale is the power margin at which Greedy thinks a row is about 73% won.
const greedyScale = 3.0

// NewGreedy returns a Greedy agent; seed only breaks ties between equally
// good actions.
func NewGreedy(seed uint64) *Greedy { return &Greedy{rng: game.NewRNG(seed)} }

func (g *Greedy) prepare(rs *cards.Ruleset) {
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

// logistic maps a power margin to a chance of winning the row. It is the
// "soft sign" sigmoid rather than 1/(1+e^-x): the same shape for ranking
// actions, and no exponential in the inner loop.
func logistic(m float64) float64 {
	x := m / greedyScale
	if x < 0 {
		return 0.5 + 0.5*x/(1-x)
	}
	return 0.5 + 0.5*x/(1+x)
}

// look summarises every row from the deciding seat's view.
func (g *Greedy) look(s *game.State) {
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
			g.w[r] = targetWorth(rs, s, g.me, v.Target)
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

// targetWorth is what taking target t is worth to seat me: its VP, my
// planet bonus, and half of the planet bonus it denies an opponent.
func targetWorth(rs *cards.Ruleset, s *game.State, me, t int) float64 {
	tg := &rs.Targets[t]
	w := float64(tg.VP) + 0.5*float64(len(tg.Bonuses))
	if tg.Type != cards.Planet {
		return w
	}
	deny := 0.0
	for q := 0; q < s.NumPlayers(); q++ {
		if planetBonusFor(rs, &rs.Factions[s.Faction(q)], tg) {
			if q == me {
				w += float64(rs.Rules.PlanetBonus)
			} else {
				deny = 0.5 * float64(rs.Rules.PlanetBonus)
			}
		}
	}
	return w + deny
}

func planetBonusFor(rs *cards.Ruleset, f *cards.Faction, tg *cards.Target) bool {
	for _, a := range f.Planets {
		if a == tg.Affiliation {
			return true
		}
	}
	if tg.Affiliation == rs.Rules.FederationAffiliation {
		for _, id := range rs.Rules.FederationFactions {
			if id == f.ID {
				return true
			}
		}
	}
	return false
}

// chance is the estimated chance that seat me wins row r if me gains add
// power and the strongest opponent loses sub.
func (g *Greedy) chance(s *game.State, r int, add, sub float64, addCard bool) float64 {
	if g.view[r].Top[g.me] < 0 && !addCard {
		return 0 // no card there: cannot win it
	}
	return logistic(g.est[r][g.me] + add - g.opp[r] + sub)
}

// worth is what card d adds when played to row r now.
func (g *Greedy) worth(s *game.State, d, r int) float64 {
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
func (g *Greedy) gain(s *game.State, r int, p float64) float64 {
	return g.w[r] * (g.chance(s, r, p, 0, true) - g.base[r])
}

// placeGain is gain(worth(d, r)), memoised for this decision.
func (g *Greedy) placeGain(s *game.State, d, r int) float64 {
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
func (g *Greedy) need(s *game.State) {
	if !g.looked {
		g.look(s)
		g.looked = true
	}
}

// Choose scores each legal action and returns the best (ties broken at
// random).
func (g *Greedy) Choose(s *game.State, legal []game.Action) game.Action {
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

func (g *Greedy) score(s *game.State, a game.Action, handler string) float64 {
	rs := s.Ruleset()
	switch a.Kind() {
	case game.ActPass, game.ActDiscard, game.ActDone:
	default:
		g.need(s)
	}
	switch a.Kind() {
	case game.ActPlace:
		return g.placeGain(s, a.Card(), a.Row())
	case game.ActPlaceAt:
		// Higher positions win ties.
		return g.placeGain(s, a.Card(), a.Row()) + 0.01*float64(g.view[a.Row()].Len-a.Pos())
	case game.ActShield:
		return g.bestPlacement(s, a.Card()) + 0.3
	case game.ActWave:
		return g.bestPlacement(s, a.Card()) - 0.2
	case game.ActPass:
		return -0.25
	case game.ActDiscard:
		c := &rs.Cards[a.Card()]
		return 1.5 - float64(c.Power) - g.bonus[a.Card()]
	case game.ActDone:
		return 0
	case game.ActRow:
		if d := s.PendingCard(); d >= 0 {
			return g.placeGain(s, d, a.Row())
		}
		return g.w[a.Row()]
	case game.ActHand:
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
	case game.ActSlot:
		return g.slotValue(s, a, handler)
	}
	return 0
}

// bestPlacement is the best gain any other hand card could make.
func (g *Greedy) bestPlacement(s *game.State, except int) float64 {
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
func (g *Greedy) slotValue(s *game.State, a game.Action, handler string) float64 {
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

// Reseed starts the agent over as NewGreedy(seed) would (its tables depend
// only on the ruleset and are kept), so a runner can reuse it between games.
func (g *Greedy) Reseed(seed uint64) { g.rng = game.NewRNG(seed) }
