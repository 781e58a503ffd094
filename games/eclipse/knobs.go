package eclipse

import (
	"fmt"
	"slices"
	"sync"

	"github.com/cardlab/cardlab/game"
)

// Knobs are what sweep and diff may change (design brief §4, "Knobs"):
// a part's combat values and energy (on the cards, which are the parts), a
// blueprint's own initiative, hull, computer, cost (as rules knobs named
// BLUEPRINT.init and so on), a fleet's ship counts (on the sides, named by
// blueprint) and the hit rule's numbers. Every With re-derives the
// blueprints and checks the validity rules, so a sweep never plays a
// ruleset its loader would refuse.
func (rs *Ruleset) Knobs() []game.Knob {
	var out []game.Knob
	partStat := func(name, doc string, lo, hi int, field func(*Stats) *int) game.Knob {
		return game.Knob{Name: name, Scope: game.OnCard, Doc: doc, Min: lo, Max: hi,
			Get: func(r game.Ruleset, c int) int { return *field(&r.(*Ruleset).Parts[c].Stats) },
			With: func(r game.Ruleset, c, v int) (game.Ruleset, error) {
				if v < lo || v > hi {
					return nil, fmt.Errorf("%s %d is out of range (%d to %d)", name, v, lo, hi)
				}
				x := r.(*Ruleset).clone()
				st := &x.Parts[c].Stats
				*field(st) = v
				st.Drives, st.EnergyMade, st.EnergyUsed = 0, max(0, st.Energy), max(0, -st.Energy)
				if st.Move > 0 {
					st.Drives = 1
				}
				return x, x.derive()
			}}
	}
	for c, name := range colourNames {
		out = append(out, partStat("dice."+name, "the part's "+name+" cannon dice", 0, MaxDicePart, func(s *Stats) *int { return &s.Cannons[c] }),
			partStat("missiles."+name, "the part's "+name+" missile dice", 0, MaxDicePart, func(s *Stats) *int { return &s.Missiles[c] }))
	}
	out = append(out,
		partStat("computer", "added to each roll of the ship", 0, MaxStat, func(s *Stats) *int { return &s.Computer }),
		partStat("shield", "subtracted from enemy rolls", 0, MaxStat, func(s *Stats) *int { return &s.Shield }),
		partStat("hull", "damage absorbed", 0, MaxHull, func(s *Stats) *int { return &s.Hull }),
		partStat("init", "initiative added", -MaxStat, MaxStat, func(s *Stats) *int { return &s.Init }),
		partStat("energy", "+ produced, - consumed", -MaxEnergy, MaxEnergy, func(s *Stats) *int { return &s.Energy }),
	)
	for b := range rs.Blueprints {
		id := rs.Blueprints[b].ID
		bonus := func(key, doc string, lo, hi int, field func(*Blueprint) *int) game.Knob {
			return game.Knob{Name: id + "." + key, Scope: game.OnRules, Doc: rs.Blueprints[b].Name + ": " + doc, Min: lo, Max: hi,
				Get: func(r game.Ruleset, _ int) int { return *field(&r.(*Ruleset).Blueprints[b]) },
				With: func(r game.Ruleset, _, v int) (game.Ruleset, error) {
					if v < lo || v > hi {
						return nil, fmt.Errorf("%s.%s %d is out of range (%d to %d)", id, key, v, lo, hi)
					}
					x := r.(*Ruleset).clone()
					*field(&x.Blueprints[b]) = v
					return x, x.derive()
				},
				Where: func(r game.Ruleset, _ int) (string, int) { return BlueprintsFile, r.(*Ruleset).Blueprints[b].Pos.Line },
			}
		}
		out = append(out,
			bonus("init", "the blueprint's own initiative", -MaxStat, MaxStat, func(x *Blueprint) *int { return &x.Bonus.Init }),
			bonus("hull", "the blueprint's own hull", 0, MaxHull, func(x *Blueprint) *int { return &x.Bonus.Hull }),
			bonus("computer", "the blueprint's own computer", 0, MaxStat, func(x *Blueprint) *int { return &x.Bonus.Computer }),
			bonus("cost", "material a ship costs", 0, MaxCost, func(x *Blueprint) *int { return &x.Cost }),
		)
	}
	for b := range rs.Blueprints {
		bp := rs.Blueprints[b]
		if bp.NPC {
			continue
		}
		out = append(out, game.Knob{Name: bp.ID, Scope: game.OnSide, Doc: "ships of " + bp.Name + " in the fleet", Min: 0, Max: bp.Max,
			Get: func(r game.Ruleset, s int) int { return r.(*Ruleset).shipCount(s, b) },
			With: func(r game.Ruleset, s, v int) (game.Ruleset, error) {
				if v < 0 || v > bp.Max {
					return nil, fmt.Errorf("%s: %d ships is out of range (0 to %d)", bp.ID, v, bp.Max)
				}
				x := r.(*Ruleset).clone()
				f := &x.Fleets[x.SideFleets[s]]
				f.Ships = slices.Clone(f.Ships)
				i := slices.IndexFunc(f.Ships, func(fs FleetShips) bool { return fs.Blueprint == b })
				switch {
				case i >= 0 && v == 0:
					f.Ships = slices.Delete(f.Ships, i, i+1)
				case i >= 0:
					f.Ships[i].Count = v
				case v > 0:
					f.Ships = append(f.Ships, FleetShips{Blueprint: b, Count: v})
				}
				if len(f.Ships) == 0 || len(f.Ships) > MaxTypes {
					return nil, fmt.Errorf("fleet %s would have %d ship types (1 to %d)", f.ID, len(f.Ships), MaxTypes)
				}
				if v*x.Blueprints[b].Stats.Cannons.Total() > MaxVolley {
					return nil, fmt.Errorf("%d %s roll more than %d dice at once", v, bp.Name, MaxVolley)
				}
				return x, nil
			}})
	}
	out = append(out,
		game.Knob{Name: "hit.target", Scope: game.OnRules, Doc: "roll + computers - shields needed to hit", Min: 2, Max: 12,
			Get: func(r game.Ruleset, _ int) int { return r.(*Ruleset).Rules.HitTarget },
			With: func(r game.Ruleset, _, v int) (game.Ruleset, error) {
				if v < 2 || v > 12 {
					return nil, fmt.Errorf("hit.target %d is out of range (2 to 12)", v)
				}
				x := r.(*Ruleset).clone()
				x.Rules.HitTarget = v
				return x, nil
			},
			Where: func(game.Ruleset, int) (string, int) { return RulesFile, 0 }},
	)
	for c, name := range colourNames {
		out = append(out, game.Knob{Name: "damage." + name, Scope: game.OnRules, Doc: "damage of a " + name + " hit", Min: 1, Max: MaxHull + 1,
			Get: func(r game.Ruleset, _ int) int { return r.(*Ruleset).Rules.Damage[c] },
			With: func(r game.Ruleset, _, v int) (game.Ruleset, error) {
				if v < 1 || v > MaxHull+1 {
					return nil, fmt.Errorf("damage.%s %d is out of range (1 to %d)", name, v, MaxHull+1)
				}
				x := r.(*Ruleset).clone()
				x.Rules.Damage[c] = v
				return x, nil
			},
			Where: func(game.Ruleset, int) (string, int) { return RulesFile, 0 }})
	}
	return out
}

