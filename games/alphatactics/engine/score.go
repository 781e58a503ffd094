package engine

import (
	"math/bits"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// RowResult is the outcome of scoring one row.
type RowResult struct {
	Row    int
	Target int // -1 if the target was already taken (Negotiations)
	Winner int // -1 if nobody has a card in the row
	Reason Reason
	Power  [maxPlayers]int
	Combo  [maxPlayers]bool
	// HasCards marks players with a card in the row.
	HasCards [maxPlayers]bool
}

// ScoreRow computes each player's combat power in row r as the Scoring Phase
// does and decides the winner. Face-down cards count with their power but
// without effect (at scoring time every card is face up). rs is
// scratch space (it is large; reuse it); rs.Cards describes the row's cards.
func (s *State) ScoreRow(r int, rs *handlers.RowScore) RowResult {
	var res RowResult
	s.scoreRow(r, rs, &res, true)
	return res
}

// RowPowers is ScoreRow without the winner: each player's combat power,
// combination and presence in row r, to the bit as ScoreRow gives them
// (res.Row and res.Target are set, res.Winner is -1). It
// is for evaluations that weigh the margins themselves (the strong bot's
// leaf values every open row of a rollout), which need no tie-breaking.
func (s *State) RowPowers(r int, rs *handlers.RowScore, res *RowResult) {
	s.scoreRow(r, rs, res, false)
}

// scoreRow is ScoreRow into res. One pass over the cards fills rs.Cards and
// sums their base powers; the scoring stages run only when some active card
// has a scoring or power-modifying effect (without one, the sums are the
// result). withWinner false leaves res.Winner and res.Reason unset.
func (s *State) scoreRow(r int, rs *handlers.RowScore, res *RowResult, withWinner bool) {
	row := &s.rows[r]
	*res = RowResult{Row: r, Target: int(row.target), Winner: -1}
	fx := s.fx
	n := int(row.n)
	rs.N = n
	blocked := false
	// acting marks the active cards with a scoring or modifying effect (bit
	// k: position k), so the stages need not look at every card again.
	var acting uint64
	ss := row.s[:n]
	cs := rs.Cards[:len(ss)]
	for k := range ss {
		sl := &ss[k]
		d8 := fx.instDef[sl.inst]
		base := basePower(fx.defPower[d8], sl)
		owner := int(fx.instOwn[sl.inst] & (maxPlayers - 1))
		// One pass top to bottom decides who is under an active blocker.
		active := !blocked && s.selfActive(sl)
		if active {
			blocked = fx.defPerm[d8]&handlers.BlocksBelow != 0
			if fx.defScoring[d8] {
				acting |= 1 << (k & 63)
			}
		}
		// Field by field: a composite literal is built on the stack and
		// copied with wide loads that stall on its byte-sized fields.
		c := &cs[k]
		c.Owner, c.Def, c.Type, c.Base, c.Mod, c.Bonus = owner, int(d8), int(fx.defType[d8]), base, 0, 0
		c.Active, c.Stolen, c.Copier = active, false, fx.defStage[d8]&(1<<handlers.StageCopy) != 0
		res.Power[owner] += base
		res.HasCards[owner] = true
	}
	if acting == 0 {
		if withWinner {
			s.decide(row, res, 0)
		}
		return
	}
	// The acting cards of each stage, and the modifiers (bit k: position k).
	var steal, add, copiers, modifiers uint64
	for m := acting; m != 0; m &= m - 1 {
		bit := m & -m
		d := uint8(cs[bits.TrailingZeros64(m)&63].Def)
		switch st := fx.defStage[d]; {
		case st&(1<<handlers.StageSteal) != 0:
			steal |= bit
		case st&(1<<handlers.StageAdd) != 0:
			add |= bit
		case st&(1<<handlers.StageCopy) != 0:
			copiers |= bit
		case fx.defMod[d] != nil:
			modifiers |= bit
		}
	}
	rs.Players = fx.players
	rs.TargetType, rs.Quadrant = -1, 0
	if row.target >= 0 {
		tf := &fx.tgt[row.target]
		rs.TargetType, rs.Quadrant = tf.typ, tf.quad
	}
	rs.Combo = [4]bool{}
	rs.HasCards = res.HasCards
	// Deflectors take base power first, then permanent modifiers and
	// additive bonuses apply; armadas copy the totals last.
	s.runStage(rs, steal)
	for m := modifiers; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		d := uint8(cs[k&63].Def)
		fx.defMod[d].ModifyRow(rs, k, fx.defParams[d])
	}
	s.runStage(rs, add)
	sumTotals(rs)
	if copiers != 0 {
		s.runStage(rs, copiers)
		sumTotals(rs)
	}
	res.Power, res.Combo = rs.Total, rs.Combo
	if !withWinner {
		return
	}
	var combos uint
	for p := range fx.players {
		if rs.Combo[p] && rs.HasCards[p] {
			combos |= 1 << p
		}
	}
	s.decide(row, res, combos)
}

