// Package bots holds the AI players every game has (design
// game-neutral-core.md §3.8): Uniform, the random bot; Search, ISMCTS over
// the game contracts valued by the game's evaluator; and ParseFor, which
// seats a game's own bots (game.Botter) beside them. It imports no game:
// Alpha Tactics' engine-typed bots live in games/alphatactics/ai.
package bots

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// CoreNames are the bots every game has (design game-neutral-core.md §3.8):
// random, uniform over the legal actions, and ismcts, Search with the game's
// evaluator.
func CoreNames() []string { return []string{"random", "ismcts"} }

// NamesFor lists the bots a game of g takes, sorted: the core's and the
// game's own (game.Botter).
func NamesFor(g game.Ruleset) []string {
	names := CoreNames()
	if b, ok := g.(game.Botter); ok {
		for _, n := range b.BotNames() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names
}

// ParseFor builds the agent spec names for a game of g, seeded with seed.
// The game's own bots come first (game.Botter: a game may play a core bot
// its own way, as Alpha Tactics does); then the core's:
//
//	random                   uniform over the legal actions (Uniform)
//	ismcts                   Search, 500 iterations a decision
//	ismcts:iters=2000        (iters, time as for Parse; any other
//	                          parameter is the game's evaluator's)
//
// Names are case-insensitive. Every error is a *SpecError; a bot the game
// does not have is named with a did-you-mean and the game's list.
func ParseFor(g game.Ruleset, spec string, seed uint64) (_ game.Agent, err error) {
	defer func() {
		var se *SpecError
		if err != nil && !errors.As(err, &se) {
			err = &SpecError{err}
		}
	}()
	name, params, err := SplitSpec(spec)
	if err != nil {
		return nil, err
	}
	if b, ok := g.(game.Botter); ok && slices.Contains(b.BotNames(), name) {
		return b.NewBot(name, params, strings.ToLower(strings.TrimSpace(spec)), seed)
	}
	switch name {
	case "random":
		if len(params) > 0 {
			return nil, fmt.Errorf("bots: %s takes no parameters (got %q)", name, spec)
		}
		return NewUniform(seed), nil
	case "ismcts":
		return searchFor(g, params, seed)
	}
	names := NamesFor(g)
	return nil, fmt.Errorf("bots: unknown bot %q for %s%s (its bots: %s)", name, gameName(g), didYouMean(name, names), strings.Join(names, ", "))
}

// NewSearchFor is the core's ismcts for a game of g with the spec's
// parameters (iters, time, and the game's evaluator's), whether or not the
// game plays ismcts its own way: the generic search on any game, for tests
// and measurements that set it beside a game's own.
func NewSearchFor(g game.Ruleset, params map[string]string, seed uint64) (*Search, error) {
	return searchFor(g, params, seed)
}

// searchFor is ParseFor's ismcts: the core parameters here, the rest for
// the game's evaluator.
func searchFor(g game.Ruleset, params map[string]string, seed uint64) (*Search, error) {
	iters := DefaultIterations
	var budget time.Duration
	rest := map[string]string{}
	for _, k := range sortedKeys(params) {
		core, err := SearchParam(k, params[k], &iters, &budget)
		if err != nil {
			return nil, err
		}
		if !core {
			rest[k] = params[k]
		}
	}
	have := []string{"iters", "time"}
	var eval game.Evaluator
	if em, ok := g.(game.EvaluatorMaker); ok {
		have = append(have, em.EvaluatorParams()...)
		for _, k := range sortedKeys(rest) {
			if !slices.Contains(have, k) {
				return nil, fmt.Errorf("bots: unknown ismcts parameter %q%s (have %s)", k, didYouMean(k, have), strings.Join(have, ", "))
			}
		}
		var err error
		if eval, err = em.NewEvaluator(rest, 0); err != nil {
			return nil, err
		}
	} else {
		for _, k := range sortedKeys(rest) {
			return nil, fmt.Errorf("bots: unknown ismcts parameter %q for %s%s (have %s)", k, gameName(g), didYouMean(k, have), strings.Join(have, ", "))
		}
	}
	b := NewSearch(seed, iters, eval)
	b.Budget = budget
	return b, nil
}

func gameName(g game.Ruleset) string {
	if gm, ok := game.Lookup(g.Game()); ok {
		return gm.Name()
	}
	return g.Game()
}

func didYouMean(word string, candidates []string) string {
	if s := cards.Suggest(word, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}
