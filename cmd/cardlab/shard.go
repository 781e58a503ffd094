package main

// Shards of impact, diff, sweep and report (docs/distributed.md). With
// --shard k/n such a command plays only its part of every phase's games
// under a recording analysis.Ledger and writes a shard file: the command's
// options, the records of its games and a checksum. 'cardlab merge' reads
// the n shard files, checks that they belong together and runs the same
// command again on their records (analysis.NewReplayLedger): it plays no
// game and computes every figure from the same numbers as the unsharded
// run, so its output is that run's, byte for byte, timing apart.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/reports"
)

// shardFormat names a shard file (the first key of its JSON). Format 2
// records who began each paired game (analysis.ArmPhase.Starts), which the
// starting seat's figures of a mirror need; a format 1 file, without it,
// is refused by name (oldShardFormat).
const shardFormat = "cardlab shard 2"

// oldShardFormat is the format before the starting seats were recorded.
const oldShardFormat = "cardlab shard 1"

// MaxShardSize caps a shard file read by merge: the records of a shard
// take a few bytes a game (a card-value game about 60).
const MaxShardSize = 1 << 30

// Commands that split into shards with a shard file.
var shardCommands = []string{"impact", "diff", "sweep", "report"}

// shardFile is what `COMMAND --shard k/n` writes.
type shardFile struct {
	Format      string `json:"format"`
	Command     string `json:"command"`
	ToolVersion string `json:"tool_version"`
	Shard       struct {
		K int `json:"k"`
		N int `json:"n"`
	} `json:"shard"`
	// Rules is --rules as given ("": the embedded ruleset) and Args the
	// command's other flags as given, but those its shards may differ in
	// or that say where to write (--shard, --workers, --out, --json): the
	// merge runs the command again with them, through its own checks.
	Rules  string           `json:"rules"`
	Args   []string         `json:"args"`
	Phases []analysis.Phase `json:"phases"`
	// Checksum is analysis.JSONSum of the file without it.
	Checksum string `json:"checksum"`
}

func (f *shardFile) sum() string {
	c := *f
	c.Checksum = ""
	return analysis.JSONSum(&c)
}

// shardFlag registers --shard on a command (parseShardFlag reads it).
func shardFlag(cmd *cobra.Command, spec *string) {
	cmd.Flags().StringVar(spec, "shard", "", "play only part `k/n` of the games and write a shard file; 'cardlab merge' adds the n parts up (docs/distributed.md)")
}

// parseShardFlag sets sh from --shard when it was given, and args to the
// flags a shard file records.
func parseShardFlag(cmd *cobra.Command, spec string, sh *analysis.Shard, args *[]string) error {
	*sh, *args = analysis.Shard{}, nil
	if !cmd.Flags().Changed("shard") {
		return nil
	}
	s, err := parseShard(spec)
	if err != nil {
		return err
	}
	*sh, *args = s, shardArgs(cmd)
	return nil
}

// shardArgs are the flags given to cmd, as --name=value, but --rules and
// those in which shards may differ or that say where to write.
func shardArgs(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "rules", "shard", "workers", "out", "json":
			return
		}
		if sv, ok := f.Value.(interface{ GetSlice() []string }); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args
}

// startShard returns ctx recording shard sh (nil ledger when sh is unset).
func startShard(ctx context.Context, sh analysis.Shard) (context.Context, *analysis.Ledger) {
	if sh.N == 0 {
		return ctx, nil
	}
	l := analysis.NewShardLedger(sh)
	return analysis.WithLedger(ctx, l), l
}

// shardDone is called when a command has played its games: recording a
// shard, it writes the shard file (handled: the command writes nothing
// else); replaying shards, it checks that every phase they recorded was
// played.
func shardDone(ctx context.Context, o *BatchOptions, command string) (handled bool, err error) {
	return shardDoneTo(ctx, o.Out, o.ErrOut, o.OutFile, command, o.RulesDir, o.ShardArgs)
}

