package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/game"
)

// ScoreOptions are the inputs of `cardlab score`.
type ScoreOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string
	File        string // the scenario file
	JSON        bool
	Check       bool
	// Bots decides the choices revealed effects ask for: one spec for every
	// seat or one per seat.
	Bots string
}

// NewCmdScore parses the flags of `cardlab score`; runF replaces scoreRun in
// tests.
func NewCmdScore(g *globalOptions, runF func(*ScoreOptions) error) *cobra.Command {
	opts := &ScoreOptions{}
	cmd := &cobra.Command{
		Use:   "score SCENARIO.yaml",
		Short: "Play the Reveal Phase of a scenario and explain how each row scores",
		Long: `Load a scenario — players, rows with their targets and cards, and optionally
the expected outcome of each row (docs/scenarios.md describes the format) —
run its Reveal Phase, and explain the Scoring Phase row by row: every card
from top to bottom with its owner, printed and counted combat power, and
whether its effect is active (or why it is blocked), then each player's
combat power, the winner and why:

  power               highest combat power
  combo               a Diplomat combination wins regardless of power
  tie_top_card        tied on power; the tied player whose card lies highest
  combo_tie_top_card  several combinations; the one whose card lies highest
  negotiated          the target was taken by Negotiations in the Reveal Phase
  none                nobody has a card in the row

Face-down cards are revealed left to right, top to bottom, and their
one-time effects run. Choices those effects ask for (a Strike ship's target,
an EMP's weapon, Distress Signal, Negotiations bids, a Flagship's row) are
made by --bots (default random, seeded from the scenario's seed).

Scenarios are Alpha Tactics': a game without them (Goofspiel, whose every
position is a hand of numbers — 'cardlab play' shows its games) is refused
by name, exit status 1.

--check compares the outcome with the scenario's expect: list and exits with
status 1, listing every mismatch as file:line:col, if any differs. --json
prints

  {"rows": [{"row", "target", "winner", "reason", "power": {faction: n},
             "cards": [{"pos", "card", "name", "owner", "base", "power",
                        "effect", "blocked", "stolen", "weakened",
                        "power_deactivated"}]}]}

where effect is "none", "active" or "blocked" (blocked then says why) and
winner is null when nobody wins the row.`,
		Example: `  cardlab score testdata/scenarios/diplomat-combo.yaml
  for f in testdata/scenarios/*.yaml; do cardlab score --check "$f" >/dev/null; done
  cardlab score --json myscenario.yaml | jq '.rows[] | {row, winner, reason}'`,
		Args: exactArgs(1, "one argument (the scenario file)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir = g.RulesDir
			opts.File = args[0]
			if runF != nil {
				return runF(opts)
			}
			return scoreRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the rows as JSON")
	cmd.Flags().BoolVar(&opts.Check, "check", false, "compare with the scenario's expect: list; exit 1 on any difference")
	cmd.Flags().StringVar(&opts.Bots, "bots", "random", "the bot `SPEC` that makes effect choices: one for every seat, or one per seat comma-separated")
	return cmd
}

func scoreRun(opts *ScoreOptions) error {
	g, rs, err := gameRuleset("score", opts.RulesDir, "")
	if err != nil {
		return err
	}
	scorer, ok := g.(game.Scenarios)
	if !ok {
		return fmt.Errorf("cardlab score plays scenarios, and %s has none (a scenario is a position written down to score; 'cardlab play --rules %s' shows a whole game)", g.Name(), shellQuote(opts.RulesDir))
	}
	data, err := files.ReadCapped(opts.File, cards.MaxFileSize, "a scenario file")
	if err != nil {
		return fmt.Errorf("reading the scenario: %w", err)
	}
	sc, err := scorer.LoadScenario(rs, data, opts.File)
	if err != nil {
		return reportList(opts.ErrOut, err)
	}
	if opts.Check && sc.Expectations() == 0 {
		return fmt.Errorf("%s: --check: the scenario has no expect: list", opts.File)
	}
	agents, _, err := parseAgents(rs, opts.Bots, sc.Seats(), sc.Seed())
	if err != nil {
		return err
	}
	var out bytes.Buffer
	mismatches, err := sc.Score(&out, agents, opts.JSON)
	if err != nil {
		return err
	}
	if _, err := opts.Out.Write(out.Bytes()); err != nil {
		return err
	}
	if !opts.Check {
		return nil
	}
	for _, m := range mismatches {
		fmt.Fprintln(opts.ErrOut, m)
	}
	if len(mismatches) > 0 {
		fmt.Fprintf(opts.ErrOut, "%s: %d of %d %s not met\n", opts.File, len(mismatches), sc.Expectations(), plural(sc.Expectations(), "expectation", "expectations"))
		return errReported
	}
	fmt.Fprintf(opts.ErrOut, "ok: %s: %d expectations met\n", opts.File, sc.Expectations())
	return nil
}

// reportList prints every problem of a load error on its own line and
// returns errReported.
func reportList(w io.Writer, err error) error {
	var list cards.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	for _, e := range list {
		fmt.Fprintln(w, e.Error())
	}
	fmt.Fprintf(w, "%d %s\n", len(list), plural(len(list), "error", "errors"))
	return errReported
}
