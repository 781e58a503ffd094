package eclipse

import (
	"io/fs"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"gopkg.in/yaml.v3"
)

// The ruleset's files.
const (
	RulesFile      = "rules.yaml"
	PartsFile      = "parts.yaml"
	BlueprintsFile = "blueprints.yaml"
	FleetsFile     = "fleets.yaml"
)

var rulesetFiles = []string{BlueprintsFile, FleetsFile, PartsFile, RulesFile}

// Bounds of the format. The engine keeps a type's ships as counts per
// damage level in fixed arrays (state.go), so these bound its arrays.
const (
	MaxTypes     = 4  // ship types a side of one battle
	MaxShips     = 16 // ships of one type in a battle
	MaxHull      = 14 // hull points of one ship
	MaxDicePart  = 8  // dice of one colour on one part or bonus
	MaxVolley    = 64 // dice one type rolls at once
	MaxStat      = 20 // computers, shields, initiative, move
	MaxEnergy    = 50
	MaxCost      = 100
	MaxSlots     = 12
	MaxParts     = 200
	MaxFleets    = 64
	MaxBlueprint = 32
	// MaxReputation bounds the reputation tiles one ship's destruction
	// earns, and one battle's draws for a player.
	MaxReputation = 5
)

var ruleKeys = []string{"game", "name", "version", "edition", "hit", "damage", "ties", "tied_order", "stalemate", "retreat", "assign", "study"}
var statKeys = []string{"name", "dice", "missiles", "computer", "shield", "hull", "init", "move", "energy", "tech"}
var bonusKeys = []string{"dice", "missiles", "computer", "shield", "hull", "init", "energy"}
var blueprintKeys = []string{"name", "size", "slots", "printed", "bonus", "cost", "max", "mobile", "npc", "reputation"}

// Load reads and validates the ruleset directory that is fsys's root;
// prefix names it in messages (see cards.NewReader). Its error is a
// cards.ErrorList of every problem found, each at file:line:col.
func Load(fsys fs.FS, prefix string) (*Ruleset, error) {
	r := cards.NewReader(fsys, prefix)
	if !r.ReadDir() {
		return nil, r.Errs.Err()
	}
	for _, f := range r.Folders {
		r.FileErr(f, "a folder with a YAML name; an Eclipse ruleset is the files %s", cards.QuoteList(rulesetFiles))
	}
	for _, f := range r.Files {
		known := false
		for _, k := range rulesetFiles {
			known = known || f == k
		}
		if !known {
			r.FileErr(f, "unknown ruleset file; an Eclipse ruleset is the files %s%s", cards.QuoteList(rulesetFiles), r.DidYouMean(f, rulesetFiles))
		}
	}
	roots := map[string]*yaml.Node{}
	for _, f := range rulesetFiles {
		if !r.Has(f) {
			r.Errorf(cards.Pos{File: r.DirName()}, "no %s in the ruleset directory", f)
			continue
		}
		if data, ok := r.Data[f]; ok {
			roots[f] = r.Parse(f, data)
		}
	}
	rs := &Ruleset{}
	if n := roots[RulesFile]; n != nil {
		readRules(r, n, rs)
	}
	if n := roots[PartsFile]; n != nil {
		readParts(r, n, rs)
	}
	if n := roots[BlueprintsFile]; n != nil && roots[PartsFile] != nil {
		readBlueprints(r, n, rs)
	}
	if n := roots[FleetsFile]; n != nil && roots[BlueprintsFile] != nil {
		readFleets(r, n, rs)
	}
	if err := r.Errs.Err(); err != nil {
		return nil, err
	}
	rs.Files = map[string][]byte{}
	for _, f := range rulesetFiles {
		rs.Files[f] = r.Data[f]
	}
	rs.Hash = cards.HashFiles(rs.Files)
	rs.battles = &sync.Map{}
	return rs, nil
}

