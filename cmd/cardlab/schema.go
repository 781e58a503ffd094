package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// SchemaOptions are the inputs of `cardlab schema`.
type SchemaOptions struct {
	Out, ErrOut io.Writer
	Kind        string // "rules", "targets", "deck"; "" for all (with OutDir)
	OutDir      string // "" to print one schema on standard output
}

// NewCmdSchema parses the flags of `cardlab schema`; runF replaces schemaRun
// in tests.
func NewCmdSchema(_ *globalOptions, runF func(*SchemaOptions) error) *cobra.Command {
	opts := &SchemaOptions{}
	kinds := strings.Join(rules.SchemaKinds, "|")
	cmd := &cobra.Command{
		Use:   "schema {--kind " + kinds + " | --out DIR}",
		Short: "Print JSON Schemas of the ruleset files, for completion in editors",
		Long: `Print a JSON Schema (draft 2020-12) of one kind of ruleset file, or write all
of them into a directory. Editors with a YAML language server (VS Code with
the Red Hat YAML extension, Neovim, Helix, JetBrains IDEs) then complete keys,
effect handler names and each handler's parameters, show their descriptions,
and flag typos as you type.

Kinds: rules (rules.yaml), targets (targets.yaml), deck (a faction deck file).

--out DIR writes rules.schema.json, targets.schema.json and deck.schema.json
into DIR (or only --kind's), replacing older versions atomically. Point a YAML
file at its schema with a first line such as

  # yaml-language-server: $schema=.schemas/deck.schema.json

(the path is relative to the YAML file). The schemas follow the installed
cardlab's effect handlers: regenerate them after upgrading. They check each
file alone; 'cardlab validate' still checks deck sizes and references.`,
		Example: `  cardlab schema --out mygame/.schemas
  cardlab schema --kind deck > deck.schema.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if opts.Kind != "" && !slices.Contains(rules.SchemaKinds, opts.Kind) {
				return usageErrorf("invalid --kind %q (want %s)", opts.Kind, strings.Join(rules.SchemaKinds, ", "))
			}
			if opts.Kind == "" && opts.OutDir == "" {
				return usageErrorf("give --kind %s to print one schema, or --out DIR to write all of them", kinds)
			}
			if runF != nil {
				return runF(opts)
			}
			return schemaRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "schema to print or write: "+kinds)
	cmd.Flags().StringVar(&opts.OutDir, "out", "", "write the schema files into `DIR` instead of printing")
	return cmd
}

func schemaRun(opts *SchemaOptions) error {
	kinds := rules.SchemaKinds
	if opts.Kind != "" {
		kinds = []string{opts.Kind}
	}
	if opts.OutDir == "" {
		data, err := rules.Schema(kinds[0])
		if err != nil {
			return err
		}
		_, err = opts.Out.Write(data)
		return err
	}
	// Generate everything before writing anything.
	data := make([][]byte, len(kinds))
	for i, k := range kinds {
		var err error
		if data[i], err = rules.Schema(k); err != nil {
			return err
		}
	}
	// The schemas go in as a whole through the one folder writer: a link,
	// FIFO or another user's file in the way is refused, never replaced.
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = rules.SchemaFile(k)
	}
	err := files.ReplaceDir(opts.OutDir, names, func(tmp string) error {
		for i, n := range names {
			if err := os.WriteFile(filepath.Join(tmp, n), data[i], 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, n := range names {
		fmt.Fprintf(opts.ErrOut, "wrote %s\n", filepath.Join(opts.OutDir, n))
	}
	return nil
}
