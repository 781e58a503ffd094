package ai

import (
	"math"
	"sync"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"gonum.org/v1/gonum/mat"
)

// The fitted leaf of the strong bot (leaf=fit, issue 26): the chance that a
// seat takes a row's target when the round is scored, by a logistic
// regression on the row as it stands (power margins at three scales, how
// many cards the row still lacks, the hands' power, whose turn it is),
// fitted per ruleset and player count from self-play on that ruleset the
// first time a bot meets it — no file, no offline step. The leaf then
// values a position as the hand-made one does (targets held plus each row's
// worth times that chance, turned into a chance of winning the game by
// winChance), so a cut rollout and one played to the end of the round stay
// on one scale.
//
// Rows rather than games: every position gives a label per row and seat
// that the round decides (who takes the target), where a game's winner is
// one noisy bit decided rounds later; and a row's chance does not depend on
// the faction, so the targets' worth per seat stays the hand-made table.
const nRowFeat = 12

// Sizes of the fit: games of self-play (Greedy with a random action one
// time in fitEps, so the positions cover what random rollouts reach), one
// position kept every fitEvery Deployment decisions.
const (
	fitGames = 800
	fitEvery = 3
	fitEps   = 4
	fitSeed  = 0x5eed26f17
	fitIters = 10
	fitRidge = 1.0 // L2 penalty in units of the summed log-likelihood
)

// rowModel is a fitted row leaf for one ruleset and player count; ok is
// false when the fit could not be made (the hand-made leaf is used then).
type rowModel struct {
	w  [nRowFeat]float64
	ok bool
	// Samples and positions the fit used, for the record.
	samples, positions int
}

// rowKey names a fit: rulesets are not changed once loaded, so identity is
// enough (a variant is a new ruleset and gets its own fit).
type rowKey struct {
	rs *rules.Ruleset
	np int
}

var rowModels struct {
	sync.Mutex
	m map[rowKey]*rowFit
}

type rowFit struct {
	once sync.Once
	m    *rowModel
}

// rowModelFor returns the model for rs and np seats, fitting it on first
// use. The fit is deterministic (its own seeds), so which bot or worker
// asks first does not change a result.
func rowModelFor(rs *rules.Ruleset, np int) *rowModel {
	rowModels.Lock()
	if rowModels.m == nil {
		rowModels.m = map[rowKey]*rowFit{}
	}
	k := rowKey{rs, np}
	f := rowModels.m[k]
	if f == nil {
		f = &rowFit{}
		rowModels.m[k] = f
	}
	rowModels.Unlock()
	f.once.Do(func() { f.m = fitRows(rs, np, fitGames) })
	return f.m
}

// rowScratch is what computing a row's features needs.
type rowScratch struct {
	hp [rules.MaxPlayers]float64 // hand power per seat
}

// hands fills the hands' power of d's seats. d is a deal of the hidden
// cards (a determinization in search, the true state in the fit).
func (x *rowScratch) hands(d *engine.State) {
	rs := d.Ruleset()
	for p := 0; p < d.NumPlayers(); p++ {
		h := 0.0
		for k := 0; k < d.HandLen(p); k++ {
			if c := d.HandCard(engine.Omniscient, p, k); c >= 0 {
				h += float64(rs.Cards[c].Power)
			}
		}
		x.hp[p] = h
	}
}

