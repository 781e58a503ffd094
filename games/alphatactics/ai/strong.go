package ai

import (
	"math"
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Strong is perfect-information Monte Carlo over Greedy's best actions.
// Greedy ranks the legal actions; its best K in a Deployment turn (every
// action, up to KE, in the rarer effect and discard decisions, where
// Greedy's rules of thumb are weakest) are played on deals of the hidden
// cards (engine.State.Determinize: it never peeks), each followed by Horizon
// decisions for every seat, and the position reached is valued by leaf:
// victory points held plus every open target's worth times the chance of
// winning its row by the powers as they stand. A rollout that reaches the
// end of the Deployment Phase plays the round out and is valued by
// Evaluate.
//
// The deals are spent by sequential halving (Karnin, Koren & Somekh 2013):
// every candidate still in the running is played on Dets new deals, the
// better half by the sum over all its deals goes on, until one is left, so
// the close contest at the end gets the most deals. With Flat every
// candidate is played on the same Dets deals instead and the best mean wins.
// With Race they race (see Race): a clear decision ends after a few deals, a
// close one gets up to DMax.
//
// The rollouts play uniformly random actions (Greedy's with GreedyRoll),
// and on one deal every candidate's rollout draws the same random numbers:
// the candidates are compared on the same deals *and* the same random
// continuations (common random numbers), so their difference is their
// merit, not the luck of the draw. Random rollouts cost a fifth of
// Greedy's and do not assume that the rival plays like Greedy; shared
// random numbers are what make them usable at a few dozen rollouts a
// decision (docs/metrics.md, "Skill").
//
// With Fit the leaf's chance of taking a row is a logistic regression
// fitted per ruleset from self-play (value.go) instead of the hand-made
// soft-sign; tried for issue 26 and not the default (docs/metrics.md).
//
// Cutting rollouts short is what makes it affordable: a rollout of a few
// decisions costs about a microsecond, one to the end of the round several.
//
// With a fixed seed it is deterministic; a decision allocates nothing once
// its buffers have grown.
type Strong struct {
	K      int     // candidates searched in a Deployment turn (Greedy's best K)
	KE     int     // candidates searched in other decisions (effects, discards)
	Dets   int     // deals of the hidden cards per round of halving (Flat: per decision)
	Margin float64 // Greedy's lead above which its best action is taken unsearched
	// Horizon cuts a rollout after this many decisions in the Deployment
	// Phase and values the rows as they stand (leaf); 0 plays to the end
	// of the round, -1 values the position the candidate leaves at once.
	Horizon int
	Sigma   float64 // power margin scale of leaf's chance of winning a row
	// GreedyRoll plays the rollouts with Greedy for every seat (the strong
	// bot before issue 26's random rollouts) instead of random actions.
	GreedyRoll bool
	// Flat plays every candidate on the same Dets deals (the strong bot
	// before issue 26's sequential halving) instead of halving.
	Flat bool
	// Diverse widens a Deployment turn's candidates beyond Greedy's best
	// K: each hand card's best play by Greedy, each row's best card and
	// passing join them (issue 26: the reference's move is often none of
	// Greedy's best few, but a card or a row Greedy ranks low).
	Diverse bool
	// D1 is the deals of halving's first round (0: Dets), so a wide
	// candidate set is screened cheaply.
	D1 int
	// Race spends the deals by racing instead of halving: every candidate
	// still in the running is played on each new deal, and after DMin
	// deals a candidate leaves the race once its paired difference to the
	// leader (same deals, same random continuations) says, at Z standard
	// errors, that it is worse, or better by less than Eps; at most DMax
	// deals. A clear decision ends after a few deals, a close one gets many.
	Race       bool
	Z, Eps     float64
	DMin, DMax int
	// Fit values the leaf by the row model fitted per ruleset (value.go)
	// instead of the hand-made soft-sign of the power margin.
	Fit bool
	// RDets, when set, replaces Dets by round: RDets[i] deals per round of
	// halving in the game's round i (counting from 0), the last entry for
	// every later round (issue 26: strong's regret per decision grows
	// threefold from the first round to the sixth; spending the deals
	// there bought nothing, docs/metrics.md).
	RDets []int
	// RK, when set, replaces K by round as RDets replaces Dets.
	RK []int
	// GainRoll plays the rollouts' Deployment turns by a cheap stochastic
	// policy instead of uniformly (tried for issue 26 and not the default:
	// as strong at the same rollouts, at twice the cost; docs/metrics.md):
	// after the random bot's draw to pass, a placement of card d in row r
	// is drawn with weight 1 + Beta·gain (linear, not exponential: no Exp
	// per action), gain the row's worth to the mover times the rise in its
	// soft-sign chance of winning the row by d's printed power (rivals'
	// face-down cards at their deck's mean), every other action with
	// weight 1; one uniform number is mapped through the cumulative
	// weights, so the continuations after two candidates stay common where
	// they can. Every other decision stays the random bot's.
	GainRoll bool
	Beta     float64
	// Lean continues each rollout, once a Deployment turn is up, on a
	// compact model of the rows instead of the engine (lean.go): random
	// placements add printed powers, nothing else happens (issue 26:
	// rollouts several times cheaper; tried, see docs/metrics.md).
	Lean bool
	// Reps is Lean's compact continuations per candidate and deal, averaged.
	Reps int
	// LeanExact is the decisions Lean plays on the engine before the
	// compact continuation.
	LeanExact int
	// ScreenDeals, when set, screens the candidates first: each is played
	// on ScreenDeals deals by Lean's compact rollouts, and only the best
	// ScreenKeep go on to the search (a cheap, biased judge used to choose
	// among many candidates, where Greedy's ranking chooses otherwise).
	ScreenDeals, ScreenKeep int
	// Pol ranks a Deployment turn's actions by the imitation policy
	// fitted per ruleset (imitate.go) instead of Greedy: PolCand searches
	// its best K, PolOnly plays its best unsearched (issue 26; tried, see
	// docs/metrics.md).
	Pol int
	// PolTeach is the policy's teacher (PolTeachStrong, PolTeachISMCTS);
	// PolNoLeaf leaves the leaf after each action out of its features.
	PolTeach  int
	PolIters  int // the ISMCTS teacher's iterations (0: 400)
	PolNoLeaf bool
	PolGames  int // self-play games the teacher labels (0: polGames)
	// Prior adds the ranking's score times Prior per deal seen to each
	// candidate's sum in the halving (0: none).
	Prior float64

	pol *policyModel // Pol's model for prs and pnp seats
	prs *rules.Ruleset
	pnp int
	pf  []float64 // Pol's features, nPolFeat per legal action
	plv []float64 // the leaf after each legal action on Pol's deal

	model *rowModel // Fit's model for mrs and mnp seats
	mrs   *rules.Ruleset
	mnp   int
	fx    rowScratch

	vals   []float64      // the race's values, candidate c's deal k at c*DMax+k
	rank   *greedy.Greedy // ranks the actions
	roll   *greedy.Greedy // plays the rollouts with GreedyRoll
	rroll  *Random        // plays them otherwise, reseeded per deal
	rng    engine.RNG
	det    engine.State
	sim    engine.State
	buf    []engine.Action
	scores []float64
	cand   []int
	alive  []int
	in     []bool
	// best action (index into legal, -1 none) per card definition and per
	// row, for Diverse.
	byCard [256]int16
	byRow  [256]int16
	sum    []float64
	rsc    handlers.RowScore
	rres   engine.RowResult // leaf's row powers
	// leaf's table of target worths per seat (lineup).
	worth []float64
	wrs   *rules.Ruleset
	wnp   int
	wfac  [rules.MaxPlayers]int
	// leaf's provisional scores: held[p] is the set of targets seat p held
	// when heldVP[p] was computed, valid where heldOK has bit p (cleared
	// every decision). Targets change hands rarely within a rollout, and
	// scoring them with their bonuses cost a twentieth of the bot.
	held   [rules.MaxPlayers]uint64
	heldVP [rules.MaxPlayers]float64
	heldOK uint8
	// GainRoll's scratch: the decision's choices, each row's view, the
	// actions' cumulative weights, and per ruleset the cards' printed
	// powers and per seat its deck's mean power.
	gch   engine.Choices
	gview engine.RowView
	gcum  []float64
	grs   *rules.Ruleset
	gpow  []float64
	gmean []float64
	lean  leanRows
	lrun  leanPlay
	ldeal leanDeal
}

// NewStrong returns a Strong agent with k candidates and dets deals per
// searched decision.
func NewStrong(seed uint64, k, dets int) *Strong {
	b := &Strong{K: k, KE: DefaultStrongKE, Dets: dets, ScreenKeep: DefaultStrongK, Margin: math.Inf(1), Horizon: DefaultStrongHorizon, Sigma: 3, Beta: DefaultStrongBeta,
		Z: DefaultStrongZ, Eps: DefaultStrongEps, DMin: DefaultStrongDMin, DMax: DefaultStrongDMax}
	b.rank, b.roll, b.rroll = greedy.New(0), greedy.New(0), NewRandom(0)
	b.Reseed(seed)
	return b
}

// Reseed starts the agent over as NewStrong with seed would.
func (b *Strong) Reseed(seed uint64) {
	b.rng = engine.NewRNG(seed)
	b.rank.Reseed(b.rng.Uint64())
	b.roll.Reseed(b.rng.Uint64())
}

// Choose returns Greedy's action where its lead is clear, otherwise the best
// of its top K by the rollouts' value (a race, sequential halving, or Flat).
func (b *Strong) Choose(s *engine.State, legal []engine.Action) engine.Action {
	if len(legal) == 1 {
		return legal[0]
	}
	g := b.rank
	g.Begin(s)
	b.scores = b.scores[:0]
	for _, a := range legal {
		b.scores = append(b.scores, g.Score(s, a))
	}
	me := s.CurrentPlayer()
	if b.Pol != PolNone && legal[len(legal)-1].Kind() == engine.ActPass {
		b.heldOK = 0
		b.polScores(s, legal, me)
		if b.Pol == PolOnly {
			best := 0
			for i, v := range b.scores {
				if v > b.scores[best] {
					best = i
				}
			}
			return legal[best]
		}
	}
	b.candidates(legal, s.Round())
	if len(b.cand) < 2 || b.scores[b.cand[0]]-b.scores[b.cand[1]] > b.Margin {
		return legal[b.cand[0]]
	}
	b.heldOK = 0
	if b.Fit {
		b.useModel(s)
	}
	b.sum = b.sum[:0]
	for range b.cand {
		b.sum = append(b.sum, 0)
	}
	if b.ScreenDeals > 0 && len(b.cand) > b.ScreenKeep {
		b.screen(s, legal, me)
		if len(b.cand) < 2 {
			return legal[b.cand[0]]
		}
	}
	if b.Race {
		return legal[b.race(s, legal, me)]
	}
	dets := b.Dets
	if len(b.RDets) > 0 {
		dets = b.RDets[min(s.Round(), len(b.RDets)-1)]
	}
	alive := b.cand
	// Prior: the ranking's scores (Greedy's, or Pol's logits) weigh in as
	// Prior per deal seen, so a close contest goes to the action the
	// ranking prefers.
	seen, top := 0, b.scores[b.cand[0]]
	key := func(c int) float64 { return b.sum[c] + b.Prior*float64(seen)*(b.scores[alive[c]]-top) }
	for first := true; len(alive) > 1; first = false {
		n := dets
		if first && b.D1 > 0 && !b.Flat {
			n = b.D1
		}
		b.deal(s, legal, me, alive, n)
		seen += n
		if b.Flat {
			break
		}
		// Best first by the sum over the deals all survivors have seen
		// (insertion; at most KE).
		for c := 1; c < len(alive); c++ {
			for j := c; j > 0 && key(j) > key(j-1); j-- {
				b.sum[j], b.sum[j-1] = b.sum[j-1], b.sum[j]
				alive[j], alive[j-1] = alive[j-1], alive[j]
			}
		}
		alive = alive[:(len(alive)+1)/2]
	}
	best := 0
	for c := range alive {
		if key(c) > key(best) {
			best = c
		}
	}
	return legal[alive[best]]
}

// screen plays every candidate on ScreenDeals deals by Lean's compact
// rollouts and keeps the best ScreenKeep (in b.cand, best first), their
// sums reset for the search that follows.
func (b *Strong) screen(s *engine.State, legal []engine.Action, me int) {
	lean := b.Lean
	b.Lean = true
	b.deal(s, legal, me, b.cand, b.ScreenDeals)
	b.Lean = lean
	alive := b.cand
	for c := 1; c < len(alive); c++ {
		for j := c; j > 0 && b.sum[j] > b.sum[j-1]; j-- {
			b.sum[j], b.sum[j-1] = b.sum[j-1], b.sum[j]
			alive[j], alive[j-1] = alive[j-1], alive[j]
		}
	}
	b.cand = alive[:max(b.ScreenKeep, 1)]
	b.sum = b.sum[:len(b.cand)]
	for c := range b.sum {
		b.sum[c] = 0
	}
}

// race runs the candidates' race (see Race) and returns the winner's index
// into legal.
func (b *Strong) race(s *engine.State, legal []engine.Action, me int) int {
	nc, dmax := len(b.cand), b.DMax
	if n := nc * dmax; cap(b.vals) < n {
		b.vals = make([]float64, n)
	}
	vals := b.vals[:nc*dmax]
	// alive holds candidate numbers (into b.cand, b.sum), in b.in's stead.
	alive := b.alive[:0]
	for c := 0; c < nc; c++ {
		alive = append(alive, c)
	}
	for n := 0; n < dmax && len(alive) > 1; {
		s.CopyInto(&b.det)
		b.det.Determinize(me, &b.rng)
		seed := b.rng.Uint64()
		if b.Lean {
			b.leanStart(&b.det)
		}
		for j, c := range alive {
			// Common random numbers, and the last candidate on the deal
			// itself, as in deal.
			b.rroll.Reseed(seed)
			sim := &b.det
			if j < len(alive)-1 {
				b.det.CopyInto(&b.sim)
				sim = &b.sim
			}
			sim.Apply(legal[b.cand[c]])
			v := b.rollout(sim, me)
			vals[c*dmax+n] = v
			b.sum[c] += v
		}
		n++
		if n < b.DMin {
			continue
		}
		lead := alive[0]
		for _, c := range alive {
			if b.sum[c] > b.sum[lead] {
				lead = c
			}
		}
		keep := alive[:0]
		for _, c := range alive {
			if c != lead && b.worse(vals[lead*dmax:lead*dmax+n], vals[c*dmax:c*dmax+n]) {
				continue
			}
			keep = append(keep, c)
		}
		alive = keep
	}
	b.alive = alive
	best := alive[0]
	for _, c := range alive {
		if b.sum[c] > b.sum[best] {
			best = c
		}
	}
	return b.cand[best]
}

// worse reports whether the candidate with values v (deal by deal) is, at
// Z standard errors of the paired differences, worse than the leader's lv
// or better by less than Eps.
func (b *Strong) worse(lv, v []float64) bool {
	n := float64(len(v))
	var sd, sq float64
	for k := range v {
		d := lv[k] - v[k]
		sd += d
		sq += d * d
	}
	mean := sd / n
	vr := (sq - sd*mean) / (n - 1)
	return mean-b.Z*math.Sqrt(max(vr, 0)/n) > -b.Eps
}

// candidates fills b.cand with the indices into legal of the actions to
// search, Greedy's best first (b.scores holds Greedy's scores): its best K
// (RK's for round) in a Deployment turn (with Diverse also each card's and each row's best
// and passing), its best KE in other decisions.
func (b *Strong) candidates(legal []engine.Action, round int) {
	K := b.K
	if len(b.RK) > 0 {
		K = b.RK[min(round, len(b.RK)-1)]
	}
	deploy := legal[len(legal)-1].Kind() == engine.ActPass
	if !deploy {
		K = b.KE
	}
	// Top K by score, best first (insertion; K is small).
	b.cand = b.cand[:0]
	for i := range legal {
		v := b.scores[i]
		j := len(b.cand)
		if j == K && v <= b.scores[b.cand[j-1]] {
			continue
		}
		if j < K {
			b.cand = append(b.cand, i)
		} else {
			j--
		}
		for ; j > 0 && b.scores[b.cand[j-1]] < v; j-- {
			b.cand[j] = b.cand[j-1]
		}
		b.cand[j] = i
	}
	if !b.Diverse || !deploy || len(b.cand) == len(legal) {
		return
	}
	for _, a := range legal {
		b.byCard[a.Card()], b.byRow[a.Row()] = -1, -1
	}
	b.in = b.in[:0]
	for range legal {
		b.in = append(b.in, false)
	}
	for _, i := range b.cand {
		b.in[i] = true
	}
	for i, a := range legal {
		switch a.Kind() {
		case engine.ActPass:
			if !b.in[i] {
				b.in[i] = true
				b.cand = append(b.cand, i)
			}
			continue
		case engine.ActPlace, engine.ActPlaceAt:
			if r := b.byRow[a.Row()]; r < 0 || b.scores[i] > b.scores[r] {
				b.byRow[a.Row()] = int16(i)
			}
		}
		if c := b.byCard[a.Card()]; c < 0 || b.scores[i] > b.scores[c] {
			b.byCard[a.Card()] = int16(i)
		}
	}
	for _, a := range legal {
		for _, i := range [2]int16{b.byCard[a.Card()], b.byRow[a.Row()]} {
			if i >= 0 && !b.in[i] {
				b.in[i] = true
				b.cand = append(b.cand, int(i))
			}
		}
	}
}

// deal plays the candidates alive (indices into legal) on n new deals and
// adds each one's values to its sum.
func (b *Strong) deal(s *engine.State, legal []engine.Action, me int, alive []int, n int) {
	for k := 0; k < n; k++ {
		s.CopyInto(&b.det)
		b.det.Determinize(me, &b.rng)
		seed := b.rng.Uint64()
		if b.Lean {
			b.leanStart(&b.det)
		}
		for c, i := range alive {
			// The same random continuation after every candidate.
			b.rroll.Reseed(seed)
			// The last candidate plays on the deal itself, which the
			// next deal redeals anyway: one state copy fewer a deal.
			sim := &b.det
			if c < len(alive)-1 {
				b.det.CopyInto(&b.sim)
				sim = &b.sim
			}
			sim.Apply(legal[i])
			b.sum[c] += b.rollout(sim, me)
		}
	}
}

// rollout plays d for Horizon decisions (or to the end of its round) and
// returns me's value.
func (b *Strong) rollout(d *engine.State, me int) float64 {
	if b.Lean && b.Horizon > 0 {
		return b.leanRollout(d, me)
	}
	return b.engineRollout(d, me)
}

// engineRollout is rollout on the engine alone.
func (b *Strong) engineRollout(d *engine.State, me int) float64 {
	round := d.Round()
	for n := 0; !d.IsTerminal() && d.Round() == round; n++ {
		// Horizon < 0: the leaf right after the candidate.
		if b.Horizon != 0 && n >= b.Horizon && d.Phase() == engine.Deployment {
			if b.Fit && b.model.ok {
				return b.leafFit(d, me)
			}
			return b.leaf(d, me)
		}
		var a engine.Action
		if b.GreedyRoll {
			a, _ = Decide(b.roll, d, &b.buf)
		} else if b.GainRoll && d.DeploymentTurn() {
			a = b.gainAction(d)
		} else {
			a, _ = b.rroll.Sample(d)
		}
		d.Apply(a)
	}
	if d.IsTerminal() {
		return d.Returns()[me]
	}
	return Evaluate(d)[me]
}

// gainAction draws GainRoll's action in a Deployment turn of d.
func (b *Strong) gainAction(d *engine.State) engine.Action {
	rng := &b.rroll.rng
	ch := &b.gch
	d.FillChoices(ch, b.buf[:0])
	n := ch.Len()
	// The random bot's draw to pass first (engine.State.RandomAction).
	if n == 1 || rng.Intn(PassOdds) == 0 {
		return engine.PassAction()
	}
	b.gainTables(d)
	b.lineup(d)
	me, np := d.CurrentPlayer(), d.NumPlayers()
	nt := len(d.Ruleset().Targets)
	// Each open row's gain table: the mover's and the strongest rival's
	// estimated power, its worth to the mover and its chance now.
	var em, opp, w, base [rules.MaxRows]float64
	open := ch.OpenRows()
	for m := open; m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m) & (rules.MaxRows - 1)
		v := &b.gview
		d.ViewRow(me, r, v)
		em[r] = float64(v.Known[me]) + float64(v.Hidden[me])*b.gmean[d.Faction(me)]
		for q := 0; q < np; q++ {
			if q != me {
				opp[r] = max(opp[r], float64(v.Known[q])+float64(v.Hidden[q])*b.gmean[d.Faction(q)])
			}
		}
		if v.Target >= 0 {
			w[r] = b.worth[me*nt+int(v.Target)]
		}
		if v.Top[me] >= 0 {
			base[r] = 0.5 + 0.5*(em[r]-opp[r])/(b.Sigma+math.Abs(em[r]-opp[r]))
		}
	}
	cum := b.gcum[:0]
	tot := 0.0
	for j := range ch.NumCards() {
		def, _, nspec, nplace := ch.DeployCard(j)
		for range nspec {
			tot++
			cum = append(cum, tot)
		}
		pw := b.gpow[def]
		k := 0
		for m := open; m != 0 && k < nplace; m &= m - 1 {
			r := bits.TrailingZeros32(m) & (rules.MaxRows - 1)
			x := em[r] + pw - opp[r]
			gain := w[r] * (0.5 + 0.5*x/(b.Sigma+math.Abs(x)) - base[r])
			tot += 1 + b.Beta*max(gain, 0)
			cum = append(cum, tot)
			k++
		}
	}
	b.gcum = cum
	u := float64(rng.Uint64()>>11) / (1 << 53) * tot
	k := 0
	for k < len(cum)-1 && cum[k] <= u {
		k++
	}
	return ch.At(k)
}