// basePower is the combat power before effects of a card of printed power
// in slot sl: less weakening, never below 0, and 0 under a Deactivated
// (power) marker.
func basePower(power int16, sl *slot) int {
	if sl.flags&fDeactPower != 0 {
		return 0
	}
	return max(int(power)-int(sl.weaken), 0)
}

// decide picks the row's winner from res's powers and combos, the players
// (bit p) with a Diplomat combination: a combination beats power; among
// several combinations, or tied powers, the player whose card lies highest.
func (s *State) decide(row *row, res *RowResult, combos uint) {
	cand, reason := combos, ReasonCombo
	if cand == 0 {
		reason = ReasonPower
		best := 0
		for p := range s.fx.players {
			if !res.HasCards[p] {
				continue
			}
			switch v := res.Power[p]; {
			case cand == 0 || v > best:
				best, cand = v, 1<<p
			case v == best:
				cand |= 1 << p
			}
		}
		if cand == 0 {
			return // nobody has a card here
		}
	}
	if cand&(cand-1) == 0 {
		res.Winner, res.Reason = bits.TrailingZeros(cand), reason
		return
	}
	if reason == ReasonCombo {
		reason = ReasonComboTie
	} else {
		reason = ReasonTieTop
	}
	for k := range row.s[:row.n] {
		if o := s.ownerOf(row.s[k].inst); cand&(1<<o) != 0 {
			res.Winner = o
			break
		}
	}
	res.Reason = reason
}

// runStage runs the scoring effects of the cards of one stage (bit k:
// position k), top to bottom.
func (s *State) runStage(rs *handlers.RowScore, cards uint64) {
	fx := s.fx
	for m := cards; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		d := uint8(rs.Cards[k&63].Def)
		fx.defScore[d].Score(rs, k, fx.defParams[d])
	}
}

func sumTotals(rs *handlers.RowScore) {
	rs.Total = [4]int{}
	for k := range rs.Cards[:rs.N] {
		c := &rs.Cards[k]
		// A card never counts against its owner.
		rs.Total[c.Owner&(maxPlayers-1)] += max(c.Base+c.Mod+c.Bonus, 0)
	}
}

