package ai

import (
	"math"
	"sync"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The imitation policy of the strong bot (pol=cand, pol=only; issue 26,
// tried and not the default, docs/metrics.md "Skill"): a conditional logit
// — a softmax over a Deployment turn's legal actions — on features of each
// action, fitted per ruleset and player count, the first time a bot meets
// them, to the choices of a stronger searcher (the teacher,
// strong:k=64,dets=12, which plays at ISMCTS-400's level at five times
// strong's cost) in positions of Greedy's self-play: one step of expert
// iteration, with no file and no offline step. With pol=cand its scores
// replace Greedy's as strong's ranking of the candidates (strong searches
// the policy's best K); with pol=only the policy's best action is played
// unsearched.
//
// The features of action a in a decision of seat me: Greedy's score of it
// (the gap to Greedy's best, and Greedy's rank), the value the hand-made
// leaf gives the position right after it on one deal of the hidden cards
// (the gap to the best action's, and whether it is the best), passing and
// passing against the hands' sizes, the card's printed power, whether it is
// the hand's strongest or weakest, a placement at a position, how full the
// row is and what its target is worth to me. Constant features of the
// position cancel in the softmax, so each is an action's property or one
// crossed with the position.
const nPolFeat = 15

// Sizes of the fit: Greedy self-play games (a random action one time in
// polEps), a teacher's label at every polEvery-th Deployment decision; the
// last fifth of the games held out to measure the fit.
const (
	polGames = 80
	polEvery = 2
	polEps   = 4
	polSeed  = 0x5eed26a11
	polIters = 12
	polRidge = 1.0
	polTK    = 64 // the teacher: strong:k=polTK,dets=polTD
	polTD    = 12
)

// policyModel is a fitted policy for one ruleset and player count; ok is
// false when the fit could not be made (Greedy's ranking is used then).
type policyModel struct {
	w  [nPolFeat]float64
	ok bool
	// For the record: labelled decisions fitted and held out, and on the
	// held-out ones how often the policy's, and Greedy's, best action is
	// the teacher's, and the teacher's among their best 10.
	Fitted, HeldOut               int
	Agree, GreedyAgree            float64
	Top10, GreedyTop10, MeanLegal float64
}

var policies struct {
	sync.Mutex
	m map[polKey]*polFit
}

// polKey names a fit: the ruleset and seats, the teacher (PolTeachStrong,
// PolTeachISMCTS) and whether the features leave the leaf out.
type polKey struct {
	rs     *rules.Ruleset
	np     int
	teach  int
	iters  int // the ISMCTS teacher's iterations (0: 400)
	noLeaf bool
	games  int // self-play games labelled (0: polGames)
}

// The imitation policy's teachers.
const (
	PolTeachStrong = iota // strong:k=polTK,dets=polTD
	PolTeachISMCTS        // ismcts:iters=400
)

type polFit struct {
	once sync.Once
	m    *policyModel
}

// policyFor returns the policy for rs and np seats, fitting it on first
// use; deterministic (its own seeds), so which bot or worker asks first
// does not change a result.
func policyFor(k polKey) *policyModel {
	policies.Lock()
	if policies.m == nil {
		policies.m = map[polKey]*polFit{}
	}
	f := policies.m[k]
	if f == nil {
		f = &polFit{}
		policies.m[k] = f
	}
	policies.Unlock()
	f.once.Do(func() {
		g := k.games
		if g == 0 {
			g = polGames
		}
		f.m = fitPolicy(k, g)
	})
	return f.m
}

// polFeatures fills b.pf (nPolFeat per legal action) for a Deployment turn
// of s, b.scores holding Greedy's scores of legal. One deal of the hidden
// cards (b.rng: it never peeks) values every action by the leaf.
func (b *Strong) polFeatures(s *engine.State, legal []engine.Action, me int) {
	n := len(legal)
	if cap(b.pf) < n*nPolFeat {
		b.pf = make([]float64, n*nPolFeat)
		b.plv = make([]float64, n)
	}
	pf, lv := b.pf[:n*nPolFeat], b.plv[:n]
	b.heldOK = 0
	gbest, lbest := math.Inf(-1), 0.0
	for i := range legal {
		gbest = max(gbest, b.scores[i])
		lv[i] = 0
	}
	if !b.PolNoLeaf {
		s.CopyInto(&b.det)
		b.det.Determinize(me, &b.rng)
		seed := b.rng.Uint64()
		h := b.Horizon
		b.Horizon = -1
		lbest = math.Inf(-1)
		for i, a := range legal {
			b.rroll.Reseed(seed)
			b.det.CopyInto(&b.sim)
			b.sim.Apply(a)
			lv[i] = b.engineRollout(&b.sim, me)
			lbest = max(lbest, lv[i])
		}
		b.Horizon = h
	}
	rs := s.Ruleset()
	b.lineup(s)
	nt := len(rs.Targets)
	// The hand's strongest and weakest printed power, and the hands' sizes.
	hi, lo := -1<<30, 1<<30
	for k := 0; k < s.HandLen(me); k++ {
		if c := s.HandCard(me, me, k); c >= 0 {
			hi, lo = max(hi, rs.Cards[c].Power), min(lo, rs.Cards[c].Power)
		}
	}
	opp := 0
	for q := 0; q < s.NumPlayers(); q++ {
		if q != me {
			opp = max(opp, s.HandLen(q))
		}
	}
	hands := float64(s.HandLen(me)-opp) / 4
	// Greedy's rank of each action (0 best), by counting those above.
	for i, a := range legal {
		f := pf[i*nPolFeat : (i+1)*nPolFeat : (i+1)*nPolFeat]
		clear(f)
		rank := 0
		for j := range legal {
			if b.scores[j] > b.scores[i] || b.scores[j] == b.scores[i] && j < i {
				rank++
			}
		}
		f[0] = max(b.scores[i]-gbest, -10)
		f[1] = b2f(rank == 0)
		f[2] = b2f(rank >= 1 && rank <= 2)
		f[3] = b2f(rank >= 3 && rank <= 9)
		if !b.PolNoLeaf {
			f[4] = 10 * (lv[i] - lbest)
			f[5] = b2f(lv[i] == lbest)
		}
		switch a.Kind() {
		case engine.ActPass:
			f[6] = 1
			f[7] = hands
		case engine.ActPlace, engine.ActPlaceAt:
			p := rs.Cards[a.Card()].Power
			f[8] = float64(p) / 10
			f[9] = b2f(p == hi)
			f[10] = b2f(p == lo)
			f[11] = b2f(a.Kind() == engine.ActPlaceAt)
			r := a.Row()
			f[12] = float64(s.RowLen(r)) / 4
			if t := s.RowTarget(r); t >= 0 {
				f[13] = b.worth[me*nt+t] / 10
			}
			f[14] = f[8] * float64(s.RoundsLeft()) / 6
		}
	}
}

// polScores replaces b.scores by the policy's logits for a Deployment turn.
func (b *Strong) polScores(s *engine.State, legal []engine.Action, me int) {
	rs, np := s.Ruleset(), s.NumPlayers()
	if b.pol == nil || b.prs != rs || b.pnp != np {
		b.pol, b.prs, b.pnp = policyFor(polKey{rs, np, b.PolTeach, b.PolIters, b.PolNoLeaf, b.PolGames}), rs, np
	}
	if !b.pol.ok {
		return
	}
	b.polFeatures(s, legal, me)
	for i := range legal {
		z := 0.0
		for k, v := range b.pf[i*nPolFeat : (i+1)*nPolFeat] {
			z += b.pol.w[k] * v
		}
		b.scores[i] = z
	}
}

// polDec is a labelled decision: its features at xs[off*nPolFeat:], n
// actions, the teacher's index y and Greedy's scores gy.
type polDec struct {
	off, n, y int
	gy        []float64
}

// polData is the labelled decisions of a fit; the first nfit are fitted.
type polData struct {
	xs   []float64
	decs []polDec
	nfit int
}

// collectPolicy plays games Greedy self-play games on k's ruleset (a random
// action one time in polEps) and asks the teacher at every polEvery-th
// Deployment turn with two actions or more; the first four fifths of the
// games are for the fit, the rest to measure it. nil when no game can be
// set up.
func collectPolicy(k polKey, games int) *polData {
	rs, np := k.rs, k.np
	nf := len(rs.Factions)
	if nf < 1 || np < 1 {
		return nil
	}
	d := &polData{}
	var buf []engine.Action
	ag := make([]*greedy.Greedy, np)
	for i := range ag {
		ag[i] = greedy.New(polSeed + uint64(i))
	}
	var teacher Agent = NewStrong(polSeed+7, polTK, polTD)
	if k.teach == PolTeachISMCTS {
		it := k.iters
		if it == 0 {
			it = 400
		}
		teacher = NewISMCTS(polSeed+7, it, "random")
	}
	fx := NewStrong(polSeed+11, DefaultStrongK, DefaultStrongDets)
	fx.PolNoLeaf = k.noLeaf
	rng := engine.NewRNG(polSeed)
	fs := make([]string, np)
	split := games * 4 / 5
	d.nfit = -1
	for g := 0; g < games; g++ {
		if g == split {
			d.nfit = len(d.decs)
		}
		for i := range fs {
			fs[i] = rs.Factions[(g+i*(1+g/nf))%nf].ID
		}
		s, err := engine.New(rs, engine.Config{Factions: fs, Seed: engine.SeedFor(polSeed, uint64(g))})
		if err != nil {
			// Repeated factions may be refused: one faction each, in order.
			for i := range fs {
				fs[i] = rs.Factions[i%nf].ID
			}
			if s, err = engine.New(rs, engine.Config{Factions: fs, Seed: engine.SeedFor(polSeed, uint64(g))}); err != nil {
				return nil
			}
		}
		for n := 0; !s.IsTerminal(); n++ {
			buf = s.LegalActions(buf[:0])
			me := s.CurrentPlayer()
			if len(buf) > 1 && buf[len(buf)-1].Kind() == engine.ActPass && n%polEvery == 0 {
				y := teacher.Choose(s, buf)
				fx.rank.Begin(s)
				fx.scores = fx.scores[:0]
				for _, a := range buf {
					fx.scores = append(fx.scores, fx.rank.Score(s, a))
				}
				fx.polFeatures(s, buf, me)
				x := polDec{off: len(d.xs) / nPolFeat, n: len(buf), y: -1, gy: append([]float64(nil), fx.scores...)}
				for i, a := range buf {
					if a == y {
						x.y = i
					}
				}
				if x.y >= 0 {
					d.xs = append(d.xs, fx.pf[:len(buf)*nPolFeat]...)
					d.decs = append(d.decs, x)
				}
			}
			var a engine.Action
			if rng.Intn(polEps) == 0 {
				a = buf[rng.Intn(len(buf))]
			} else {
				a = ag[me].Choose(s, buf)
			}
			s.Apply(a)
		}
	}
	if d.nfit < 0 {
		d.nfit = len(d.decs)
	}
	return d
}

// fitPolicy fits the conditional logit to collectPolicy's labels by
// Newton's method with a small ridge and measures it on the held-out ones.
func fitPolicy(k polKey, games int) *policyModel {
	m := &policyModel{}
	data := collectPolicy(k, games)
	if data == nil {
		return m
	}
	xs, decs, nfit := data.xs, data.decs, data.nfit
	m.Fitted, m.HeldOut = nfit, len(decs)-nfit
	if nfit < 10*nPolFeat {
		return m
	}
	var w [nPolFeat]float64
	nt := newNewton(nPolFeat)
	var hs [nPolFeat][nPolFeat]float64
	var gs, ef [nPolFeat]float64
	var pr []float64
	for it := 0; it < polIters; it++ {
		for i := range gs {
			gs[i] = -polRidge * w[i]
			clear(hs[i][:])
			hs[i][i] = polRidge
		}
		for _, d := range decs[:nfit] {
			x := xs[d.off*nPolFeat : (d.off+d.n)*nPolFeat]
			pr = softmax(&w, x, d.n, pr)
			clear(ef[:])
			for a := 0; a < d.n; a++ {
				f := x[a*nPolFeat : (a+1)*nPolFeat]
				for i, v := range f {
					ef[i] += pr[a] * v
				}
			}
			fy := x[d.y*nPolFeat : (d.y+1)*nPolFeat]
			for i := range gs {
				gs[i] += fy[i] - ef[i]
			}
			// Hessian of the negative log-likelihood: the actions'
			// covariance of the features under the policy.
			for a := 0; a < d.n; a++ {
				f := x[a*nPolFeat : (a+1)*nPolFeat]
				for i := 0; i < nPolFeat; i++ {
					di := pr[a] * (f[i] - ef[i])
					for j := i; j < nPolFeat; j++ {
						hs[i][j] += di * (f[j] - ef[j])
					}
				}
			}
		}
		if !nt.update(w[:], gs[:], func(i, j int) float64 { return hs[i][j] }) {
			return m
		}
	}
	if !finite(w[:]) {
		return m
	}
	m.w, m.ok = w, true
	// Held-out agreement and coverage of the top 10.
	for _, d := range decs[nfit:] {
		x := xs[d.off*nPolFeat : (d.off+d.n)*nPolFeat]
		pr = softmax(&w, x, d.n, pr)
		above, gabove := 0, 0
		for a := 0; a < d.n; a++ {
			if a != d.y && (pr[a] > pr[d.y] || pr[a] == pr[d.y] && a < d.y) {
				above++
			}
			if a != d.y && (d.gy[a] > d.gy[d.y] || d.gy[a] == d.gy[d.y] && a < d.y) {
				gabove++
			}
		}
		m.Agree += b2f(above == 0)
		m.GreedyAgree += b2f(gabove == 0)
		m.Top10 += b2f(above < 10)
		m.GreedyTop10 += b2f(gabove < 10)
		m.MeanLegal += float64(d.n)
	}
	if m.HeldOut > 0 {
		h := float64(m.HeldOut)
		m.Agree, m.GreedyAgree, m.Top10, m.GreedyTop10, m.MeanLegal = m.Agree/h, m.GreedyAgree/h, m.Top10/h, m.GreedyTop10/h, m.MeanLegal/h
	}
	return m
}

// softmax returns the policy's probabilities of the n actions whose
// features are x, in pr's storage.
func softmax(w *[nPolFeat]float64, x []float64, n int, pr []float64) []float64 {
	pr = pr[:0]
	hi := math.Inf(-1)
	for a := 0; a < n; a++ {
		z := 0.0
		for i, v := range x[a*nPolFeat : (a+1)*nPolFeat] {
			z += w[i] * v
		}
		pr = append(pr, z)
		hi = max(hi, z)
	}
	t := 0.0
	for a := range pr {
		pr[a] = math.Exp(pr[a] - hi)
		t += pr[a]
	}
	for a := range pr {
		pr[a] /= t
	}
	return pr
}
