package spacetrace

import (
	"sort"

	"github.com/cardlab/cardlab/cards"
	"gopkg.in/yaml.v3"
)

// Rules are rules.yaml's readings: each key keeps the alternative the
// design brief (spacetrace.md §2) lists beside the reading it proposes,
// which is the default. docs/rules-spacetrace.md gives the sentence and the
// test of each; the comment names the brief's row.
type Rules struct {
	Variant                  Variant
	BaseLP, BaseAP           int  // B11
	FirstShips, FirstReinf   int  // first game: cards per player
	SecondShips, SecondReinf int  // second game: cards per player
	DeckMin                  int  // S1
	ReinfTarget              int  // S1: a warning outside target ± tolerance
	ReinfTolerance           int  // S1
	CopiesDefault            int  // S2
	Start                    int  // S3: StartRandom | StartSeat0
	HandStart, HandMax       int  // S4, S5 (0: no limit)
	DrawPerTurn              int  // S4
	DrawFirstTurn            bool // S4
	MPPool                   int  // T1: PoolTurn | PoolPerPlay
	Discard3MP               int  // T4
	Discard3NonActive        bool // T4
	SpecialAnytime           bool // T3
	SummoningSickness        bool // T7
	TacticMaxDepth           int  // K2 (0: unlimited)
	TacticSelfStack          bool // K2
	FirstTurnBan             bool // B1
	Pairing                  int  // B9: PairLowestNonempty | PairNextOnly
	OwnScope                 int  // A1: ScopeFleet | ScopeClass
	EffectPer                int  // A1: PerCard | PerShip
	JamAbilityIf             int  // A4: JamAll | JamAny
	JamUntil                 int  // A4: UntilFleet | UntilClass
	OverkillBlocks           bool // A5
	DiscardWhen              int  // A6: WhenFleetBattle | WhenClassBattle
	SacrificeFrom            int  // A7: FromPlay | FromHand | FromBoth
	CommanderBaseHost        bool // C1
	MaxExtraFleets           int  // C2
	DeserterMothership       int  // C3: OpenFleet | JoinBase
	CommandoUnit             int  // C5: PerCard | PerShip
	DoomstarWhen             int  // C6: OnPlay | PerBattle
	DamageSpill              int  // C7: SpillCard | SpillShip
	QuietTurns, TurnCap      int  // E2
	Scoring                  int  // E3/E4: ScoreBaseDamage | ScoreWrecked
	Discard1MP               int  // E5 (0: off)
	Discard2Draw, SplitReinf bool // E5
}

// The enum values of Rules' int-coded alternatives, in their names' order.
const (
	StartRandom, StartSeat0          = 0, 1
	PoolTurn, PoolPerPlay            = 0, 1
	PairLowestNonempty, PairNextOnly = 0, 1
	ScopeFleet, ScopeClass           = 0, 1
	PerCard, PerShip                 = 0, 1
	JamAll, JamAny                   = 0, 1
	UntilFleet, UntilClass           = 0, 1
	WhenFleetBattle, WhenClassBattle = 0, 1
	FromPlay, FromHand, FromBoth     = 0, 1, 2
	OpenFleet, JoinBase              = 0, 1
	OnPlay, PerBattle                = 0, 1
	SpillCard, SpillShip             = 0, 1
	ScoreBaseDamage, ScoreWrecked    = 0, 1
)

// DefaultRules are the brief's readings.
func DefaultRules() Rules {
	return Rules{BaseLP: 1000, FirstShips: 12, FirstReinf: 10, SecondShips: 17, SecondReinf: 14, DeckMin: 40, ReinfTarget: 15, ReinfTolerance: 2,
		CopiesDefault: 3, HandStart: 4, DrawPerTurn: 2, DrawFirstTurn: true, Discard3MP: 100,
		FirstTurnBan: true, MaxExtraFleets: 1, QuietTurns: 2, TurnCap: 200}
}

// ruleKey is one key of rules.yaml under a group mapping ("" for the top).
type ruleKey struct {
	group, key string
	lo, hi     int      // an integer's range
	enum       []string // an enum's names
	isBool     bool
	ptr        func(*Rules) any // *int or *bool
}

