package eclipse

import (
	"fmt"
	"sync"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// Colour is a die colour; a hit's damage is the ruleset's per colour (R8).
type Colour uint8

// The dice colours, in the order of rules.yaml's damage table.
const (
	Yellow Colour = iota
	Orange
	Blue
	Red
	NumColours
)

var colourNames = []string{"yellow", "orange", "blue", "red"}

func (c Colour) String() string { return colourNames[c] }

// Dice counts dice per colour.
type Dice [NumColours]int

// Total is the number of dice.
func (d Dice) Total() int { return d[0] + d[1] + d[2] + d[3] }

// Stats are the combat and build values a part or a blueprint's bonus adds
// up to (validity rule 4: part values add up).
type Stats struct {
	Cannons, Missiles            Dice
	Computer, Shield, Hull, Init int
	Move                         int
	Energy                       int // produced minus consumed
	Drives                       int // parts with move > 0
	EnergyMade, EnergyUsed       int
}

func (s *Stats) add(o Stats) {
	for c := range s.Cannons {
		s.Cannons[c] += o.Cannons[c]
		s.Missiles[c] += o.Missiles[c]
	}
	s.Computer += o.Computer
	s.Shield += o.Shield
	s.Hull += o.Hull
	s.Init += o.Init
	s.Move += o.Move
	s.Energy += o.Energy
	s.Drives += o.Drives
	s.EnergyMade += o.EnergyMade
	s.EnergyUsed += o.EnergyUsed
}

// Tech is a part's research: track, cost and minimum cost (2E, S4).
type Tech struct {
	Track     string
	Cost, Min int
}

// Part is one ship part tile.
type Part struct {
	ID, Name string
	Stats    Stats
	Tech     Tech
	Pos      cards.Pos
}

// Blueprint is one ship type's board: preprinted parts, its own bonus
// stats, and what a ship costs.
type Blueprint struct {
	ID, Name string
	Size     int // orders "largest" for hit assignment (R11, Q2)
	// Reputation is the tiles the player who destroys one draws (L113–L116).
	Reputation int
	Slots      int
	Printed    []int // part indexes per slot, -1 for an empty slot
	Bonus      Stats
	Cost       int // material
	Max        int // ships of the type a player may have
	Mobile     bool
	NPC        bool
	// Stats is the ship's total: its printed parts plus its bonus.
	Stats Stats
	Pos   cards.Pos
}

// FleetShips is a number of ships of one blueprint.
type FleetShips struct {
	Blueprint int
	Count     int
}

// Fleet is a named force: the sides a game seats are the player fleets.
type Fleet struct {
	ID, Name string
	Ships    []FleetShips
	NPC      bool
	Pos      cards.Pos
}

// Cost is the fleet's material.
func (f *Fleet) Cost(rs *Ruleset) int {
	n := 0
	for _, s := range f.Ships {
		n += s.Count * rs.Blueprints[s.Blueprint].Cost
	}
	return n
}

// Policy is a hit-assignment rule (Q1, Q2).
type Policy uint8

// The assignment policies. Optimal is minimax on the study's values; the
// others rank the reachable damage states of the enemy fleet by a fixed key
// (policy.go).
const (
	Optimal Policy = iota
	KillLargest
	MostDangerous
	Spread
	NPCRule   // destroy the largest ships possible, else most damage on the largest (2E, R11)
	MaxDamage // the seed literally: the most damage
)

var policyNames = []string{"optimal", "kill_largest", "most_dangerous", "spread", "destroy_largest_then_damage_largest", "max_damage"}

func (p Policy) String() string { return policyNames[p] }

// ParsePolicy reads a policy name.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if n == s {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("eclipse: unknown assignment policy %q (expected one of %s)", s, cards.QuoteList(policyNames))
}

var playerPolicies = policyNames[:4]
var npcPolicies = policyNames[4:]

// Retreat completion (R13).
const (
	RetreatNextActivation = iota // 2E: leaves at its next activation
	RetreatRoundEnd              // a reading of 1E: leaves at the end of the round
)

var completesNames = []string{"next_activation", "round_end"}

