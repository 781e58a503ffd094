package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/files"
)

// SchemaOptions are the inputs of `cardlab schema`.
type SchemaOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string // whose game's schemas; "" for --game's
	Game        string
	Kind        string // "rules", "targets", "deck", …; "" for all (with OutDir)
	OutDir      string // "" to print one schema on standard output
}

// NewCmdSchema parses the flags of `cardlab schema`; runF replaces schemaRun
// in tests.
func NewCmdSchema(g *globalOptions, runF func(*SchemaOptions) error) *cobra.Command {
	opts := &SchemaOptions{}
	cmd := &cobra.Command{
		Use:   "schema {--kind KIND | --out DIR}",
		Short: "Print JSON Schemas of the ruleset files, for completion in editors",
		Long: `Print a JSON Schema (draft 2020-12) of one kind of ruleset file, or write all
of them into a directory. Editors with a YAML language server (VS Code with
the Red Hat YAML extension, Neovim, Helix, JetBrains IDEs) then complete keys,
effect handler names and each handler's parameters, show their descriptions,
and flag typos as you type.

The schemas are those of a game: the game of --rules DIR (its rules.yaml's
game: key), else --game ID, else Alpha Tactics. Kinds, one per file:
Alpha Tactics rules (rules.yaml), targets (targets.yaml) and deck (a
faction deck file); Goofspiel rules (rules.yaml, its one file).

--out DIR writes KIND.schema.json for every kind of the game (or only
--kind's) into DIR, replacing older versions atomically. Point a YAML file
at its schema with a first line such as

  # yaml-language-server: $schema=.schemas/deck.schema.json

(the path is relative to the YAML file). The schemas follow the installed
cardlab's effect handlers: regenerate them after upgrading. They check each
file alone; 'cardlab validate' still checks deck sizes and references.`,
		Example: `  cardlab schema --out mygame/.schemas
  cardlab schema --kind deck > deck.schema.json
  cardlab schema --rules gs --out gs/.schemas      # a Goofspiel ruleset's
  cardlab schema --game goofspiel --kind rules`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir, opts.Game = g.RulesDir, g.Game
			if runF != nil {
				return runF(opts)
			}
			return schemaRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "schema `KIND` to print or write: one of the game's files (Alpha Tactics: rules|targets|deck; Goofspiel: rules)")
	cmd.Flags().StringVar(&opts.OutDir, "out", "", "write the schema files into `DIR` instead of printing")
	addGameFlag(cmd, g)
	return cmd
}

// schemaKinds are the kinds of a game's schema files (NAME.schema.json),
// rules first, then by name.
func schemaKinds(schemas map[string][]byte) []string {
	var kinds []string
	for name := range schemas {
		kinds = append(kinds, strings.TrimSuffix(name, ".schema.json"))
	}
	sort.Slice(kinds, func(i, j int) bool {
		if (kinds[i] == "rules") != (kinds[j] == "rules") {
			return kinds[i] == "rules"
		}
		return kinds[i] < kinds[j]
	})
	return kinds
}

func schemaRun(opts *SchemaOptions) error {
	g, err := commandGame(opts.RulesDir, opts.Game)
	if err != nil {
		return err
	}
	schemas, err := g.Schemas()
	if err != nil {
		return err
	}
	kinds := schemaKinds(schemas)
	if opts.Kind == "" && opts.OutDir == "" {
		// Checked here, not with the flags, so the message can list the
		// game's own kinds.
		return usageErrorf("give --kind %s to print one schema, or --out DIR to write all of them (the files of %s)", strings.Join(kinds, "|"), g.Name())
	}
	if opts.Kind != "" {
		if !slices.Contains(kinds, opts.Kind) {
			return usageErrorf("invalid --kind %q (want %s, the files of %s)", opts.Kind, strings.Join(kinds, ", "), g.Name())
		}
		kinds = []string{opts.Kind}
	}
	if opts.OutDir == "" {
		_, err = opts.Out.Write(schemas[kinds[0]+".schema.json"])
		return err
	}
	// The schemas go in as a whole through the one folder writer: a link,
	// FIFO or another user's file in the way is refused, never replaced.
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k + ".schema.json"
	}
	err = files.ReplaceDir(opts.OutDir, names, func(tmp string) error {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(tmp, n), schemas[n], 0o644); err != nil {
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
