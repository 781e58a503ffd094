package spacetrace

// The engine's battle cursor: the attack's fleet battles (Sequence) and
// their class battles, one step at a time, so that tactic windows (K1)
// open before each fleet battle and before each class battle. Without a
// card played in a window it fights exactly as Battle.Attack does.

// Stages of the cursor.
const (
	stFleet    = iota // before fleet battle pairI (its window)
	stFleetGo         // the fleet battle begins
	stClassWin        // before class battle k (its window)
	stClass           // class battle k
)

// fight starts the attack with the orders and joins fixed.
func (s *State) fight() {
	s.before = [2]int{s.BaseDamageOf(0), s.BaseDamageOf(1)}
	if s.tally != nil {
		s.tally.attacks++
	}
	if s.rs.Rules.SummoningSickness {
		setFresh(&s.P[s.Active].Army, true)
	}
	s.pairs, s.pairN = Sequence(s.joins[s.Active], s.joins[1-s.Active])
	s.pairI, s.k, s.stage, s.inAttack = 0, 0, stFleet, true
	s.phase = phBattle
	s.runBattle()
}

// runBattle fights on until a window gives a seat a choice or the attack
// is over.
func (s *State) runBattle() {
	att, def := &s.P[s.Active].Army, &s.P[1-s.Active].Army
	for {
		switch s.stage {
		case stFleet:
			if s.pairI >= s.pairN {
				s.endAttack()
				return
			}
			s.stage = stFleetGo
			if s.tactics && s.openWindow(s.Active, false, contBattle, winFleet) {
				return
			}
		case stFleetGo:
			a, d := &att.Fleets[s.pairs[s.pairI][0]], &def.Fleets[s.pairs[s.pairI][1]]
			if s.rs.Rules.DoomstarWhen == PerBattle {
				s.bt.selfDamage(att, a)
				s.bt.selfDamage(def, d)
			}
			fleetBegin(a, d)
			s.k, s.stage = 1, stClassWin
		case stClassWin:
			s.stage = stClass
			if s.tactics && s.openWindow(s.Active, false, contBattle, winClass) {
				return
			}
		case stClass:
			a, d := &att.Fleets[s.pairs[s.pairI][0]], &def.Fleets[s.pairs[s.pairI][1]]
			s.bt.ClassBattle(a, d, s.k)
			s.bt.classEnd(a, d)
			if s.emp {
				clearEmp(a)
				clearEmp(d)
				s.emp = false
			}
			if s.k++; s.k <= NumClasses {
				s.stage = stClassWin
				continue
			}
			fleetEnd(a, d)
			// Psionic Blast's removal lasts the fleet battle (C8).
			if s.blasted {
				unblast(a)
				unblast(d)
				s.blasted = false
				if s.rs.Rules.SummoningSickness {
					setFresh(att, true)
				}
			}
			s.bt.fallMothership(att)
			s.bt.fallMothership(def)
			if u := att.Base(); u != nil && u.Dead {
				s.endAttack()
				return
			}
			if u := def.Base(); u != nil && u.Dead {
				s.endAttack()
				return
			}
			s.pairI++
			s.stage = stFleet
		}
	}
}

func unblast(f *Fleet) {
	for i := 0; i < f.N; i++ {
		f.U[i].Removed = false
	}
}

// endAttack closes the attack: cards left without ships anywhere (a
// tactic's work) discarded, a fallen Mothership's fleet, then the active
// player goes on (T5) after the other's window (K1: after the last
// battle).
func (s *State) endAttack() {
	att, def := &s.P[s.Active].Army, &s.P[1-s.Active].Army
	if s.tactics {
		for _, a := range [2]*Army{att, def} {
			for fi := range a.Fleets {
				f := &a.Fleets[fi]
				discard(f)
				clearJams(f)
				clearEmp(f)
			}
			s.bt.fallMothership(a)
		}
	}
	if s.tactics || s.rs.Rules.SummoningSickness {
		unblast(&att.Fleets[BaseFleet])
		unblast(&att.Fleets[ExtraFleet])
		unblast(&def.Fleets[BaseFleet])
		unblast(&def.Fleets[ExtraFleet])
	}
	s.inAttack, s.emp, s.blasted = false, false, false
	for p := 0; p < 2; p++ {
		if s.BaseDamageOf(p) != s.before[p] || hasDead(&s.P[p].Army) {
			s.active = true
		}
	}
	s.phase = phMain
	// The destroyed cards are discarded now (A6: at the end of each fleet
	// battle, all of which are over): a fallen Mothership's fleet is gone
	// before the active player acts again.
	s.collectWrecks()
	s.checkBases()
	s.afterAction()
}