func readRules(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = RulesFile
	m := r.Object(f, root, f, ruleKeys)
	if m == nil {
		return
	}
	m.Require("game", "name", "version", "edition")
	if g, ok := m.Str("game", false); ok && g != ID {
		r.Errorf(r.At(f, m.Get("game")), "game: %q is not %q; this ruleset is read as Eclipse", cards.Truncate(g), ID)
	}
	if s, ok := m.Str("name", false); ok {
		r.CheckName(f, m.Get("name"), "ruleset", s)
		rs.Name = s
	}
	if s, ok := m.Str("version", false); ok {
		r.CheckName(f, m.Get("version"), "version", s)
		rs.Version = s
	}
	ru := &rs.Rules
	*ru = Rules{HitTarget: 6, AlwaysHit: 6, AlwaysMiss: 1, Damage: [NumColours]int{1, 2, 3, 4},
		DefenderFirst: true, LargerFirst: true, PlayerPolicy: Optimal, NPCPolicy: NPCRule, StateBudget: 2_000_000}
	if e, ok := m.Enum("edition", "edition", []string{"1e", "2e"}); ok {
		ru.Edition = []string{"1e", "2e"}[e]
	}
	if n := m.Get("hit"); n != nil {
		if hm := r.Object(f, n, "hit", []string{"target", "always_hit", "always_miss"}); hm != nil {
			if v, ok := hm.Int("target", 2, 12); ok {
				ru.HitTarget = v
			}
			if v, ok := hm.Int("always_hit", 1, 7); ok {
				ru.AlwaysHit = v
			}
			if v, ok := hm.Int("always_miss", 0, 6); ok {
				ru.AlwaysMiss = v
			}
			if ru.AlwaysMiss >= ru.AlwaysHit {
				r.Errorf(r.At(f, n), "hit: always_miss %d is not below always_hit %d; a roll cannot both hit and miss", ru.AlwaysMiss, ru.AlwaysHit)
			}
		}
	}
	if n := m.Get("damage"); n != nil {
		if dm := r.Object(f, n, "damage", colourNames); dm != nil {
			for c, name := range colourNames {
				if v, ok := dm.Int(name, 1, MaxHull+1); ok {
					ru.Damage[c] = v
				}
			}
		}
	}
	if v, ok := m.Enum("ties", "tie rule", []string{"defender", "attacker"}); ok {
		ru.DefenderFirst = v == 0
	}
	if v, ok := m.Enum("tied_order", "order of tied types", []string{"larger_first", "smaller_first"}); ok {
		ru.LargerFirst = v == 0
	}
	if n := m.Get("stalemate"); n != nil {
		if sm := r.Object(f, n, "stalemate", []string{"share"}); sm != nil {
			if v := sm.Get("share"); v != nil {
				ru.StalemateShare = readShare(r, f, v, "stalemate.share")
			}
		}
	}
	if n := m.Get("retreat"); n != nil {
		if rm := r.Object(f, n, "retreat", []string{"attacker", "defender", "completes"}); rm != nil {
			for i, k := range []string{"attacker", "defender"} {
				if v := rm.Get(k); v != nil {
					ru.Retreat[i] = readBool(r, f, v, "retreat."+k)
				}
			}
			if v, ok := rm.Enum("completes", "retreat completion", completesNames); ok {
				ru.RetreatCompletes = v
			}
		}
	}
	if n := m.Get("assign"); n != nil {
		if am := r.Object(f, n, "assign", []string{"player", "npc", "allow_waste"}); am != nil {
			if v, ok := am.Enum("player", "player assignment policy", playerPolicies); ok {
				ru.PlayerPolicy = Policy(v)
			}
			if v, ok := am.Enum("npc", "NPC assignment rule", npcPolicies); ok {
				ru.NPCPolicy = Policy(v + len(playerPolicies))
			}
			if v := am.Get("allow_waste"); v != nil {
				ru.AllowWaste = readBool(r, f, v, "assign.allow_waste")
			}
		}
	}
	if n := m.Get("study"); n != nil {
		if sm := r.Object(f, n, "study", []string{"state_budget"}); sm != nil {
			if v, ok := sm.Int("state_budget", 1, 200_000_000); ok {
				ru.StateBudget = v
			}
		}
	}
}

func readBool(r *cards.Reader, f string, n *yaml.Node, key string) bool {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		r.Errorf(r.At(f, n), "%s: expected true or false, got %s", key, cards.Describe(n))
		return false
	}
	return n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
}

