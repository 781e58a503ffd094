package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// SchemaKinds are the kinds of ruleset file that Schema describes: the rules
// file, the targets file and a faction deck file.
var SchemaKinds = []string{"rules", "targets", "deck"}

// SchemaFile is the conventional file name of the schema of the given kind,
// e.g. "deck.schema.json".
func SchemaFile(kind string) string { return kind + ".schema.json" }

// The schema builders are the game-neutral ones of schemabuild.go, under
// their short names.
type (
	object = cards.JSONObject
	kv     = cards.JSONField
)

// The identifier patterns of the ruleset format.
const (
	factionIDPattern = `^[a-z][a-z0-9_-]*$`
	cardIDPattern    = `^[a-z0-9][a-z0-9_-]*$`
)

// Schema returns a JSON Schema (draft 2020-12) for one kind of ruleset file
// ("rules", "targets" or "deck"), for YAML editors' completion and
// on-the-fly checking. It is generated from the ruleset format and from the
// effects registry: the effect handler names are the allowed values of
// `effect`, and each handler's parameters are described under `params` by an
// if/then clause keyed on the handler name, so an editor completes the right
// parameters with their types, ranges, enum values and defaults.
//
// The schema checks each file on its own; checks across files (deck sizes,
// references, unique ids) remain the loader's, so a file the schema accepts
// can still fail `cardlab validate`, but a file the loader accepts always
// satisfies the schema.
func Schema(kind string) ([]byte, error) {
	var s object
	switch kind {
	case "rules":
		s = rulesSchema()
	case "targets":
		s = targetsSchema()
	case "deck":
		s = deckSchema()
	default:
		return nil, fmt.Errorf("cards: unknown schema kind %q (want %s)", kind, strings.Join(SchemaKinds, ", "))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("cards: encoding %s schema: %w", kind, err)
	}
	return buf.Bytes(), nil
}

func rulesSchema() object {
	intRange := func(min, max int, desc string) object {
		return object{{"type", "integer"}, {"minimum", min}, {"maximum", max}, {"description", desc}}
	}
	faction := object{
		{"type", "object"},
		{"additionalProperties", false},
		{"required", []string{"id", "name", "color", "planets", "deck"}},
		{"properties", object{
			{"id", object{{"type", "string"}, {"pattern", factionIDPattern}, {"maxLength", cards.MaxIDLen},
				{"description", "lower-case identifier, used by deck files and reports"}}},
			{"name", object{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}, {"description", "display name"}}},
			{"color", object{{"type", "string"}, {"pattern", `^#[0-9a-fA-F]{6}$`},
				{"description", `colour used by reports, "#rrggbb"`}}},
			{"planets", object{{"type", "array"}, {"items", object{{"type", "string"}}},
				{"description", "affiliations whose planets are this faction's own (planet bonus)"}}},
			{"deck", object{{"type", "string"}, {"pattern", `^[^/\\]+\.[yY][aA]?[mM][lL]$`},
				{"description", "the faction's deck file, in the same directory"}}},
		}},
	}
	s := cards.SchemaHeader("rules", "cardlab rules.yaml",
		"Name, version, rule parameters, affiliations and factions of a cardlab ruleset.")
	return append(s,
		kv{"type", "object"},
		kv{"additionalProperties", false},
		kv{"required", []string{"name", "version", "players", "hand_size", "targets_per_round",
			"cards_to_end", "deck_size", "rounds", "planet_bonus", "affiliations", "factions"}},
		kv{"properties", object{
			{"game", object{{"const", GameID},
				{"description", "the game this ruleset is for (cardlab games lists them); without the key, " + GameID}}},
			{"name", object{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}, {"description", "the game's name"}}},
			{"version", object{{"type", "string"}, {"minLength", 1},
				{"description", `the ruleset version, a string (quote it if it looks like a number: "1.2")`}}},
			{"players", object{
				{"type", "object"},
				{"additionalProperties", false},
				{"required", []string{"min", "max"}},
				{"properties", object{
					{"min", intRange(1, MaxPlayers, "fewest players")},
					{"max", intRange(1, MaxPlayers, "most players")},
				}},
				{"description", "player count range, 1 <= min <= max <= 4"},
			}},
			{"hand_size", intRange(1, MaxHandSize, "players draw back up to this many cards after playing or discarding")},
			{"targets_per_round", intRange(1, MaxRowsPerRound, "target cards laid out per round; each begins a row")},
			{"cards_to_end", intRange(1, MaxCardsToEnd, "the Deployment Phase ends when every row has at least this many cards")},
			{"deck_size", intRange(1, MaxDeckSize, "every faction deck has exactly this many cards, copies counted")},
			{"rounds", intRange(1, MaxTargets, "rounds per game; targets.yaml holds rounds × targets_per_round targets")},
			{"planet_bonus", intRange(0, maxPlanetBonus, "end-of-game VP per planet of your own faction")},
			{"federation", object{
				{"type", "object"},
				{"additionalProperties", false},
				{"required", []string{"affiliation", "factions"}},
				{"properties", object{
					{"affiliation", object{{"type", "string"}, {"description", "affiliation of the shared planets"}}},
					{"factions", object{{"type", "array"}, {"uniqueItems", true}, {"items", object{{"type", "string"}, {"pattern", factionIDPattern}, {"maxLength", cards.MaxIDLen}}},
						{"description", "factions that score planet_bonus for these planets too"}}},
				}},
				{"description", `"blue Federation planets": planets of this affiliation score planet_bonus for all of these factions`},
			}},
			{"starting_faction", object{{"type", "string"}, {"pattern", factionIDPattern}, {"maxLength", cards.MaxIDLen},
				{"description", "the faction that begins round 1 if playing, else a random player"}}},
			{"tie_break", object{{"type", "array"}, {"uniqueItems", true}, {"items", object{{"enum", []string{"planets"}}}},
				{"default", []string{"planets"}},
				{"description", "tie-breaks after victory points; then a shared victory"}}},
			{"affiliations", object{{"type", "array"}, {"minItems", 1}, {"uniqueItems", true}, {"items", object{{"type", "string"}, {"minLength", 1}}},
				{"description", "the target-card affiliations"}}},
			{"factions", object{{"type", "array"}, {"minItems", 2}, {"maxItems", MaxPlayers}, {"items", faction},
				{"description", "2..4 factions, in report order"}}},
		}},
	)
}

