package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/files"
)

// MergeOptions are the inputs of `cardlab merge`.
type MergeOptions struct {
	Out, ErrOut io.Writer
	Files       []string
	JSON        bool
	OutFile     string
	// RulesDir is --rules: the ruleset shard files of impact, diff, sweep
	// and report are replayed on ("": the directory they name).
	RulesDir string
}

// NewCmdMerge parses the flags of `cardlab merge`; runF replaces mergeRun in
// tests.
func NewCmdMerge(g *globalOptions, runF func(*MergeOptions) error) *cobra.Command {
	opts := &MergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Add up the shards of a simulate, impact, diff, sweep or report run into one result",
		Long: `Merge the JSON results of the shards of one simulation run
('cardlab simulate --shard k/n --json --out FILE', one per k) into the result
of the whole run. Merging adds the raw integer counts every result carries
and recomputes each rate and interval from the sums, so the merged result is
the same as one run on one machine, byte for byte, except "timing" (summed
over the shards) and "config.shard".

merge refuses (exit status 1, nothing written) files of different cardlab
versions or rulesets (hash), of different configs (matchups, bots, games,
seed, min_sample, shard count), a shard given twice or a shard missing, and
a damaged or edited shard: each result carries a checksum over its counts,
and its counts must agree with each other (wins within games, totals that
add up, the games its shard plays). Merging interrupted (partial) shards
writes the partial result — beside --out FILE as FILE.partial.json — and
exits 1, as simulate does.
A merged result lists the shards it holds, so 'cardlab merge result.json'
prints its tables. --out FILE always writes JSON: a file is for 'cardlab
merge' and 'cardlab report --from' to read.

The shard files of impact, diff, sweep and report ('cardlab impact …
--shard k/n --out FILE') hold the command's flags and the outcome of each of
their games. merge checks that they are the n shards of one run (the same
command, flags, cardlab build and shard count; every shard once; each
file's checksum) and runs the command again on their games, playing none:
its output (tables, or JSON with --json or --out) is the unsharded run's,
byte for byte but for the timing (the shards' summed). Of a report's shards
it writes the report's results.json, for 'cardlab report --from FILE --out
DIR' to render. It reads the ruleset the shards name (--rules as they were
given, relative to where merge runs) or the one --rules gives here, and
refuses one the shards did not play.
docs/distributed.md shows runs split over GNU parallel and Kubernetes.`,
		Example: `  cardlab merge shard-*.json --out result.json
  cardlab merge shard-1.json shard-2.json        # tables
  cardlab --rules mygame merge impact-*.json --out values.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("merge needs at least one FILE (the shard files of 'cardlab simulate|impact|diff|sweep|report --shard k/n --out FILE')")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.Files = args
			opts.RulesDir = g.RulesDir
			opts.JSON = opts.JSON || writesFile(opts.OutFile)
			if runF != nil {
				return runF(opts)
			}
			return mergeRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "write the merged result as JSON (docs/metrics.md); --out FILE always does")
	cmd.Flags().StringVar(&opts.OutFile, "out", "", "write the result as JSON to `FILE` (atomically) instead of standard output")
	return cmd
}

func mergeRun(opts *MergeOptions) error {
	if opts.OutFile != "" {
		// The output is checked before any input is read.
		if err := files.Check(opts.OutFile); err != nil {
			return err
		}
	}
	var shards []*shardFile
	for i, name := range opts.Files {
		data, err := files.ReadCapped(name, analysis.MaxReportSize, "a 'cardlab simulate --json' result")
		if err != nil {
			// A shard file may be larger than any result: read again
			// with its own cap when it begins as one.
			if !beginsAsShard(name) {
				return err
			}
			if data, err = files.ReadCapped(name, MaxShardSize, "a shard file"); err != nil {
				return err
			}
		}
		if !isShardFile(data) {
			if len(shards) > 0 {
				return fmt.Errorf("%s is not a shard file, %s is: merge the shards of one command at a time", name, opts.Files[0])
			}
			continue
		}
		if len(shards) != i {
			return fmt.Errorf("%s is a shard file, %s is not: merge the shards of one command at a time", name, opts.Files[0])
		}
		f, err := decodeShardFile(name, data)
		if err != nil {
			return err
		}
		shards = append(shards, f)
	}
	if len(shards) > 0 {
		return mergeShards(opts, opts.Files, shards)
	}
	out, err := openResult(opts.Out, opts.OutFile)
	if err != nil {
		return err
	}
	defer out.Abort()
	var in []analysis.File
	for _, name := range opts.Files {
		rep, err := readReport(name)
		if err != nil {
			return err
		}
		in = append(in, analysis.File{Name: name, Report: rep})
	}
	rep, err := analysis.Merge(in)
	if err != nil {
		return err
	}
	text, err := formatReport(rep, opts.JSON)
	if err != nil {
		return err
	}
	if _, err := out.Write(text); err != nil {
		return err
	}
	where, err := finishOutput(out, rep.Partial)
	if err != nil {
		return err
	}
	if rep.Partial {
		// The same rule as simulate and report --from: a partial result
		// is written, and the exit status says it is not the whole run.
		return fmt.Errorf("some shards were interrupted: %s", partialNote(where, opts.OutFile))
	}
	return nil
}

// readReport reads a `simulate --json` result, at most
// analysis.MaxReportSize bytes.
func readReport(name string) (*analysis.Report, error) {
	data, err := files.ReadCapped(name, analysis.MaxReportSize, "a 'cardlab simulate --json' result")
	if err != nil {
		return nil, err
	}
	return analysis.DecodeReport(name, data)
}
