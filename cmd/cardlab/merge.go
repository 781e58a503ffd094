package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
)

// MergeOptions are the inputs of `cardlab merge`.
type MergeOptions struct {
	Out, ErrOut io.Writer
	Files       []string
	JSON        bool
	OutFile     string
}

// NewCmdMerge parses the flags of `cardlab merge`; runF replaces mergeRun in
// tests.
func NewCmdMerge(_ *globalOptions, runF func(*MergeOptions) error) *cobra.Command {
	opts := &MergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Add up the JSON results of simulate shards into one result",
		Long: `Merge the JSON results of the shards of one simulation run
('cardlab simulate --shard k/n --json --out FILE', one per k) into the result
of the whole run. Merging adds the raw integer counts every result carries
and recomputes each rate and interval from the sums, so the merged result is
the same as one run on one machine, byte for byte, except "timing" (summed
over the shards) and "config.shard".

merge refuses (exit status 1, nothing written) files of different cardlab
versions or rulesets (hash), of different configs (matchups, bots, games,
seed, min_sample, shard count), a shard given twice or a shard missing.
A merged result lists the shards it holds, so 'cardlab merge result.json'
prints its tables.
docs/distributed.md shows runs split over GNU parallel and Kubernetes.`,
		Example: `  cardlab merge shard-*.json --json --out result.json
  cardlab merge shard-1.json shard-2.json        # tables`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("merge needs at least one FILE (the JSON results of 'cardlab simulate --shard k/n --json')")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.Files = args
			if runF != nil {
				return runF(opts)
			}
			return mergeRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "write the merged result as JSON (docs/metrics.md)")
	cmd.Flags().StringVar(&opts.OutFile, "out", "", "write the result to `FILE` (atomically) instead of standard output")
	return cmd
}

func mergeRun(opts *MergeOptions) error {
	var files []analysis.File
	for _, name := range opts.Files {
		rep, err := readReport(name)
		if err != nil {
			return err
		}
		files = append(files, analysis.File{Name: name, Report: rep})
	}
	rep, err := analysis.Merge(files)
	if err != nil {
		return err
	}
	out, err := formatReport(rep, opts.JSON)
	if err != nil {
		return err
	}
	if err := writeOutputs(opts.Out, opts.OutFile, out, "", nil); err != nil {
		return err
	}
	if rep.Partial {
		fmt.Fprintf(opts.ErrOut, "warning: some shards were interrupted: the merged result is partial\n")
	}
	return nil
}

// readReport reads a `simulate --json` result.
func readReport(name string) (*analysis.Report, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var rep analysis.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: not a 'cardlab simulate --json' result: %v", name, err)
	}
	if rep.Raw == nil || rep.ToolVersion == "" {
		return nil, fmt.Errorf("%s: not a 'cardlab simulate --json' result (no tool_version or raw counts)", name)
	}
	return &rep, nil
}