// readShare reads a fraction in [0, 1]; NaN and infinities are refused.
func readShare(r *cards.Reader, f string, n *yaml.Node, key string) float64 {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsNaN(v) && v >= 0 && v <= 1 {
			return v
		}
	}
	r.Errorf(r.At(f, n), "%s: expected a number from 0 to 1, got %s", key, cards.Describe(n))
	return 0
}

// readStats reads a part's or a bonus's values from m.
func readStats(r *cards.Reader, f string, m *cards.Map, what string) Stats {
	var s Stats
	for i, k := range []string{"dice", "missiles"} {
		n := m.Get(k)
		if n == nil {
			continue
		}
		dm := r.Object(f, n, what+" "+k, colourNames)
		if dm == nil {
			continue
		}
		for c, name := range colourNames {
			if v, ok := dm.Int(name, 0, MaxDicePart); ok {
				if i == 0 {
					s.Cannons[c] = v
				} else {
					s.Missiles[c] = v
				}
			}
		}
	}
	get := func(k string, lo, hi int) int {
		v, _ := m.Int(k, lo, hi)
		return v
	}
	s.Computer = get("computer", 0, MaxStat)
	s.Shield = get("shield", 0, MaxStat)
	s.Hull = get("hull", 0, MaxHull)
	s.Init = get("init", -MaxStat, MaxStat)
	s.Move = get("move", 0, MaxStat)
	s.Energy = get("energy", -MaxEnergy, MaxEnergy)
	if s.Move > 0 {
		s.Drives = 1
	}
	if s.Energy > 0 {
		s.EnergyMade = s.Energy
	} else {
		s.EnergyUsed = -s.Energy
	}
	return s
}

// entries lists a top-level mapping of id → object under key, checking ids.
func entries(r *cards.Reader, f string, root *yaml.Node, key string, max int) (ids []string, keys, vals []*yaml.Node) {
	m := r.Object(f, root, f, []string{key})
	if m == nil {
		return
	}
	m.Require(key)
	n := m.Get(key)
	if n == nil {
		return
	}
	if n.Kind != yaml.MappingNode {
		r.Errorf(r.At(f, n), "%s: expected a mapping of ids to entries, got %s", key, cards.Describe(n))
		return
	}
	if len(n.Content) == 0 {
		r.Errorf(r.At(f, n), "%s: no entries", key)
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		id, ok := r.StrOf(f, k, key+" id", false)
		if !ok {
			continue
		}
		if len(id) > cards.MaxIDLen {
			r.Errorf(r.At(f, k), "%s id %q is longer than %d bytes", key, cards.Truncate(id), cards.MaxIDLen)
			continue
		}
		if prev, dup := seen[id]; dup {
			r.Errorf(r.At(f, k), "duplicate id %q (first given at line %d)", cards.Truncate(id), prev)
			continue
		}
		if len(ids) == max {
			r.Errorf(r.At(f, k), "%s: more than %d entries", key, max)
			break
		}
		seen[id] = k.Line
		ids = append(ids, id)
		keys = append(keys, k)
		vals = append(vals, v)
	}
	return
}

func readParts(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = PartsFile
	ids, keys, vals := entries(r, f, root, "parts", MaxParts)
	for i, id := range ids {
		p := Part{ID: id, Name: id, Pos: cards.ModelPos(f, keys[i])}
		what := "part " + strconv.Quote(cards.Truncate(id))
		m := r.Object(f, vals[i], what, statKeys)
		if m != nil {
			if s, ok := m.Str("name", false); ok {
				r.CheckName(f, m.Get("name"), "part", s)
				p.Name = s
			}
			p.Stats = readStats(r, f, m, what)
			if n := m.Get("tech"); n != nil {
				if tm := r.Object(f, n, what+" tech", []string{"track", "cost", "min"}); tm != nil {
					tm.Require("track", "cost")
					if s, ok := tm.Enum("track", "research track", []string{"military", "grid", "nano", "rare"}); ok {
						p.Tech.Track = []string{"military", "grid", "nano", "rare"}[s]
					}
					p.Tech.Cost, _ = tm.Int("cost", 0, 99)
					p.Tech.Min, _ = tm.Int("min", 0, 99)
					if p.Tech.Min > p.Tech.Cost {
						r.Errorf(r.At(f, tm.Get("min")), "%s: tech min %d is above its cost %d", what, p.Tech.Min, p.Tech.Cost)
					}
				}
			}
		}
		rs.Parts = append(rs.Parts, p)
	}
}

