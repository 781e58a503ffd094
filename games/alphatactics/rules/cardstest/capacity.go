// Package cardstest builds rulesets at the loader's limits for tests of
// every layer that plays them: a ruleset the loader accepts must be one the
// engine, the analysis runner and every command can play.
package cardstest

import (
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Params are the rule parameters of a generated ruleset. Zero fields take
// the default ruleset's value.
type Params struct {
	Players         int // factions in the ruleset and players.max (2..cards.MaxPlayers)
	HandSize        int
	TargetsPerRound int
	Rounds          int
	CardsToEnd      int
	DeckSize        int
	// Copies is the copies of every card added to fill a deck (1 = every
	// card distinct, the most definitions a deck can hold).
	Copies int
}

// Case is a named ruleset at one or more limits.
type Case struct {
	Name   string
	Params Params
}

// Limits lists rulesets at every capacity limit the loader enforces: the
// most targets (rules.MaxTargets, reached through rounds and through
// targets per round), the most rounds, the most rows, the biggest decks
// with the most distinct definitions, the most copies, the biggest hand,
// the highest cards_to_end, the smallest everything, and all at once.
func Limits() []Case {
	return []Case{
		{"max-targets", Params{Rounds: rules.MaxTargets / 4, TargetsPerRound: 4}},
		{"max-rounds", Params{Rounds: rules.MaxTargets, TargetsPerRound: 1}},
		{"max-rows", Params{Rounds: rules.MaxTargets / rules.MaxRowsPerRound, TargetsPerRound: rules.MaxRowsPerRound}},
		{"max-deck-distinct", Params{Players: rules.MaxPlayers, DeckSize: rules.MaxDeckSize, Copies: 1}},
		{"max-copies", Params{DeckSize: rules.MaxDeckSize, Copies: rules.MaxCopies}},
		{"max-hand", Params{HandSize: rules.MaxHandSize}},
		{"max-hand-whole-deck", Params{HandSize: rules.MaxHandSize, DeckSize: rules.MaxHandSize}},
		{"max-cards-to-end", Params{CardsToEnd: rules.MaxCardsToEnd}},
		{"min-all", Params{Players: 2, HandSize: 1, TargetsPerRound: 1, Rounds: 1, CardsToEnd: 1, DeckSize: 1}},
		{"max-all", Params{Players: rules.MaxPlayers, HandSize: rules.MaxHandSize, TargetsPerRound: rules.MaxRowsPerRound,
			Rounds: rules.MaxTargets / rules.MaxRowsPerRound, CardsToEnd: rules.MaxCardsToEnd, DeckSize: rules.MaxDeckSize, Copies: 1}},
	}
}

// FS returns the files of a ruleset with parameters p, built from the
// default ruleset: its rules with p's values, its decks cut or filled with
// plain cards to p.DeckSize, its targets cut or filled to rounds × targets
// per round. The ruleset lies at the root of the returned file system.
func FS(p Params) (fstest.MapFS, error) {
	src := rules.DefaultFS()
	read := func(name string) ([]byte, error) { return fs.ReadFile(src, name) }
	var rules map[string]any
	data, err := read("rules.yaml")
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(data, &rules); err != nil {
		return nil, err
	}
	set := func(key string, v int) {
		if v != 0 {
			rules[key] = v
		}
	}
	set("hand_size", p.HandSize)
	set("targets_per_round", p.TargetsPerRound)
	set("cards_to_end", p.CardsToEnd)
	set("deck_size", p.DeckSize)
	set("rounds", p.Rounds)
	factions := rules["factions"].([]any)
	if p.Players != 0 {
		factions = factions[:p.Players]
		rules["factions"] = factions
		rules["players"] = map[string]any{"min": 2, "max": p.Players}
		// The federation and the starting faction must name factions kept.
		kept := map[string]bool{}
		for _, f := range factions {
			kept[f.(map[string]any)["id"].(string)] = true
		}
		if fed, ok := rules["federation"].(map[string]any); ok {
			var in []any
			for _, f := range fed["factions"].([]any) {
				if kept[f.(string)] {
					in = append(in, f)
				}
			}
			fed["factions"] = in
			if len(in) == 0 {
				delete(rules, "federation")
			}
		}
		if sf, _ := rules["starting_faction"].(string); !kept[sf] {
			delete(rules, "starting_faction")
		}
	}
	deckSize := rules["deck_size"].(int)
	copies := max(p.Copies, 1)
	out := fstest.MapFS{}
	for _, f := range factions {
		fm := f.(map[string]any)
		name, id := fm["deck"].(string), fm["id"].(string)
		var deck struct {
			Faction string           `yaml:"faction"`
			Cards   []map[string]any `yaml:"cards"`
		}
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		if err := yaml.Unmarshal(data, &deck); err != nil {
			return nil, err
		}
		var kept []map[string]any
		n, cut := 0, 0
		for _, c := range deck.Cards {
			k, _ := c["copies"].(int)
			cut += max(k, 1)
		}
		for _, c := range deck.Cards {
			if n == deckSize {
				break
			}
			// A cut deck may lose the partner a card's effect names.
			if params, _ := c["params"].(map[string]any); cut > deckSize && params["partner_tag"] != nil {
				continue
			}
			k := 1
			if v, ok := c["copies"].(int); ok {
				k = v
			}
			k = min(k, deckSize-n)
			c["copies"] = k
			kept = append(kept, c)
			n += k
		}
		types := []string{"ship", "tech", "weapon", "troops"}
		for i := 0; n < deckSize; i++ {
			k := min(copies, deckSize-n)
			kept = append(kept, map[string]any{
				"id": fmt.Sprintf("%s-filler-%d", id, i), "name": fmt.Sprintf("Filler %d", i),
				"type": types[i%len(types)], "kind": "N", "power": i % 21, "copies": k,
			})
			n += k
		}
		deck.Cards = kept
		if out[name], err = file(deck); err != nil {
			return nil, err
		}
	}
	var tg struct {
		Targets []map[string]any `yaml:"targets"`
	}
	if data, err = read("targets.yaml"); err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(data, &tg); err != nil {
		return nil, err
	}
	want := rules["rounds"].(int) * rules["targets_per_round"].(int)
	var targets []map[string]any
	if want >= len(tg.Targets) {
		targets = tg.Targets
	} else {
		// Targets whose bonuses name no other target can go alone.
		for _, t := range tg.Targets {
			if len(targets) < want && t["bonuses"] == nil {
				targets = append(targets, t)
			}
		}
	}
	plain := []map[string]any{}
	for _, t := range tg.Targets {
		if t["bonuses"] == nil {
			plain = append(plain, t)
		}
	}
	for i := 0; len(targets) < want; i++ {
		t := map[string]any{}
		for k, v := range plain[i%len(plain)] {
			t[k] = v
		}
		t["id"], t["name"] = fmt.Sprintf("extra-%d", i), fmt.Sprintf("Extra %d", i)
		t["vp"] = 1 + i%10
		targets = append(targets, t)
	}
	tg.Targets = targets
	if out["targets.yaml"], err = file(tg); err != nil {
		return nil, err
	}
	if out["rules.yaml"], err = file(rules); err != nil {
		return nil, err
	}
	return out, nil
}

func file(v any) (*fstest.MapFile, error) {
	var b strings.Builder
	e := yaml.NewEncoder(&b)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return &fstest.MapFile{Data: []byte(b.String()), Mode: 0o644}, nil
}

// Load builds and loads the ruleset with parameters p.
func Load(p Params) (*rules.Ruleset, error) {
	files, err := FS(p)
	if err != nil {
		return nil, err
	}
	return rules.Load(files, ".")
}
