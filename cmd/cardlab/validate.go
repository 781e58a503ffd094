package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// ValidateOptions are the inputs of `cardlab validate`.
type ValidateOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string // "" for the embedded default
	JSON        bool
}

// NewCmdValidate parses the flags of `cardlab validate`; runF replaces
// validateRun in tests.
func NewCmdValidate(g *globalOptions, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{}
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check a ruleset and report every error",
		Long: `Load a ruleset and check it: YAML syntax, unknown keys, value ranges, effect
handlers and their parameters, deck sizes, references between files.
rules.yaml's 'game:' key says which game's rules check it ('cardlab games'
lists them); without the key the ruleset is an Alpha Tactics one.

On success it prints one line with the ruleset's name, version, counts and
content hash (the hash identifies the ruleset in simulation results).
Otherwise it prints every problem as file:line:col: message, with "did you
mean" suggestions, and exits with status 1.

With --json it prints {"valid": bool, "errors": [{"file", "line", "col",
"message"}]} to standard output instead; the exit status is the same.`,
		Example: `  cardlab validate                    # the embedded default ruleset
  cardlab validate --rules mygame
  cardlab validate --rules mygame --json | jq -r '.errors[].message'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir = g.RulesDir
			if runF != nil {
				return runF(opts)
			}
			return validateRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the result as JSON on standard output")
	return cmd
}

// jsonError is one ruleset error in `validate --json` output.
type jsonError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

func validateRun(opts *ValidateOptions) error {
	g, err := detectGame(opts.RulesDir)
	var rs game.Ruleset
	if err == nil {
		if rs, err = loadRuleset(g, opts.RulesDir); err == nil {
			_, err = loadLayout(opts.RulesDir, rs) // the print layout, when the ruleset has one
		}
	}
	errs := errorEntries(err)
	if opts.JSON {
		out := struct {
			Valid  bool        `json:"valid"`
			Errors []jsonError `json:"errors"`
		}{err == nil, errs}
		if werr := writeJSON(opts.Out, out); werr != nil {
			return werr
		}
		if err != nil {
			return errReported
		}
		return nil
	}
	if err != nil {
		for _, e := range errs {
			ce := cards.Error{Pos: cards.Pos{File: e.File, Line: e.Line, Col: e.Col}, Msg: e.Message}
			fmt.Fprintln(opts.ErrOut, ce.Error())
		}
		noun := "errors"
		if len(errs) == 1 {
			noun = "error"
		}
		fmt.Fprintf(opts.ErrOut, "%d %s\n", len(errs), noun)
		return errReported
	}
	return printValid(opts.Out, g, rs)
}

// errorEntries flattens a load error into one entry per problem.
func errorEntries(err error) []jsonError {
	out := []jsonError{}
	if err == nil {
		return out
	}
	var list cards.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			out = append(out, jsonError{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg})
		}
		return out
	}
	var one *cards.Error
	if errors.As(err, &one) {
		return append(out, jsonError{File: one.Pos.File, Line: one.Pos.Line, Col: one.Pos.Col, Message: one.Msg})
	}
	return append(out, jsonError{Message: err.Error()})
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// loadGameRuleset loads the ruleset in dir with g's loader; its messages
// name files as Alpha Tactics' do, with dir in front.
func loadGameRuleset(g game.Game, dir string) (game.Ruleset, error) {
	if dl, ok := g.(game.DirLoader); ok {
		return dl.LoadDir(dir)
	}
	fsys, prefix := rulesetFS(dir)
	rs, err := g.Load(fsys, ".")
	if err != nil {
		return nil, prefixErrors(err, prefix)
	}
	return rs, nil
}

// prefixErrors puts prefix in front of the file names of a loader's
// positioned messages, which name files relative to the ruleset ("./x" as
// "x", as Alpha Tactics' loader names them).
func prefixErrors(err error, prefix string) error {
	var list cards.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	out := make(cards.ErrorList, len(list))
	for i, e := range list {
		c := *e
		f := strings.TrimPrefix(c.Pos.File, "./")
		switch {
		case f == "." || f == "":
			f = prefix
		case prefix != "" && !path.IsAbs(f) && !strings.HasPrefix(f, prefix+"/"):
			f = prefix + "/" + f
		}
		if f == "" {
			f = "."
		}
		c.Pos.File = f
		out[i] = &c
	}
	return out
}

// printValid is validate's line for a valid ruleset of any game: its name,
// version, game, sides, cards and hash.
func printValid(w io.Writer, g game.Game, rs game.Ruleset) error {
	info := rs.Info()
	hash := info.Hash
	if len(hash) > 8 {
		hash = hash[:8]
	}
	if s, ok := rs.(game.Summarizer); ok {
		_, err := fmt.Fprintf(w, "ok: %s %s: %s (hash %s)\n", info.Name, info.Version, s.Summary(), hash)
		return err
	}
	copies := 0
	for _, c := range rs.Cards() {
		copies += c.Copies
	}
	v, sides := g.Vocabulary(), len(rs.Sides())
	noun := v.Sides
	if sides == 1 {
		noun = v.Side
	}
	// "1 player" alone reads as a one-player game: say the seats, and that
	// every seat plays the one side when the game is mirrored.
	lo, hi := rs.Seats()
	seats := fmt.Sprintf("%d seats", lo)
	if hi != lo {
		seats = fmt.Sprintf("%d–%d seats", lo, hi)
	}
	mirror := ""
	if rs.Mirror() {
		mirror = " (one may take several seats)"
		if sides == 1 {
			mirror = " (every seat plays it)"
		}
	}
	_, err := fmt.Fprintf(w, "ok: %s %s: %s, %s, %d %s%s, %d cards (hash %s)\n",
		info.Name, info.Version, g.Name(), seats, sides, noun, mirror, copies, hash)
	return err
}
