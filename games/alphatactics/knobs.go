package alphatactics

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// ParamKnob is the prefix of a knob on an integer parameter of a card's
// effect binding: "params.amount" is the key `amount` under its `params`.
const ParamKnob = "params."

// RuleKnobs are the rule parameters a sweep can change (their YAML keys in
// rules.yaml): each changes how the game is played. rounds is not one: the
// rulebook ends the game "as soon as all 24 target cards have been
// conquered", so rules.yaml's rounds only restates the targets' count
// (rounds × targets_per_round = the targets; validate refuses any other
// value), and targets_per_round carries it along.
var RuleKnobs = []string{"hand_size", "planet_bonus", "cards_to_end", "targets_per_round"}

// CardKnobs are the card fields a sweep can change. Besides these, a card
// takes any integer parameter of its effect binding, named params.NAME or
// NAME ("amount" of modify_power).
var CardKnobs = []string{"power", "copies"}

// FindKnob implements game.KnobFinder: a card's power and copies, an
// integer parameter of its effect by NAME, params.NAME or effect.NAME, and
// the rule parameters of RuleKnobs; a refusal says what the card or the
// rules have instead (and why rounds is none).
func (r Ruleset) FindKnob(scope game.Scope, entity int, name string) (game.Knob, error) {
	switch scope {
	case game.OnCard:
		if slices.Contains(CardKnobs, name) {
			return r.knob(name), nil
		}
		return r.paramKnobOf(entity, name)
	case game.OnRules:
		switch {
		case name == "rounds":
			return game.Knob{}, fmt.Errorf("cannot sweep rounds: a game lasts until every target is conquered, so rounds only restates "+
				"the targets' count (rounds × targets_per_round = the targets); sweep targets_per_round, or add targets (have %s)",
				strings.Join(RuleKnobs, ", "))
		case !slices.Contains(RuleKnobs, name):
			return game.Knob{}, fmt.Errorf("cannot sweep rule parameter %q (have %s)", name, strings.Join(RuleKnobs, ", "))
		}
		return r.knob(name), nil
	}
	return game.Knob{}, fmt.Errorf("cannot sweep %q: Alpha Tactics has no knob on a faction", name)
}

// paramKnobOf is the knob of card d's effect parameter field, in the range
// its handler declares, or why the card has none of that name.
func (r Ruleset) paramKnobOf(d int, field string) (game.Knob, error) {
	c := &r.RS.Cards[d]
	name := strings.TrimPrefix(strings.TrimPrefix(field, ParamKnob), "effect.")
	if c.Effect == nil || c.Effect.Spec == nil {
		return game.Knob{}, fmt.Errorf("cannot sweep card field %q of %s: the card has no effect, so only %s", field, c.ID, strings.Join(CardKnobs, " or "))
	}
	spec := c.Effect.Spec
	var ints []string
	for _, p := range spec.Params {
		if p.Type == effects.Int {
			ints = append(ints, p.Name)
		}
	}
	have := strings.Join(CardKnobs, ", ")
	if len(ints) > 0 {
		have += ", or the " + spec.Name + " parameter " + strings.Join(ints, ", ")
	}
	par, _, ok := spec.Param(name)
	if !ok {
		hint := ""
		if s := cards.Suggest(name, append(slices.Clone(CardKnobs), ints...)); s != "" {
			hint = fmt.Sprintf(", did you mean %q?", s)
		}
		return game.Knob{}, fmt.Errorf("cannot sweep card field %q of %s%s (have %s)", field, c.ID, hint, have)
	}
	if par.Type != effects.Int {
		return game.Knob{}, fmt.Errorf("cannot sweep %s of card %s: the %s parameter %s is not a whole number (have %s)",
			field, c.ID, spec.Name, par.Name, have)
	}
	return r.knob(ParamKnob + par.Name), nil
}

// knob is the knob of that name (one of Knobs).
func (r Ruleset) knob(name string) game.Knob {
	for _, k := range r.Knobs() {
		if k.Name == name {
			return k
		}
	}
	panic("alphatactics: no knob " + name)
}

