// Package cards reads card games' rulesets: the game-neutral machinery every
// game's format is written on — positions and file:line:col errors
// (errors.go), the directory and YAML reader with typed, checked mappings
// (reader.go), "did you mean" suggestions (suggest.go), text checks
// (text.go), effect parameters decoded against their handler's declaration
// (params.go) and JSON Schema builders (schemabuild.go). Alpha Tactics'
// ruleset, written on it, is games/alphatactics/rules;
// TestNeutralImportsNoGame keeps this package free of every game.
package cards
