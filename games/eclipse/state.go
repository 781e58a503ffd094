package eclipse

import (
	"fmt"
	"math/bits"

	"github.com/cardlab/cardlab/game"
)

// This file is the combat engine on game.State (R3–R15): the missile volley,
// then rounds of activations in initiative order until one side is gone,
// has left, or neither can hit the other. A player's decisions are actions:
// attack or retreat at a type's activation (when rules.yaml's retreat allows
// the role), and each hit die's target, one die at a time in the canonical
// order of sortHits; a die with one possible target is placed without
// asking. An NPC's hits are assigned inside Apply by the NPC rule. A state
// is a flat value (copying it is an assignment) and a decision allocates
// nothing.

// Actions. A target is type·(MaxHull+1) + damage level of an enemy ship.
const (
	ActAttack  game.Action = 1000
	ActRetreat game.Action = 1001
	// ActWaste leaves the die unassigned (assign.allow_waste).
	ActWaste game.Action = 1002
)

// Outcomes (Q4): the four, and a stalemate (R15).
const (
	Running = iota - 1
	AttackerEliminates
	DefenderEliminates
	StalemateEnd
	AttackerLeaves
	DefenderLeaves
)

var outcomeNames = []string{"attacker eliminates the defender", "defender eliminates the attacker", "stalemate", "attacker retreats", "defender retreats"}

const (
	phaseMissiles = iota
	phaseRounds
)

const (
	decideNone = iota
	decideActivation
	decideAssign
)

// MaxRounds bounds a battle: past it the engine calls a stalemate. Every
// round some die can change the state with chance at least 1/6 (else the
// round-start check has already called the stalemate), so no battle the
// rules allow comes near it.
const MaxRounds = 10_000

// State is one battle in progress; it implements game.State with seat 0 the
// attacker and seat 1 the defender.
type State struct {
	b       *Battle
	seed    uint64
	x       sides
	left    [2][MaxTypes]uint8 // ships that retreated out of the battle
	retreat [2][MaxTypes]bool  // declared a retreat, not yet gone (R13)
	round   uint16             // 0 during the missile volley
	phase   uint8
	pos     uint8 // next slot of the current order
	decide  uint8
	firing  Slot
	npend   uint8
	ipend   uint8
	outcome int8
	pend    [MaxVolley]hit
	// rolled digests the faces of the latest volley: public, and what
	// tells two games with the same hits apart.
	rolled uint64
	rc     *reacher // scratch for NPC assignment; never shared
	// volley is the enemy's damage state when the volley in progress was
	// rolled, for the counts; open while one is.
	volley     levels
	volleyOpen bool
	missiles   bool
	// tally, when a Counter is attached, counts dice and volleys.
	tally *tally
}

// NewState starts battle b from seed.
func NewState(b *Battle, seed uint64) *State {
	s := &State{b: b, rc: &reacher{}}
	s.Reset(seed)
	return s
}

// Battle is the state's compiled battle.
func (s *State) Battle() *Battle { return s.b }

// Outcome is the battle's end (AttackerEliminates…DefenderLeaves), or
// Running.
func (s *State) Outcome() int { return int(s.outcome) }

// Round is the engagement round in progress (0: the missile volley).
func (s *State) Round() int { return int(s.round) }

// Alive is the number of live ships of side's type t.
func (s *State) Alive(side, t int) int { return s.x[side].alive(t) }

// Reset implements game.State.
func (s *State) Reset(seed uint64) {
	b, rc, t := s.b, s.rc, s.tally
	*s = State{b: b, rc: rc, tally: t, seed: seed, outcome: Running}
	s.x = b.start()
	s.advance()
}

// NumSeats implements game.State.
func (*State) NumSeats() int { return 2 }

// CurrentPlayer implements game.State.
func (s *State) CurrentPlayer() int {
	if s.outcome != Running {
		return -1
	}
	return int(s.firing.Side)
}

// IsTerminal implements game.State.
func (s *State) IsTerminal() bool { return s.outcome != Running }