// Rules are rules.yaml's combat rules: every reading and open question of
// the design brief as a value (docs/rules-eclipse.md).
type Rules struct {
	Edition    string // "1e" or "2e"
	HitTarget  int    // R7: roll + computers - shields >= HitTarget
	AlwaysHit  int    // a roll of this or more always hits
	AlwaysMiss int    // a roll of this or less always misses
	Damage     [NumColours]int
	// DefenderFirst: on equal initiative the defender fires first (R4).
	DefenderFirst bool
	// LargerFirst orders one side's own tied types (Q6).
	LargerFirst bool
	// StalemateShare is the attacker's win share in a stalemate (Q4, R15).
	StalemateShare float64
	// Retreat[role] says whether the attacker (0) or defender (1) may retreat.
	Retreat          [2]bool
	RetreatCompletes int
	PlayerPolicy     Policy
	NPCPolicy        Policy
	AllowWaste       bool
	StateBudget      int
}

// Ruleset is a loaded, validated Eclipse ruleset; immutable once loaded.
// It implements game.Ruleset: a side is a player fleet, seat 0 attacks and
// seat 1 defends.
type Ruleset struct {
	Name, Version string
	Rules         Rules
	Parts         []Part
	Blueprints    []Blueprint
	Fleets        []Fleet
	// Sides are the indexes of the player fleets in Fleets.
	SideFleets []int
	Hash       string
	Files      map[string][]byte
	// battles memoises Battle by fleet pair, so the states of one lineup
	// share one compiled battle (and the optimal bot one table); a knob's
	// clone starts its own.
	battles *sync.Map
}

// Game implements game.Ruleset.
func (*Ruleset) Game() string { return ID }

// Info implements game.Ruleset.
func (rs *Ruleset) Info() game.Info {
	return game.Info{Name: rs.Name, Version: rs.Version, Hash: rs.Hash, Files: rs.Files}
}

// Seats implements game.Ruleset: an attacker and a defender.
func (*Ruleset) Seats() (min, max int) { return 2, 2 }

// Sides implements game.Ruleset: the player fleets, in fleets.yaml's order.
func (rs *Ruleset) Sides() []game.Side {
	out := make([]game.Side, len(rs.SideFleets))
	for i, f := range rs.SideFleets {
		fl := &rs.Fleets[f]
		out[i] = game.Side{ID: fl.ID, Name: fl.Name, Pos: fl.Pos}
	}
	return out
}

// Mirror implements game.Ruleset: a fleet may fight its own copy, and seat
// rotation gives each fleet both roles.
func (*Ruleset) Mirror() bool { return true }

// Cards implements game.Ruleset: the parts, a shared pile (Copies: the
// printed slots holding the part over all blueprints).
func (rs *Ruleset) Cards() []game.Card {
	out := make([]game.Card, len(rs.Parts))
	for i := range rs.Parts {
		p := &rs.Parts[i]
		copies := 0
		for _, b := range rs.Blueprints {
			for _, q := range b.Printed {
				if q == i {
					copies++
				}
			}
		}
		st := p.Stats
		col := func(k string, v int) game.Column {
			return game.Column{Key: k, Text: fmt.Sprint(v), Int: v, IsInt: true}
		}
		out[i] = game.Card{Index: i, ID: p.ID, Name: p.Name, Side: -1, Copies: copies, Pos: p.Pos,
			Columns: []game.Column{col("dice", st.Cannons.Total()), col("missiles", st.Missiles.Total()),
				col("computer", st.Computer), col("shield", st.Shield), col("hull", st.Hull),
				col("init", st.Init), col("energy", st.Energy)}}
	}
	return out
}

// FleetIndex is the index of the fleet id in Fleets, or -1.
func (rs *Ruleset) FleetIndex(id string) int {
	for i := range rs.Fleets {
		if rs.Fleets[i].ID == id {
			return i
		}
	}
	return -1
}

// NewState implements game.Ruleset: seats[0] is the attacking fleet's side
// index, seats[1] the defender's.
func (rs *Ruleset) NewState(seats []int, seed uint64) (game.State, error) {
	if len(seats) != 2 {
		return nil, fmt.Errorf("eclipse: %d seats; a battle has an attacker and a defender", len(seats))
	}
	for i, sd := range seats {
		if sd < 0 || sd >= len(rs.SideFleets) {
			return nil, fmt.Errorf("eclipse: seat %d plays side %d; the ruleset has %d player fleets", i+1, sd, len(rs.SideFleets))
		}
	}
	b, err := rs.Battle(rs.SideFleets[seats[0]], rs.SideFleets[seats[1]])
	if err != nil {
		return nil, err
	}
	return NewState(b, seed), nil
}

// PerfectInformation implements game.PerfectInformer: both fleets and every
// die are on the table.
func (*Ruleset) PerfectInformation() bool { return true }