// gainTables tables GainRoll's printed powers and deck means for d's
// ruleset, unless they are the last decision's.
func (b *Strong) gainTables(d *engine.State) {
	rs := d.Ruleset()
	if rs == b.grs {
		return
	}
	b.grs = rs
	b.gpow = b.gpow[:0]
	for i := range rs.Cards {
		b.gpow = append(b.gpow, float64(rs.Cards[i].Power))
	}
	b.gmean = b.gmean[:0]
	for _, f := range rs.Factions {
		tot, n := 0, 0
		for _, c := range f.Deck {
			tot += rs.Cards[c].Power * rs.Cards[c].Copies
			n += rs.Cards[c].Copies
		}
		b.gmean = append(b.gmean, float64(tot)/float64(max(n, 1)))
	}
}

// leaf values a determinized state in the Deployment Phase for me: every
// seat's victory points so far plus each open target's worth times the
// seat's chance of winning its row by the powers as they stand (a logistic
// curve of the margin over the strongest rival), turned into a chance of
// winning the game as Evaluate does.
func (b *Strong) leaf(d *engine.State, me int) float64 {
	np := d.NumPlayers()
	rs := d.Ruleset()
	b.lineup(d)
	var ev [4]float64
	for p := 0; p < np; p++ {
		// The leaf is never reached at the game's end, so the provisional
		// score is the held targets' alone.
		if w := d.HeldTargets(p); b.heldOK&(1<<p) == 0 || b.held[p] != w {
			b.held[p], b.heldVP[p] = w, float64(d.ProvisionalScore(p).Total)
			b.heldOK |= 1 << p
		}
		ev[p] = b.heldVP[p]
	}
	nt := len(rs.Targets)
	for r := 0; r < d.NumRows(); r++ {
		t := d.RowTarget(r)
		if t < 0 || d.RowLen(r) == 0 {
			continue
		}
		res := &b.rres
		d.RowPowers(r, &b.rsc, res)
		for p := 0; p < np; p++ {
			if !res.HasCards[p] {
				continue
			}
			opp := 0
			for q := 0; q < np; q++ {
				if q != p && res.HasCards[q] {
					opp = max(opp, res.Power[q])
				}
			}
			m := float64(res.Power[p] - opp)
			if res.Combo[p] {
				m += 20
			}
			// The soft-sign sigmoid (greedy's logistic): the same shape,
			// no exponential.
			ev[p] += b.worth[p*nt+t] * (0.5 + 0.5*m/(b.Sigma+math.Abs(m)))
		}
	}
	return winChance(&ev, np, d.RoundsLeft(), me)
}

