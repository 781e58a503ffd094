package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/game"
)

// GamesOptions are the inputs of `cardlab games`.
type GamesOptions struct {
	Out, ErrOut io.Writer
	JSON        bool
}

// NewCmdGames parses the flags of `cardlab games`; runF replaces gamesRun in
// tests.
func NewCmdGames(_ *globalOptions, runF func(*GamesOptions) error) *cobra.Command {
	opts := &GamesOptions{}
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games cardlab can model",
		Long: `List the games cardlab knows: the id that rules.yaml's 'game:' key and
'cardlab init --game' take, the game's name, what a side is called (what a
seat plays: a faction, a player), how many seats a game of its default
ruleset has, whether one side may take several seats of a game (a mirror),
how many effect handlers its cards can name, and which of the commands that
need the game's own part it offers: play (a trace of one game), score
(scenarios), cards (its card list), print (its card faces). Below the
table, the rulesets each game embeds, the default first, with a line on
each: 'cardlab init --game GAME --ruleset NAME DIR' writes one to start
from.

A rules.yaml without a 'game:' key is an Alpha Tactics ruleset. validate,
simulate, report, effects and schema take a ruleset of any game; impact
any game with a blank (a game.Valuer); skill plays Alpha
Tactics rulesets only so far (issue 27).

--json prints {"games": [{"id", "name", "side", "sides", "seats": {"min",
"max"}, "mirror", "effects", "commands": [name], "rulesets": [{"name",
"summary"}]}]}, the default ruleset first.`,
		Example: `  cardlab games
  cardlab init --game alphatactics mygame
  cardlab init --game eclipse --ruleset eclipse-2e myfleets
  cardlab games --json | jq -r '.games[].id'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return gamesRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the games as JSON")
	return cmd
}

// gameRow is one registered game in `cardlab games`.
type gameRow struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Side  string `json:"side"`
	Sides string `json:"sides"`
	Seats struct {
		Min int `json:"min"`
		Max int `json:"max"`
	} `json:"seats"`
	Mirror  bool `json:"mirror"`
	Effects int  `json:"effects"`
	// Commands are the commands that need an optional part of the game
	// and find it.
	Commands []string `json:"commands"`
	// Rulesets are the game's embedded rulesets, the default first.
	Rulesets []rulesetRow `json:"rulesets"`
}

// rulesetRow is one embedded ruleset of a game (game.Rulesets).
type rulesetRow struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// gameCommands are the commands that need a game's optional part, with
// whether g has it.
func gameCommands(g game.Game) []string {
	out := []string{}
	for _, c := range []struct {
		name string
		has  bool
	}{
		{"play", is[game.Tracer](g)},
		{"score", is[game.Scenarios](g)},
		{"cards", is[game.Cataloger](g)},
		{"print", is[game.Facer](g)},
	} {
		if c.has {
			out = append(out, c.name)
		}
	}
	return out
}

func is[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// gameRows describes the registered games by their default rulesets.
func gameRows() []gameRow {
	var out []gameRow
	for _, g := range game.Games() {
		v := g.Vocabulary()
		r := gameRow{ID: g.ID(), Name: g.Name(), Side: v.Side, Sides: v.Sides, Commands: gameCommands(g)}
		if rs, _ := g.Default(); rs != nil {
			r.Seats.Min, r.Seats.Max = rs.Seats()
			r.Mirror = rs.Mirror()
		}
		if reg := g.Effects(); reg != nil {
			r.Effects = len(reg.Names())
		}
		r.Rulesets = []rulesetRow{}
		for _, e := range game.Rulesets(g) {
			r.Rulesets = append(r.Rulesets, rulesetRow{e.Name, e.Summary})
		}
		out = append(out, r)
	}
	return out
}

func gamesRun(opts *GamesOptions) error {
	rows := gameRows()
	if opts.JSON {
		if rows == nil {
			rows = []gameRow{}
		}
		return writeJSON(opts.Out, struct {
			Games []gameRow `json:"games"`
		}{rows})
	}
	tw := tabwriter.NewWriter(opts.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSIDE\tSEATS\tMIRROR\tEFFECTS\tCOMMANDS")
	for _, r := range rows {
		seats := strconv.Itoa(r.Seats.Min)
		if r.Seats.Max != r.Seats.Min {
			seats += "-" + strconv.Itoa(r.Seats.Max)
		}
		mirror := "no"
		if r.Mirror {
			mirror = "yes"
		}
		cmds := strings.Join(r.Commands, ",")
		if cmds == "" {
			cmds = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.ID, r.Name, r.Side, seats, mirror, r.Effects, cmds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The rulesets in a table of their own: their summaries would make
	// the games' rows too wide for a terminal.
	fmt.Fprintln(opts.Out, "\nRulesets (cardlab init --game GAME --ruleset NAME DIR; the first of each game is its default):")
	tw = tabwriter.NewWriter(opts.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tRULESET\tSUMMARY")
	for _, r := range rows {
		for i, e := range r.Rulesets {
			id := r.ID
			if i > 0 {
				id = ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", id, e.Name, e.Summary)
		}
	}
	return tw.Flush()
}