func targetsSchema() object {
	types := object{{"enum", handlers.TargetTypes}, {"description", "target type"}}
	target := object{
		{"type", "object"},
		{"additionalProperties", false},
		{"required", []string{"id", "name", "type", "affiliation", "vp"}},
		{"properties", object{
			{"id", object{{"type", "string"}, {"pattern", cardIDPattern}, {"maxLength", cards.MaxIDLen}, {"description", "unique target id"}}},
			{"name", object{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}, {"description", "card name"}}},
			{"type", types},
			{"affiliation", object{{"type", "string"}, {"description", "one of the affiliations in rules.yaml"}}},
			{"quadrant", object{{"enum", handlers.Quadrants}, {"description", "required for planets, forbidden otherwise"}}},
			{"vp", object{{"type", "integer"}, {"minimum", 0}, {"maximum", maxVP}, {"description", "victory points"}}},
			{"text", object{{"type", "string"}, {"description", "card text"}}},
			{"bonuses", object{{"type", "array"}, {"items", bindingSchema(handlers.TargetBonus, false)},
				{"description", "combination bonuses, each a target-bonus handler (see `cardlab effects`)"}}},
		}},
		{"if", object{{"properties", object{{"type", object{{"const", "planet"}}}}}, {"required", []string{"type"}}}},
		{"then", object{{"required", []string{"quadrant"}}}},
		{"else", object{{"not", object{{"required", []string{"quadrant"}}}}}},
	}
	s := cards.SchemaHeader("targets", "cardlab targets.yaml", "The target cards of a cardlab ruleset.")
	return append(s,
		kv{"type", "object"},
		kv{"additionalProperties", false},
		kv{"required", []string{"targets"}},
		kv{"properties", object{
			{"targets", object{{"type", "array"}, {"maxItems", MaxTargets}, {"items", target},
				{"description", "exactly rounds × targets_per_round target cards"}}},
		}},
	)
}

