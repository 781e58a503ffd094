// Package eclipse registers Eclipse ship combat with cardlab's games
// (game.Register): two fleets of ship blueprints built from part tiles fight
// one battle with dice (the seed summary 002, first edition; the design
// brief eclipse.md). A side is a player fleet; seat 1 attacks, seat 2
// defends; NPCs (Ancients, Guardians, the GCDS) fight only as defenders, in
// the study.
//
// What it holds: the rulesets eclipse-1e (the default, the seed's edition)
// and eclipse-2e as YAML a designer edits (rulesets/), their loader with
// positioned validation (load.go), the combat model compiled from a battle
// of two fleets (combat.go), the hit-assignment policies (policy.go), the
// exact study — a dynamic programme over damage states (study.go) — and the
// combat engine on game.State for paired Monte Carlo (state.go).
// docs/rules-eclipse.md gives every rule reading with the test that pins it.
package eclipse

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
)

// ID is Eclipse's key in the registry and in rules.yaml's `game:`.
const ID = "eclipse"

// The embedded rulesets; DefaultRuleset is the seed's edition.
const (
	DefaultRuleset = "eclipse-1e"
	SecondEdition  = "eclipse-2e"
)

func init() { game.Register(Game{}) }

//go:embed rulesets
var embedded embed.FS

// Game is Eclipse ship combat as a game.Game.
type Game struct{}

// ID implements game.Game.
func (Game) ID() string { return ID }

// Name implements game.Game.
func (Game) Name() string { return "Eclipse ship combat" }

// Vocabulary implements game.Game: fleets fight engagement rounds and keep
// material.
func (Game) Vocabulary() game.Vocabulary {
	return game.Vocabulary{Side: "fleet", Sides: "fleets", Score: "material left", Length: "engagement round"}
}

// Default implements game.Game: the first edition, the seed's.
func (Game) Default() (game.Ruleset, fs.FS) { return Default(), EmbeddedFS(DefaultRuleset) }

// Effects implements game.Game: parts are stats, not effects.
func (Game) Effects() *effects.Registry { return nil }

// Schemas implements game.Game.
func (Game) Schemas() (map[string][]byte, error) { return Schemas() }

