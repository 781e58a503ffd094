// Package cards reads card games' rulesets: the game-neutral machinery every
// game's format is written on — positions and file:line:col errors
// (errors.go), the directory and YAML reader with typed, checked mappings
// (reader.go), "did you mean" suggestions (suggest.go), text checks
// (text.go), effect parameters decoded against their handler's declaration
// (params.go) and JSON Schema builders (schemabuild.go) — and, for now, Alpha
// Tactics' ruleset on top of it: its model (model.go), loader and
// validation (load.go), schemas, catalog, play hash and the embedded
// reconstructed Star Trek Conquest – Alpha Tactics v1.2.4 set.
//
// The Alpha Tactics files are to move to games/alphatactics/rules (design
// game-neutral-core.md, step 3); TestNeutralFilesNameNoGame keeps the
// neutral files free of them until then.
package cards