// Returns implements game.State: the eliminating side wins; a stalemate
// gives the attacker stalemate.share; the side that retreats scores 0 (Q4).
func (s *State) Returns() [game.MaxSeats]float64 {
	var r [game.MaxSeats]float64
	switch s.outcome {
	case AttackerEliminates, DefenderLeaves:
		r[0] = 1
	case DefenderEliminates, AttackerLeaves:
		r[1] = 1
	case StalemateEnd:
		r[0] = s.b.Rules.StalemateShare
		r[1] = 1 - r[0]
	}
	return r
}

// Score implements game.State: the material of seat's ships still alive,
// retreated ones included.
func (s *State) Score(seat int) int {
	m := 0
	for t, ty := range s.b.Forces[seat].Types {
		m += (s.x[seat].alive(t) + int(s.left[seat][t])) * ty.Cost
	}
	return m
}

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	c.rc = &reacher{}
	c.tally = nil
	return &c
}

// CopyInto implements game.State.
func (s *State) CopyInto(dst game.State) {
	d := dst.(*State)
	rc := d.rc
	*d = *s
	d.rc = rc
	d.tally = nil
}

// Determinize implements game.State: everything is public.
func (*State) Determinize(int, *game.RNG) {}

// Observation implements game.State: both seats see everything.
func (s *State) Observation(seat int, buf []byte) []byte {
	for side := range s.x {
		for t := range s.x[side] {
			buf = append(buf, s.x[side][t][:]...)
			buf = append(buf, s.left[side][t])
			if s.retreat[side][t] {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		}
	}
	buf = append(buf, byte(s.round), byte(s.round>>8), s.phase, s.pos, s.decide, s.firing.Side, s.firing.Type, s.npend, s.ipend, byte(s.outcome))
	for i := 0; i < 64; i += 8 {
		buf = append(buf, byte(s.rolled>>i))
	}
	for _, h := range s.pend[s.ipend:s.npend] {
		buf = append(buf, h.dmg, byte(h.maxShield))
	}
	return buf
}

// LegalActions implements game.State.
func (s *State) LegalActions(buf []game.Action) []game.Action {
	buf = buf[:0]
	switch s.decide {
	case decideActivation:
		buf = append(buf, ActAttack)
		if s.b.Rules.Retreat[s.firing.Side] {
			buf = append(buf, ActRetreat)
		}
	case decideAssign:
		e := 1 - int(s.firing.Side)
		f := &s.b.Forces[e]
		h := s.pend[s.ipend]
		for t := range f.Types {
			if !canHit(f, t, h) {
				continue
			}
			for lv := 0; lv <= f.Types[t].Hull; lv++ {
				if s.x[e][t][lv] > 0 {
					buf = append(buf, game.Action(t*(MaxHull+1)+lv))
				}
			}
		}
		if s.b.Rules.AllowWaste {
			buf = append(buf, ActWaste)
		}
	}
	return buf
}

// Apply implements game.State; an illegal action panics (a bug in the
// caller: actions come from LegalActions).
func (s *State) Apply(a game.Action) {
	switch s.decide {
	case decideActivation:
		s.decide = decideNone
		sl := s.firing
		switch a {
		case ActAttack:
			s.fire(sl, false)
		case ActRetreat:
			if !s.b.Rules.Retreat[sl.Side] {
				panic("eclipse: retreat is not allowed for this role")
			}
			s.retreat[sl.Side][sl.Type] = true
		default:
			panic(fmt.Sprintf("eclipse: action %d at an activation", a))
		}
	case decideAssign:
		s.decide = decideNone
		if a != ActWaste || !s.b.Rules.AllowWaste {
			e := 1 - int(s.firing.Side)
			t, lv := int(a)/(MaxHull+1), int(a)%(MaxHull+1)
			if t >= len(s.b.Forces[e].Types) || s.x[e][t][lv] == 0 || !canHit(&s.b.Forces[e], t, s.pend[s.ipend]) {
				panic(fmt.Sprintf("eclipse: illegal target %d", a))
			}
			applyHit(&s.b.Forces[e], &s.x[e], t, lv, s.pend[s.ipend])
		}
		s.ipend++
	default:
		panic("eclipse: Apply on a finished battle")
	}
	s.advance()
}

// ActionString implements game.State.
func (s *State) ActionString(a game.Action) string {
	switch a {
	case ActAttack:
		return "attack"
	case ActRetreat:
		return "retreat"
	case ActWaste:
		return "waste the hit"
	}
	e := 1 - int(s.firing.Side)
	t, lv := int(a)/(MaxHull+1), int(a)%(MaxHull+1)
	if t < len(s.b.Forces[e].Types) {
		return fmt.Sprintf("hit %s with %d damage", s.b.Forces[e].Types[t].Name, lv)
	}
	return fmt.Sprintf("action %d", a)
}

// die is the face of die d of ship k of type t of side in round r: a
// counter-based draw addressed by (seed, round, side, type, ship, die), so a
// variant with +1 hull or +1 initiative rolls the same dice for the same
// shots and a comparison stays paired.
func die(seed uint64, round, side, t, k, d int) int {
	key := uint64(round)<<32 | uint64(side)<<28 | uint64(t)<<24 | uint64(k)<<12 | uint64(d)
	h := game.Mix(game.Mix(seed^0x6a09e667f3bcc909) + 0x9e3779b97f4a7c15*(key+1))
	hi, _ := bits.Mul64(h, 6)
	return int(hi) + 1
}

// fire rolls slot's volley (missiles or cannons, R5, R6) and queues its
// hits; an NPC's are assigned at once (R11).
func (s *State) fire(sl Slot, missiles bool) {
	side, t := int(sl.Side), int(sl.Type)
	ty := &s.b.Forces[side].Types[t]
	e := &s.b.Forces[1-side]
	dice := ty.Cannons
	if missiles {
		dice = ty.Missiles
	}
	n := s.x[side].alive(t)
	s.firing = sl
	s.npend, s.ipend = 0, 0
	s.rolled = 0
	s.volley, s.volleyOpen, s.missiles = s.x[1-side], true, missiles
	for k := 0; k < n; k++ {
		d := 0
		for c := range dice {
			for j := 0; j < dice[c]; j++ {
				face := die(s.seed, int(s.round), side, t, k, d)
				s.rolled = s.rolled*31 + uint64(face)
				d++
				ms := int(s.b.maxShield[side][t][face])
				// The largest live enemy shield the face beats: the die's
				// class, as the study counts it.
				best := -1
				for u := range e.Types {
					if sh := e.Types[u].Shield; sh <= ms && sh > best && s.x[1-side].alive(u) > 0 {
						best = sh
					}
				}
				if best >= 0 {
					s.pend[s.npend] = hit{uint8(s.b.Rules.Damage[c]), int8(best)}
					s.npend++
				}
				if s.tally != nil {
					s.tally.rolled[c]++
					if best >= 0 {
						s.tally.hits[c]++
						s.tally.nominal[c] += int64(s.b.Rules.Damage[c])
					}
				}
			}
		}
	}
	sortHits(s.pend[:s.npend])
	if e := &s.b.Forces[side]; e.NPC && s.npend > 0 {
		enemy := &s.b.Forces[1-side]
		reach := s.rc.reach(enemy, s.x[1-side], s.pend[:s.npend], s.b.Rules.AllowWaste)
		s.x[1-side] = reach[choose(s.b.Rules.NPCPolicy, enemy, &s.b.Rules, &s.x[1-side], reach)]
		s.npend = 0
	}
	if s.npend == 0 {
		s.closeVolley()
	}
}

// closeVolley counts the volley just assigned: the damage the enemy took
// (up to each ship's destruction), the ships destroyed, and so the
// overkill (Counter).
func (s *State) closeVolley() {
	if !s.volleyOpen {
		return
	}
	s.volleyOpen = false
	if s.tally == nil {
		return
	}
	e := 1 - int(s.firing.Side)
	f := &s.b.Forces[e]
	for t := range f.Types {
		killed := s.volley.alive(t) - s.x[e].alive(t)
		d := killed * (f.Types[t].Hull + 1)
		for lv := 0; lv <= f.Types[t].Hull; lv++ {
			d += lv * (int(s.x[e][t][lv]) - int(s.volley[t][lv]))
		}
		s.tally.effective += int64(d)
		s.tally.kills += int64(killed)
		by := 0
		if s.b.Forces[s.firing.Side].NPC {
			by = 1
		}
		s.tally.bySize[by][f.Types[t].Size] += int64(killed)
		if s.missiles {
			s.tally.missileKills += int64(killed)
		}
	}
}

// advance runs the rules until a player must decide or the battle ends.
func (s *State) advance() {
	for s.outcome == Running {
		if s.decide != decideNone {
			return
		}
		if s.ipend < s.npend {
			if s.nextAssignment() {
				return
			}
			continue
		}
		s.npend, s.ipend = 0, 0
		s.closeVolley()
		if s.checkEnd() {
			return
		}
		if s.phase == phaseMissiles {
			if int(s.pos) == len(s.b.Missiles) {
				s.phase, s.round, s.pos = phaseRounds, 1, 0
				if s.b.stalemate(&s.x) {
					s.outcome = StalemateEnd
				}
				continue
			}
			sl := s.b.Missiles[s.pos]
			s.pos++
			if s.x[sl.Side].alive(int(sl.Type)) > 0 {
				s.fire(sl, true)
			}
			continue
		}
		if int(s.pos) == len(s.b.Order) {
			s.endRound()
			continue
		}
		sl := s.b.Order[s.pos]
		s.pos++
		side, t := int(sl.Side), int(sl.Type)
		if s.x[side].alive(t) == 0 {
			continue
		}
		if s.retreat[side][t] {
			// R13 (2E): a retreating type leaves at its next activation.
			s.leave(side, t)
			continue
		}
		// R12: the owner decides at each activation; without retreat
		// (rules.yaml retreat) attacking is its one choice.
		s.firing = sl
		s.decide = decideActivation
		return
	}
}

// nextAssignment moves to the current pending die: it is dropped when no
// live ship can take it, placed when exactly one can (and no waste is
// allowed), else the firing player decides; it reports a decision.
func (s *State) nextAssignment() bool {
	e := 1 - int(s.firing.Side)
	f := &s.b.Forces[e]
	h := s.pend[s.ipend]
	n, lastT, lastLv := 0, 0, 0
	for t := range f.Types {
		if !canHit(f, t, h) {
			continue
		}
		for lv := 0; lv <= f.Types[t].Hull; lv++ {
			if s.x[e][t][lv] > 0 {
				n++
				lastT, lastLv = t, lv
			}
		}
	}
	switch {
	case n == 0:
		s.ipend++
		return false
	case n == 1 && !s.b.Rules.AllowWaste:
		applyHit(f, &s.x[e], lastT, lastLv, h)
		s.ipend++
		return false
	}
	s.decide = decideAssign
	return true
}

func (s *State) leave(side, t int) {
	s.left[side][t] += uint8(s.x[side].alive(t))
	s.x[side][t] = [MaxHull + 1]uint8{}
	s.retreat[side][t] = false
}

func (s *State) endRound() {
	if s.b.Rules.RetreatCompletes == RetreatRoundEnd {
		for side := range s.retreat {
			for t := range s.retreat[side] {
				if s.retreat[side][t] {
					s.leave(side, t)
				}
			}
		}
	}
	if s.checkEnd() {
		return
	}
	s.round++
	s.pos = 0
	if s.b.stalemate(&s.x) || s.round > MaxRounds {
		s.outcome = StalemateEnd
	}
}

// checkEnd ends the battle when a side has no ship left in it (R14).
func (s *State) checkEnd() bool {
	for side := range s.x {
		if s.x[side].anyAlive() {
			continue
		}
		gone := false
		for t := range s.left[side] {
			gone = gone || s.left[side][t] > 0
		}
		switch {
		case side == Defender && gone:
			s.outcome = DefenderLeaves
		case side == Defender:
			s.outcome = AttackerEliminates
		case gone:
			s.outcome = AttackerLeaves
		default:
			s.outcome = DefenderEliminates
		}
		return true
	}
	return false
}

// OutcomeName names an outcome for traces.
func OutcomeName(o int) string {
	if o < 0 || o >= len(outcomeNames) {
		return "running"
	}
	return outcomeNames[o]
}

// Length implements game.Lengther: the engagement rounds begun (the
// Vocabulary's length unit); a stalemate found at a round's start ends the
// battle before that round begins.
func (s *State) Length() int {
	r := int(s.round)
	if s.outcome == StalemateEnd && s.pos == 0 && r > 0 {
		r--
	}
	return r
}
