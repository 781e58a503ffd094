package ai

import (
	"math"
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// leanRows is Lean's compact continuation (issue 26: a rollout some times
// cheaper than the engine's): per row its target and combinations by seat
// (fixed), and what the continuation changes in leanPlay.
type leanRows struct {
	np, nrows, toEnd int
	target           [rules.MaxRows]int
	combo            [rules.MaxRows][rules.MaxPlayers]bool
	mean             [rules.MaxPlayers]float64 // each seat's deck's mean printed power
	play             leanPlay
}

// leanPlay is what a compact continuation changes: per row its powers and
// presence by seat and its card count; per seat its hand's printed powers;
// whose turn it is, the rows open for a card and the complete ones. The
// candidate is applied by the engine; the random decisions after it only
// add printed powers to rows (no effects, no reveals, no draws: a played
// card is replaced by its deck's mean power), and the leaf values the rows
// as they stand.
type leanPlay struct {
	cur        int
	open, done uint32
	n          [rules.MaxRows]int
	pw         [rules.MaxRows][rules.MaxPlayers]float64
	has        [rules.MaxRows][rules.MaxPlayers]bool
	hand       [rules.MaxPlayers][8]float64
	nh         [rules.MaxPlayers]int
}

// leanDeal caches the deal's row powers before the candidates (by row
// version), so that a candidate's continuation rescores only the rows it
// changed.
type leanDeal struct {
	ver [rules.MaxRows]uint32
	res [rules.MaxRows]engine.RowResult
}

// leanStart records d's row powers as the deal's, before any candidate.
func (b *Strong) leanStart(d *engine.State) {
	for r := 0; r < d.NumRows(); r++ {
		b.ldeal.ver[r] = d.RowVersion(r)
		d.RowPowers(r, &b.rsc, &b.ldeal.res[r])
	}
}

// leanRollout is rollout with Lean: the engine's random decisions until a
// Deployment turn of the same round is up after at least LeanExact of them
// (or the round is played out and valued as rollout does), then Reps compact continuations for the rest of
// Horizon decisions, each valued by the leaf on the compact rows, averaged.
func (b *Strong) leanRollout(d *engine.State, me int) float64 {
	round := d.Round()
	n := 0
	for ; !d.IsTerminal() && d.Round() == round && (n < b.LeanExact || !d.DeploymentTurn()); n++ {
		a, _ := b.rroll.Sample(d)
		d.Apply(a)
	}
	if d.IsTerminal() {
		return d.Returns()[me]
	}
	if d.Round() != round {
		return Evaluate(d)[me]
	}
	b.gainTables(d)
	b.lineup(d)
	c := &b.lean
	np := d.NumPlayers()
	c.np, c.nrows, c.toEnd = np, d.NumRows(), d.Ruleset().Rules.CardsToEnd
	c.play.cur, c.play.open, c.play.done = d.CurrentPlayer(), d.OpenRows(), d.CompleteRows()
	for r := 0; r < c.nrows; r++ {
		res := &b.ldeal.res[r]
		if d.RowVersion(r) != b.ldeal.ver[r] {
			res = &b.rres
			d.RowPowers(r, &b.rsc, res)
		}
		c.play.n[r], c.target[r] = d.RowLen(r), res.Target
		for p := 0; p < np; p++ {
			c.play.pw[r][p], c.play.has[r][p], c.combo[r][p] = float64(res.Power[p]), res.HasCards[p], res.Combo[p]
		}
	}
	for p := 0; p < np; p++ {
		k := min(d.HandLen(p), len(c.play.hand[p]))
		c.play.nh[p] = k
		for j := 0; j < k; j++ {
			// The deal is a determinized copy: every hand is the
			// deciding seat's guess, not the truth.
			c.play.hand[p][j] = b.gpow[d.HandCard(p, p, j)]
		}
		c.mean[p] = b.gmean[d.Faction(p)]
	}
	var base [4]float64
	for p := 0; p < np; p++ {
		if w := d.HeldTargets(p); b.heldOK&(1<<p) == 0 || b.held[p] != w {
			b.held[p], b.heldVP[p] = w, float64(d.ProvisionalScore(p).Total)
			b.heldOK |= 1 << p
		}
		base[p] = b.heldVP[p]
	}
	nt := len(d.Ruleset().Targets)
	reps := max(b.Reps, 1)
	sum := 0.0
	for range reps {
		b.lrun = c.play
		b.leanPlay(n)
		sum += b.leanLeaf(&base, nt, d.RoundsLeft(), me)
	}
	return sum / float64(reps)
}

// leanPlay plays the compact continuation in b.lrun from decision n of
// Horizon: each decision one random number, its top 16 bits the random
// bot's draw to pass (1 in PassOdds), the next 16 the row, the low 32 the
// hand card.
func (b *Strong) leanPlay(n int) {
	c, pl := &b.lean, &b.lrun
	np := c.np
	rng := &b.rroll.rng
	all := uint32(1)<<uint(c.nrows&31) - 1
	const passBelow = 1 << 16 / PassOdds
	for ; n < b.Horizon; n++ {
		p := pl.cur & (rules.MaxPlayers - 1)
		if pl.cur++; pl.cur == np {
			pl.cur = 0
		}
		nopen, nh := uint64(bits.OnesCount32(pl.open)), uint64(pl.nh[p])
		u := rng.Uint64()
		if nh == 0 || nopen == 0 || u>>48 < passBelow {
			continue
		}
		j := (u & (1<<32 - 1)) * nh >> 32
		m := pl.open
		for ro := (u >> 32 & (1<<16 - 1)) * nopen >> 16; ro > 0; ro-- {
			m &= m - 1
		}
		r := bits.TrailingZeros32(m) & (rules.MaxRows - 1)
		pl.pw[r][p] += pl.hand[p][j&7]
		pl.has[r][p] = true
		pl.hand[p][j&7] = c.mean[p]
		pl.n[r]++
		if pl.n[r] >= c.toEnd {
			pl.done |= 1 << uint(r)
			if pl.done&all == all {
				return
			}
		}
		if pl.n[r] >= engine.MaxRowLen {
			pl.open &^= 1 << uint(r)
		}
	}
}

// leanLeaf is leaf on the compact rows of b.lrun, base the seats' held
// victory points.
func (b *Strong) leanLeaf(base *[4]float64, nt, roundsLeft, me int) float64 {
	c, pl := &b.lean, &b.lrun
	np := c.np
	ev := *base
	for r := 0; r < c.nrows; r++ {
		t := c.target[r]
		if t < 0 || pl.n[r] == 0 {
			continue
		}
		// The strongest and second strongest seat with cards here (0
		// when none): a seat's rival power is the best of the others.
		best, second, bi := 0.0, 0.0, -1
		for p := 0; p < np; p++ {
			if !pl.has[r][p] {
				continue
			}
			switch v := pl.pw[r][p]; {
			case bi < 0 || v > best:
				second, best, bi = best, v, p
			case v > second:
				second = v
			}
		}
		for p := 0; p < np; p++ {
			if !pl.has[r][p] {
				continue
			}
			opp := best
			if p == bi {
				opp = second
			}
			m := pl.pw[r][p] - opp
			if c.combo[r][p] {
				m += 20
			}
			ev[p] += b.worth[p*nt+t] * (0.5 + 0.5*m/(b.Sigma+math.Abs(m)))
		}
	}
	return winChance(&ev, np, roundsLeft, me)
}
