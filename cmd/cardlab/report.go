package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/reports"
)

// Defaults of `cardlab report`: greedy bots play 2000 games per lineup, so
// the six 2-player lineups of the default ruleset take seconds on two cores
// and every faction's interval is about ±1.3 points wide.
const (
	reportDefaultBots  = defaultBots
	reportDefaultGames = defaultGames
	// reportDefaultImpactGames is the ablation's paired games per card, in
	// report --impact-games and impact --method ablation --games alike.
	reportDefaultImpactGames = 1000
)

// ReportOptions are the inputs of `cardlab report`.
type ReportOptions struct {
	Out, ErrOut io.Writer
	// Context is cancelled on Ctrl-C (SIGINT) or SIGTERM by reportRun.
	Context context.Context
	// RulesDir is --rules ("" the embedded default); BaseDir is --base, the
	// ruleset before a change, for the rules-change (diff) section.
	RulesDir, BaseDir string
	// From renders a results.json (or a `simulate --json` result) instead
	// of playing games.
	From string
	// OutDir receives balance.xlsx, index.html, summary.md and results.json.
	OutDir   string
	Matchups []string
	Bots     string
	Games    int
	Seed     uint64
	Workers  int
	// MinSample flags figures resting on fewer games (0: none flagged).
	MinSample int
	// Values runs the card-value experiment (on by default) until the
	// median 95% half-width of the cards' values is at most Precision
	// win-share points.
	Values     bool
	Precision  float64
	ValueGames int
	// Impact adds the ablation analysis, ImpactGames games per lineup and
	// card.
	Impact      bool
	ImpactGames int
	// Tolerance is --tolerance in win-share points: within it of the fair
	// share counts as balanced.
	Tolerance float64
	// ToleranceSet: --tolerance was given; otherwise --from renders with
	// the tolerance its results.json was rendered with.
	ToleranceSet bool
	// CardTolerance is --card-tolerance in win-share points: a card whose
	// text is worth beyond it over a plain card of its printed power is
	// flagged (docs/metrics.md, "Flags").
	CardTolerance float64
	// CardToleranceSet: --card-tolerance was given (else --from uses the
	// stored one).
	CardToleranceSet bool
	// Progress shows progress bars on ErrOut (when it is a terminal).
	Progress bool
	// Now is the time shown as when the report was made (zero: now).
	Now time.Time
}

