// Package rules is Alpha Tactics' ruleset, written on the neutral reader of
// package cards: its model (model.go: rule parameters, factions with their
// decks, player cards and target cards), its loader and validation
// (load.go), its JSON Schemas (schema.go), the card catalog behind
// docs/cards.md (catalog.go), the play hash (playhash.go) and the embedded
// reconstructed Star Trek Conquest – Alpha Tactics v1.2.4 set (embed.go,
// default/). Its messages keep the "cards:" prefix they had before the move
// to games/alphatactics (design game-neutral-core.md, step 3): outputs do
// not change with a move.
package rules
