package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/game"
)

// CardsOptions are the inputs of `cardlab cards`.
type CardsOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string
	Game        string // --game: whose default set without --rules
	Faction     string // "" for every side
	JSON        bool
	Format      string // "table" or "md"
}

// NewCmdCards parses the flags of `cardlab cards`; runF replaces cardsRun in
// tests.
func NewCmdCards(g *globalOptions, runF func(*CardsOptions) error) *cobra.Command {
	opts := &CardsOptions{}
	cmd := &cobra.Command{
		Use:   "cards",
		Short: "List the cards of a ruleset",
		Long: `List every card of a ruleset, in the ruleset's game's terms.

Alpha Tactics: every player card (per faction, with type, effect kind,
combat power, copies and effect) and every target card. Effects are shown
as handler name and the parameters that differ from the handler's
defaults; 'cardlab effects' explains each handler.

Goofspiel: the bid cards every player holds (1 to cards:, each bid once)
and the prize deck with its values and total, and how ties are settled.

--faction (or --side) limits the list to one side's cards (Alpha Tactics:
one faction's deck; targets are shared by all factions and are then left
out). --format md prints Markdown tables, for a card catalog or a pull
request; --json prints the full data, every parameter included. Alpha
Tactics:

  {"cards": [{"id", "name", "faction", "type", "kind", "power", "copies",
              "effect": {"handler", "params": {name: value}} or null,
              "text", "tags"}],
   "targets": [{"id", "name", "type", "affiliation", "quadrant", "vp",
                "bonuses": [{"handler", "params"}], "text"}]}

Goofspiel:

  {"game": "goofspiel", "name", "version", "players": {"min", "max"},
   "ties", "hand": [{"id", "value"}], "prizes": [{"id", "value"}],
   "prize_total"}

Without --rules, --game ID lists the default set of another game.`,
		Example: `  cardlab cards
  cardlab cards --faction klingon
  cardlab cards --rules mygame --format md > catalog.md
  cardlab cards --json | jq '.cards[] | select(.kind == "S") | .name'
  cardlab cards --game goofspiel`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir, opts.Game = g.RulesDir, g.Game
			switch opts.Format {
			case "table", "md":
			default:
				return usageErrorf("invalid --format %q (want table or md)", opts.Format)
			}
			if opts.JSON && cmd.Flags().Changed("format") {
				return usageErrorf("--json and --format cannot be used together")
			}
			if cmd.Flags().Changed("faction") && cmd.Flags().Changed("side") {
				return usageErrorf("--faction and --side are the same flag: give one")
			}
			if runF != nil {
				return runF(opts)
			}
			return cardsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Faction, "faction", "", "show only the cards of side `ID` (an Alpha Tactics faction, such as klingon)")
	cmd.Flags().StringVar(&opts.Faction, "side", "", "the same as --faction, in any game's words")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the cards as JSON")
	cmd.Flags().StringVar(&opts.Format, "format", "table", "output `FORMAT`: table or md")
	addGameFlag(cmd, g)
	return cmd
}

func cardsRun(opts *CardsOptions) error {
	g, rs, err := gameRuleset("cards", opts.RulesDir, opts.Game)
	if err != nil {
		return err
	}
	cat, ok := g.(game.Cataloger)
	if !ok {
		return fmt.Errorf("cardlab cards cannot list the cards of %s: the game has no card list", g.Name())
	}
	side := -1
	if opts.Faction != "" {
		if side = findSide(rs, opts.Faction); side < 0 {
			return unknownSide(g, rs, opts.Faction)
		}
	}
	format := opts.Format
	if opts.JSON {
		format = "json"
	}
	var buf bytes.Buffer
	if err := cat.Catalog(&buf, rs, side, format); err != nil {
		return err
	}
	_, err = opts.Out.Write(buf.Bytes())
	return err
}