// shipCount is the number of ships of blueprint b in side s's fleet.
func (rs *Ruleset) shipCount(s, b int) int {
	for _, fs := range rs.Fleets[rs.SideFleets[s]].Ships {
		if fs.Blueprint == b {
			return fs.Count
		}
	}
	return 0
}

// clone copies rs deeply enough for one knob to change it: the parts, the
// blueprints and the fleets are new slices (a fleet's ship list is cloned
// by the knob that changes it). The files and hash stay those loaded: a
// knob's ruleset is a variant, not a file.
func (rs *Ruleset) clone() *Ruleset {
	x := *rs
	x.Parts = slices.Clone(rs.Parts)
	x.Blueprints = slices.Clone(rs.Blueprints)
	x.Fleets = slices.Clone(rs.Fleets)
	x.battles = &sync.Map{}
	return &x
}

// derive recomputes every blueprint's total from its printed parts and
// bonus and checks the brief's validity rules 1, 2 and 4 and the bounds of
// the fleets' volleys; the error says what a value would break.
func (rs *Ruleset) derive() error {
	for i := range rs.Blueprints {
		b := &rs.Blueprints[i]
		b.Stats = b.Bonus
		for _, p := range b.Printed {
			if p >= 0 {
				b.Stats.add(rs.Parts[p].Stats)
			}
		}
		st := &b.Stats
		switch {
		case st.Hull < 0 || st.Hull > MaxHull:
			return fmt.Errorf("eclipse: %s would have hull %d (0 to %d)", b.Name, st.Hull, MaxHull)
		case st.Computer > MaxStat || st.Shield > MaxStat || st.Init > MaxStat || st.Init < -MaxStat:
			return fmt.Errorf("eclipse: %s would be out of the engine's bounds", b.Name)
		case b.NPC:
			continue
		case st.EnergyUsed > st.EnergyMade:
			return fmt.Errorf("eclipse: %s would use %d energy and produce %d (validity rule 1)", b.Name, st.EnergyUsed, st.EnergyMade)
		case b.Mobile && st.Drives == 0:
			return fmt.Errorf("eclipse: %s would have no drive (validity rule 2)", b.Name)
		}
		for c := range st.Cannons {
			if st.Cannons[c] > MaxDicePart || st.Missiles[c] > MaxDicePart {
				return fmt.Errorf("eclipse: %s would roll more than %d %s dice", b.Name, MaxDicePart, Colour(c))
			}
		}
	}
	for _, f := range rs.Fleets {
		for _, s := range f.Ships {
			st := &rs.Blueprints[s.Blueprint].Stats
			if s.Count*st.Cannons.Total() > MaxVolley || s.Count*st.Missiles.Total() > MaxVolley {
				return fmt.Errorf("eclipse: %d %s in fleet %s would roll more than %d dice at once", s.Count, rs.Blueprints[s.Blueprint].Name, f.ID, MaxVolley)
			}
		}
	}
	return nil
}

// DefaultBot implements game.DefaultBotter: kill_largest, the assignment
// rule calculators use (the core's random would scatter hits at random).
func (rs *Ruleset) DefaultBot() string { return KillLargest.String() }

// CheckBot implements game.CheckBotter: a report of the calculators' rule
// is checked against minimax assignment (optimal), and a report of optimal
// against the calculators' rule — not against greedy, which is
// kill_largest by another name.
//
// Optimal needs every seated battle's exact study: a ruleset with one
// above the state budget is checked against most_dangerous instead, the
// other rule that is not kill_largest's.
func (rs *Ruleset) CheckBot(played string) string {
	if played == Optimal.String() {
		return KillLargest.String()
	}
	if rs.seatedFit(rs.Rules.StateBudget) != nil {
		if played == MostDangerous.String() {
			return KillLargest.String()
		}
		return MostDangerous.String()
	}
	return Optimal.String()
}
