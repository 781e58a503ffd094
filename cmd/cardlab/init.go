package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/cards"
)

// InitOptions are the inputs of `cardlab init`.
type InitOptions struct {
	Out, ErrOut io.Writer
	Dir         string
	// Source is the ruleset written out; nil for cards.DefaultFS().
	Source fs.FS
}

// NewCmdInit parses the flags of `cardlab init`; runF replaces initRun in
// tests.
func NewCmdInit(_ *globalOptions, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{}
	cmd := &cobra.Command{
		Use:   "init DIR",
		Short: "Write the default ruleset into DIR to start your own",
		Long: `Write the files of the embedded default ruleset (the reconstructed Star Trek
Conquest – Alpha Tactics v1.2.4 set) into DIR, creating DIR if needed, as a
starting point for your own game or variant.

init never overwrites: if any of the files already exists in DIR it writes
nothing and exits with status 1.

Then edit the YAML files (docs/ruleset-format.md describes them) and check
them with 'cardlab validate --rules DIR'.`,
		Example: `  cardlab init mygame
  cardlab validate --rules mygame`,
		Args: exactArgs(1, "one argument (the directory to write)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.Dir = args[0]
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	return cmd
}

func initRun(opts *InitOptions) error {
	src := opts.Source
	if src == nil {
		src = cards.DefaultFS()
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
	// in the way.
	var existing []string
	for _, f := range files {
		p := filepath.Join(opts.Dir, filepath.FromSlash(f))
		if _, err := os.Lstat(p); err == nil {
			existing = append(existing, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if len(existing) > 0 {
		return fmt.Errorf("not overwriting existing files (remove them or choose another directory):\n  %s",
			strings.Join(existing, "\n  "))
	}

	// O_EXCL still guards against files appearing meanwhile; on any failure,
	// the files written so far are removed again.
	var written []string
	undo := func() {
		for i := len(written) - 1; i >= 0; i-- {
			os.Remove(written[i])
		}
	}
	for _, f := range files {
		data, err := fs.ReadFile(src, f)
		if err != nil {
			undo()
			return fmt.Errorf("reading the embedded ruleset: %w", err)
		}
		p := filepath.Join(opts.Dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			undo()
			return err
		}
		if err := writeExcl(p, data); err != nil {
			undo()
			return err
		}
		written = append(written, p)
	}

	dir := shellQuote(opts.Dir)
	fmt.Fprintf(opts.ErrOut, "wrote %d files to %s:\n", len(written), opts.Dir)
	for _, f := range files {
		fmt.Fprintf(opts.ErrOut, "  %s\n", f)
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

// writeExcl creates path with data, failing if it exists.
func writeExcl(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