func deckSchema() object {
	card := bindingSchema(nil, true)
	s := cards.SchemaHeader("deck", "cardlab faction deck", "One faction's player cards in a cardlab ruleset.")
	return append(s,
		kv{"type", "object"},
		kv{"additionalProperties", false},
		kv{"required", []string{"faction", "cards"}},
		kv{"properties", object{
			{"faction", object{{"type", "string"}, {"pattern", factionIDPattern}, {"maxLength", cards.MaxIDLen},
				{"description", "the faction whose `deck` in rules.yaml names this file"}}},
			{"cards", object{{"type", "array"}, {"items", card},
				{"description", "the deck's card definitions; their copies add up to deck_size"}}},
		}},
	)
}

// bindingSchema returns the schema of an object naming a handler in
// `effect` with its `params`: a player card (card true; timing ignored) or a
// target bonus of the given timing.
func bindingSchema(timing *effects.Timing, card bool) object {
	var specs []*effects.Spec
	for _, s := range handlers.All() {
		if card && s.Timing != handlers.TargetBonus || !card && s.Timing == timing {
			specs = append(specs, s)
		}
	}
	names := make([]string, len(specs))
	docs := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
		docs[i] = s.Doc
		if k := s.Timing.Kind(); k != "" {
			docs[i] = k + " — " + s.Doc
		}
	}
	effect := object{{"enum", names}, {"enumDescriptions", docs},
		{"description", "a registered effect handler (see `cardlab effects`)"}}
	params := object{{"type", "object"}, {"description", "the handler's parameters (see `cardlab effects`)"}}

	var props object
	var required []string
	var rules []any
	if card {
		props = object{
			{"id", object{{"type", "string"}, {"pattern", cardIDPattern}, {"maxLength", cards.MaxIDLen}, {"description", "unique across the whole ruleset"}}},
			{"name", object{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}, {"description", "card name (shown in reports)"}}},
			{"type", object{{"enum", handlers.CardTypes}, {"description", "card type"}}},
			{"kind", object{{"enum", EffectKinds},
				{"enumDescriptions", []string{"none", "one-time", "permanent", "special", "scoring"}},
				{"description", "effect kind: N none, O one-time, P permanent, X special, S scoring"}}},
			{"power", object{{"type", "integer"}, {"minimum", 0}, {"maximum", maxPower}, {"description", "combat power"}}},
			{"copies", object{{"type", "integer"}, {"minimum", 1}, {"maximum", MaxCopies}, {"default", 1},
				{"description", "copies of this card in the deck"}}},
			{"effect", effect},
			{"params", params},
			{"text", object{{"type", "string"}, {"description", "card text"}}},
			{"tags", object{{"type", "array"}, {"uniqueItems", true}, {"items", object{{"type", "string"}, {"pattern", cardIDPattern}, {"maxLength", cards.MaxIDLen}}},
				{"description", "free identifiers, used by handlers such as diplomat_combo"}}},
		}
		required = []string{"id", "name", "type", "kind", "power"}
		// Kind N has no effect; every other kind needs one.
		rules = append(rules, object{
			{"if", object{{"properties", object{{"kind", object{{"const", "N"}}}}}, {"required", []string{"kind"}}}},
			{"then", object{{"not", object{{"anyOf", []any{
				object{{"required", []string{"effect"}}},
				object{{"required", []string{"params"}}},
			}}}}}},
			{"else", object{{"required", []string{"effect"}}}},
		})
	} else {
		props = object{{"effect", effect}, {"params", params}}
		required = []string{"effect"}
	}
	for _, s := range specs {
		then := object{}
		if card {
			then = append(then, kv{"properties", object{
				{"kind", object{{"const", s.Timing.Kind()}}},
				{"params", cards.ParamsSchema(s, cardIDPattern)},
			}})
		} else {
			then = append(then, kv{"properties", object{{"params", cards.ParamsSchema(s, cardIDPattern)}}})
		}
		for _, p := range s.Params {
			if p.Required {
				then = append(then, kv{"required", []string{"params"}})
				break
			}
		}
		rules = append(rules, object{
			{"if", object{{"properties", object{{"effect", object{{"const", s.Name}}}}}, {"required", []string{"effect"}}}},
			{"then", then},
		})
	}
	return object{
		{"type", "object"},
		{"additionalProperties", false},
		{"required", required},
		{"properties", props},
		{"allOf", rules},
	}
}
