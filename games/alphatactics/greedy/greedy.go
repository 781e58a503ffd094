package greedy

import (
	"math"
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Greedy looks one decision ahead. It scores every legal action from what
// its seat can see — each row's standing weighted by what the target is
// worth to it (victory points, its planet bonus, denying an opponent's), the
// immediate worth of the card's effect, and for every card it cannot see the
// average power of the owner's deck — and takes the best. It copies no game
// state: a score is a few additions on a per-row summary (engine.RowView).
//
// The standing of a row is turned into a chance of winning it with a
// logistic curve of the estimated power margin, so a card goes where it
// changes the outcome most: not to rows already safe, nor to rows already
// lost.
//
// Speed (it is the rollout policy of ISMCTS and the bulk of batch runs):
// what depends only on the ruleset (each card's static worth and effect
// arguments, each faction's mean power) is tabled when the ruleset changes,
// and what each target is worth to each seat when the lineup changes. A
// decision reads every row once (ViewRows); in a Deployment turn it then
// tables the gain of every hand card in every open row, and with it the
// hand's best placement (what Shield and Gravitational Wave actions are
// scored by), and scores and picks the actions in one loop from that table.
// None of this changes a score: only the work.
type Greedy struct {
	rng  engine.RNG
	rs   *rules.Ruleset
	card [256]greedyCard // per card definition
	mean []float64       // mean base power per faction

	// Lineup tables: valid while rs and the seats' factions are unchanged.
	np       int
	fac      [rules.MaxPlayers]int
	seatMean [rules.MaxPlayers]float64 // mean power of each seat's deck
	nt       int                       // len(rs.Targets)
	tw       []float64                 // [seat*nt+target] worth of a target to a seat
	lineupOK bool
	line     uint64 // the line of play they were last checked for

	// Per decision.
	me     int
	looked bool
	view   *[rules.MaxRows]engine.RowView // the deciding seat's entry of seen
	// Each seat's view of the rows as of its last decision (an agent may
	// play every seat, as ISMCTS's rollouts do): only changed rows are
	// read again (engine.State.ViewRowsSince).
	seen  [rules.MaxPlayers][rules.MaxRows]engine.RowView
	stamp [rules.MaxPlayers]engine.ViewStamp
	sums  [rules.MaxPlayers]rowSums // each seat's row summaries (look)
	// lineupGen counts the lineup tables built (starting at 1), so a seat's
	// summaries from other tables are not taken for current.
	lineupGen uint32
	sum       *rowSums             // the deciding seat's entry of sums
	open      [rules.MaxRows]uint8 // the rows open to a placement
	nopen     int
	openMask  uint32 // the same rows as bits
	handler   string
	hdDone    bool
	// Best placement gain of the hand (floored at 0), of the card achieving
	// it, and the best over every other card: bestPlacement(except) for any
	// except.
	best1, best2 float64
	best1Card    int
	bestDone     bool
	// memo caches placement gains per (card, row) within one decision (the
	// Deployment turn's table; elsewhere the hand's best placement and a
	// Flagship's rows ask for them): memo[d][r] is valid when
	// memoGen[d][r] == gen, or for an open row when handGen[d] == gen.
	memo    [256][rules.MaxRows]float64
	memoGen [256][rules.MaxRows]uint32
	// handBest[d] is hand card d's best gain over the open rows, and
	// handGen[d] == gen says tableHand tabled d in every open row.
	handBest [256]float64
	handGen  [256]uint32
	// Plain cards of the same worth gain the same everywhere: powGen[c] ==
	// gen says hand card powCard[c] of worth class c was tabled.
	powGen  [256]uint32
	powCard [256]uint8

	gen    uint32            // this decision
	ties   [64]tie           // deploy's ties, drawn after its loop
	tieAct [64]engine.Action // decide's tied actions
	ch     engine.Choices    // the description of a Deployment turn
}

// greedyCard is what Greedy needs of a card definition, tabled per ruleset.
type greedyCard struct {
	pw    float64 // base power plus the static worth of its effect
	power float64 // base power
	disc  float64 // score of discarding it
	amt   float64 // per_card (admiral), amount (weaken_above, bonus_vs_target), 2 (deactivate_above)
	tt    int     // bonus_vs_target: target type + 1, 0 for any
	kind  uint8   // gk* below: effects whose worth depends on the row
	class uint8   // for gkNone: the first card definition of the same pw
}

const (
	gkNone = iota
	gkAdmiral
	gkArmada
	gkDeflector
	gkBonusVsTarget
	gkAbove // weaken_above, deactivate_above
	gkBlockade
)

// Scale is the power margin at which Greedy thinks a row is about 73% won.
const greedyScale = 3.0

// New returns a Greedy agent; seed only breaks ties between equally
// good actions.
func New(seed uint64) *Greedy { return &Greedy{rng: engine.NewRNG(seed)} }

func (g *Greedy) prepare(rs *rules.Ruleset) {
	g.rs = rs
	g.lineupOK = false
	// A reused agent may move to another ruleset (a variant in a paired
	// run): nothing of the last one may survive.
	g.card = [256]greedyCard{}
	g.mean = resize(g.mean, len(rs.Factions))
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
	// classes lists the first plain card of each worth met so far: a card
	// takes the class of the one of its worth (every game of a card-value
	// run prepares a ruleset, so no pass over all earlier cards).
	var classes [256]uint8
	nclasses := 0
	g.nt = len(rs.Targets)
	g.tw = resize(g.tw, rules.MaxPlayers*g.nt)
	for i := range rs.Cards {
		if i >= 256 {
			break
		}
		c := &rs.Cards[i]
		gc := &g.card[i]
		bonus, combo := 0.0, 0.0
		if c.Effect != nil {
			// Rough worth of effects whose value does not depend on the row.
			switch c.Effect.Handler {
			case "strike_ship":
				bonus = 3
			case "flagship":
				bonus = 2.5
			case "space_mines", "weapon_purge", "distress_signal", "bomb":
				bonus = 1.5
			case "draw_cards":
				bonus = 0.7 * float64(c.Effect.Arg("count").Int)
			case "spy", "blocker_ship", "scout_ship", "deactivate_above":
				bonus = 1
			case "modify_power":
				bonus = float64(c.Effect.Arg("amount").Int)
			case "power_per_card":
				bonus = float64(c.Effect.Arg("amount").Int)
			}
			// Effects whose worth depends on the row (see worth).
			switch c.Effect.Handler {
			case "admiral":
				gc.kind, gc.amt = gkAdmiral, float64(c.Effect.Arg("per_card").Int)
			case "armada":
				gc.kind = gkArmada
			case "deflector":
				gc.kind = gkDeflector
			case "diplomat_combo":
				// Worth 2 wherever it goes, but not when discarded
				// (disc): a plain card of power + bonus + 2.
				combo = 2
			case "bonus_vs_target":
				gc.kind, gc.amt, gc.tt = gkBonusVsTarget, float64(c.Effect.Arg("amount").Int), c.Effect.Arg("target_type").Int
			case "weaken_above":
				gc.kind, gc.amt = gkAbove, float64(c.Effect.Arg("amount").Int)
			case "deactivate_above":
				gc.kind, gc.amt = gkAbove, 2
			case "blockade":
				gc.kind = gkBlockade
			}
		}
		gc.power = float64(c.Power)
		gc.pw = float64(c.Power) + bonus + combo
		gc.disc = 1.5 - float64(c.Power) - bonus
		gc.class = uint8(i)
		for _, j := range classes[:nclasses] {
			if g.card[j].pw == gc.pw {
				gc.class = j
				break
			}
		}
		if gc.kind == gkNone && gc.class == uint8(i) {
			classes[nclasses] = uint8(i)
			nclasses++
		}
	}
}

// resize returns b with length n, zeroed, reusing its array if it can (a
// runner may switch rulesets between games).
func resize(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// lineup tables the seats' deck means and what each target is worth to each
// seat, unless the seats' factions are those of the last decision.
func (g *Greedy) lineup(s *engine.State) {
	if g.lineupOK && s.LineOfPlay() == g.line {
		return
	}
	g.line = s.LineOfPlay()
	np := s.NumPlayers()
	if g.lineupOK && np == g.np {
		same := true
		for q := 0; q < np; q++ {
			if s.Faction(q) != g.fac[q] {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	g.np = np
	for q := 0; q < np; q++ {
		g.fac[q] = s.Faction(q)
		g.seatMean[q] = g.mean[g.fac[q]]
	}
	for q := 0; q < np; q++ {
		for t := 0; t < g.nt; t++ {
			g.tw[q*g.nt+t] = targetWorth(g.rs, s, q, t)
		}
	}
	g.lineupOK = true
	if g.lineupGen++; g.lineupGen == 0 {
		// Wrapped: no seat's summaries may pass for this lineup's.
		g.sums = [rules.MaxPlayers]rowSums{}
		g.lineupGen = 1
	}
}

// logistic maps a power margin to a chance of winning the row. It is the
// "soft sign" sigmoid rather than 1/(1+e^-x): the same shape for ranking
// actions, and no exponential (nor branch) in the inner loop.
func logistic(m float64) float64 {
	return 0.5 + 0.5*m/(greedyScale+math.Abs(m))
}

// look summarises every row from the deciding seat's view. A row's summary
// depends only on its view and the lineup's tables, so each seat keeps its
// summaries and recomputes only the rows ViewRowsSince read again.
func (g *Greedy) look(s *engine.State) {
	me, np := g.me, g.np
	changed := s.ViewRowsSince(me, &g.seen[me], &g.stamp[me])
	g.view = &g.seen[me]
	sum := &g.sums[me]
	if sum.gen != g.lineupGen {
		sum.gen, changed = g.lineupGen, ^uint32(0)
	}
	mean := &g.seatMean
	for m := changed & (1<<uint(s.NumRows()) - 1); m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m) & (rules.MaxRows - 1)
		v := &g.view[r]
		em := float64(v.Known[me]) + float64(v.Hidden[me])*mean[me]
		// The strongest opponent (estimates are never negative nor NaN: no
		// max needed for one opponent, and 0 is their floor).
		var opp float64
		if np == 2 {
			q := 1 - me
			opp = float64(v.Known[q]) + float64(v.Hidden[q])*mean[q]
		} else {
			for q := 0; q < np; q++ {
				if q != me {
					opp = max(opp, float64(v.Known[q])+float64(v.Hidden[q])*mean[q])
				}
			}
		}
		sum.em[r], sum.opp[r] = em, opp
		sum.w[r] = 0
		if v.Target >= 0 {
			sum.w[r] = g.tw[me*g.nt+int(v.Target)]
		}
		// No card of mine there: cannot win it (times 0, branch-free).
		sum.base[r] = logistic(em-opp) * float64(uint64(^v.Top[me])>>63)
	}
	g.sum = sum
	g.looked = true
}

// openRows sets the rows open to a placement (tableHand's) from their bits.
func (g *Greedy) openRows(open uint32) {
	n := 0
	for m := open; m != 0; m &= m - 1 {
		g.open[n&(rules.MaxRows-1)] = uint8(bits.TrailingZeros32(m))
		n++
	}
	g.nopen, g.openMask = n, open
}

// viewOpen is the rows open to a placement by the deciding seat's views.
func (g *Greedy) viewOpen(s *engine.State) uint32 {
	open := uint32(0)
	for r := range g.view[:s.NumRows()] {
		if g.view[r].Open {
			open |= 1 << uint(r)
		}
	}
	return open
}

// rowSums is look's summary of every row for one seat, valid for the
// lineup tables of generation gen.
type rowSums struct {
	em   [rules.MaxRows]float64 // my estimated power per row
	opp  [rules.MaxRows]float64 // strongest opponent's estimate per row
	w    [rules.MaxRows]float64 // what the row's target is worth to me
	base [rules.MaxRows]float64 // chance of winning each row as it stands
	gen  uint32
}

// targetWorth is what taking target t is worth to seat me: its VP, my
// planet bonus, and half of the planet bonus it denies an opponent.
func targetWorth(rs *rules.Ruleset, s *engine.State, me, t int) float64 {
	tg := &rs.Targets[t]
	w := float64(tg.VP) + 0.5*float64(len(tg.Bonuses))
	if tg.Type != rules.Planet {
		return w
	}
	deny := 0.0
	for q := 0; q < s.NumPlayers(); q++ {
		if rs.EarnsPlanetBonus(&rs.Factions[s.Faction(q)], tg) {
			if q == me {
				w += float64(rs.Rules.PlanetBonus)
			} else {
				deny = 0.5 * float64(rs.Rules.PlanetBonus)
			}
		}
	}
	return w + deny
}

// chance is the estimated chance that I win row r if I gain add power and
// the strongest opponent loses sub; like the row's base chance, zero when I
// have no card there.
func (g *Greedy) chance(r int, add, sub float64) float64 {
	if g.view[r].Top[g.me] < 0 {
		return 0
	}
	return logistic(g.sum.em[r] + add - g.sum.opp[r] + sub)
}

// worth is what card d adds when played to row r now.
func (g *Greedy) worth(d, r int) float64 {
	c := &g.card[d]
	p := c.pw
	if c.kind == gkNone {
		return p
	}
	v := &g.view[r]
	switch c.kind {
	case gkAdmiral:
		p += c.amt * float64(v.Len+1)
	case gkArmada:
		p += g.sum.opp[r]
	case gkDeflector:
		if v.Len > 0 {
			p += 2 // the base power above, usually an opponent's answer
		}
	case gkBonusVsTarget:
		if v.Target >= 0 && (c.tt == 0 || c.tt-1 == int(g.rs.Targets[v.Target].Type)) {
			p += c.amt
		}
	case gkAbove:
		if v.Len > 0 && v.Bottom >= 0 && !v.BottomDown {
			// The card above is known: helps against an opponent, hurts me.
			if v.Top[g.me] == v.Len-1 {
				p -= c.amt
			} else {
				p += c.amt
			}
		}
	case gkBlockade:
		if logistic(g.sum.em[r]+c.power-g.sum.opp[r]) > 0.6 {
			p += 3
		} else {
			p -= 2
		}
	}
	return p
}

// gain is the weighted change in row r's outlook from adding power p (a
// card of mine placed there).
func (g *Greedy) gain(r int, p float64) float64 {
	return g.sum.w[r] * (logistic(g.sum.em[r]+p-g.sum.opp[r]) - g.sum.base[r])
}

// placeGain is gain(worth(d, r)), memoised for this decision (tableHand
// fills a hand card's open rows).
func (g *Greedy) placeGain(d, r int) float64 {
	if g.memoGen[d][r] == g.gen || g.handGen[d] == g.gen && g.openMask&(1<<uint(r)) != 0 {
		return g.memo[d][r]
	}
	return g.placeGainNew(d, r)
}

func (g *Greedy) placeGainNew(d, r int) float64 {
	v := 0.0 // nothing to win where the target is taken
	if g.sum.w[r] != 0 {
		v = g.gain(r, g.worth(d, r))
	}
	g.memo[d][r], g.memoGen[d][r] = v, g.gen
	return v
}

// Choose scores each legal action and returns the best (ties broken at
// random).
func (g *Greedy) Choose(s *engine.State, legal []engine.Action) engine.Action {
	if len(legal) == 1 {
		return legal[0]
	}
	g.Begin(s)
	if legal[len(legal)-1].Kind() == engine.ActPass {
		return g.deploy(s, legal)
	}
	return g.pickScored(s, legal)
}

// begin starts a decision of more than one action.
func (g *Greedy) Begin(s *engine.State) {
	if g.rs != s.Ruleset() {
		g.prepare(s.Ruleset())
	}
	g.lineup(s)
	g.me = s.CurrentPlayer()
	g.looked, g.bestDone, g.hdDone = false, false, false
	if g.gen++; g.gen == 0 {
		// Wrapped: no memo entry may pass for this decision's.
		g.memoGen = [256][rules.MaxRows]uint32{}
		g.handGen = [256]uint32{}
		g.powGen = [256]uint32{}
		g.gen = 1
	}
}

// decide is Decide for a Greedy agent: Choose from the legal actions, but
// a Deployment turn is scored from s.FillChoices's description (each hand
// card's special actions and placements) without listing it — the same
// actions in the same order as s.LegalActions, so the same scores, ties and
// draws as deploy. Other decisions are listed into *buf.
func (g *Greedy) Decide(s *engine.State, buf *[]engine.Action) (engine.Action, bool) {
	c := &g.ch
	s.FillChoices(c, (*buf)[:0])
	n := c.Len()
	if n == 0 {
		return 0, false
	}
	if !c.Deploy() || n == 1 {
		if l := c.Listed(); l != nil {
			*buf = l
		} else {
			*buf = (*buf)[:0]
			for k := 0; k < n; k++ {
				*buf = append(*buf, c.At(k))
			}
		}
		return g.Choose(s, *buf), true
	}
	g.Begin(s)
	g.look(s)
	g.openRows(c.OpenRows())
	g.tableHand(c.Cards())
	rows, nr := g.open, g.nopen // in order, as the list has them
	p := scan{hi: math.Inf(-1), lo: math.Inf(-1)}
	k := 0 // the action's index in the list
	for j := 0; j < c.NumCards(); j++ {
		d, spec, nspec, nplace := c.DeployCard(j)
		if nspec > 0 {
			switch spec {
			case engine.ActShield:
				if !p.add(g, k, engine.ShieldAction(d), g.bestOther(d)+0.3) {
					return g.listed(s, buf)
				}
				k++
			case engine.ActWave:
				if !p.add(g, k, engine.WaveAction(d), g.bestOther(d)-0.2) {
					return g.listed(s, buf)
				}
				k++
			case engine.ActPlaceAt:
				for _, r := range rows[:nr] {
					v, ln := g.memo[d][r], int(g.view[r].Len)
					pos, end := c.Insertions(int(r))
					// Higher positions win ties (score): the scores fall
					// with the position, so once one cannot reach the best
					// (which only rises) no later one can.
					for ; pos < end; pos++ {
						v := v + 0.01*float64(ln-pos)
						if v <= p.lo {
							break
						}
						if !p.add(g, k, engine.PlaceAtAction(d, int(r), pos), v) {
							return g.listed(s, buf)
						}
						k++
					}
					k += end - pos
				}
			default:
				return g.listed(s, buf)
			}
		}
		// tableHand tabled every card described.
		if g.handBest[d] <= p.lo {
			k += nplace // none of its placements reaches the best
			continue
		}
		m := &g.memo[d]
		for _, r := range rows[:nplace] {
			// The action is built only for a score within reach of the best.
			if v := m[r]; v > p.lo && !p.add(g, k, engine.PlaceAction(d, int(r)), v) {
				return g.listed(s, buf)
			}
			k++
		}
	}
	if k != n-1 || !p.add(g, k, engine.PassAction(), -0.25) {
		return g.listed(s, buf) // not reached: the description is the list
	}
	for t, tt := range g.ties[:p.nt] {
		// Only ties with the last best can still replace it.
		if g.rng.Intn(int(tt.n)) == 0 && int(tt.i) > p.bi {
			p.bi, p.best = int(tt.i), g.tieAct[t]
		}
	}
	return p.best, true
}

// scan is deploy's choice (pick's rule) kept over actions scored in turn:
// the best, and the ties within 1e-9 of it, drawn after the last action (a
// draw depends only on the count of ties, so the draws are the same).
type scan struct {
	best    engine.Action
	bi      int
	hi, lo  float64 // the best score ± 1e-9
	run, nt int
}

// add scores action a, the i-th; false if g.ties is full (no draw is made
// yet, so the caller can start over the slow way).
func (p *scan) add(g *Greedy, i int, a engine.Action, v float64) bool {
	if v > p.lo {
		if v > p.hi {
			p.best, p.bi, p.hi, p.lo, p.run = a, i, v+1e-9, v-1e-9, 1
			return true
		}
		if p.nt == len(g.ties) {
			return false
		}
		p.run++
		g.ties[p.nt], g.tieAct[p.nt] = tie{int32(i), int32(p.run)}, a
		p.nt++
	}
	return true
}

// listed is decide's way out to the listed actions, scored one by one.
func (g *Greedy) listed(s *engine.State, buf *[]engine.Action) (engine.Action, bool) {
	*buf = s.LegalActions(*buf)
	return g.pickScored(s, *buf), true
}

// pick keeps the best of the actions scored so far: an action scoring more
// than 1e-9 above the best replaces it, one within 1e-9 of it ties and
// replaces it with probability 1/ties.
type pick struct {
	a      engine.Action
	hi, lo float64 // the best score ± 1e-9
	ties   int
}

func newPick(a engine.Action) pick { return pick{a: a, hi: math.Inf(-1), lo: math.Inf(-1)} }

func (p *pick) add(a engine.Action, v float64, rng *engine.RNG) {
	if v > p.lo {
		p.better(a, v, rng)
	}
}

func (p *pick) better(a engine.Action, v float64, rng *engine.RNG) {
	if v > p.hi {
		p.a, p.hi, p.lo, p.ties = a, v+1e-9, v-1e-9, 1
		return
	}
	p.ties++
	if rng.Intn(p.ties) == 0 {
		p.a = a
	}
}

// deploy is Choose for a Deployment turn (Pass is listed last): the gain of
// every hand card in every open row is tabled up front, and so the best
// placement of the hand, then the actions are scored from these tables.
func (g *Greedy) deploy(s *engine.State, legal []engine.Action) engine.Action {
	if s.FillChoices(&g.ch, nil); !g.ch.Deploy() {
		return g.pickScored(s, legal)
	}
	g.look(s)
	g.openRows(g.viewOpen(s))
	g.tableHand(g.ch.Cards())
	gen := g.gen
	// Score and pick (pick's rule) in one loop that calls nothing in the
	// common case, so that it keeps its values in registers: a tie's draw
	// waits for the end of the loop (a draw depends only on the count of
	// ties, so the draws are the same, in the same order).
	// legal is s.LegalActions: a placement names a hand card and an open
	// row, which the table holds; anything else goes the slow way.
	best, hi, lo, run, nt := 0, math.Inf(-1), math.Inf(-1), 0, 0
	for i, a := range legal {
		var v float64
		switch k := a.Kind(); k {
		case engine.ActPlace, engine.ActPlaceAt:
			d, r := a.Card(), a.Row()
			if g.handGen[d] != gen || g.openMask&(1<<uint(r)) == 0 {
				return g.pickScored(s, legal)
			}
			v = g.memo[d][r]
			if k == engine.ActPlaceAt {
				v += 0.01 * float64(int(g.view[r].Len)-a.Pos())
			}
		case engine.ActPass:
			v = -0.25
		case engine.ActWave:
			v = g.bestOther(a.Card()) - 0.2
		case engine.ActShield:
			v = g.bestOther(a.Card()) + 0.3
		default:
			return g.pickScored(s, legal)
		}
		if v > lo {
			if v > hi {
				best, hi, lo, run = i, v+1e-9, v-1e-9, 1
				continue
			}
			if nt == len(g.ties) {
				return g.pickScored(s, legal) // no draw made yet
			}
			run++
			g.ties[nt] = tie{int32(i), int32(run)}
			nt++
		}
	}
	for _, t := range g.ties[:nt] {
		// Only ties with the last best can still replace it.
		if g.rng.Intn(int(t.n)) == 0 && int(t.i) > best {
			best = int(t.i)
		}
	}
	return legal[best]
}

// tableHand tables the gain of every distinct hand card (hand, in
// first-copy order) in every open row (memo) and the best placement of the
// hand (best1, best2).
func (g *Greedy) tableHand(hand []uint8) {
	gen, open := g.gen, g.open[:g.nopen]
	// best1 and best2 as ordered integers (floatKey), kept branch-free:
	// whether a card beats them is a coin toss for the branch predictor.
	b1, b2, card1 := floatKey(0), floatKey(0), -1
	for _, hd := range hand {
		d := int(hd)
		// Only open rows: no action places into a closed one. A row whose
		// target is taken has w = 0: gain ±0.
		var cb int64
		if c := &g.card[d]; c.kind == gkNone {
			if g.powGen[c.class] == gen {
				twin := g.powCard[c.class]
				g.memo[d], cb = g.memo[twin], floatKey(g.handBest[twin])
			} else {
				cb = plainGains(&g.memo[d], g.sum, open, c.pw)
				g.powGen[c.class], g.powCard[c.class] = gen, uint8(d)
			}
		} else {
			cb = g.effectGains(d, open)
		}
		g.handBest[d], g.handGen[d] = keyFloat(cb), gen
		if cb > b1 {
			card1 = d
		}
		b1, b2 = max(b1, cb), max(b2, min(b1, cb)) // cb > b1 ? (cb, b1) : cb > b2 ? (b1, cb) : (b1, b2)
	}
	g.best1, g.best2, g.best1Card, g.bestDone = keyFloat(b1), keyFloat(b2), card1, true
}

// plainGains fills m with the gain of a card of worth pw (one without an
// effect whose worth depends on the row) in each of the open rows and
// returns the best as an ordered integer: max of two is then a compare and
// a move (max of floats, with its NaN and ±0 rules, takes nine
// instructions). A loop of its own keeps its values in registers.
func plainGains(m *[rules.MaxRows]float64, sum *rowSums, open []uint8, pw float64) int64 {
	cb := floatKey(math.Inf(-1))
	for _, r := range open {
		r &= rules.MaxRows - 1 // no bounds checks
		v := sum.w[r] * (logistic(sum.em[r]+pw-sum.opp[r]) - sum.base[r])
		m[r] = v
		cb = max(cb, floatKey(v))
	}
	return cb
}

// effectGains is plainGains for card d, whose effect's worth depends on the
// row (worth).
func (g *Greedy) effectGains(d int, open []uint8) int64 {
	m, sum := &g.memo[d], g.sum
	cb := floatKey(math.Inf(-1))
	for _, r := range open {
		v := sum.w[r] * (logistic(sum.em[r]+g.worth(d, int(r))-sum.opp[r]) - sum.base[r])
		m[r] = v
		cb = max(cb, floatKey(v))
	}
	return cb
}

// tie is legal[i], the n-th action within 1e-9 of the best so far.
type tie struct{ i, n int32 }

// pickScored scores each action (score) and returns the best: an action
// scoring more than 1e-9 above the best so far replaces it, one within 1e-9
// of it ties and replaces it with probability 1/ties.
func (g *Greedy) pickScored(s *engine.State, legal []engine.Action) engine.Action {
	p := newPick(legal[0])
	for _, a := range legal {
		p.add(a, g.Score(s, a), &g.rng)
	}
	return p.a
}

func (g *Greedy) Score(s *engine.State, a engine.Action) float64 {
	k := a.Kind()
	switch k {
	case engine.ActPass:
		return -0.25
	case engine.ActDiscard:
		return g.card[a.Card()].disc
	case engine.ActDone:
		return 0
	}
	if !g.looked {
		g.look(s)
	}
	switch k {
	case engine.ActPlace:
		return g.placeGain(a.Card(), a.Row())
	case engine.ActPlaceAt:
		// Higher positions win ties.
		return g.placeGain(a.Card(), a.Row()) + 0.01*float64(int(g.view[a.Row()].Len)-a.Pos())
	case engine.ActShield:
		return g.bestPlacement(s, a.Card()) + 0.3
	case engine.ActWave:
		return g.bestPlacement(s, a.Card()) - 0.2
	case engine.ActRow:
		if d := s.PendingCard(); d >= 0 {
			return g.placeGain(d, a.Row())
		}
		return g.sum.w[a.Row()]
	case engine.ActHand:
		if g.pendingHandler(s) == "negotiations" {
			r := s.PendingRow()
			if r < 0 || g.sum.w[r] == 0 {
				return -1
			}
			p := g.card[a.Card()].power
			// A strong bid is worth part of the target, the card is spent.
			return g.sum.w[r]*(p/8) - 0.4*p - 0.5
		}
		// Distress Signal: a ship from hand, face up, into the pending row.
		if r := s.PendingRow(); r >= 0 {
			return g.gain(r, g.card[a.Card()].power)
		}
		return 0
	case engine.ActSlot:
		return g.slotValue(s, a)
	}
	return 0
}

func (g *Greedy) pendingHandler(s *engine.State) string {
	if !g.hdDone {
		g.handler, g.hdDone = s.PendingHandler(), true
	}
	return g.handler
}

// bestPlacement is the best gain any other hand card than except could
// make in an open row (0 if none gains). The hand's two best cards are found
// once per decision.
func (g *Greedy) bestPlacement(s *engine.State, except int) float64 {
	if !g.bestDone {
		g.bestHand(s)
		g.bestDone = true
	}
	return g.bestOther(except)
}

// bestOther is bestPlacement once best1 and best2 are known.
func (g *Greedy) bestOther(except int) float64 {
	if except == g.best1Card {
		return g.best2
	}
	return g.best1
}

// bestHand sets best1, best2 and best1Card from the hand.
func (g *Greedy) bestHand(s *engine.State) {
	g.best1, g.best2, g.best1Card = 0, 0, -1
	nr := s.NumRows()
	for k := 0; k < s.HandLen(g.me); k++ {
		d := s.HandCard(g.me, g.me, k)
		if d == g.best1Card {
			continue // a copy of the best card so far
		}
		cb := math.Inf(-1)
		for r := 0; r < nr; r++ {
			if g.view[r].Open {
				if v := g.placeGain(d, r); v > cb {
					cb = v
				}
			}
		}
		switch {
		case cb > g.best1:
			g.best2, g.best1, g.best1Card = g.best1, cb, d
		case cb > g.best2:
			g.best2 = cb
		}
	}
}

// floatKey maps a float64 that is not NaN to an int64 in the same order
// (-0 just below +0, as max and min of floats have it); keyFloat maps it
// back.
func floatKey(x float64) int64 {
	b := int64(math.Float64bits(x))
	return b ^ (b >> 63 & math.MaxInt64)
}

func keyFloat(k int64) float64 { return math.Float64frombits(uint64(k ^ (k >> 63 & math.MaxInt64))) }

// slotValue scores choosing the card at a.Row()/a.Pos(): removing it
// (Strike ship, EMP) or moving it into the pending row (Distress Signal).
func (g *Greedy) slotValue(s *engine.State, a engine.Action) float64 {
	r := a.Row()
	card, owner := s.SlotCard(g.me, r, a.Pos())
	p := g.seatMean[owner]
	if card >= 0 {
		p = g.card[card].power
	}
	if g.pendingHandler(s) == "distress_signal" {
		to := s.PendingRow()
		if to < 0 {
			return 0
		}
		return g.gain(to, p) - g.sum.w[r]*(g.sum.base[r]-g.chance(r, -p, 0))
	}
	if owner == g.me {
		return -g.sum.w[r] * (g.sum.base[r] - g.chance(r, -p, 0))
	}
	return g.sum.w[r] * (g.chance(r, 0, p) - g.sum.base[r])
}

// Reseed starts the agent over as New(seed) would (its tables depend
// only on the ruleset and the lineup and are kept), so a runner can reuse it
// between games.
func (g *Greedy) Reseed(seed uint64) { g.rng = engine.NewRNG(seed) }