func intKey(g, k string, lo, hi int, p func(*Rules) any) ruleKey {
	return ruleKey{group: g, key: k, lo: lo, hi: hi, ptr: p}
}
func enumKey(g, k string, names []string, p func(*Rules) any) ruleKey {
	return ruleKey{group: g, key: k, enum: names, ptr: p}
}
func boolKey(g, k string, p func(*Rules) any) ruleKey {
	return ruleKey{group: g, key: k, isBool: true, ptr: p}
}

// ruleKeys is every reading rules.yaml may set; all are optional.
var ruleKeys = []ruleKey{
	intKey("base", "lp", 1, MaxStat, func(r *Rules) any { return &r.BaseLP }),
	intKey("base", "ap", 0, MaxStat, func(r *Rules) any { return &r.BaseAP }),
	intKey("first_game", "ships", 1, MaxDeck, func(r *Rules) any { return &r.FirstShips }),
	intKey("first_game", "reinforcements", 0, MaxDeck, func(r *Rules) any { return &r.FirstReinf }),
	intKey("second_game", "ships", 1, MaxDeck, func(r *Rules) any { return &r.SecondShips }),
	intKey("second_game", "reinforcements", 0, MaxDeck, func(r *Rules) any { return &r.SecondReinf }),
	intKey("deck", "min", 1, MaxDeck, func(r *Rules) any { return &r.DeckMin }),
	intKey("deck", "reinf_target", 0, MaxDeck, func(r *Rules) any { return &r.ReinfTarget }),
	intKey("deck", "reinf_tolerance", 0, MaxDeck, func(r *Rules) any { return &r.ReinfTolerance }),
	intKey("deck", "copies_default", 1, MaxCopies, func(r *Rules) any { return &r.CopiesDefault }),
	enumKey("", "start", []string{"random", "seat0"}, func(r *Rules) any { return &r.Start }),
	intKey("hand", "start", 0, 20, func(r *Rules) any { return &r.HandStart }),
	intKey("hand", "max", 0, MaxDeck, func(r *Rules) any { return &r.HandMax }),
	intKey("draw", "per_turn", 0, 10, func(r *Rules) any { return &r.DrawPerTurn }),
	boolKey("draw", "first_turn", func(r *Rules) any { return &r.DrawFirstTurn }),
	enumKey("mp", "pool", []string{"turn", "per_play"}, func(r *Rules) any { return &r.MPPool }),
	intKey("discard3", "mp", 0, MaxStat, func(r *Rules) any { return &r.Discard3MP }),
	boolKey("discard3", "nonactive", func(r *Rules) any { return &r.Discard3NonActive }),
	boolKey("reinf", "special_anytime", func(r *Rules) any { return &r.SpecialAnytime }),
	boolKey("ship", "summoning_sickness", func(r *Rules) any { return &r.SummoningSickness }),
	intKey("tactic", "max_depth", 0, 100, func(r *Rules) any { return &r.TacticMaxDepth }),
	boolKey("tactic", "self_stack", func(r *Rules) any { return &r.TacticSelfStack }),
	boolKey("attack", "first_turn_ban", func(r *Rules) any { return &r.FirstTurnBan }),
	enumKey("", "pairing", []string{"lowest_nonempty", "next_only"}, func(r *Rules) any { return &r.Pairing }),
	enumKey("effect", "own_scope", []string{"fleet", "class"}, func(r *Rules) any { return &r.OwnScope }),
	enumKey("effect", "per", []string{"card", "ship"}, func(r *Rules) any { return &r.EffectPer }),
	enumKey("jam", "ability_if", []string{"all", "any"}, func(r *Rules) any { return &r.JamAbilityIf }),
	enumKey("jam", "until", []string{"fleet", "class"}, func(r *Rules) any { return &r.JamUntil }),
	boolKey("recover", "overkill_blocks", func(r *Rules) any { return &r.OverkillBlocks }),
	enumKey("discard", "when", []string{"fleet_battle", "class_battle"}, func(r *Rules) any { return &r.DiscardWhen }),
	enumKey("sacrifice", "from", []string{"play", "hand", "both"}, func(r *Rules) any { return &r.SacrificeFrom }),
	boolKey("commander", "base_host", func(r *Rules) any { return &r.CommanderBaseHost }),
	intKey("fleets", "max_extra", 0, 1, func(r *Rules) any { return &r.MaxExtraFleets }),
	enumKey("deserter", "mothership_mode", []string{"open_fleet", "join_base"}, func(r *Rules) any { return &r.DeserterMothership }),
	enumKey("commando", "unit", []string{"card", "ship"}, func(r *Rules) any { return &r.CommandoUnit }),
	enumKey("doomstar", "when", []string{"on_play", "per_battle"}, func(r *Rules) any { return &r.DoomstarWhen }),
	enumKey("damage", "spill", []string{"card", "ship"}, func(r *Rules) any { return &r.DamageSpill }),
	intKey("end", "quiet_turns", 1, 100, func(r *Rules) any { return &r.QuietTurns }),
	intKey("end", "turn_cap", 1, maxTurnsCap, func(r *Rules) any { return &r.TurnCap }),
	enumKey("", "scoring", []string{"base_damage", "wrecked"}, func(r *Rules) any { return &r.Scoring }),
	intKey("opt", "discard1_mp", 0, MaxStat, func(r *Rules) any { return &r.Discard1MP }),
	boolKey("opt", "discard2_draw", func(r *Rules) any { return &r.Discard2Draw }),
	boolKey("opt", "split_reinf", func(r *Rules) any { return &r.SplitReinf }),
}