// scoreRound is the Scoring Phase and the clean-up of the round.
func (s *State) scoreRound() {
	rs := s.scratch
	if rs == nil {
		rs = new(handlers.RowScore)
		s.scratch = rs
	}
	rules := &s.fx.rs.Rules
	for r := 0; r < int(s.nrows); r++ {
		var res RowResult
		s.scoreRow(r, rs, &res, true)
		if res.Target < 0 {
			continue // taken by Negotiations already
		}
		if res.Winner >= 0 {
			if s.tally != nil {
				s.tallyRowWon(r, &res, rs)
			}
			s.players[res.Winner].won |= 1 << uint(res.Target)
			if s.obs != nil {
				e := ev(EvRowWon, res.Winner)
				e.Row, e.Target, e.Value, e.Reason = int8(r), int16(res.Target), int32(res.Power[res.Winner]), res.Reason
				s.emit(e)
			}
			continue
		}
		// Nobody has a card here: the target goes back under the target
		// pile to be fought over again, unless the game is already far
		// beyond its normal length (then it stays unclaimed).
		if t := s.tally; t != nil {
			t.Unclaimed[res.Target]++
			t.rowTaken(r, -1)
		}
		e := ev(EvRowUnclaimed, -1)
		e.Row, e.Target = int8(r), int16(res.Target)
		if int(s.round)+1 < 2*rules.Rounds {
			t := s.targets
			s.targets.c[0] = uint8(res.Target)
			copy(s.targets.c[1:t.n+1], t.c[:t.n])
			s.targets.n++
			e.Value = 1
		} else {
			s.unclaimed++
		}
		s.emit(e)
	}
	// Every card on the table goes to its owner's discard pile.
	for r := 0; r < int(s.nrows); r++ {
		row := &s.rows[r]
		for k := range row.s[:row.n] {
			i := row.s[k].inst
			s.players[s.ownerOf(i)].discard.push(i)
		}
		row.n = 0
		row.target = -1
		row.ver++
	}
	s.stats.Rounds++
	if s.tally != nil {
		s.tally.places = s.tally.places[:0]
	}
	if s.obs != nil {
		s.emit(ev(EvRoundEnd, -1))
	}
	s.round++
	if s.targets.n == 0 {
		s.finish()
	}
}

// finish does the end-of-game scoring.
func (s *State) finish() {
	s.phase = GameOver
	s.nrows = 0
	best, bestPlanets := -1, -1
	for p := 0; p < s.fx.players; p++ {
		f := &s.final[p]
		*f = s.scoreHeld(p)
		if f.Total > best || (f.Total == best && f.Planets > bestPlanets) {
			best, bestPlanets = f.Total, f.Planets
		}
	}
	useTB := s.fx.tieByPlanets
	winners := 0
	for p := 0; p < s.fx.players; p++ {
		f := &s.final[p]
		if f.Total == best && (!useTB || f.Planets == bestPlanets) {
			winners++
		}
	}
	for p := 0; p < s.fx.players; p++ {
		f := &s.final[p]
		s.winShare[p] = 0
		if f.Total == best && (!useTB || f.Planets == bestPlanets) {
			s.winShare[p] = 1 / float64(winners)
		}
	}
	e := ev(EvGameEnd, -1)
	e.Value = int32(winners)
	s.emit(e)
}

// scoreHeld is seat p's score for the targets it holds now.
func (s *State) scoreHeld(p int) Final {
	fx := s.fx
	won := s.players[p].won
	var f Final
	for w := won; w != 0; w &= w - 1 {
		tf := &fx.tgt[bits.TrailingZeros64(w)]
		f.TargetVP += tf.vp
		for k := range tf.bonus {
			f.BonusVP += tf.bonus[k].Earned(won)
		}
	}
	f.Targets = bits.OnesCount64(won)
	f.Planets = bits.OnesCount64(won & fx.planets)
	f.PlanetBonus = bits.OnesCount64(won&fx.planetBonus[p]) * fx.planetBonusVP
	f.Total = f.TargetVP + f.BonusVP + f.PlanetBonus
	return f
}

// ProvisionalScore is seat p's score if the game ended now (public
// information: the targets each player holds are face up).
func (s *State) ProvisionalScore(p int) Final {
	if s.phase == GameOver {
		return s.final[p]
	}
	return s.scoreHeld(p)
}

// RoundsLeft estimates the rounds still to play from the target pile.
func (s *State) RoundsLeft() int {
	per := s.fx.rs.Rules.TargetsPerRound
	return (int(s.targets.n) + per - 1) / per
}
