package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	rulesetfiles "github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/game"
)

// InitOptions are the inputs of `cardlab init`.
type InitOptions struct {
	Out, ErrOut io.Writer
	Dir         string
	// Game is --game: the registered game whose ruleset is written.
	Game string
	// Ruleset is --ruleset: which of Game's embedded rulesets is written
	// (game.Rulesets names them); "" for its default.
	Ruleset string
	// Source is the ruleset written out; nil for Game's Ruleset.
	Source fs.FS
}

// NewCmdInit parses the flags of `cardlab init`; runF replaces initRun in
// tests.
func NewCmdInit(_ *globalOptions, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{}
	cmd := &cobra.Command{
		Use:   "init DIR",
		Short: "Write an embedded ruleset into DIR to start your own",
		Long: `Write the files of an embedded ruleset into DIR, creating DIR if needed, as
a starting point for your own game or variant. Without flags it is the
default ruleset (the reconstructed Star Trek Conquest – Alpha Tactics v1.2.4
set); --game writes another game's default ruleset instead, and --ruleset
another of the rulesets the game embeds: Eclipse's second edition
(eclipse-2e), Spacetrace's second game (spacetrace-second) or its full game
with the 40-card reference deck (spacetrace-reference). 'cardlab games'
lists the games and their rulesets, the default first. A --ruleset only one
game embeds picks that game without --game.

init never overwrites: if any of the files already exists in DIR with other
content it writes nothing and exits with status 1. The files are written as a
whole (all or none); files that hold exactly what init writes — left by an
interrupted init — are kept and the others written.

Then edit the YAML files (docs/ruleset-format.md describes them) and check
them with 'cardlab validate --rules DIR'.`,
		Example: `  cardlab init mygame
  cardlab validate --rules mygame
  cardlab init --game alphatactics variant
  cardlab init --game spacetrace --ruleset spacetrace-first mydeck
  cardlab simulate --rules mydeck --games 200`,
		Args: exactArgs(1, "one argument (the directory to write)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.Dir = args[0]
			if _, ok := game.Lookup(opts.Game); !ok {
				return &usageError{fmt.Errorf("invalid --game: %w", didYouMean("game", opts.Game, game.IDs()))}
			}
			if cmd.Flags().Changed("ruleset") {
				if !cmd.Flags().Changed("game") {
					opts.Game = gameOfRuleset(opts.Game, opts.Ruleset)
				}
				g, _ := game.Lookup(opts.Game)
				if _, err := embeddedRuleset(g, opts.Ruleset); err != nil {
					return &usageError{err}
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Game, "game", game.DefaultID, "write a ruleset of `GAME` (cardlab games lists them)")
	cmd.Flags().StringVar(&opts.Ruleset, "ruleset", "", "write the game's embedded ruleset `NAME` instead of its default (cardlab games lists them)")
	return cmd
}

// gameOfRuleset is the game whose embedded ruleset name init writes when
// --game is not given: def's own if it has one so named, else the one
// other game that has it, else the one game whose names a did-you-mean
// would offer; def otherwise (the refusal then names def's rulesets).
func gameOfRuleset(def, name string) string {
	if g, ok := game.Lookup(def); ok {
		if _, err := embeddedRuleset(g, name); err == nil {
			return def
		}
	}
	var exact, near []string
	for _, g := range game.Games() {
		var names []string
		for _, e := range game.Rulesets(g) {
			names = append(names, e.Name)
		}
		if slices.Contains(names, name) {
			exact = append(exact, g.ID())
		} else if len(suggest(name, names)) > 0 {
			near = append(near, g.ID())
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0]
	case len(exact) == 0 && len(near) == 1:
		return near[0]
	}
	return def
}

// embeddedRuleset is g's embedded ruleset name; an unknown name is refused
// naming the ones g has.
func embeddedRuleset(g game.Game, name string) (game.Embedded, error) {
	all := game.Rulesets(g)
	if len(all) == 0 {
		return game.Embedded{}, fmt.Errorf("game %s has no embedded ruleset to write", g.ID())
	}
	names := make([]string, len(all))
	for i, e := range all {
		if e.Name == name {
			return e, nil
		}
		names[i] = e.Name
	}
	return game.Embedded{}, fmt.Errorf("invalid --ruleset for game %s: %w; 'cardlab games' lists every game's rulesets", g.ID(), didYouMean("ruleset", name, names))
}

func initRun(opts *InitOptions) error {
	if opts.Game == "" {
		opts.Game = game.DefaultID
	}
	src := opts.Source
	if src == nil {
		g, ok := game.Lookup(opts.Game)
		if !ok {
			return usageErrorf("invalid --game: %v", didYouMean("game", opts.Game, game.IDs()))
		}
		if opts.Ruleset == "" {
			all := game.Rulesets(g)
			if len(all) == 0 {
				return fmt.Errorf("game %s has no default ruleset to write", g.ID())
			}
			src = all[0].Files
		} else {
			e, err := embeddedRuleset(g, opts.Ruleset)
			if err != nil {
				return &usageError{err}
			}
			src = e.Files
		}
	}
	var files []string
	err := fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the embedded ruleset: %w", err)
	}

	// Check everything first, so that nothing is written when anything is
	// in the way. A file that already holds exactly what init writes is
	// one an interrupted init wrote: it is kept, and the rest written.
	var existing, missing []string
	contents := map[string][]byte{}
	for _, f := range files {
		data, err := fs.ReadFile(src, f)
		if err != nil {
			return fmt.Errorf("reading the embedded ruleset: %w", err)
		}
		contents[f] = data
		p := filepath.Join(opts.Dir, filepath.FromSlash(f))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, f)
		} else if err != nil {
			return err
		} else if !sameContent(p, data) {
			existing = append(existing, p)
		}
	}
	if len(existing) > 0 {
		return fmt.Errorf("not overwriting existing files (remove them or choose another directory):\n  %s",
			strings.Join(existing, "\n  "))
	}
	if len(missing) == 0 {
		fmt.Fprintf(opts.ErrOut, "%s already holds every file of the ruleset: nothing to write\n", opts.Dir)
		return nil
	}
	// The files are written into a temporary folder and moved in as a
	// whole (a new DIR by one rename): an interrupted init leaves all of
	// them or none, never an empty deck file.
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(opts.Dir)), 0o755); err != nil {
		return err
	}
	err = rulesetfiles.AddToDir(opts.Dir, missing, func(tmp string) error {
		for _, f := range missing {
			p := filepath.Join(tmp, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := rulesetfiles.Render(p, func(w io.Writer) error { _, err := w.Write(contents[f]); return err }); err != nil {
				return err
			}
			if err := os.Chmod(p, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}

	dir := shellQuote(opts.Dir)
	fmt.Fprintf(opts.ErrOut, "wrote %d files to %s:\n", len(files), opts.Dir)
	for _, f := range files {
		fmt.Fprintf(opts.ErrOut, "  %s\n", f)
	}
	if opts.Game != game.DefaultID {
		fmt.Fprintf(opts.ErrOut, `
next steps:
  edit the YAML files (rules.yaml's game: key says which game they are for)
  cardlab validate --rules %s      # check your edits
`, dir)
		if g, ok := game.Lookup(opts.Game); ok {
			// What the game offers, in the order a designer would try it.
			if _, ok := g.(game.Cataloger); ok {
				fmt.Fprintf(opts.ErrOut, "  cardlab cards --rules %s         # list the cards as cardlab sees them\n", dir)
			}
			if _, ok := g.(game.Tracer); ok {
				fmt.Fprintf(opts.ErrOut, "  cardlab play --rules %s          # watch one game between bots, move by move\n", dir)
			}
			if rs, err := loadRulesetDir(opts.Dir); err == nil {
				if _, ok := rs.(game.Studier); ok {
					fmt.Fprintf(opts.ErrOut, "  cardlab study --rules %s         # exact studies of the rules, no games played\n", dir)
				}
			}
			fmt.Fprintf(opts.ErrOut, "  cardlab schema --out %s/.schemas # optional: completion in your editor (see README)\n", dir)
			if _, ok := g.(game.Facer); ok {
				fmt.Fprintf(opts.ErrOut, "  cardlab print --rules %s --out %s # print-and-play PDFs, TTS decks (docs/printing.md)\n", dir, shellQuote(opts.Dir+"-print"))
			}
		}
		return nil
	}
	fmt.Fprintf(opts.ErrOut, `
next steps:
  edit the YAML files: rule parameters in rules.yaml, targets in targets.yaml,
  one deck per faction (docs/ruleset-format.md; 'cardlab effects' lists the handlers)
  cardlab validate --rules %s      # check your edits
  cardlab cards --rules %s         # list the cards as cardlab sees them
  cardlab schema --out %s/.schemas # optional: completion in your editor (see README)
  cardlab print --rules %s --out %s # print-and-play PDFs, TTS decks (layout.yaml, docs/printing.md)
`, dir, dir, dir, dir, shellQuote(opts.Dir+"-print"))
	return nil
}

// sameContent reports whether the regular file path holds exactly data.
func sameContent(path string, data []byte) bool {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(data)) {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && bytes.Equal(b, data)
}