func shardDoneTo(ctx context.Context, stdout, log io.Writer, outFile, command, rules string, args []string) (handled bool, err error) {
	l := analysis.LedgerFrom(ctx)
	switch {
	case l.Replaying():
		return false, l.Done()
	case !l.Recording():
		return false, nil
	}
	sh := l.Shard()
	if l.Partial() {
		return true, fmt.Errorf("interrupted: shard %d/%d not written (run it again with the same flags)", sh.K, sh.N)
	}
	f := shardFile{Format: shardFormat, Command: command, ToolVersion: versionString(), Rules: rules, Args: args, Phases: l.Phases()}
	f.Shard.K, f.Shard.N = sh.K, sh.N
	f.Checksum = f.sum()
	// Compact: a shard file is for merge to read, and its game records
	// take a third of the room without indentation.
	b, err := json.Marshal(&f)
	if err != nil {
		return true, err
	}
	if _, err := writeResult(stdout, outFile, append(b, '\n'), false); err != nil {
		return true, err
	}
	if outFile != "" {
		games := int64(0)
		for _, p := range f.Phases {
			games += p.Games
		}
		fmt.Fprintf(log, "wrote %s (shard %d/%d of %s, %d games)\n", outFile, sh.K, sh.N, command, games)
	}
	return true, nil
}

// decodeShardFile decodes a shard file read from name and checks its
// checksum and shard number; what its records hold is checked when they
// are replayed.
func decodeShardFile(name string, data []byte) (*shardFile, error) {
	if what := files.NotJSONObject(data); what != "" {
		return nil, fmt.Errorf("%s: not a shard file: it %s", name, what)
	}
	var f shardFile
	if err := files.DecodeJSON(name, data, &f); err != nil {
		return nil, fmt.Errorf("not a shard file: %v", err)
	}
	switch {
	case f.Format == oldShardFormat:
		return nil, fmt.Errorf("%s: a shard file of format %q (cardlab %s), which does not record who began each game: this cardlab reads %q only; play the shards again with it", name, f.Format, f.ToolVersion, shardFormat)
	case f.Format != shardFormat:
		return nil, fmt.Errorf("%s: not a shard file (format %q, want %q)", name, f.Format, shardFormat)
	case !slices.Contains(shardCommands, f.Command):
		return nil, fmt.Errorf("%s: a shard of %q, which cardlab does not split", name, f.Command)
	case f.Shard.N < 1 || f.Shard.N > maxShards || f.Shard.K < 1 || f.Shard.K > f.Shard.N:
		return nil, fmt.Errorf("%s: shard %d/%d is out of range", name, f.Shard.K, f.Shard.N)
	case f.Checksum != f.sum():
		return nil, fmt.Errorf("%s: the checksum does not match the contents (a damaged or edited shard file): refusing to merge it", name)
	}
	return &f, nil
}

// isShardFile reports whether data looks like a shard file (its first key
// says so), to tell it from a simulate result.
func isShardFile(data []byte) bool {
	var probe struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &probe) == nil && (probe.Format == shardFormat || probe.Format == oldShardFormat)
}

// shardStart is how every shard file begins (of either format, so that an
// old one is refused by its format, not taken for a result).
var shardStart = regexp.MustCompile(`^\s*\{\s*"format"\s*:\s*"cardlab shard [12]"`)

// beginsAsShard reports whether the regular file name begins as a shard
// file does.
func beginsAsShard(name string) bool {
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 128)
	n, _ := io.ReadFull(f, b)
	return shardStart.Match(b[:n])
}

