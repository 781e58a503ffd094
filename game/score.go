package game

import (
	"sync"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
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
// scratch space (it is large; reuse it).
func (s *State) ScoreRow(r int, rs *effects.RowScore) RowResult {
	row := &s.rows[r]
	res := RowResult{Row: r, Target: int(row.target), Winner: -1}
	t := (*table)(s)
	rs.N = int(row.n)
	rs.Players = s.fx.players
	rs.TargetType = t.TargetType(r)
	rs.Quadrant = t.TargetQuadrant(r)
	rs.Total = [4]int{}
	rs.Combo = [4]bool{}
	rs.HasCards = [4]bool{}
	rs.SetTagFunc(s.fx.tagMatch)
	fx := s.fx
	var stages uint8
	mods, blocked := false, false
	for k := 0; k < rs.N; k++ {
		sl := &row.s[k]
		d := sl.inst
		d8 := fx.instDef[d]
		base := int(fx.defPower[d8]) - int(sl.weaken)
		if base < 0 || sl.flags&fDeactPower != 0 {
			base = 0
		}
		// One pass top to bottom decides who is under an active blocker.
		self := s.selfActive(sl)
		active := self && !blocked
		if self && !blocked && fx.defPerm[d8]&effects.BlocksBelow != 0 {
			blocked = true
		}
		c := &rs.Cards[k]
		*c = effects.ScoreCard{Owner: int(fx.instOwn[d]), Def: int(d8), Type: int(fx.defType[d8]), Base: base, Active: active}
		if fx.defSpec[d8] != nil {
			c.Spec, c.Args = fx.defSpec[d8], fx.defArgs[d8]
			if active {
				stages |= fx.defStage[d8]
				mods = mods || fx.defMod[d8] != nil
			}
		}
		rs.HasCards[c.Owner] = true
	}
	// Stage 1: deflectors take base power, top to bottom.
	if stages&(1<<effects.StageSteal) != 0 {
		s.runStage(rs, effects.StageSteal)
	}
	// Permanent modifiers of active cards.
	for k := 0; mods && k < rs.N; k++ {
		src := &rs.Cards[k]
		m := fx.defMod[src.Def]
		if m == nil || !src.Active {
			continue
		}
		for j := 0; j < rs.N; j++ {
			rs.Cards[j].Mod += m.Modify(src, &rs.Cards[j], src.Args)
		}
	}
	if stages&(1<<effects.StageAdd) != 0 {
		s.runStage(rs, effects.StageAdd)
	}
	sumTotals(rs)
	if stages&(1<<effects.StageCopy) != 0 {
		s.runStage(rs, effects.StageCopy)
		sumTotals(rs)
	}
	res.Power, res.Combo, res.HasCards = rs.Total, rs.Combo, rs.HasCards

	// Winner: a Diplomat combination beats power; among several
	// combinations, or tied powers, the player whose card lies highest.
	var cand [maxPlayers]bool
	nc := 0
	for p := 0; p < rs.Players; p++ {
		if rs.Combo[p] && rs.HasCards[p] {
			cand[p] = true
			nc++
		}
	}
	reason := ReasonCombo
	if nc == 0 {
		best := -1 << 31
		for p := 0; p < rs.Players; p++ {
			if rs.HasCards[p] && rs.Total[p] > best {
				best = rs.Total[p]
			}
		}
		for p := 0; p < rs.Players; p++ {
			if rs.HasCards[p] && rs.Total[p] == best {
				cand[p] = true
				nc++
			}
		}
		reason = ReasonPower
	}
	switch {
	case nc == 0:
		return res
	case nc > 1:
		if reason == ReasonCombo {
			reason = ReasonComboTie
		} else {
			reason = ReasonTieTop
		}
		for k := 0; k < rs.N; k++ {
			if cand[rs.Cards[k].Owner] {
				res.Winner = rs.Cards[k].Owner
				break
			}
		}
	default:
		for p := 0; p < rs.Players; p++ {
			if cand[p] {
				res.Winner = p
			}
		}
	}
	res.Reason = reason
	return res
}

func (s *State) runStage(rs *effects.RowScore, stage effects.ScoringStage) {
	for k := 0; k < rs.N; k++ {
		c := &rs.Cards[k]
		b := s.fx.defScore[uint8(c.Def)]
		if b != nil && c.Active && s.fx.defStage[uint8(c.Def)]&(1<<stage) != 0 {
			b.Score(rs, k, c.Args)
		}
	}
}

func sumTotals(rs *effects.RowScore) {
	rs.Total = [4]int{}
	for k := 0; k < rs.N; k++ {
		c := &rs.Cards[k]
		v := c.Base + c.Mod + c.Bonus
		if v < 0 {
			v = 0 // a card never counts against its owner
		}
		rs.Total[c.Owner] += v
	}
}

// rowScratch holds RowScore scratch space: it is too large to copy with every
// state and would escape to the heap if declared per call.
var rowScratch = sync.Pool{New: func() any { return new(effects.RowScore) }}

var holdScratch = sync.Pool{New: func() any { return new(effects.Holdings) }}

// scoreRound is the Scoring Phase and the clean-up of the round.
func (s *State) scoreRound() {
	rs := rowScratch.Get().(*effects.RowScore)
	defer rowScratch.Put(rs)
	rules := &s.fx.rs.Rules
	for r := 0; r < int(s.nrows); r++ {
		res := s.ScoreRow(r, rs)
		if res.Target < 0 {
			continue // taken by Negotiations already
		}
		if res.Winner >= 0 {
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
		for k := 0; k < int(row.n); k++ {
			i := row.s[k].inst
			s.players[s.ownerOf(i)].discard.push(i)
		}
		row.n = 0
		row.target = -1
	}
	s.stats.Rounds++
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
	rsd := s.fx.rs
	h := holdScratch.Get().(*effects.Holdings)
	defer holdScratch.Put(h)
	best, bestPlanets := -1, -1
	for p := 0; p < s.fx.players; p++ {
		f := &s.final[p]
		*f = s.scoreHeld(p, h)
		if f.Total > best || (f.Total == best && f.Planets > bestPlanets) {
			best, bestPlanets = f.Total, f.Planets
		}
	}
	useTB := false
	for _, tb := range rsd.Rules.TieBreak {
		if tb == "planets" {
			useTB = true
		}
	}
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

// scoreHeld is seat p's score for the targets it holds now (h is scratch).
func (s *State) scoreHeld(p int, h *effects.Holdings) Final {
	rsd := s.fx.rs
	var f Final
	h.N = 0
	won := s.players[p].won
	for t := range rsd.Targets {
		if won&(1<<uint(t)) == 0 {
			continue
		}
		tg := &rsd.Targets[t]
		h.Index[h.N], h.Type[h.N], h.Quadrant[h.N] = t, int(tg.Type), quadrantIndex(tg.Quadrant)
		h.N++
	}
	fac := &rsd.Factions[s.fx.faction[p]]
	for k := 0; k < h.N; k++ {
		tg := &rsd.Targets[h.Index[k]]
		f.Targets++
		f.TargetVP += tg.VP
		for b := range tg.Bonuses {
			bb := &tg.Bonuses[b]
			if bv, ok := bb.Spec.Behavior.(effects.BonusBehavior); ok {
				f.BonusVP += bv.BonusVP(h, tg.Index, bb.Args)
			}
		}
		if tg.Type == cards.Planet {
			f.Planets++
			if planetBonus(rsd, fac, tg) {
				f.PlanetBonus += rsd.Rules.PlanetBonus
			}
		}
	}
	f.Total = f.TargetVP + f.BonusVP + f.PlanetBonus
	return f
}

// ProvisionalScore is seat p's score if the game ended now (public
// information: the targets each player holds are face up).
func (s *State) ProvisionalScore(p int) Final {
	if s.phase == GameOver {
		return s.final[p]
	}
	h := holdScratch.Get().(*effects.Holdings)
	defer holdScratch.Put(h)
	return s.scoreHeld(p, h)
}

// RoundsLeft estimates the rounds still to play from the target pile.
func (s *State) RoundsLeft() int {
	per := s.fx.rs.Rules.TargetsPerRound
	return (int(s.targets.n) + per - 1) / per
}

// planetBonus: +bonus per planet of the player's own faction; Starfleet and
// Vulcan also for blue Federation planets. A planet counts once.
func planetBonus(rs *cards.Ruleset, fac *cards.Faction, tg *cards.Target) bool {
	for _, a := range fac.Planets {
		if a == tg.Affiliation {
			return true
		}
	}
	if rs.Rules.FederationAffiliation != "" && tg.Affiliation == rs.Rules.FederationAffiliation {
		for _, id := range rs.Rules.FederationFactions {
			if id == fac.ID {
				return true
			}
		}
	}
	return false
}
