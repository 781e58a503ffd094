package spacetrace

import (
	"github.com/cardlab/cardlab/cards"
	"gopkg.in/yaml.v3"
)

// Handler is an effect handler (design brief §3.3), each with typed
// parameters so that sweeps reach them and a typo gets a did-you-mean.
type Handler uint8

const (
	MP Handler = iota
	Draw
	Damage
	Preemptive
	Jam
	BuffFollowing
	DestroyCard
	Kill
	Repair
	Reconstruct
	SelfDestruct
	SelfDamage
	SacrificeCost
	RemoveFromBattle
	SwapHighestMP
	OpenExtraFleet
	Aura
	Income
	numHandlers
)

// Effect is one effect of a card with its parameters; a parameter the card
// does not give holds its default.
type Effect struct {
	Do Handler
	// Amount: mp, damage, self_damage; Count: draw, destroy_card,
	// sacrifice_cost; Ships: jam, kill, reconstruct; Cards: buff_following;
	// NextCards: repair.
	Amount, Count, Ships, Cards, NextCards int
	APMult, APAdd, LPAdd                   int   // buff_following; aura's ap, lp in APAdd, LPAdd
	IncomeMP                               int   // income
	Classes                                uint8 // destroy_card, reconstruct, sacrifice_cost (bit c-1)
	Target                                 int   // damage, repair: an index into the param's enum
	Requires, Mode                         int   // destroy_card
	Scope                                  int   // aura
	Pos                                    cards.Pos
}

// The enums of effect parameters.
var (
	damageTargets = []string{"any", "enemy_card", "own_card", "base", "enemy_base"}
	repairTargets = []string{"next", "own_card"}
	requiresNames = []string{"damaged", "any"}
	modeNames     = []string{"destroy", "kill"}
	scopeNames    = []string{"host", "fleet", "all"}
)

// The enum values: damage targets, repair targets, requirements, modes, scopes.
const (
	TargetAny, TargetEnemyCard, TargetOwnCard, TargetBase, TargetEnemyBase = 0, 1, 2, 3, 4
	RepairNext, RepairOwnCard                                              = 0, 1
	RequiresDamaged, RequiresAny                                           = 0, 1
	ModeDestroy, ModeKill                                                  = 0, 1
	ScopeHost, ScopeFleetAura, ScopeAll                                    = 0, 1, 2
)

type paramKind uint8

const (
	pInt paramKind = iota
	pBool
	pEnum
	pClasses
)

type param struct {
	key    string
	kind   paramKind
	lo, hi int
	enum   []string
	def    int
	set    func(*Effect, int)
}

type handlerSpec struct {
	name string
	// on is the card types it may stand on (bit per Type).
	on     uint8
	params []param
	doc    string
}

const (
	onReinf = 1 << Reinforcement
	onShip  = 1 << Ship
	onTac   = 1 << Tactic
	onCmd   = 1 << Commander
)

var handlers = [numHandlers]handlerSpec{
	MP: {"mp", onReinf, []param{{key: "amount", lo: 1, hi: MaxStat, def: 100, set: func(e *Effect, v int) { e.Amount = v }}},
		"gain MP when played"},
	Draw: {"draw", onReinf | onTac, []param{{key: "count", lo: 1, hi: 10, def: 1, set: func(e *Effect, v int) { e.Count = v }}},
		"draw cards when played"},
	Damage: {"damage", onReinf | onTac, []param{
		{key: "amount", lo: 1, hi: MaxStat, def: 40, set: func(e *Effect, v int) { e.Amount = v }},
		{key: "target", kind: pEnum, enum: damageTargets, set: func(e *Effect, v int) { e.Target = v }}},
		"deal damage to a ship card or a Base (spill: rules damage.spill)"},
	Preemptive: {"preemptive", onShip, nil, "the card's shots are fired in the preemptive step"},
	Jam: {"jam", onShip | onTac, []param{{key: "ships", lo: 1, hi: MaxShips, def: 10, set: func(e *Effect, v int) { e.Ships = v }}},
		"jam enemy ships from the current target (rules jam.until)"},
	BuffFollowing: {"buff_following", onShip, []param{
		{key: "cards", lo: 1, hi: 10, def: 2, set: func(e *Effect, v int) { e.Cards = v }},
		{key: "ap_mult", lo: 1, hi: 10, def: 1, set: func(e *Effect, v int) { e.APMult = v }},
		{key: "ap_add", lo: 0, hi: MaxStat, set: func(e *Effect, v int) { e.APAdd = v }},
		{key: "lp_add", lo: 0, hi: MaxStat, set: func(e *Effect, v int) { e.LPAdd = v }}},
		"your next cards in battle fire with more AP"},
	DestroyCard: {"destroy_card", onShip, []param{
		{key: "count", lo: 1, hi: 10, def: 1, set: func(e *Effect, v int) { e.Count = v }},
		{key: "classes", kind: pClasses, def: 0b111, set: func(e *Effect, v int) { e.Classes = uint8(v) }},
		{key: "requires", kind: pEnum, enum: requiresNames, set: func(e *Effect, v int) { e.Requires = v }},
		{key: "mode", kind: pEnum, enum: modeNames, set: func(e *Effect, v int) { e.Mode = v }}},
		"destroy the next enemy card of the classes in its class battle"},
	Kill: {"kill", onShip | onTac, []param{{key: "ships", lo: 1, hi: MaxShips, def: 5, set: func(e *Effect, v int) { e.Ships = v }}},
		"kill the front ships of an enemy card"},
	Repair: {"repair", onShip | onTac, []param{
		{key: "next_cards", lo: 1, hi: 10, def: 1, set: func(e *Effect, v int) { e.NextCards = v }},
		{key: "target", kind: pEnum, enum: repairTargets, set: func(e *Effect, v int) { e.Target = v }}},
		"restore alive ships to full LP"},
	Reconstruct: {"reconstruct", onShip, []param{
		{key: "ships", lo: 1, hi: MaxShips, def: 10, set: func(e *Effect, v int) { e.Ships = v }},
		{key: "classes", kind: pClasses, def: 0b1111, set: func(e *Effect, v int) { e.Classes = uint8(v) }}},
		"destroyed own ships get 1 LP back (recovery step)"},
	SelfDestruct:     {"self_destruct", onShip, nil, "the card is killed after a class battle it took part in"},
	SelfDamage:       {"self_damage", onShip, []param{{key: "amount", lo: 1, hi: MaxStat, def: 100, set: func(e *Effect, v int) { e.Amount = v }}}, "damage to your own Base (rules doomstar.when)"},
	SacrificeCost:    {"sacrifice_cost", onShip | onTac, []param{{key: "count", lo: 1, hi: 10, def: 1, set: func(e *Effect, v int) { e.Count = v }}, {key: "classes", kind: pClasses, def: 0b1111, set: func(e *Effect, v int) { e.Classes = uint8(v) }}}, "sacrifice own ship cards to play (rules sacrifice.from)"},
	RemoveFromBattle: {"remove_from_battle", onTac, nil, "an enemy ship card (not the Base) leaves the current battle"},
	SwapHighestMP:    {"swap_highest_mp", onTac, nil, "swap the highest-MP ship cards in play (not Bases)"},
	OpenExtraFleet:   {"open_extra_fleet", onShip, nil, "opens an extra fleet; destroyed with it"},
	Aura: {"aura", onCmd, []param{
		{key: "scope", kind: pEnum, enum: scopeNames, set: func(e *Effect, v int) { e.Scope = v }},
		{key: "ap", lo: 0, hi: MaxStat, set: func(e *Effect, v int) { e.APAdd = v }},
		{key: "lp", lo: 0, hi: MaxStat, set: func(e *Effect, v int) { e.LPAdd = v }}},
		"ships get more AP and LP while the commander is in play"},
	Income: {"income", onCmd, []param{{key: "mp", lo: 1, hi: MaxStat, def: 30, set: func(e *Effect, v int) { e.IncomeMP = v }}},
		"gain MP at the start of each of your turns"},
}

