package eclipse

import (
	"fmt"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// Eclipse's counts (game.Counter), what the design brief's §4 "Counter"
// asks for: dice rolled and hits by colour, the damage the hits did and
// the overkill they wasted (damage past a ship's death, or a hit whose
// targets had all died earlier in the volley), ships destroyed and by
// missiles, ships destroyed by size and by whom (a player or an NPC), and
// how battles end (the four outcomes and stalemates), with the engagement
// rounds. The state counts each die as it is rolled and
// each volley once it is assigned (State.closeVolley); Finish counts the
// end.

// tally is what a state counts into while attached.
type tally struct {
	rolled, hits, nominal [NumColours]int64
	effective, kills      int64
	missileKills          int64
	outcome               [5]int64
	rounds                int64
	reputation            [2]int64
	// bySize[k][size]: ships of that size destroyed by players' hits
	// (k 0) and by NPCs' (k 1), the brief's "NPC kills by size".
	bySize [2][maxSize + 1]int64
}

func (t *tally) add(o *tally, k int64) {
	for c := range t.rolled {
		t.rolled[c] += k * o.rolled[c]
		t.hits[c] += k * o.hits[c]
		t.nominal[c] += k * o.nominal[c]
	}
	t.effective += k * o.effective
	t.kills += k * o.kills
	t.missileKills += k * o.missileKills
	for i := range t.outcome {
		t.outcome[i] += k * o.outcome[i]
	}
	t.rounds += k * o.rounds
	t.reputation[0] += k * o.reputation[0]
	t.reputation[1] += k * o.reputation[1]
	for i := range t.bySize {
		for z := range t.bySize[i] {
			t.bySize[i][z] += k * o.bySize[i][z]
		}
	}
}

// Counter is Eclipse's game.Counter.
type Counter struct {
	t tally
	// sizeNames[size] are the ruleset's blueprints of that size, for the
	// kills-by-size rows ("" for a size none has).
	sizeNames [maxSize + 1]string
}

// NewCounter implements game.Counted: the counts need no per-side columns;
// the kills by size name each size's blueprints.
func (rs *Ruleset) NewCounter([]int) game.Counter {
	c := &Counter{}
	for i := range rs.Blueprints {
		b := &rs.Blueprints[i]
		if b.Size < 1 || b.Size > maxSize {
			continue
		}
		if c.sizeNames[b.Size] != "" {
			c.sizeNames[b.Size] += ", "
		}
		c.sizeNames[b.Size] += b.Name
	}
	return c
}

// Attach implements game.Counter.
func (c *Counter) Attach(s game.State) { s.(*State).tally = &c.t }

// Finish implements game.Counter: how the battle ended and its rounds.
func (c *Counter) Finish(s game.State, _ [game.MaxSeats]int64) {
	st := s.(*State)
	if o := st.Outcome(); o >= 0 {
		c.t.outcome[o]++
	}
	c.t.rounds += int64(st.Length())
	for side := range c.t.reputation {
		c.t.reputation[side] += int64(st.ReputationDraws(side))
	}
}

// ReputationDraws is the reputation tiles side draws after the battle
// (seed L113–L116, design brief §1 "Counters"): one for taking part, lost
// when all its remaining ships left (a retreat, or the attacker's
// stalemate), plus each destroyed enemy ship's reputation, at most
// MaxReputation; an NPC draws none. [R]: a player whose ships were all
// destroyed still took part.
func (s *State) ReputationDraws(side int) int {
	if s.b.Forces[side].NPC || s.outcome == Running {
		return 0
	}
	n := 1
	if (side == Attacker && (s.outcome == AttackerLeaves || s.outcome == StalemateEnd)) || (side == Defender && s.outcome == DefenderLeaves) {
		n = 0
	}
	e := 1 - side
	for t, ty := range s.b.Forces[e].Types {
		n += (ty.Count - s.x[e].alive(t) - int(s.left[e][t])) * ty.Reputation
	}
	return min(n, MaxReputation)
}

// Add implements game.Counter.
func (c *Counter) Add(o game.Counter) { c.t.add(&o.(*Counter).t, 1) }

// Sub implements game.Counter.
func (c *Counter) Sub(o game.Counter) { c.t.add(&o.(*Counter).t, -1) }

// CountLayout implements game.CountRules.
func (Game) CountLayout() []game.Section {
	return []game.Section{
		{Key: "dice", Entity: "dice colour", Doc: "the dice rolled by colour, cannons and missiles together: how many hit and the damage their hits carried",
			Labels: []string{"id"}, Columns: []game.Count{
				{Key: "rolled", Doc: "dice rolled"},
				{Key: "hits", Doc: "dice that hit a live enemy ship they could hit when rolled"},
				{Key: "damage", Doc: "the damage those hits carried (hits × the colour's damage)"},
			}},
		{Key: game.GameSection, Entity: "game", Doc: "whole battles", Columns: []game.Count{
			{Key: "rounds", Doc: "engagement rounds begun"},
			{Key: "ships_destroyed", Doc: "ships destroyed, both sides"},
			{Key: "missile_kills", Doc: "ships destroyed by missiles"},
			{Key: "damage_done", Doc: "damage the ships took up to their destruction"},
			{Key: "overkill", Doc: "damage carried by hits and wasted: past a ship's destruction, or on no ship because its targets had died in the same volley"},
			{Key: "attacker_eliminates", Doc: "battles the attacker won by destroying every defending ship"},
			{Key: "defender_eliminates", Doc: "battles the defender won by destroying every attacking ship"},
			{Key: "stalemates", Doc: "battles in which neither side could hit the other any more (the attacker leaves)"},
			{Key: "attacker_retreats", Doc: "battles the attacker left by retreating"},
			{Key: "defender_retreats", Doc: "battles the defender left by retreating"},
			{Key: "attacker_reputation", Doc: "reputation tiles the attacker drew: one for taking part (not when it left), plus each destroyed ship's reputation, at most 5 a battle"},
			{Key: "defender_reputation", Doc: "the same for the defender (none for NPCs)"},
		}},
		{Key: "kills_by_size", Entity: "ship size", Doc: "ships destroyed by the size of the ship (blueprints.yaml size, the order the NPC rule's \"largest\" reads), by whose hits: a player's or an NPC's (design brief §4, NPC kills by size)",
			Labels: []string{"size", "ships"}, Columns: []game.Count{
				{Key: "by_players", Doc: "ships of this size a player's hits destroyed"},
				{Key: "by_npcs", Doc: "ships of this size an NPC's hits destroyed (NPCs assign by rules.yaml assign.npc)"},
			}},
	}
}

// Sections implements game.Counter.
func (c *Counter) Sections() []game.Section {
	secs := Game{}.CountLayout()
	t := &c.t
	var nominal int64
	for col, name := range colourNames {
		secs[0].Rows = append(secs[0].Rows, game.Row{Labels: []string{name}, Values: []int64{t.rolled[col], t.hits[col], t.nominal[col]}})
		nominal += t.nominal[col]
	}
	secs[1].Rows = []game.Row{{Values: []int64{t.rounds, t.kills, t.missileKills, t.effective, nominal - t.effective,
		t.outcome[AttackerEliminates], t.outcome[DefenderEliminates], t.outcome[StalemateEnd], t.outcome[AttackerLeaves], t.outcome[DefenderLeaves], t.reputation[0], t.reputation[1]}}}
	// A row per size a blueprint of the ruleset has, and any other size
	// a battle destroyed ships of (a battle built outside the ruleset).
	for z := 1; z <= maxSize; z++ {
		if c.sizeNames[z] == "" && t.bySize[0][z] == 0 && t.bySize[1][z] == 0 {
			continue
		}
		secs[2].Rows = append(secs[2].Rows, game.Row{Labels: []string{strconv.Itoa(z), c.sizeNames[z]}, Values: []int64{t.bySize[0][z], t.bySize[1][z]}})
	}
	return secs
}

// CheckCounts implements game.CountRules: no colour hits more often than it
// is rolled; the damage done and the overkill add up to the damage the
// hits carried; missiles kill no more ships than are destroyed; the
// battles' ends add up to the games the core counted.
func (Game) CheckCounts(secs []game.Section, sides []game.SideTotal, _ int64) error {
	var nominal, done, overkill, kills, missile, ends, rep, bySize int64
	for i := range secs {
		s := &secs[i]
		col := func(key string) int { k, _, _ := s.Column(key); return k }
		switch s.Key {
		case "dice":
			r, h, d := col("rolled"), col("hits"), col("damage")
			for _, row := range s.Rows {
				if row.Values[h] > row.Values[r] {
					return fmt.Errorf("%s dice: %d hits of %d rolled", row.Labels[0], row.Values[h], row.Values[r])
				}
				nominal += row.Values[d]
			}
		case game.GameSection:
			if len(s.Rows) != 1 {
				return fmt.Errorf("game counts: %d rows", len(s.Rows))
			}
			v := s.Rows[0].Values
			done, overkill, kills, missile = v[col("damage_done")], v[col("overkill")], v[col("ships_destroyed")], v[col("missile_kills")]
			for _, k := range []string{"attacker_eliminates", "defender_eliminates", "stalemates", "attacker_retreats", "defender_retreats"} {
				ends += v[col(k)]
			}
			rep = max(v[col("attacker_reputation")], v[col("defender_reputation")])
		case "kills_by_size":
			for _, row := range s.Rows {
				bySize += row.Values[col("by_players")] + row.Values[col("by_npcs")]
			}
		}
	}
	if bySize != kills {
		return fmt.Errorf("%d ships destroyed by size, %d destroyed in all", bySize, kills)
	}
	if done+overkill != nominal {
		return fmt.Errorf("damage done %d and overkill %d do not add up to the %d the hits carried", done, overkill, nominal)
	}
	if rep > MaxReputation*ends {
		return fmt.Errorf("%d reputation tiles drawn in %d battles, at most %d a battle", rep, ends, MaxReputation)
	}
	if missile > kills {
		return fmt.Errorf("%d missile kills of %d ships destroyed", missile, kills)
	}
	var games int64
	for _, sd := range sides {
		games += sd.Games
	}
	if games != 2*ends {
		return fmt.Errorf("%d battles ended but the sides played %d seats (two a battle)", ends, games)
	}
	return nil
}