// NewCmdReport parses the flags of `cardlab report`; runF replaces reportRun
// in tests.
func NewCmdReport(g *globalOptions, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{}
	cmd := &cobra.Command{
		Use:   "report --out DIR [--games N] [--bots SPEC] [--seed S] [--impact] [--base DIR] | --from results.json --out DIR",
		Short: "Simulate and write a balance report: workbook, web page, Markdown summary, data",
		Long: `Play the games a balance report needs and write it to DIR:

  index.html     one page that works offline, from 360 px wide: the verdict
                 and findings (faction imbalance first), what changed (with --base),
                 factions, cards by value, matchups, seats, targets, games,
                 and what each figure means; charts with 95% intervals
  cards.html     every card drawn as a card face beside its own figures, its
                 value first (printable nine to an A4 page)
  balance.xlsx   every figure, one table per sheet with a "Read me" sheet
                 defining every column, and a chart of the faction win shares
  summary.md     the verdict, what changed and the findings in plain Markdown,
                 for a forum post or a pull request
  results.json   the data the other four are made from; 'cardlab report
                 --from results.json --out DIR' renders them again without
                 playing, and 'cardlab merge' reads it like a simulate result

By default every pair of factions plays --games games (` + fmt.Sprint(reportDefaultGames) + `) with --bots
` + reportDefaultBots + ` (seats rotate; docs/metrics.md explains every figure): the faction,
seat, matchup and target figures describe the ruleset as written.

Then every card's value is measured in a separate experiment (--values,
on by default): each game blanks a few random card copies and moves a few
powers by ±1, and a model fitted over all games says what one copy of each
card is worth against a blank — in win-share points and in power points
("plays like a 9.4-power card") — and how far above or below its faction's
typical card it plays. It plays from --value-games per lineup until the
median 95% half-width of a card's value is at most --precision win-share
points (` + fmt.Sprint(analysis.DefaultValuePrecision) + `); a few
seconds on two cores. --impact adds the older one-card-at-a-time
ablation (--impact-games per lineup; this takes a while).
--base DIR compares the ruleset with an earlier version of it on paired games.

A faction, seat or matchup is reported out of balance when the 95% interval
of its win share lies outside --tolerance points around its fair share (the
test against the band significant after the Holm correction), possibly out of
balance when the interval reaches beyond the band, balanced when it lies
inside. A card is flagged when it is dead (one copy adds under 1 point of win
share over a blank, over its whole interval) or when what its text adds over
a plain card of its printed power lies beyond --card-tolerance points.

DIR is checked before any game is played. The files are rendered into a
temporary folder (beside a new DIR, inside an existing one) and moved into
place only when all of them are complete; if a move fails, the ones done are
undone: DIR holds all the new files or exactly what it held before (other
files in it are left alone). Ctrl-C stops at once and writes nothing.

While editing a ruleset, 'cardlab watch --rules DIR' answers every save with
the same comparison, live.`,
		Example: `  cardlab report --out report
  cardlab report --rules mygame --games 5000 --out mygame-report
  cardlab report --rules mygame --impact --out mygame-report
  cardlab simulate --games 10000 --json --out big.json && cardlab report --from big.json --out report`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir = g.RulesDir
			opts.Context = cmd.Context()
			f := cmd.Flags()
			if opts.OutDir == "" {
				return usageErrorf("--out DIR is required: the directory to write the report to")
			}
			if opts.From != "" {
				for _, name := range []string{"games", "bots", "seed", "matchups", "impact", "impact-games", "base", "workers", "min-sample", "values", "precision", "value-games"} {
					if f.Changed(name) {
						return usageErrorf("--from renders a result without playing games: --%s cannot be used with it", name)
					}
				}
			}
			if len(opts.Matchups) == 0 {
				opts.Matchups = []string{"all"}
			}
			for _, c := range []struct {
				flag      string
				v, lo, hi int
			}{{"games", opts.Games, 1, maxGames}, {"impact-games", opts.ImpactGames, 1, maxGames},
				{"workers", opts.Workers, 0, maxWorkers}, {"min-sample", opts.MinSample, 0, maxMinSample}} {
				if err := checkCount(c.flag, c.v, c.lo, c.hi); err != nil {
					return err
				}
			}
			if err := checkCount("value-games", opts.ValueGames, 64, maxGames); err != nil {
				return err
			}
			if !(opts.Precision >= analysis.MinPrecision) {
				return usageErrorf("--precision must be at least %g (a half-width in win-share points), got %g", analysis.MinPrecision, opts.Precision)
			}
			if !(opts.Tolerance >= 0 && opts.Tolerance < 50) {
				return usageErrorf("--tolerance must be at least 0 and below 50 points, got %g", opts.Tolerance)
			}
			opts.ToleranceSet = f.Changed("tolerance")
			opts.CardToleranceSet = f.Changed("card-tolerance")
			if !(opts.CardTolerance > 0 && opts.CardTolerance < 100) {
				return usageErrorf("--card-tolerance must be above 0 and below 100 points, got %g", opts.CardTolerance)
			}
			opts.Progress = isTerminal(opts.ErrOut)
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.OutDir, "out", "", "write the report into `DIR` (created if missing)")
	fl.StringVar(&opts.From, "from", "", "render `FILE` (results.json or a 'simulate --json' result) instead of playing games")
	fl.StringArrayVar(&opts.Matchups, "matchups", nil, "the lineups to play: all (every pair), all:N, or `LINEUPS` like a,b;c,d (default all)")
	fl.StringVar(&opts.Bots, "bots", reportDefaultBots, "the bot `SPEC` for every seat, or one per seat comma-separated")
	fl.IntVar(&opts.Games, "games", reportDefaultGames, "games per lineup `N`")
	fl.Uint64Var(&opts.Seed, "seed", 1, "master seed `S`: game i is seeded from S and i")
	fl.IntVar(&opts.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU); never changes the result")
	fl.IntVar(&opts.MinSample, "min-sample", analysis.DefaultMinSample, "flag figures resting on fewer than `N` games")
	fl.BoolVar(&opts.Values, "values", true, "measure every card's value (a screening experiment; --values=false skips it)")
	floatVar(fl, &opts.Precision, "precision", analysis.DefaultValuePrecision, "card values: play until the median 95% half-width of a card's value is at most `P` win-share points")
	fl.IntVar(&opts.ValueGames, "value-games", analysis.DefaultValueGames, "card values: games per lineup `N` to start with (more are played until --precision is reached)")
	fl.BoolVar(&opts.Impact, "impact", false, "add each card's causal impact (ablation: the same games without the card)")
	fl.IntVar(&opts.ImpactGames, "impact-games", reportDefaultImpactGames, "with --impact, games per lineup `N` for each card")
	fl.StringVar(&opts.BaseDir, "base", "", "compare with the ruleset in `DIR` (the version before the change) on paired games")
	floatVar(fl, &opts.Tolerance, "tolerance", reports.DefaultTolerance*100,
		"count a win share within ±`POINTS` of its fair share as balanced (findings and verdict)")
	floatVar(fl, &opts.CardTolerance, "card-tolerance", analysis.DefaultCardTolerance,
		"flag a card whose text adds more than ±`POINTS` of win share over a plain card of its printed power")
	return cmd
}