// winChance is winChances(vp, n, roundsLeft)[me], to the bit, for the
// leaf: the leader's exponential is exp(0) = 1 without calling Exp (in 2
// seats one of the two), and only me's share is divided out.
func winChance(vp *[4]float64, n, roundsLeft, me int) float64 {
	scale := 2 + 2.5*float64(roundsLeft)
	best := math.Inf(-1)
	for p := 0; p < n; p++ {
		best = math.Max(best, vp[p])
	}
	sum, mine := 0.0, 0.0
	for p := 0; p < n; p++ {
		e := 1.0
		if vp[p] != best {
			e = math.Exp((vp[p] - best) / scale)
		}
		sum += e
		if p == me {
			mine = e
		}
	}
	return mine / sum
}

// lineup tables what each target is worth to each seat (its VP, half a
// point per combination bonus, the planet bonus if the seat earns it),
// unless the ruleset and the seats' factions are those of the last leaf.
func (b *Strong) lineup(d *engine.State) {
	rs, np := d.Ruleset(), d.NumPlayers()
	same := rs == b.wrs && np == b.wnp
	for p := 0; same && p < np; p++ {
		same = d.Faction(p) == b.wfac[p]
	}
	if same {
		return
	}
	b.wrs, b.wnp = rs, np
	b.worth = b.worth[:0]
	for p := 0; p < np; p++ {
		b.wfac[p] = d.Faction(p)
		for t := range rs.Targets {
			tg := &rs.Targets[t]
			w := float64(tg.VP) + 0.5*float64(len(tg.Bonuses))
			if rs.EarnsPlanetBonus(&rs.Factions[b.wfac[p]], tg) {
				w += float64(rs.Rules.PlanetBonus)
			}
			b.worth = append(b.worth, w)
		}
	}
}

// Strong.Pol's modes.
const (
	PolNone = iota // Greedy ranks the candidates
	PolCand        // the imitation policy ranks them
	PolOnly        // the policy's best action, unsearched
)

// The defaults of the strong bot spec.
const (
	DefaultStrongK       = 10
	DefaultStrongKE      = 64
	DefaultStrongDets    = 3
	DefaultStrongHorizon = 5
	// GainRoll's weight per unit of gain (roll=gain).
	DefaultStrongBeta = 2
	// The race's (search=race): a candidate leaves at 1.5 standard errors,
	// or when within 0.01 of the leader, after 4 deals; at most 24.
	DefaultStrongZ    = 1.5
	DefaultStrongEps  = 0.01
	DefaultStrongDMin = 4
	DefaultStrongDMax = 24
)