func (h Handler) String() string { return handlers[h].name }

func handlerNames() []string {
	out := make([]string, numHandlers)
	for i := range handlers {
		out[i] = handlers[i].name
	}
	return out
}

// readEffects reads a card's effects list.
func readEffects(r *cards.Reader, f string, n *yaml.Node, what string, t Type, okType bool) []Effect {
	if n.Kind != yaml.SequenceNode {
		r.Errorf(r.At(f, n), "%s: effects: expected a list of {do: handler, …}, got %s", what, cards.Describe(n))
		return nil
	}
	if len(n.Content) > MaxEffects {
		r.Errorf(r.At(f, n.Content[MaxEffects]), "%s: %d effects, at most %d", what, len(n.Content), MaxEffects)
		return nil
	}
	names := handlerNames()
	var out []Effect
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			r.Errorf(r.At(f, item), "%s: an effect: expected a mapping {do: handler, …}, got %s", what, cards.Describe(item))
			continue
		}
		m := r.Object(f, item, what+" effect", nil)
		dn := m.Get("do")
		if dn == nil {
			r.Errorf(r.At(f, item), "missing required key \"do\" in %s effect (the handler: %s)", what, joinNames(names))
			continue
		}
		h, ok := r.EnumOf(f, dn, "do", "effect handler", names)
		if !ok {
			continue
		}
		spec := &handlers[h]
		if okType && spec.on&(1<<t) == 0 {
			r.Errorf(r.At(f, dn), "%s: %s does not work on a %s card", what, spec.name, t)
		}
		e := Effect{Do: Handler(h), Pos: cards.ModelPos(f, item)}
		keys := make([]string, 0, len(spec.params)+1)
		keys = append(keys, "do")
		for _, p := range spec.params {
			keys = append(keys, p.key)
			p.set(&e, p.def)
		}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			if k.Value == "do" || m.Get(k.Value) != v {
				continue
			}
			var p *param
			for j := range spec.params {
				if spec.params[j].key == k.Value {
					p = &spec.params[j]
				}
			}
			if p == nil {
				hint := r.DidYouMean(k.Value, keys[1:])
				if hint == "" && len(keys) > 1 {
					hint = " (" + spec.name + " takes " + joinNames(keys[1:]) + ")"
				} else if hint == "" {
					hint = " (" + spec.name + " takes no parameters)"
				}
				r.Errorf(r.At(f, k), "%s: unknown parameter %q of %s%s", what, cards.Truncate(k.Value), spec.name, hint)
				continue
			}
			key := spec.name + "." + p.key
			switch p.kind {
			case pInt:
				if x, ok := r.IntOf(f, v, key, p.lo, p.hi); ok {
					p.set(&e, x)
				}
			case pBool:
				if x, ok := boolOf(r, f, v, key); ok && x {
					p.set(&e, 1)
				}
			case pEnum:
				if x, ok := r.EnumOf(f, v, key, key, p.enum); ok {
					p.set(&e, x)
				}
			case pClasses:
				if x, ok := classesOf(r, f, v, key); ok {
					p.set(&e, int(x))
				}
			}
		}
		out = append(out, e)
	}
	return out
}

func joinNames(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