func reportRun(opts *ReportOptions) error {
	// The folder is checked before any game is played.
	if err := reports.CheckDir(opts.OutDir); err != nil {
		return err
	}
	var data *reports.Data
	var err error
	if opts.From != "" {
		data, err = reportFrom(opts)
	} else {
		data, err = reportPlay(opts)
	}
	if err != nil {
		return err
	}
	if opts.From != "" && !opts.ToleranceSet && data.Meta != nil && data.Meta.Tolerance != nil {
		// Rendered again as it was, unless told otherwise.
		if t := *data.Meta.Tolerance; !(t >= 0 && t < 50) {
			return fmt.Errorf("%s: report.tolerance_points %g is not a band (at least 0 and below 50 points)", opts.From, t)
		}
		opts.Tolerance = *data.Meta.Tolerance
	}
	if opts.From != "" && !opts.CardToleranceSet && data.Meta != nil && data.Meta.CardTolerance != nil {
		if t := *data.Meta.CardTolerance; !(t > 0 && t < 100) {
			return fmt.Errorf("%s: report.card_tolerance_points %g is not a band (above 0 and below 100 points)", opts.From, t)
		}
		opts.CardTolerance = *data.Meta.CardTolerance
	}
	tol := opts.Tolerance / 100
	if tol == 0 {
		tol = -1 // no band
	}
	if err := reports.Write(opts.OutDir, data, reports.Options{Now: opts.Now, Tolerance: tol, CardTolerance: opts.CardTolerance}); err != nil {
		return fmt.Errorf("writing the report to %s: %w", opts.OutDir, err)
	}
	var files []string
	for _, f := range reports.Files {
		files = append(files, filepath.Join(opts.OutDir, f))
	}
	fmt.Fprintf(opts.ErrOut, "wrote %s\n", strings.Join(files, ", "))
	if data.Partial {
		return fmt.Errorf("the result in %s is partial (interrupted)", opts.From)
	}
	return nil
}

// reportFrom reads a result to render. Without a recorded catalog the card
// faces come from --rules (or the embedded ruleset) when its hash matches.
func reportFrom(opts *ReportOptions) (*reports.Data, error) {
	data, err := reports.ReadFile(opts.From)
	if err != nil {
		return nil, err
	}
	if data.Meta == nil {
		data.Meta = &reports.Meta{}
	}
	if data.Meta.Catalog == nil {
		rs, err := loadRuleset(opts.RulesDir)
		switch {
		case err != nil:
			fmt.Fprintf(opts.ErrOut, "note: the gallery shows card names without faces: cannot read the ruleset: %v\n", err)
		case rs.Hash == data.Ruleset.Hash:
			data.Meta.Catalog = reports.CatalogOf(rs)
		default:
			where := "the embedded ruleset"
			if opts.RulesDir != "" {
				where = opts.RulesDir
			}
			fmt.Fprintf(opts.ErrOut, "note: %s was made with ruleset %s, not %s: the gallery shows card names without faces (give the ruleset with --rules)\n",
				opts.From, shortHash(data.Ruleset.Hash), where)
		}
	}
	return data, nil
}

