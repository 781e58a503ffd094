package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/game"
)

// PlayOptions are the inputs of `cardlab play`.
type PlayOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string
	// Players are side ids in seat order, as given to --players; nil when
	// not given.
	Players []string
	// Seats is --seats: that many seats of a game's only side (0: not
	// given).
	Seats int
	// Bots is one bot spec for every seat or a comma-separated list, one per
	// seat.
	Bots      string
	Seed      uint64
	JSON      bool
	RevealAll bool
}

// NewCmdPlay parses the flags of `cardlab play`; runF replaces playRun in
// tests.
func NewCmdPlay(g *globalOptions, runF func(*PlayOptions) error) *cobra.Command {
	opts := &PlayOptions{}
	var players string
	cmd := &cobra.Command{
		Use:   "play --players S1,S2[,…] | --seats N",
		Short: "Play one game with bots and print what happens",
		Long: `Play one complete game between bots and print a trace of it, move by move,
then every player's score and the winner. The ruleset's game decides what
the trace shows (rules.yaml's game: key; 'cardlab games' lists the games).

--players lists the sides in seat order: for Alpha Tactics the factions (2
to 4, each once). In a game where every seat plays the same side, such as
Goofspiel, --seats N seats N players (default: the fewest the rules allow),
or list the side as often as it plays (--players player,player,player).

--bots is one bot for every seat or a comma-separated list with one bot per
seat. Every game has random and ismcts; Alpha Tactics adds greedy and
strong, Goofspiel greedy (prize matching). The game and the bots are seeded
from --seed: the same seed and flags give the same game.

The trace shows what the table sees. Alpha Tactics: for every round the
targets laid out, each Deployment turn (placements, passes, discards),
reveals, effects that fire, are blocked (and why) or fizzle, removals,
moves, Negotiations, each row's combat power and winner at scoring, and the
victory points; cards placed face down appear as "a face-down card" until
revealed, and drawn cards and Negotiations bids are not shown. Goofspiel:
each turn's prize, every bid once the bids are shown, who takes the prize
(or the tie that discards or carries it) and the points so far; the prize
deck's order stays hidden. --reveal-all shows everything (every card, bid
and the prize deck's order).

--json prints the game as JSON instead, in the game's own shape. Alpha
Tactics:

  {"seed", "players": [faction], "bots": [spec],
   "events": [{"kind", "round", "player", "row", "pos", "card", "target",
               "value", "reason", "face_up"}],
   "final": [{"player", "target_vp", "bonus_vp", "planet_bonus", "total",
              "planets", "targets": [id], "share"}],
   "winners": [faction]}

Rounds, rows and positions count from 1; player is a faction id, card and
target are ids; fields that do not apply are null, and so is the card of an
event the table cannot see (unless --reveal-all). Goofspiel:

  {"game": "goofspiel", "seed", "players": [seat name], "bots": [spec],
   "prize_deck": [value] (with --reveal-all, else null),
   "turns": [{"turn", "prize", "pot", "bids": [card], "winner", "points"}],
   "final": [{"player", "points", "prizes", "share"}],
   "winners": [seat name]}

where winner is null on a tie and points is what the winner took.`,
		Example: `  cardlab play --players starfleet,klingon --seed 7
  cardlab play --players starfleet,vulcan,romulan,klingon --reveal-all
  cardlab play --players romulan,klingon --bots random,random --json | jq '.winners'
  cardlab init --game goofspiel gs && cardlab play --rules gs --bots greedy,random
  cardlab play --game goofspiel --seats 3 --bots ismcts:iters=200 --seed 4`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir = g.RulesDir
			if cmd.Flags().Changed("players") && cmd.Flags().Changed("seats") {
				return usageErrorf("--players and --seats cannot be used together")
			}
			if cmd.Flags().Changed("seats") && opts.Seats < 1 {
				return usageErrorf("--seats must be 1 or more, got %d", opts.Seats)
			}
			opts.Players = nil
			if cmd.Flags().Changed("players") {
				for _, p := range strings.Split(players, ",") {
					p = strings.TrimSpace(p)
					if p == "" {
						return usageErrorf("--players %q: empty side name", players)
					}
					opts.Players = append(opts.Players, p)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return playRun(opts, g.Game)
		},
	}
	cmd.Flags().StringVar(&players, "players", "", "the sides in seat order, a comma-separated `LIST` (Alpha Tactics' factions: starfleet,klingon)")
	cmd.Flags().IntVar(&opts.Seats, "seats", 0, "seat `N` players of the game's only side (Goofspiel; default: the fewest the rules allow)")
	cmd.Flags().StringVar(&opts.Bots, "bots", "random", "the bot `SPEC` for every seat, or one per seat comma-separated")
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed `N` of the game's shuffles and the bots' choices")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the game as JSON")
	cmd.Flags().BoolVar(&opts.RevealAll, "reveal-all", false, "show face-down cards, drawn cards, bids and hidden deck orders")
	addGameFlag(cmd, g)
	return cmd
}

func playRun(opts *PlayOptions, gameID string) error {
	g, rs, err := gameRuleset("play", opts.RulesDir, gameID)
	if err != nil {
		return err
	}
	tracer, ok := g.(game.Tracer)
	if !ok {
		return fmt.Errorf("cardlab play cannot show a game of %s: the game has no trace", g.Name())
	}
	seats, err := resolveSeats(g, rs, opts.Players, opts.Seats)
	if err != nil {
		return err
	}
	agents, specs, err := parseAgents(rs, opts.Bots, len(seats), opts.Seed)
	if err != nil {
		return err
	}
	return tracer.Trace(opts.Out, rs, game.TraceRequest{
		Seats: seats, Agents: agents, Bots: specs, Seed: opts.Seed, JSON: opts.JSON, RevealAll: opts.RevealAll,
	})
}