// topKeys are rules.yaml's top-level keys: the fixed ones, the groups and
// the top-level readings.
func topKeys() (keys []string, groups map[string][]string) {
	keys = []string{"game", "name", "version", "variant", "decks"}
	groups = map[string][]string{}
	for _, k := range ruleKeys {
		if k.group == "" {
			keys = append(keys, k.key)
			continue
		}
		if _, ok := groups[k.group]; !ok {
			keys = append(keys, k.group)
		}
		groups[k.group] = append(groups[k.group], k.key)
	}
	sort.Strings(keys)
	return keys, groups
}

func readRules(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = RulesFile
	keys, groups := topKeys()
	m := r.Object(f, root, f, keys)
	if m == nil {
		return
	}
	m.Require("game", "name", "version", "variant", "decks")
	if g, ok := m.Str("game", false); ok && g != ID {
		r.Errorf(r.At(f, m.Get("game")), "game: %q is not %q; this ruleset is read as Spacetrace", cards.Truncate(g), ID)
	}
	if s, ok := m.Str("name", false); ok {
		r.CheckName(f, m.Get("name"), "ruleset", s)
		rs.Name = s
	}
	if s, ok := m.Str("version", false); ok {
		r.CheckName(f, m.Get("version"), "version", s)
		rs.Version = s
	}
	if v, ok := m.Enum("variant", "variant", variantNames); ok {
		rs.Rules.Variant = Variant(v)
	}
	maps := map[string]*cards.Map{}
	for g, ks := range groups {
		if n := m.Get(g); n != nil {
			maps[g] = r.Object(f, n, g, ks)
		}
	}
	for _, k := range ruleKeys {
		var n *yaml.Node
		name := k.key
		if k.group == "" {
			n = m.Get(k.key)
		} else if gm := maps[k.group]; gm != nil {
			n = gm.Get(k.key)
			name = k.group + "." + k.key
		}
		if n == nil {
			continue
		}
		if rs.ruleLines == nil {
			rs.ruleLines = map[string]int{}
		}
		rs.ruleLines[name] = n.Line
		switch p := k.ptr(&rs.Rules).(type) {
		case *bool:
			if v, ok := boolOf(r, f, n, name); ok {
				*p = v
			}
		case *int:
			if k.enum != nil {
				if v, ok := r.EnumOf(f, n, name, name, k.enum); ok {
					*p = v
				}
			} else if v, ok := r.IntOf(f, n, name, k.lo, k.hi); ok {
				*p = v
			}
		}
	}
	if rs.Rules.ReinfTolerance > rs.Rules.ReinfTarget {
		r.Errorf(r.At(f, m.Key("deck")), "deck.reinf_tolerance: %d is above reinf_target %d", rs.Rules.ReinfTolerance, rs.Rules.ReinfTarget)
	}
	if rs.Defs == nil {
		return // cards.yaml failed: its errors say why; deck checks would only echo them
	}
	if n := m.Get("decks"); n != nil {
		readDecks(r, n, rs)
	}
}