// Knobs are what sweeps may change in an Alpha Tactics ruleset: a card's
// power and copies, every integer parameter of a card's effect binding
// (params.NAME, in the range its handler declares), and the rule
// parameters of RuleKnobs, each value checked by the loader of `cardlab
// validate` itself. Each With copies what it changes (the cards, a
// binding), so the ruleset it reads is never changed.
func (r Ruleset) Knobs() []game.Knob {
	out := []game.Knob{
		{Name: "power", Scope: game.OnCard, Doc: "the card's printed power", Min: 0, Max: 99,
			Get:   func(g game.Ruleset, d int) int { return g.(Ruleset).RS.Cards[d].Power },
			Where: cardWhere("power"),
			With: cardWith("power", func(_ *rules.Ruleset, _ *rules.Card, v int) error {
				if v < 0 || v > 99 {
					return fmt.Errorf("power %d is out of range (0 to 99)", v)
				}
				return nil
			}, func(c *rules.Card, v int) { c.Power = v })},
		{Name: "copies", Scope: game.OnCard, Doc: "copies of the card in its faction's deck", Min: 1, Max: min(64, rules.MaxDeckSize),
			Get:   func(g game.Ruleset, d int) int { return g.(Ruleset).RS.Cards[d].Copies },
			Where: cardWhere("copies"),
			With: cardWith("copies", func(rs *rules.Ruleset, c *rules.Card, v int) error {
				if v < 1 {
					return fmt.Errorf("copies %d: a card needs at least 1 copy", v)
				}
				f := &rs.Factions[c.Faction]
				if n := f.DeckCount(rs) - c.Copies + v; n > 64 || n > rules.MaxDeckSize {
					return fmt.Errorf("copies %d makes the %s deck %d cards; the engine holds at most %d", v, f.ID, n, min(64, rules.MaxDeckSize))
				}
				return nil
			}, func(c *rules.Card, v int) { c.Copies = v })},
	}
	var names []string
	for _, sp := range handlers.AlphaTactics.All() {
		for _, p := range sp.Params {
			if p.Type == effects.Int && !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	slices.Sort(names)
	for _, name := range names {
		out = append(out, paramKnob(name))
	}
	for _, field := range RuleKnobs {
		out = append(out, ruleKnob(field))
	}
	return out
}

// cardWith is card knob name's With: check v, then set it on a copy of the
// card list.
func cardWith(name string, check func(rs *rules.Ruleset, c *rules.Card, v int) error, set func(c *rules.Card, v int)) func(game.Ruleset, int, int) (game.Ruleset, error) {
	return func(g game.Ruleset, d, v int) (game.Ruleset, error) {
		rs := g.(Ruleset).RS
		if err := check(rs, &rs.Cards[d], v); err != nil {
			return nil, err
		}
		x := *rs
		x.Cards = slices.Clone(rs.Cards)
		set(&x.Cards[d], v)
		x.Hash = variantHash(rs, fmt.Sprintf("%s.%s=%d", rs.Cards[d].ID, name, v))
		return Ruleset{RS: &x}, nil
	}
}

// variantHash is a knob's variant's hash: derived from the ruleset's and
// the change ("sf-sovereign.power=3"), so the arms of a sweep, and its
// shards' records, tell the variants apart.
func variantHash(rs *rules.Ruleset, desc string) string {
	h := sha256.Sum256([]byte(rs.Hash + "\x00variant\x00" + desc))
	return hex.EncodeToString(h[:])
}

// cardWhere is a card knob's Where: the line of key in the card's entry,
// else the entry's first line (the value not written: a default).
func cardWhere(keys ...string) func(game.Ruleset, int) (string, int) {
	return func(g game.Ruleset, d int) (string, int) {
		rs := g.(Ruleset).RS
		c := &rs.Cards[d]
		for _, k := range keys {
			if l := cards.FindKeyLine(rs.Files[c.Pos.File], c.Pos.Line, k, true); l > 0 {
				return c.Pos.File, l
			}
		}
		return c.Pos.File, c.Pos.Line
	}
}

// paramKnob is the knob params.NAME: on the cards whose effect declares
// the integer parameter NAME, within the range its handler declares.
func paramKnob(name string) game.Knob {
	param := func(g game.Ruleset, d int) (effects.Param, int, bool) {
		c := &g.(Ruleset).RS.Cards[d]
		if c.Effect == nil || c.Effect.Spec == nil {
			return effects.Param{}, 0, false
		}
		p, i, ok := c.Effect.Spec.Param(name)
		return p, i, ok && p.Type == effects.Int
	}
	return game.Knob{Name: ParamKnob + name, Scope: game.OnCard, Doc: "the effect parameter " + name, Min: -1 << 31, Max: 1<<31 - 1,
		Applies: func(g game.Ruleset, d int) bool { _, _, ok := param(g, d); return ok },
		// On its own line under params: (block style), or inside params:
		// {…} on one line.
		Where: cardWhere(name, "params"),
		Get: func(g game.Ruleset, d int) int {
			_, i, _ := param(g, d)
			return g.(Ruleset).RS.Cards[d].Effect.Args[i].Int
		},
		With: func(g game.Ruleset, d, v int) (game.Ruleset, error) {
			par, i, ok := param(g, d)
			rs := g.(Ruleset).RS
			if !ok {
				return nil, fmt.Errorf("card %s has no whole-number effect parameter %s", rs.Cards[d].ID, name)
			}
			if v < par.Min || v > par.Max {
				return nil, fmt.Errorf("%s %d is out of range: %s declares %s from %d to %d", ParamKnob+par.Name, v, rs.Cards[d].Effect.Spec.Name, par.Name, par.Min, par.Max)
			}
			x := *rs
			x.Cards = slices.Clone(rs.Cards)
			b := *x.Cards[d].Effect
			b.Args = slices.Clone(b.Args)
			b.Args[i] = effects.Value{Int: v, Str: strconv.Itoa(v)}
			x.Cards[d].Effect = &b
			x.Hash = variantHash(rs, fmt.Sprintf("%s.%s=%d", rs.Cards[d].ID, ParamKnob+name, v))
			return Ruleset{RS: &x}, nil
		}}
}

// ruleKnob is a rule parameter's knob: a value is one the loader accepts
// with it written into rules.yaml (and with targets_per_round the rounds
// the targets then make).
func ruleKnob(field string) game.Knob {
	ptr := func(r *rules.Rules) *int {
		switch field {
		case "hand_size":
			return &r.HandSize
		case "planet_bonus":
			return &r.PlanetBonus
		case "cards_to_end":
			return &r.CardsToEnd
		}
		return &r.TargetsPerRound
	}
	return game.Knob{Name: field, Scope: game.OnRules, Doc: "rules.yaml's " + field, Min: -1 << 31, Max: 1<<31 - 1,
		Get: func(g game.Ruleset, _ int) int { return *ptr(&g.(Ruleset).RS.Rules) },
		Where: func(g game.Ruleset, _ int) (string, int) {
			return "rules.yaml", cards.FindKeyLine(g.(Ruleset).RS.Files["rules.yaml"], 1, field, false)
		},
		With: func(g game.Ruleset, _, v int) (game.Ruleset, error) {
			rs := g.(Ruleset).RS
			if err := validateRuleValue(rs, field, v); err != nil {
				return nil, err
			}
			x := *rs
			*ptr(&x.Rules) = v
			if e := ruleEdits(rs, field, v); e["rounds"] != 0 {
				x.Rules.Rounds = e["rounds"]
			}
			x.Hash = variantHash(rs, fmt.Sprintf("%s=%d", field, v))
			return Ruleset{RS: &x}, nil
		}}
}

// ruleEdits are the keys of rules.yaml a sweep of field to v writes: the
// field, and with targets_per_round the rounds the targets then make
// (when they divide evenly; otherwise validation says why not).
func ruleEdits(rs *rules.Ruleset, field string, v int) map[string]int {
	e := map[string]int{field: v}
	if field == "targets_per_round" && v > 0 && len(rs.Targets)%v == 0 {
		e["rounds"] = len(rs.Targets) / v
	}
	return e
}

// validateRuleValue checks the ruleset with the rule parameter field set to
// v by the validator of `cardlab validate` itself: the ruleset's own files
// are loaded (rules.Load) with the value written into rules.yaml, so a
// sweep plays only rulesets validate accepts, and says why it refuses one.
func validateRuleValue(rs *rules.Ruleset, field string, v int) error {
	data, ok := rs.Files["rules.yaml"]
	if !ok {
		return fmt.Errorf("%s %d: the ruleset's rules.yaml is not at hand to validate the value", field, v)
	}
	for key, val := range ruleEdits(rs, field, v) {
		var err error
		if data, err = setTopLevelInt(data, key, val); err != nil {
			return fmt.Errorf("%s %d: %v", field, v, err)
		}
	}
	fsys := fstest.MapFS{}
	for name, b := range rs.Files {
		fsys[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	fsys["rules.yaml"] = &fstest.MapFile{Data: data, Mode: 0o644}
	if _, err := rules.Load(fsys, ""); err != nil {
		return fmt.Errorf("%s %d makes a ruleset validate refuses: %v", field, v, err)
	}
	return nil
}

// setTopLevelInt returns the YAML document data with the plain scalar value
// of its top-level key replaced by v, every other byte as it was (so the
// loader's positions stay those of the designer's file).
func setTopLevelInt(data []byte, key string, v int) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("rules.yaml is not a mapping")
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, val := m.Content[i], m.Content[i+1]
		if k.Value != key {
			continue
		}
		if val.Kind != yaml.ScalarNode || val.Style != 0 {
			return nil, fmt.Errorf("rules.yaml: %s is not written as a plain number", key)
		}
		off := 0
		for line := 1; line < val.Line; line++ {
			j := bytes.IndexByte(data[off:], '\n')
			if j < 0 {
				return nil, fmt.Errorf("rules.yaml: %s not found at line %d", key, val.Line)
			}
			off += j + 1
		}
		off += val.Column - 1
		if off+len(val.Value) > len(data) || string(data[off:off+len(val.Value)]) != val.Value {
			return nil, fmt.Errorf("rules.yaml: %s not found at %d:%d", key, val.Line, val.Column)
		}
		out := slices.Concat(data[:off:off], []byte(strconv.Itoa(v)), data[off+len(val.Value):])
		return out, nil
	}
	return nil, fmt.Errorf("rules.yaml has no %s", key)
}