func (rs *Ruleset) partIndex(id string) int {
	for i := range rs.Parts {
		if rs.Parts[i].ID == id {
			return i
		}
	}
	return -1
}

func readBlueprints(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = BlueprintsFile
	ids, keys, vals := entries(r, f, root, "blueprints", MaxBlueprint)
	partIDs := make([]string, len(rs.Parts))
	for i := range rs.Parts {
		partIDs[i] = rs.Parts[i].ID
	}
	for i, id := range ids {
		b := Blueprint{ID: id, Name: id, Size: 1, Pos: cards.ModelPos(f, keys[i])}
		what := "blueprint " + strconv.Quote(cards.Truncate(id))
		m := r.Object(f, vals[i], what, blueprintKeys)
		if m == nil {
			rs.Blueprints = append(rs.Blueprints, b)
			continue
		}
		if s, ok := m.Str("name", false); ok {
			r.CheckName(f, m.Get("name"), "blueprint", s)
			b.Name = s
		}
		if v := m.Get("npc"); v != nil {
			b.NPC = readBool(r, f, v, what+" npc")
		}
		if b.NPC {
			m.Require("max")
		} else {
			m.Require("slots", "cost", "max", "mobile")
		}
		if v, ok := m.Int("size", 1, 10); ok {
			b.Size = v
		}
		b.Slots, _ = m.Int("slots", 0, MaxSlots)
		b.Cost, _ = m.Int("cost", 0, MaxCost)
		b.Reputation, _ = m.Int("reputation", 0, MaxReputation)
		b.Max, _ = m.Int("max", 1, MaxShips)
		if v := m.Get("mobile"); v != nil {
			b.Mobile = readBool(r, f, v, what+" mobile")
		}
		if n := m.Get("bonus"); n != nil {
			if bm := r.Object(f, n, what+" bonus", bonusKeys); bm != nil {
				b.Bonus = readStats(r, f, bm, what+" bonus")
			}
		}
		b.Stats = b.Bonus
		// Validity 3: one tile per slot.
		if n := m.Get("printed"); n != nil {
			if n.Kind != yaml.SequenceNode {
				r.Errorf(r.At(f, n), "%s printed: expected a list of part ids, got %s", what, cards.Describe(n))
			} else {
				if len(n.Content) > b.Slots {
					r.Errorf(r.At(f, n), "%s: %d printed parts in %d slots; one part a slot", what, len(n.Content), b.Slots)
				}
				for _, item := range n.Content {
					pid, ok := r.StrOf(f, item, what+" printed", true)
					if !ok {
						continue
					}
					if pid == "" {
						b.Printed = append(b.Printed, -1)
						continue
					}
					p := rs.partIndex(pid)
					if p < 0 {
						r.Errorf(r.At(f, item), "%s: unknown part %q%s", what, cards.Truncate(pid), r.DidYouMean(pid, partIDs))
						continue
					}
					b.Printed = append(b.Printed, p)
					b.Stats.add(rs.Parts[p].Stats)
				}
			}
		}
		validBlueprint(r, f, r.At(f, keys[i]), what, &b)
		rs.Blueprints = append(rs.Blueprints, b)
	}
}

// validBlueprint checks the brief's validity rules 1, 2 and 4 on b's total.
func validBlueprint(r *cards.Reader, f string, at cards.Pos, what string, b *Blueprint) {
	st := &b.Stats
	if st.Hull > MaxHull || st.Computer > MaxStat || st.Shield > MaxStat || st.Init > MaxStat || st.Init < -MaxStat {
		r.Errorf(at, "%s: the parts add up to hull %d, computer %d, shield %d, initiative %d (at most %d hull, %d each other)", what, st.Hull, st.Computer, st.Shield, st.Init, MaxHull, MaxStat)
	}
	for c := range st.Cannons {
		if st.Cannons[c] > MaxDicePart || st.Missiles[c] > MaxDicePart {
			r.Errorf(at, "%s: more than %d %s dice on one ship", what, MaxDicePart, Colour(c))
		}
	}
	if b.NPC {
		return // NPC profiles are fixed: no energy, drives or slots
	}
	if st.EnergyUsed > st.EnergyMade {
		r.Errorf(at, "%s: its parts use %d energy and produce %d (validity rule 1: energy used at most energy produced)", what, st.EnergyUsed, st.EnergyMade)
	}
	if b.Mobile && st.Drives == 0 {
		r.Errorf(at, "%s: a mobile ship needs a drive (validity rule 2)", what)
	}
	if !b.Mobile && st.Drives > 0 {
		r.Errorf(at, "%s: a ship that is not mobile (a Starbase) may not have a drive (validity rule 2)", what)
	}
}

