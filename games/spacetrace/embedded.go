// Package spacetrace is the Spacetrace card game (seed 003, the German
// rules page "Spacetrace Kartenspiel – Anleitung"; the design brief
// spacetrace.md): two players build fleets of ship cards of classes I–IV,
// paid in manpower (MP) from reinforcements, and attack each other's Base
// (1000 LP) in class battles of simultaneous volleys.
//
// What it holds: the reconstructed card set and its rulesets as YAML a
// designer edits (rulesets/), their loader with positioned validation of
// every deck rule (ruleset.go, rules.go, effects.go), and the battle
// resolution as a pure function (battle.go) with the rulebook's examples as
// tests. docs/rules-spacetrace.md gives every reading with the German
// sentence, an English rendering and the test that pins it.
package spacetrace

import (
	"embed"
	"io/fs"
	"sync"
)

// ID is Spacetrace's key in rules.yaml's `game:`.
const ID = "spacetrace"

// The embedded rulesets: the simplified first game, the second game, and
// the full game with the 40-card reference deck (the default: what
// `cardlab init --game spacetrace` writes; issue 28).
const (
	DefaultRuleset   = ReferenceRuleset
	FirstRuleset     = "spacetrace-first"
	SecondRuleset    = "spacetrace-second"
	ReferenceRuleset = "spacetrace-reference"
)

//go:embed rulesets
var embedded embed.FS

// EmbeddedFS is the embedded ruleset name's directory; it panics on another
// name.
func EmbeddedFS(name string) fs.FS {
	if name != FirstRuleset && name != SecondRuleset && name != ReferenceRuleset {
		panic("spacetrace: no embedded ruleset " + name)
	}
	sub, err := fs.Sub(embedded, "rulesets/"+name)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Embedded is the embedded ruleset name, loaded once and shared.
func Embedded(name string) *Ruleset {
	switch name {
	case ReferenceRuleset:
		return loadReference()
	case SecondRuleset:
		return loadSecond()
	}
	return loadFirst()
}

// First is the embedded simplified first game.
func First() *Ruleset { return loadFirst() }

// Default is the embedded default ruleset, the full game's reference deck.
func Default() *Ruleset { return loadReference() }

func mustLoad(name string) *Ruleset {
	rs, err := Load(EmbeddedFS(name), "")
	if err != nil {
		panic("spacetrace: the embedded ruleset " + name + " does not load: " + err.Error())
	}
	return rs
}

var (
	loadFirst     = sync.OnceValue(func() *Ruleset { return mustLoad(FirstRuleset) })
	loadReference = sync.OnceValue(func() *Ruleset { return mustLoad(ReferenceRuleset) })
	loadSecond    = sync.OnceValue(func() *Ruleset { return mustLoad(SecondRuleset) })
)