// EmbeddedFS is the embedded ruleset name's directory (DefaultRuleset or
// SecondEdition); it panics on another name.
func EmbeddedFS(name string) fs.FS {
	if name != DefaultRuleset && name != SecondEdition {
		panic("eclipse: no embedded ruleset " + name)
	}
	sub, err := fs.Sub(embedded, "rulesets/"+name)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Default is the embedded first-edition ruleset, loaded once and shared.
func Default() *Ruleset { return loadEmbedded(DefaultRuleset) }

// Edition is an embedded ruleset by name, loaded once and shared.
func Edition(name string) (*Ruleset, error) {
	if name != DefaultRuleset && name != SecondEdition {
		return nil, fmt.Errorf("eclipse: no embedded ruleset %q (expected %q or %q)", name, DefaultRuleset, SecondEdition)
	}
	return loadEmbedded(name), nil
}

var embeddedOnce = map[string]func() *Ruleset{
	DefaultRuleset: sync.OnceValue(func() *Ruleset { return mustLoad(DefaultRuleset) }),
	SecondEdition:  sync.OnceValue(func() *Ruleset { return mustLoad(SecondEdition) }),
}

func loadEmbedded(name string) *Ruleset { return embeddedOnce[name]() }

func mustLoad(name string) *Ruleset {
	rs, err := Load(EmbeddedFS(name), "")
	if err != nil {
		panic("eclipse: the embedded ruleset " + name + " does not load: " + err.Error())
	}
	return rs
}

// Schemas are the JSON Schemas (draft 2020-12) of the four ruleset files,
// for editors; the loader checks more (energy, drives, slots, maxima).
func Schemas() (map[string][]byte, error) {
	intRange := func(min, max int, desc string) cards.JSONObject {
		return cards.JSONObject{{"type", "integer"}, {"minimum", min}, {"maximum", max}, {"description", desc}}
	}
	boolean := func(desc string) cards.JSONObject {
		return cards.JSONObject{{"type", "boolean"}, {"description", desc}}
	}
	obj := func(props cards.JSONObject, required ...string) cards.JSONObject {
		o := cards.JSONObject{{"type", "object"}, {"additionalProperties", false}, {"properties", props}}
		if len(required) > 0 {
			o = append(o, cards.JSONField{"required", required})
		}
		return o
	}
	dice := func(desc string) cards.JSONObject {
		var p cards.JSONObject
		for _, c := range colourNames {
			p = append(p, cards.JSONField{c, intRange(0, MaxDicePart, c+" dice")})
		}
		return append(obj(p), cards.JSONField{"description", desc})
	}
	stats := func(named bool) cards.JSONObject {
		p := cards.JSONObject{
			{"dice", dice("cannon dice per colour")},
			{"missiles", dice("missile dice per colour (fired once, before round 1)")},
			{"computer", intRange(0, MaxStat, "added to each roll")},
			{"shield", intRange(0, MaxStat, "subtracted from enemy rolls")},
			{"hull", intRange(0, MaxHull, "damage absorbed")},
			{"init", intRange(-MaxStat, MaxStat, "initiative added")},
			{"energy", intRange(-MaxEnergy, MaxEnergy, "+ produced, - consumed")},
		}
		if named {
			p = append(p, cards.JSONField{"name", cards.JSONObject{{"type", "string"}, {"minLength", 1}}},
				cards.JSONField{"move", intRange(0, MaxStat, "a drive's movement")},
				cards.JSONField{"tech", obj(cards.JSONObject{
					{"track", cards.JSONObject{{"enum", []string{"military", "grid", "nano", "rare"}}}},
					{"cost", intRange(0, 99, "research cost")}, {"min", intRange(0, 99, "minimum research cost")}}, "track", "cost")})
		}
		return obj(p)
	}
	byID := func(item cards.JSONObject, desc string) cards.JSONObject {
		return cards.JSONObject{{"type", "object"}, {"minProperties", 1}, {"additionalProperties", item}, {"description", desc}}
	}
	policies := func(vals []string) cards.JSONObject { return cards.JSONObject{{"enum", vals}} }
	str := cards.JSONObject{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}}
	rules := obj(cards.JSONObject{
		{"game", cards.JSONObject{{"const", ID}}},
		{"name", str}, {"version", str},
		{"edition", cards.JSONObject{{"enum", []string{"1e", "2e"}}}},
		{"hit", obj(cards.JSONObject{{"target", intRange(2, 12, "roll + computers - shields needed")},
			{"always_hit", intRange(1, 7, "a roll this high always hits")}, {"always_miss", intRange(0, 6, "a roll this low always misses")}})},
		{"damage", func() cards.JSONObject {
			var p cards.JSONObject
			for _, c := range colourNames {
				p = append(p, cards.JSONField{c, intRange(1, MaxHull+1, "damage of a "+c+" hit")})
			}
			return obj(p)
		}()},
		{"ties", cards.JSONObject{{"enum", []string{"defender", "attacker"}}}},
		{"tied_order", cards.JSONObject{{"enum", []string{"larger_first", "smaller_first"}}}},
		{"stalemate", obj(cards.JSONObject{{"share", cards.JSONObject{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}}})},
		{"retreat", obj(cards.JSONObject{{"attacker", boolean("the attacker may retreat")}, {"defender", boolean("the defender may retreat")},
			{"completes", cards.JSONObject{{"enum", completesNames}}}})},
		{"assign", obj(cards.JSONObject{{"player", policies(playerPolicies)}, {"npc", policies(npcPolicies)}, {"allow_waste", boolean("a hit may be left unassigned")}})},
		{"study", obj(cards.JSONObject{{"state_budget", intRange(1, 200_000_000, "damage states times slots the exact study may use")}})},
	}, "game", "name", "version", "edition")
	bp := obj(cards.JSONObject{
		{"name", str}, {"size", intRange(1, 10, "orders largest for hit assignment")},
		{"slots", intRange(0, MaxSlots, "part slots")},
		{"printed", cards.JSONObject{{"type", "array"}, {"items", cards.JSONObject{{"type", "string"}}}}},
		{"bonus", stats(false)}, {"cost", intRange(0, MaxCost, "material")}, {"max", intRange(1, MaxShips, "ships a player may have")},
		{"mobile", boolean("needs a drive")}, {"npc", boolean("a non-player ship (always defends)")},
	}, "max")
	fleet := obj(cards.JSONObject{{"name", str}, {"ships", cards.JSONObject{{"type", "object"}, {"additionalProperties", intRange(1, MaxShips, "ships")}}}}, "ships")
	files := map[string]cards.JSONObject{
		"rules.schema.json":      rules,
		"parts.schema.json":      obj(cards.JSONObject{{"parts", byID(stats(true), "ship parts by id")}}, "parts"),
		"blueprints.schema.json": obj(cards.JSONObject{{"blueprints", byID(bp, "ship blueprints by id")}}, "blueprints"),
		"fleets.schema.json":     obj(cards.JSONObject{{"fleets", byID(fleet, "fleets by id")}}, "fleets"),
	}
	out := map[string][]byte{}
	for name, body := range files {
		s := append(cards.SchemaHeader("eclipse-"+name, "Eclipse "+name, "An Eclipse ruleset file (docs/rules-eclipse.md)."), body...)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			return nil, fmt.Errorf("eclipse: encoding %s: %w", name, err)
		}
		out[name] = buf.Bytes()
	}
	return out, nil
}
