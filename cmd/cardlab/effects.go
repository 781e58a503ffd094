package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// EffectsOptions are the inputs of `cardlab effects`.
type EffectsOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string // whose game's handlers; "" for --game's
	Game        string
	Names       []string // handlers to show; empty for all
	JSON        bool
}

// NewCmdEffects parses the flags of `cardlab effects`; runF replaces
// effectsRun in tests.
func NewCmdEffects(g *globalOptions, runF func(*EffectsOptions) error) *cobra.Command {
	opts := &EffectsOptions{}
	cmd := &cobra.Command{
		Use:   "effects [HANDLER...]",
		Short: "List the effect handlers a card's effect can name, with their parameters",
		Long: `List every effect handler of a game: when it runs, its card kind letter, what
it does, and its parameters (type, range or allowed values, required or the
default), each with a YAML example to copy into a deck or targets file.

The game is the one of --rules DIR (its rules.yaml's game: key), else
--game ID, else Alpha Tactics. In Alpha Tactics a player card names a
handler in 'effect:' and sets its parameters in 'params:'. The card's kind
must match the handler's timing: O one-time, P permanent, X special,
S scoring; kind N cards have no effect. Target cards list target-bonus
handlers under 'bonuses:'. Omitted parameters take their defaults.

A game whose cards carry no effects (Goofspiel: a card is its number) has
no handlers: effects says so and exits 0 (--json prints an empty list);
naming a handler of such a game is an error (exit 1).

Give handler names to show only those. --json prints
{"effects": [{"name", "timing", "kind", "doc", "params": [{"name", "type",
"required", "min", "max", "values", "default", "doc"}]}]}.`,
		Example: `  cardlab effects
  cardlab effects modify_power bomb
  cardlab effects --json | jq -r '.effects[].name'
  cardlab effects --game goofspiel`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir, opts.Game = g.RulesDir, g.Game
			opts.Names = args
			if runF != nil {
				return runF(opts)
			}
			return effectsRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the handlers as JSON")
	addGameFlag(cmd, g)
	return cmd
}

// commandGame is the game a command that needs no ruleset works for: the
// game of the ruleset in dir (rules.yaml's game: key, read even when the
// rest of the ruleset is broken), else --game's, else Alpha Tactics.
func commandGame(dir, gameID string) (game.Game, error) {
	var g game.Game
	if gameID != "" {
		var err error
		if g, err = lookupGame(gameID); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		if g == nil {
			g, _ = game.Lookup(game.DefaultID)
		}
		return g, nil
	}
	// No loader runs here to say so, and a folder that is not a ruleset
	// must not quietly stand for the default game.
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--rules %s: no such directory", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "rules.yaml")); err != nil {
		return nil, fmt.Errorf("--rules %s: not a ruleset: rules.yaml not found", dir)
	}
	d, err := detectGame(dir)
	if err != nil {
		return nil, err
	}
	if g != nil && d.ID() != g.ID() {
		return nil, fmt.Errorf("--game %s, but ruleset %s is a %s ruleset (its rules.yaml's game: key); leave out --game to use it", g.ID(), dir, d.Name())
	}
	return d, nil
}

func effectsRun(opts *EffectsOptions) error {
	g, err := commandGame(opts.RulesDir, opts.Game)
	if err != nil {
		return err
	}
	reg := g.Effects()
	if reg == nil {
		if len(opts.Names) > 0 {
			return fmt.Errorf("unknown effect handler %q: %s has no effect handlers (its cards carry no effects)", opts.Names[0], g.Name())
		}
		if opts.JSON {
			return writeJSON(opts.Out, cards.EffectsJSON(nil))
		}
		_, err := fmt.Fprintf(opts.Out, "%s has no effect handlers: its cards carry no effects, so a ruleset binds none.\n", g.Name())
		return err
	}
	specs := reg.All()
	if len(opts.Names) > 0 {
		specs = specs[:0:0]
		for _, n := range opts.Names {
			s, ok := reg.Lookup(n)
			if !ok {
				return didYouMean("effect handler", n, reg.Names())
			}
			specs = append(specs, s)
		}
	}
	var guide cards.EffectsGuide
	if eg, ok := g.(game.EffectsGuide); ok {
		guide = eg.EffectsGuide()
	}
	var buf bytes.Buffer
	if opts.JSON {
		if err := writeJSON(&buf, cards.EffectsJSON(specs)); err != nil {
			return err
		}
	} else {
		cards.WriteEffects(&buf, specs, reg.Timings(), len(opts.Names) == 0, guide)
	}
	_, err = opts.Out.Write(buf.Bytes())
	return err
}