func readFleets(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = FleetsFile
	ids, keys, vals := entries(r, f, root, "fleets", MaxFleets)
	bpIDs := make([]string, len(rs.Blueprints))
	for i := range rs.Blueprints {
		bpIDs[i] = rs.Blueprints[i].ID
	}
	for i, id := range ids {
		fl := Fleet{ID: id, Name: id, Pos: cards.ModelPos(f, keys[i])}
		what := "fleet " + strconv.Quote(cards.Truncate(id))
		if strings.Contains(id, ",") || strings.TrimSpace(id) != id {
			r.Errorf(r.At(f, keys[i]), "%s: a fleet id may not hold a comma or start or end with a space (cardlab study lists fleets as fleets=ID,ID)", what)
		}
		m := r.Object(f, vals[i], what, []string{"name", "ships"})
		if m == nil {
			continue
		}
		m.Require("ships")
		if s, ok := m.Str("name", false); ok {
			r.CheckName(f, m.Get("name"), "fleet", s)
			fl.Name = s
		}
		n := m.Get("ships")
		if n == nil {
			continue
		}
		sm := r.Object(f, n, what+" ships", bpIDs)
		if sm == nil {
			continue
		}
		npc, player := 0, 0
		for j := 0; j+1 < len(n.Content); j += 2 {
			k := n.Content[j]
			b := -1
			for q := range bpIDs {
				if bpIDs[q] == k.Value {
					b = q
				}
			}
			if b < 0 || sm.Get(k.Value) != n.Content[j+1] {
				continue // reported by Object
			}
			bp := &rs.Blueprints[b]
			// Validity 5: ship counts within the maxima.
			c, ok := sm.Int(k.Value, 1, bp.Max)
			if !ok {
				continue
			}
			if c*(bp.Stats.Cannons.Total()) > MaxVolley || c*bp.Stats.Missiles.Total() > MaxVolley {
				r.Errorf(r.At(f, n.Content[j+1]), "%s: %d %s roll more than %d dice at once", what, c, bp.Name, MaxVolley)
				continue
			}
			if len(fl.Ships) == MaxTypes {
				r.Errorf(r.At(f, k), "%s: more than %d ship types", what, MaxTypes)
				break
			}
			fl.Ships = append(fl.Ships, FleetShips{Blueprint: b, Count: c})
			if bp.NPC {
				npc++
			} else {
				player++
			}
		}
		if len(n.Content) == 0 {
			r.Errorf(r.At(f, n), "%s: no ships", what)
		}
		if npc > 0 && player > 0 {
			r.Errorf(r.At(f, n), "%s: mixes NPC and player ships; NPCs fight as their own side", what)
		}
		fl.NPC = npc > 0
		if !fl.NPC && len(fl.Ships) > 0 {
			rs.SideFleets = append(rs.SideFleets, len(rs.Fleets))
		}
		rs.Fleets = append(rs.Fleets, fl)
	}
	if len(ids) > 0 && len(rs.SideFleets) == 0 && r.Errs.Err() == nil {
		r.Errorf(r.At(f, root), "fleets: no player fleet; a game seats two player fleets")
	}
}

// Game implements game.Game's Load for Eclipse.
func (Game) Load(fsys fs.FS, dir string) (game.Ruleset, error) {
	sub, err := game.RulesetFS(fsys, dir)
	if err != nil {
		return nil, err
	}
	rs, err := Load(sub, dir)
	if err != nil {
		return nil, err
	}
	return rs, nil
}