// mergeShards checks that the files are the n shards of one run and runs
// their command again on their records, writing its output as the
// unsharded run would.
func mergeShards(opts *MergeOptions, names []string, in []*shardFile) error {
	first := in[0]
	n := first.Shard.N
	byK := make([]*shardFile, n)
	owner := make([]string, n)
	for i, f := range in {
		differ := func(what string, x, y any) error {
			return fmt.Errorf("%s and %s differ in %s (%v vs %v): they are not shards of one run", names[0], names[i], what, x, y)
		}
		switch {
		case f.Command != first.Command:
			return differ("command", first.Command, f.Command)
		case f.ToolVersion != first.ToolVersion:
			return differ("tool_version", first.ToolVersion, f.ToolVersion)
		case f.Shard.N != n:
			return differ("the shard count n", n, f.Shard.N)
		case f.Rules != first.Rules:
			return differ("--rules", first.Rules, f.Rules)
		case !slices.Equal(f.Args, first.Args):
			return differ("flags", strings.Join(first.Args, " "), strings.Join(f.Args, " "))
		}
		if k := f.Shard.K; byK[k-1] != nil {
			return fmt.Errorf("shard %d/%d is in both %s and %s", k, n, owner[k-1], names[i])
		}
		byK[f.Shard.K-1], owner[f.Shard.K-1] = f, names[i]
	}
	var missing []string
	for k, f := range byK {
		if f == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k+1, n))
		}
	}
	if len(missing) > 0 {
		more := ""
		if len(missing) > 10 {
			more = fmt.Sprintf(" and %d more", len(missing)-10)
			missing = missing[:10]
		}
		return fmt.Errorf("missing shard %s%s: merge needs every shard of the run", strings.Join(missing, ", "), more)
	}
	if v := versionString(); first.ToolVersion != v {
		// The merge replays the command: the figures are only the
		// unsharded run's if the same code computes them.
		return fmt.Errorf("the shards were made by cardlab %s, this is %s: merge them with the build that played them", first.ToolVersion, v)
	}
	phases := make([][]analysis.Phase, n)
	for k, f := range byK {
		phases[k] = f.Phases
	}
	ledger, err := analysis.NewReplayLedger(phases)
	if err != nil {
		return err
	}
	if opts.OutFile != "" {
		if err := files.Check(opts.OutFile); err != nil {
			return err
		}
	}
	// The command runs again with the shards' flags, through its own
	// checks, and writes where merge was told to; its games come from the
	// ledger.
	rules := first.Rules
	if opts.RulesDir != "" {
		rules = opts.RulesDir
	}
	var args []string
	if rules != "" {
		args = append(args, "--rules", rules)
	}
	args = append(append(args, first.Command), first.Args...)
	if opts.OutFile != "" {
		args = append(args, "--out", opts.OutFile)
	} else if opts.JSON {
		args = append(args, "--json")
	}
	if first.Command == "report" {
		return mergeReport(opts, rules, first.Args, ledger)
	}
	root := NewCmdRoot()
	root.SetArgs(args)
	root.SetOut(opts.Out)
	root.SetErr(opts.ErrOut)
	_, err = root.ExecuteContextC(analysis.WithLedger(context.Background(), ledger))
	return err
}

// valuePrecision is --precision as the card-value experiment takes it: 0
// (off) plays exactly the first stage.
func valuePrecision(p float64) float64 {
	if p == 0 {
		return -1
	}
	return p
}

// reportShard plays shard k/n of a report's games and writes its shard
// file to --out FILE (a file here, not the report's folder).
func reportShard(opts *ReportOptions) error {
	if err := files.Check(opts.OutDir); err != nil {
		return err
	}
	l := analysis.NewShardLedger(opts.Shard)
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	opts.Context = analysis.WithLedger(ctx, l)
	if _, err := reportPlay(opts); err != nil && !l.Partial() {
		return err
	}
	_, err := shardDoneTo(opts.Context, opts.Out, opts.ErrOut, opts.OutDir, "report", opts.RulesDir, opts.ShardArgs)
	return err
}

// mergedReportDir is the folder the merged report's "Reproduce with"
// command names (the shards' --out was their shard files).
const mergedReportDir = "report"

// mergeReport replays a report's shards and writes its results.json — the
// one the unsharded run writes into its folder — to merge's --out FILE (or
// standard output), for 'cardlab report --from FILE --out DIR' to render.
func mergeReport(opts *MergeOptions, rules string, args []string, ledger *analysis.Ledger) error {
	var parsed *ReportOptions
	cmd := NewCmdReport(&globalOptions{RulesDir: rules}, func(o *ReportOptions) error { parsed = o; return nil })
	cmd.SetArgs(append(slices.Clone(args), "--out", mergedReportDir))
	cmd.SetOut(opts.Out)
	cmd.SetErr(opts.ErrOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.ExecuteContext(analysis.WithLedger(context.Background(), ledger)); err != nil {
		return fmt.Errorf("the shards' flags: %w", err)
	}
	data, err := reportPlay(parsed)
	if err != nil {
		return err
	}
	if err := ledger.Done(); err != nil {
		return err
	}
	tol := parsed.Tolerance / 100
	if tol == 0 {
		tol = -1 // no band, as reportRun
	}
	var b bytes.Buffer
	if err := reports.WriteResults(&b, data, reports.Options{Tolerance: tol, CardTolerance: parsed.CardTolerance}); err != nil {
		return err
	}
	where, err := writeResult(opts.Out, opts.OutFile, b.Bytes(), false)
	if err != nil {
		return err
	}
	if opts.OutFile != "" {
		fmt.Fprintf(opts.ErrOut, "wrote %s (render it: cardlab report --from %s --out %s)\n", where, shellQuote(opts.OutFile), mergedReportDir)
	}
	return nil
}
