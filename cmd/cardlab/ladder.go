package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
)

// LadderOptions are the inputs of `cardlab ladder`.
type LadderOptions struct {
	Out, ErrOut io.Writer
	Context     context.Context
	RulesDir    string
	Game        string
	Bots        []string
	Games       int
	Players     int
	Seed        uint64
	Workers     int
	JSON        bool
	Progress    bool
}

// NewCmdLadder parses the flags of `cardlab ladder`.
func NewCmdLadder(g *globalOptions, runF func(*LadderOptions) error) *cobra.Command {
	opts := &LadderOptions{}
	var list string
	cmd := &cobra.Command{
		Use:   "ladder --bots SPEC,SPEC[,…] [--games N]",
		Short: "Rank bots by playing every pair of them against each other",
		Long: `Play a round robin between bots to see how strong each is. Every pair of
bots plays --games games: the factions cycle through every ordered pair of
distinct factions, and every deal is played twice with the bots' seats
swapped, so neither a faction nor a seat favours either bot.

The table gives each bot's win share with a 95% Wilson interval and a
Bradley–Terry rating on the Elo scale (400 points = 10 to 1 odds), anchored
at 0 for the first bot; then the head-to-head record of every pair.

Balance depends on skill: run 'cardlab simulate' with the bots a ladder
shows to be strong before trusting a balance verdict. Bot specs: ` + strings.Join(defaultBotNames(), ", ") + `,
e.g. ismcts:iters=2000,rollout=greedy (commas inside one spec's parameters
are fine). Another game's ruleset (--game, or rules.yaml's game: key)
ranks its own bots: Goofspiel's are random, greedy and ismcts; a game with
one side that every seat plays (Goofspiel) plays it on both seats.`,
		Example: `  cardlab ladder --bots random,greedy --games 1000
  cardlab ladder --bots greedy,ismcts,ismcts:iters=2000 --games 200
  cardlab ladder --game goofspiel --bots random,greedy,ismcts`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir, opts.Game = g.RulesDir, g.Game
			opts.Context = cmd.Context()
			opts.Bots = bots.SplitList(list)
			if len(opts.Bots) < 2 {
				return usageErrorf("--bots needs at least two bot specs, got %q", list)
			}
			if err := checkCount("games", opts.Games, 1, maxGames); err != nil {
				return err
			}
			if err := checkCount("workers", opts.Workers, 0, maxWorkers); err != nil {
				return err
			}
			if opts.Players != 2 {
				return usageErrorf("--players: the ladder plays 2-player games (got %d)", opts.Players)
			}
			opts.Progress = isTerminal(opts.ErrOut)
			if runF != nil {
				return runF(opts)
			}
			return ladderRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&list, "bots", "random,greedy,ismcts", "the bot `SPECS` to rank, comma-separated")
	fl.IntVar(&opts.Games, "games", 200, "games per pair of bots `N` (rounded up to even: each deal is mirrored)")
	fl.IntVar(&opts.Players, "players", 2, "players per game (the ladder plays 2)")
	fl.Uint64Var(&opts.Seed, "seed", 1, "master seed `S`")
	fl.IntVar(&opts.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU); never changes the result")
	fl.BoolVar(&opts.JSON, "json", false, "write the result as JSON")
	addGameFlag(cmd, g)
	return cmd
}

func ladderRun(opts *LadderOptions) error {
	_, grs, err := gameRuleset("ladder", opts.RulesDir, opts.Game)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	cfg := analysis.LadderConfig{Bots: opts.Bots, Games: opts.Games, Players: opts.Players,
		Seed: opts.Seed, Workers: opts.Workers}
	bar := newGameBar(opts.ErrOut, opts.Progress, "ladder")
	cfg.Game = grs
	cfg.Progress = bar.progress()
	start := time.Now()
	res, err := analysis.Ladder(ctx, cfg)
	bar.done()
	if err != nil {
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "BOT\tGAMES\tWIN SHARE\t95%% CI\tRATING\n")
		for _, b := range res.Bots {
			fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t[%.1f, %.1f]\t%+.0f\n", b.Spec, b.Games, 100*b.WinShare, 100*b.CI95[0], 100*b.CI95[1], b.Rating)
		}
		fmt.Fprintf(tw, "\nA\tB\tGAMES\tA WIN SHARE\t95%% CI\n")
		for _, p := range res.Pairs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t[%.1f, %.1f]\n", p.A, p.B, p.Games, 100*p.AWins, 100*p.CI95[0], 100*p.CI95[1])
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(opts.ErrOut, "ladder: %d games per pair in %.2fs\n", res.Games, time.Since(start).Seconds())
	if res.Partial {
		return fmt.Errorf("interrupted: the ladder above is partial")
	}
	return nil
}