// reportPlay plays the games of a report.
func reportPlay(opts *ReportOptions) (*reports.Data, error) {
	rs, err := loadForCommand(opts.RulesDir)
	if err != nil {
		return nil, err
	}
	var base *cards.Ruleset
	if opts.BaseDir != "" {
		if base, err = loadForCommand(opts.BaseDir); err != nil {
			return nil, err
		}
	}
	lineups, err := resolveLineups(rs, nil, opts.Matchups)
	if err != nil {
		return nil, err
	}
	specs, err := checkBotSpecs(opts.Bots, lineups)
	if err != nil {
		return nil, err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	minSample := opts.MinSample
	if minSample == 0 {
		minSample = -1 // 0 asked for: nothing is low_n
	}
	return playReport(ctx, reportGames{rules: rs, base: base, baseName: opts.BaseDir, lineups: lineups, specs: specs,
		games: opts.Games, seed: opts.Seed, workers: opts.Workers, minSample: minSample,
		values: opts.Values, valueGames: opts.ValueGames, precision: opts.Precision,
		impact: opts.Impact, impactGames: opts.ImpactGames, phases: &phaseBar{opts: opts},
		command: reportCommand(opts, specs)})
}

// reportGames is what a report plays: the ruleset, and with base the one
// before the change to compare it with on paired games.
type reportGames struct {
	rules, base *cards.Ruleset
	// baseName names base in errors (--base DIR).
	baseName  string
	lineups   [][]string
	specs     []string
	games     int
	seed      uint64
	workers   int
	minSample int // as analysis.Config takes it: -1 flags nothing
	// values runs the card-value experiment from valueGames per lineup
	// until the median half-width of the values is at most precision
	// win-share points.
	values      bool
	valueGames  int
	precision   float64
	impact      bool
	impactGames int
	phases      phases
	command     string
}

// phases shows the progress of a report's phases (the simulation, then
// impact or the comparison): progress starts a phase, finish ends it.
type phases interface {
	progress(what string) func(done, total int)
	finish()
}

// playReport plays a report's games and returns its data. `cardlab report`
// and `cardlab watch` both call it, so watch shows what the report would.
func playReport(ctx context.Context, g reportGames) (*reports.Data, error) {
	began := time.Now().UTC()
	bar := g.phases
	// The histograms count the games as they finish: memory does not grow
	// with --games.
	var hist reports.HistogramCounter
	cfg := analysis.Config{Ruleset: g.rules, Matchups: g.lineups, Bots: g.specs, Games: g.games, Seed: g.seed,
		Workers: g.workers, MinSample: g.minSample, Progress: bar.progress("simulating"),
		Record: func(r *analysis.GameRecord) error { hist.Add(r); return nil }}
	res, err := analysis.Run(ctx, cfg)
	bar.finish()
	if err != nil {
		return nil, err
	}
	if res.Partial {
		return nil, fmt.Errorf("interrupted after %d of %d games: no report written", res.Counts.Games, res.Total)
	}
	rep := res.Report(versionString())
	data := &reports.Data{Report: rep, Meta: &reports.Meta{
		Command:    g.command,
		Generated:  began.Format(time.RFC3339),
		Catalog:    reports.CatalogOf(g.rules),
		Histograms: hist.Histograms(),
	}}
	if g.values {
		vc := valueConfig(g.rules, g.lineups, g.specs, g.seed, g.workers)
		vc.Precision, vc.Games = g.precision, g.valueGames
		if g.base != nil {
			// Power is read at the base ruleset's price of a power point:
			// at the edited ruleset's own price, an edit of one card would
			// move every card's power with the price (docs/metrics.md).
			// The same seed as a report on the base ruleset: its price is
			// the one that report shows, so the two reports' powers are in
			// one unit. (Greedy games diverge within a few decisions, so
			// shared seeds barely correlate the two runs; power's interval
			// treats them as independent.)
			bc := valueConfig(g.base, g.lineups, g.specs, g.seed, g.workers)
			bc.Precision, bc.Games, bc.Progress = g.precision, g.valueGames, bar.progress("the price of power in --base")
			br, err := analysis.CardValues(ctx, bc)
			bar.finish()
			if err != nil {
				return nil, fmt.Errorf("the price of power in --base %s: %w", g.baseName, err)
			}
			if br.Partial {
				return nil, errors.New("interrupted during the card values of --base: no report written")
			}
			vc.Unit, vc.UnitFrom = br.Price, analysis.UnitFromBase(g.base)
		}
		vc.Progress = bar.progress("card values")
		vr, err := analysis.CardValues(ctx, vc)
		bar.finish()
		if err != nil {
			return nil, err
		}
		if vr.Partial {
			return nil, errors.New("interrupted during the card values: no report written")
		}
		analysis.AttachCardValues(rep, vr, vc)
	}
	if g.impact {
		im, err := analysis.Impact(ctx, analysis.ImpactConfig{Ruleset: g.rules, PairedConfig: analysis.PairedConfig{
			Matchups: g.lineups, Bots: g.specs, Games: g.impactGames, Seed: g.seed, Workers: g.workers,
			MinSample: g.minSample, Progress: bar.progress("impact")}})
		bar.finish()
		if err != nil {
			return nil, err
		}
		if im.Partial {
			return nil, errors.New("interrupted during the impact analysis: no report written")
		}
		im.ToolVersion = versionString()
		data.Impact = im
	}
	if g.base != nil {
		df, err := analysis.Diff(ctx, analysis.DiffConfig{Base: g.base, Variant: g.rules, PairedConfig: analysis.PairedConfig{
			Matchups: g.lineups, Bots: g.specs, Games: g.games, Seed: g.seed, Workers: g.workers,
			MinSample: g.minSample, Progress: bar.progress("comparing with --base")}})
		bar.finish()
		if err != nil {
			return nil, fmt.Errorf("comparing with --base %s: %w", g.baseName, err)
		}
		if df.Partial {
			return nil, errors.New("interrupted during the comparison with --base: no report written")
		}
		df.ToolVersion = versionString()
		data.Diff = df
	}
	return data, nil
}

// phaseBar shows the progress of each phase of a report's games (the
// simulation, then impact or diff) as its own bar on ErrOut.
type phaseBar struct {
	opts *ReportOptions
	cur  *gameBar
}

// progress returns the Progress func of a phase (nil without a terminal).
func (b *phaseBar) progress(what string) func(done, total int) {
	b.finish()
	b.cur = newGameBar(b.opts.ErrOut, b.opts.Progress, what)
	return b.cur.progress()
}

func (b *phaseBar) finish() {
	if b.cur != nil {
		b.cur.done()
	}
}

// reportCommand is the command line that plays the same games again and
// writes the same report: every setting spelled out, so that a change of
// the defaults does not change what it means.
func reportCommand(opts *ReportOptions, specs []string) string {
	parts := []string{"cardlab report"}
	if opts.RulesDir != "" {
		parts = append(parts, "--rules", shellQuote(opts.RulesDir))
	}
	if opts.BaseDir != "" {
		parts = append(parts, "--base", shellQuote(opts.BaseDir))
	}
	if !(len(opts.Matchups) == 1 && opts.Matchups[0] == "all") {
		for _, m := range opts.Matchups {
			parts = append(parts, "--matchups", shellQuote(m))
		}
	}
	parts = append(parts, "--bots", shellQuote(strings.Join(specs, ",")), "--games", fmt.Sprint(opts.Games),
		"--seed", fmt.Sprint(opts.Seed))
	if opts.MinSample != analysis.DefaultMinSample {
		parts = append(parts, "--min-sample", fmt.Sprint(opts.MinSample))
	}
	if !opts.Values {
		parts = append(parts, "--values=false")
	} else {
		if opts.Precision != analysis.DefaultValuePrecision {
			parts = append(parts, "--precision", fmt.Sprint(opts.Precision))
		}
		if opts.ValueGames != analysis.DefaultValueGames {
			parts = append(parts, "--value-games", fmt.Sprint(opts.ValueGames))
		}
	}
	if opts.Impact {
		parts = append(parts, "--impact", "--impact-games", fmt.Sprint(opts.ImpactGames))
	}
	if opts.Tolerance != reports.DefaultTolerance*100 {
		parts = append(parts, "--tolerance", strconv.FormatFloat(opts.Tolerance, 'g', -1, 64))
	}
	if opts.CardTolerance > 0 && opts.CardTolerance != analysis.DefaultCardTolerance {
		parts = append(parts, "--card-tolerance", strconv.FormatFloat(opts.CardTolerance, 'g', -1, 64))
	}
	return strings.Join(append(parts, "--out", shellQuote(opts.OutDir)), " ")
}