// softSign is m/(s+|m|), a sigmoid in (-1, 1) without an exponential.
func softSign(m, s float64) float64 { return m / (s + math.Abs(m)) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// rowFeatures fills f for seat p and row r of d, scored as res (res is the
// zero result with Winner -1 for an empty row).
func (x *rowScratch) rowFeatures(d *engine.State, res *engine.RowResult, r, p, np int, f *[nRowFeat]float64) {
	opp, oppCards, oppCombo, oppHP := 0, false, false, 0.0
	for q := 0; q < np; q++ {
		if q == p {
			continue
		}
		if res.HasCards[q] {
			opp = max(opp, res.Power[q])
			oppCards = true
		}
		oppCombo = oppCombo || res.Combo[q]
		oppHP = max(oppHP, x.hp[q])
	}
	m := float64(res.Power[p] - opp)
	if res.Combo[p] {
		m += 20
	}
	if oppCombo {
		m -= 20
	}
	open := float64(max(0, 4-d.RowLen(r))) / 4
	turn := b2f(d.CurrentPlayer() == p)
	s6 := softSign(m, 6)
	f[0] = 1
	f[1] = softSign(m, 2)
	f[2] = s6
	f[3] = softSign(m, 15)
	f[4] = open * s6
	f[5] = b2f(res.HasCards[p])
	f[6] = b2f(oppCards)
	f[7] = turn
	f[8] = open * (x.hp[p] - oppHP) / 20
	f[9] = b2f(res.Winner == p)
	f[10] = open
	f[11] = open * turn
}

func (m *rowModel) prob(f *[nRowFeat]float64) float64 {
	z := 0.0
	for i, v := range f {
		z += m.w[i] * v
	}
	return 1 / (1 + math.Exp(-z))
}

// fitRows plays games self-play games on rs with np seats (factions in
// turn), keeps every row's features for every seat at every fitEvery-th
// Deployment decision, labels each with whether the seat held the row's
// target once the round was scored, and fits the logistic regression by
// Newton's method (IRLS) with a small ridge.
func fitRows(rs *rules.Ruleset, np, games int) *rowModel {
	m := &rowModel{}
	nf := len(rs.Factions)
	if nf < 1 || np < 1 {
		return m
	}
	type pending struct {
		t, p int
	}
	var (
		xs   [][nRowFeat]float32
		ys   []bool
		pend []pending // labels owed by the round being played, parallel to xs's tail
		x    rowScratch
		rsc  handlers.RowScore
		buf  []engine.Action
		f    [nRowFeat]float64
	)
	ag := make([]*greedy.Greedy, np)
	for i := range ag {
		ag[i] = greedy.New(fitSeed + uint64(i))
	}
	rng := engine.NewRNG(fitSeed)
	fs := make([]string, np)
	for g := 0; g < games; g++ {
		for i := range fs {
			fs[i] = rs.Factions[(g+i*(1+g/nf))%nf].ID
		}
		s, err := engine.New(rs, engine.Config{Factions: fs, Seed: engine.SeedFor(fitSeed, uint64(g))})
		if err != nil {
			// Repeated factions may be refused: one faction each, in order.
			for i := range fs {
				fs[i] = rs.Factions[i%nf].ID
			}
			if s, err = engine.New(rs, engine.Config{Factions: fs, Seed: engine.SeedFor(fitSeed, uint64(g))}); err != nil {
				return m
			}
		}
		round := s.Round()
		for n := 0; !s.IsTerminal(); n++ {
			if s.Phase() == engine.Deployment && n%fitEvery == 0 {
				m.positions++
				x.hands(s)
				for r := 0; r < s.NumRows(); r++ {
					t := s.RowTarget(r)
					if t < 0 {
						continue
					}
					res := engine.RowResult{Winner: -1}
					if s.RowLen(r) > 0 {
						res = s.ScoreRow(r, &rsc)
					}
					for p := 0; p < np; p++ {
						x.rowFeatures(s, &res, r, p, np, &f)
						var f32 [nRowFeat]float32
						for i, v := range f {
							f32[i] = float32(v)
						}
						xs = append(xs, f32)
						pend = append(pend, pending{t, p})
					}
				}
			}
			buf = s.LegalActions(buf[:0])
			var a engine.Action
			if rng.Intn(fitEps) == 0 {
				a = buf[rng.Intn(len(buf))]
			} else {
				a = ag[s.CurrentPlayer()].Choose(s, buf)
			}
			s.Apply(a)
			if s.IsTerminal() || s.Round() != round {
				round = s.Round()
				for _, q := range pend {
					ys = append(ys, q.t < 64 && s.HeldTargets(q.p)&(1<<q.t) != 0)
				}
				pend = pend[:0]
			}
		}
	}
	xs = xs[:len(ys)]
	m.samples = len(xs)
	if len(xs) < 20*nRowFeat {
		return m
	}
	var w [nRowFeat]float64
	nt := newNewton(nRowFeat)
	var hs [nRowFeat][nRowFeat]float64
	var gs [nRowFeat]float64
	for it := 0; it < fitIters; it++ {
		for i := range gs {
			gs[i] = -fitRidge * w[i]
			for j := range hs[i] {
				hs[i][j] = 0
			}
			hs[i][i] = fitRidge
		}
		for k, fx := range xs {
			z := 0.0
			for i, v := range fx {
				z += w[i] * float64(v)
			}
			pr := 1 / (1 + math.Exp(-z))
			q := pr * (1 - pr)
			e := b2f(ys[k]) - pr
			for i := 0; i < nRowFeat; i++ {
				fi := float64(fx[i])
				gs[i] += e * fi
				qi := q * fi
				for j := i; j < nRowFeat; j++ {
					hs[i][j] += qi * float64(fx[j])
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
	return m
}

// leafFit is leaf with the fitted chance of taking each row (rows without
// a card count too: the model knows what an empty row tends to go to).
func (b *Strong) leafFit(d *engine.State, me int) float64 {
	np := d.NumPlayers()
	rs := d.Ruleset()
	b.lineup(d)
	var ev [4]float64
	for p := 0; p < np; p++ {
		if w := d.HeldTargets(p); b.heldOK&(1<<p) == 0 || b.held[p] != w {
			b.held[p], b.heldVP[p] = w, float64(d.ProvisionalScore(p).Total)
			b.heldOK |= 1 << p
		}
		ev[p] = b.heldVP[p]
	}
	b.fx.hands(d)
	nt := len(rs.Targets)
	var f [nRowFeat]float64
	for r := 0; r < d.NumRows(); r++ {
		t := d.RowTarget(r)
		if t < 0 {
			continue
		}
		res := engine.RowResult{Winner: -1}
		if d.RowLen(r) > 0 {
			res = d.ScoreRow(r, &b.rsc)
		}
		for p := 0; p < np; p++ {
			b.fx.rowFeatures(d, &res, r, p, np, &f)
			ev[p] += b.worth[p*nt+t] * b.model.prob(&f)
		}
	}
	return winChance(&ev, np, d.RoundsLeft(), me)
}

// useModel readies the fitted leaf for d's ruleset and player count.
func (b *Strong) useModel(d *engine.State) {
	rs, np := d.Ruleset(), d.NumPlayers()
	if b.model != nil && b.mrs == rs && b.mnp == np {
		return
	}
	b.mrs, b.mnp = rs, np
	b.model = rowModelFor(rs, np)
}

// newton is a Newton fit's scratch: each step solves H·s = g for the
// gradient g and the Hessian H (of the penalized log-likelihood, upper
// triangle) the caller accumulated, by Cholesky.
type newton struct {
	h          *mat.SymDense
	grad, step *mat.VecDense
	ch         mat.Cholesky
}

func newNewton(n int) *newton {
	return &newton{h: mat.NewSymDense(n, nil), grad: mat.NewVecDense(n, nil), step: mat.NewVecDense(n, nil)}
}

// update adds H⁻¹g to w, with H's upper triangle read from hs; false when H
// is not positive definite.
func (nt *newton) update(w, g []float64, hs func(i, j int) float64) bool {
	for i := range w {
		nt.grad.SetVec(i, g[i])
		for j := i; j < len(w); j++ {
			nt.h.SetSym(i, j, hs(i, j))
		}
	}
	if !nt.ch.Factorize(nt.h) {
		return false
	}
	if err := nt.ch.SolveVecTo(nt.step, nt.grad); err != nil {
		return false
	}
	for i := range w {
		w[i] += nt.step.AtVec(i)
	}
	return true
}

// finite reports whether every weight is a number.
func finite(w []float64) bool {
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
