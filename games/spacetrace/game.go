package spacetrace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
)

func init() { game.Register(Game{}) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// Game is Spacetrace as a game.Game.
type Game struct{}

// ID implements game.Game.
func (Game) ID() string { return ID }

// Name implements game.Game.
func (Game) Name() string { return "Spacetrace card game" }

// Vocabulary implements game.Game: a seat plays a deck; points are the
// damage dealt to the opponent's Base (or wreck MP under scoring: wrecked).
func (Game) Vocabulary() game.Vocabulary {
	return game.Vocabulary{Side: "deck", Sides: "decks", Score: "points", Length: "turn"}
}

// Load implements game.Game.
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

// Default implements game.Game: the first game.
func (Game) Default() (game.Ruleset, fs.FS) { return Default(), EmbeddedFS(DefaultRuleset) }

// Effects implements game.Game: Spacetrace's handlers are typed in this
// package (effects.go), not in the Alpha Tactics registry.
func (Game) Effects() *effects.Registry { return nil }

// Schemas implements game.Game: rules.schema.json and cards.schema.json.
func (Game) Schemas() (map[string][]byte, error) {
	top, groups := topKeys()
	props := cards.JSONObject{
		{"game", cards.JSONObject{{"const", ID}}},
		{"name", cards.JSONObject{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}}},
		{"version", cards.JSONObject{{"type", "string"}, {"minLength", 1}}},
		{"variant", cards.JSONObject{{"enum", variantNames}}},
		{"decks", cards.JSONObject{{"type", "array"}, {"minItems", 1}, {"items", cards.JSONObject{
			{"type", "object"}, {"required", []string{"id", "name", "cards"}},
			{"properties", cards.JSONObject{
				{"id", cards.JSONObject{{"type", "string"}}},
				{"name", cards.JSONObject{{"type", "string"}}},
				{"cards", cards.JSONObject{{"type", "object"}, {"additionalProperties", cards.JSONObject{{"type", "integer"}, {"minimum", 1}, {"maximum", MaxCopies}}}}},
			}}}}}},
	}
	keySchema := func(k ruleKey) cards.JSONObject {
		switch {
		case k.isBool:
			return cards.JSONObject{{"type", "boolean"}}
		case k.enum != nil:
			return cards.JSONObject{{"enum", k.enum}}
		}
		return cards.JSONObject{{"type", "integer"}, {"minimum", k.lo}, {"maximum", k.hi}}
	}
	for _, name := range top {
		if g, ok := groups[name]; ok {
			sub := cards.JSONObject{}
			for _, k := range ruleKeys {
				if k.group == name {
					sub = append(sub, cards.JSONField{k.key, keySchema(k)})
				}
			}
			_ = g
			props = append(props, cards.JSONField{name, cards.JSONObject{{"type", "object"}, {"additionalProperties", false}, {"properties", sub}}})
			continue
		}
		for _, k := range ruleKeys {
			if k.group == "" && k.key == name {
				props = append(props, cards.JSONField{name, keySchema(k)})
			}
		}
	}
	rules := append(cards.SchemaHeader("spacetrace-rules", "Spacetrace rules.yaml", "The readings of the rules and the decks."),
		cards.JSONField{"type", "object"}, cards.JSONField{"additionalProperties", false},
		cards.JSONField{"required", []string{"game", "name", "version", "variant", "decks"}},
		cards.JSONField{"properties", props})
	effect := cards.JSONObject{{"type", "object"}, {"required", []string{"do"}}, {"properties", cards.JSONObject{{"do", cards.JSONObject{{"enum", handlerNames()}}}}}}
	card := cards.JSONObject{{"type", "object"}, {"additionalProperties", false}, {"required", []string{"id", "name", "type"}},
		{"properties", cards.JSONObject{
			{"id", cards.JSONObject{{"type", "string"}}}, {"name", cards.JSONObject{{"type", "string"}}},
			{"type", cards.JSONObject{{"enum", typeNames}}},
			{"class", cards.JSONObject{{"type", "integer"}, {"minimum", 1}, {"maximum", NumClasses}}},
			{"ships", cards.JSONObject{{"type", "integer"}, {"minimum", 1}, {"maximum", MaxShips}}},
			{"ap", cards.JSONObject{{"type", "integer"}, {"minimum", 0}, {"maximum", MaxStat}}},
			{"lp", cards.JSONObject{{"type", "integer"}, {"minimum", 1}, {"maximum", MaxStat}}},
			{"mp", cards.JSONObject{{"type", "integer"}, {"minimum", 0}, {"maximum", MaxStat}}},
			{"limit", cards.JSONObject{{"type", "integer"}, {"minimum", 1}, {"maximum", MaxCopies}}},
			{"standard", cards.JSONObject{{"type", "boolean"}}}, {"first_game", cards.JSONObject{{"type", "boolean"}}},
			{"host", cards.JSONObject{{"type", "array"}, {"items", cards.JSONObject{{"type", "integer"}, {"minimum", 1}, {"maximum", NumClasses}}}}},
			{"text", cards.JSONObject{{"type", "string"}}},
			{"effects", cards.JSONObject{{"type", "array"}, {"maxItems", MaxEffects}, {"items", effect}}},
		}}}
	cardsSchema := append(cards.SchemaHeader("spacetrace-cards", "Spacetrace cards.yaml", "The card definitions the decks draw on."),
		cards.JSONField{"type", "object"}, cards.JSONField{"additionalProperties", false},
		cards.JSONField{"required", []string{"cards"}},
		cards.JSONField{"properties", cards.JSONObject{{"cards", cards.JSONObject{{"type", "array"}, {"minItems", 1}, {"maxItems", MaxCards}, {"items", card}}}}})
	out := map[string][]byte{}
	for name, s := range map[string]cards.JSONObject{"rules.schema.json": rules, "cards.schema.json": cardsSchema} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			return nil, fmt.Errorf("spacetrace: encoding %s: %w", name, err)
		}
		out[name] = buf.Bytes()
	}
	return out, nil
}
