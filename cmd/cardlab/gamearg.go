package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// addGameFlag gives cmd --game ID: the game whose embedded default set the
// command works on when --rules names no ruleset directory.
func addGameFlag(cmd *cobra.Command, g *globalOptions) {
	cmd.Flags().StringVar(&g.Game, "game", "", "without --rules, use the default set of game `ID` ('cardlab games' lists them; default alphatactics)")
}

// lookupGame is the game --game names; an unknown one is a usage error.
func lookupGame(id string) (game.Game, error) {
	g, ok := game.Lookup(id)
	if !ok {
		return nil, usageErrorf("invalid --game: %v", didYouMean("game", id, game.IDs()))
	}
	return g, nil
}

// gameRuleset loads the ruleset a command works on, of any game: the one in
// dir (its game by rules.yaml's game: key), else the embedded default of
// gameID (the default game's when ""). With both, the ruleset must be of
// that game.
func gameRuleset(command, dir, gameID string) (game.Game, game.Ruleset, error) {
	if gameID != "" {
		g, err := lookupGame(gameID)
		if err != nil {
			return nil, nil, err
		}
		if dir == "" {
			rs, _ := g.Default()
			return g, rs, nil
		}
		if d, err := detectGame(dir); err == nil && d.ID() != g.ID() {
			return nil, nil, fmt.Errorf("--game %s, but ruleset %s is a %s ruleset (its rules.yaml's game: key); leave out --game to use it", g.ID(), dir, d.Name())
		}
	}
	return loadGame(dir)
}

// findSide is the index of the side s names in rs, by id or by id or name
// ignoring case; -1 for none.
func findSide(rs game.Ruleset, s string) int {
	sides := rs.Sides()
	for i, sd := range sides {
		if sd.ID == s {
			return i
		}
	}
	for i, sd := range sides {
		if strings.EqualFold(sd.ID, s) || strings.EqualFold(sd.Name, s) {
			return i
		}
	}
	return -1
}

// sideIDs are the ids of rs's sides in its order.
func sideIDs(rs game.Ruleset) []string {
	var ids []string
	for _, s := range rs.Sides() {
		ids = append(ids, s.ID)
	}
	return ids
}

// unknownSide is the error for a side s that rs does not have, worded in
// g's vocabulary ("unknown faction").
func unknownSide(g game.Game, rs game.Ruleset, s string) error {
	return didYouMean(g.Vocabulary().Side, s, sideIDs(rs))
}

// resolveSeats is the side index of every seat: --players' sides (each once
// unless the ruleset mirrors), or n seats (--seats; the fewest the rules
// allow when 0) of a game with one side only.
func resolveSeats(g game.Game, rs game.Ruleset, players []string, n int) ([]int, error) {
	voc := g.Vocabulary()
	lo, hi := rs.Seats()
	sides := rs.Sides()
	if players == nil {
		if len(sides) != 1 {
			ids := sideIDs(rs)
			if n > 0 {
				return nil, fmt.Errorf("--seats plays a game whose every seat is the same side; %s has %d %s: name them with --players", g.Name(), len(sides), voc.Sides)
			}
			return nil, usageErrorf("play needs --players, e.g. --players %s,%s", ids[0], ids[len(ids)-1])
		}
		if n == 0 {
			n = lo
		}
		if n < lo || n > hi {
			return nil, fmt.Errorf("--seats %d: the rules allow %d to %d players", n, lo, hi)
		}
		return make([]int, n), nil
	}
	out := make([]int, 0, len(players))
	for _, p := range players {
		i := findSide(rs, p)
		if i < 0 {
			return nil, unknownSide(g, rs, p)
		}
		if !rs.Mirror() {
			for _, q := range out {
				if q == i {
					return nil, fmt.Errorf("%s %q is listed twice in --players", voc.Side, sides[i].ID)
				}
			}
		}
		out = append(out, i)
	}
	if k := len(out); k < lo || k > hi {
		return nil, fmt.Errorf("--players names %d %s; the rules allow %d to %d players", k, plural(k, voc.Side, voc.Sides), lo, hi)
	}
	return out, nil
}

// botSalt separates the bots' seeds from the game's own chance stream.
const botSalt = 0xb07b07b07

// parseAgents builds one agent per seat for a game of rs from a --bots
// value (bots.ParseFor): one spec for every seat or one per seat. Seat p's
// agent is seeded with SeedFor(seed^salt, p), so each has its own stream,
// independent of the game's. The specs come back lower case, one per seat.
func parseAgents(rs game.Ruleset, spec string, seats int, seed uint64) ([]game.Agent, []string, error) {
	parts := bots.SplitList(spec)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	switch {
	case len(parts) == 1:
		for len(parts) < seats {
			parts = append(parts, parts[0])
		}
	case len(parts) != seats:
		// Well-formed, but not for this table (exit 1).
		return nil, nil, fmt.Errorf("--bots %q names %d bots for %d players (give one for all or one per player)", spec, len(parts), seats)
	}
	agents := make([]game.Agent, seats)
	for p := range agents {
		a, err := bots.ParseFor(rs, parts[p], game.SeedFor(seed^botSalt, uint64(p)))
		if err != nil {
			return nil, nil, err
		}
		agents[p] = a
		parts[p] = strings.ToLower(parts[p])
	}
	return agents, parts, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
