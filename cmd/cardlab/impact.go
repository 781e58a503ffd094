package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/files"
)

// BatchOptions are the inputs every batch command shares: simulate and the
// paired analyses (impact, sweep, diff, skill).
type BatchOptions struct {
	Out, ErrOut io.Writer
	// Context is cancelled on Ctrl-C (SIGINT) or SIGTERM.
	Context  context.Context
	RulesDir string
	// Players is the --players lineup (nil if not given); Matchups holds the
	// --matchups values: "all", "all:N" or lineups, ";"-separated.
	Players  []string
	Matchups []string
	Bots     string
	Games    int
	Seed     uint64
	Workers  int
	JSON     bool
	// OutFile receives the result instead of standard output (atomically).
	OutFile   string
	MinSample int
	// Progress shows a progress bar on ErrOut (when it is a terminal).
	Progress bool
}

// batchFlags registers the shared flags; players receives --players.
func batchFlags(cmd *cobra.Command, o *BatchOptions, players *string, games int, gamesUsage string, withBots bool) {
	fl := cmd.Flags()
	fl.StringVar(players, "players", "", "play one lineup: the factions in seat order, a comma-separated `LIST`")
	fl.StringArrayVar(&o.Matchups, "matchups", nil, "the lineups to play: all (every pair), all:N, or `LINEUPS` like a,b;c,d (default all)")
	if withBots {
		fl.StringVar(&o.Bots, "bots", "random", "the bot `SPEC` for every seat, or one per seat comma-separated")
	}
	fl.IntVar(&o.Games, "games", games, gamesUsage)
	fl.Uint64Var(&o.Seed, "seed", 1, "master seed `S`: game i is seeded from S and i")
	fl.IntVar(&o.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU); never changes the result")
	fl.BoolVar(&o.JSON, "json", false, "write the result as JSON (docs/metrics.md)")
	fl.StringVar(&o.OutFile, "out", "", "write the result to `FILE` (atomically) instead of standard output")
	fl.IntVar(&o.MinSample, "min-sample", analysis.DefaultMinSample, "flag figures resting on fewer than `N` games as low_n")
}

// checkRunFlags validates the flags every batch command shares and returns
// the --players lineup (nil if not given) and the matchups (default all).
func checkRunFlags(cmd *cobra.Command, players string, matchups []string, games, workers, minSample int) ([]string, []string, error) {
	f := cmd.Flags()
	if f.Changed("players") && f.Changed("matchups") {
		return nil, nil, usageErrorf("--players and --matchups cannot be used together")
	}
	var lineup []string
	if f.Changed("players") {
		for _, p := range strings.Split(players, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				return nil, nil, usageErrorf("--players %q: empty faction name", players)
			}
			lineup = append(lineup, p)
		}
	} else if len(matchups) == 0 {
		matchups = []string{"all"}
	}
	for _, c := range []struct {
		flag      string
		v, lo, hi int
	}{{"games", games, 1, maxGames}, {"workers", workers, 0, maxWorkers}, {"min-sample", minSample, 0, maxMinSample}} {
		if err := checkCount(c.flag, c.v, c.lo, c.hi); err != nil {
			return nil, nil, err
		}
	}
	return lineup, matchups, nil
}

// checkBatchFlags validates the shared flags after parsing.
func checkBatchFlags(cmd *cobra.Command, g *globalOptions, o *BatchOptions, players string) error {
	o.Out, o.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
	o.RulesDir = g.RulesDir
	o.Context = cmd.Context()
	var err error
	o.Players, o.Matchups, err = checkRunFlags(cmd, players, o.Matchups, o.Games, o.Workers, o.MinSample)
	if err != nil {
		return err
	}
	o.Progress = isTerminal(o.ErrOut)
	if o.OutFile != "" {
		// Checked before any game is played; a bad --out is a request
		// that cannot be met (exit 1), not a usage error.
		if err := files.Check(o.OutFile); err != nil {
			return &runError{err}
		}
	}
	return nil
}

// pairedConfig builds the analysis config; finish clears the progress bar.
func pairedConfig(o *BatchOptions, lineups [][]string, specs []string, what string) (cfg analysis.PairedConfig, finish func()) {
	minSample := o.MinSample
	if minSample == 0 {
		minSample = -1 // 0 asked for: nothing is low_n
	}
	cfg = analysis.PairedConfig{Matchups: lineups, Bots: specs, Games: o.Games, Seed: o.Seed,
		Workers: o.Workers, MinSample: minSample}
	bar := newGameBar(o.ErrOut, o.Progress, what)
	cfg.Progress = bar.progress()
	return cfg, bar.done
}

// writePaired writes a paired result (JSON or the tables) and reports an
// interrupted run as an error after writing it.
func writePaired(o *BatchOptions, result any, tables func(w io.Writer) error, partial bool, games int64) error {
	var b bytes.Buffer
	if o.JSON {
		if err := writeJSON(&b, result); err != nil {
			return err
		}
	} else if err := tables(&b); err != nil {
		return err
	}
	where, err := writeResult(o.Out, o.OutFile, b.Bytes(), partial)
	if err != nil {
		return err
	}
	if partial {
		return fmt.Errorf("interrupted: %s", partialNote(where, o.OutFile))
	}
	if o.OutFile != "" {
		fmt.Fprintf(o.ErrOut, "wrote %s (%d games)\n", o.OutFile, games)
	}
	return nil
}

// points formats a difference of shares in percentage points.
func points(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }

func pointsCI(c [2]float64) string {
	return fmt.Sprintf("[%+.1f, %+.1f]", 100*c[0], 100*c[1])
}

func pValue(p float64) string {
	switch {
	case p < 0.001:
		return "<0.001"
	case p >= 0.995:
		return "1"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

func star(b bool) string {
	if b {
		return "*"
	}
	return ""
}

func armLine(a analysis.ArmInfo) string {
	return fmt.Sprintf("%d %s × %d games, bots %s, seed %d", len(a.Matchups),
		plural(len(a.Matchups), "lineup", "lineups"), a.Games, strings.Join(a.Bots, ","), a.Seed)
}

func rulesetLine(r analysis.RulesetInfo) string {
	return fmt.Sprintf("%s %s (ruleset %s)", r.Name, r.Version, shortHash(r.Hash))
}

// --- impact -------------------------------------------------------------------

// ImpactOptions are the inputs of `cardlab impact`.
type ImpactOptions struct {
	BatchOptions
	// Cards are the ids to test; nil for all.
	Cards []string
	Mode  string
}

// NewCmdImpact parses the flags of `cardlab impact`; runF replaces impactRun
// in tests.
func NewCmdImpact(g *globalOptions, runF func(*ImpactOptions) error) *cobra.Command {
	opts := &ImpactOptions{}
	var players, cardList string
	cmd := &cobra.Command{
		Use:   "impact [--cards all|ID,…] [--mode blank|effect-off] [--players F1,F2 | --matchups all] [--bots SPEC] --games N",
		Short: "Measure each card's causal effect on its faction's win share (ablation)",
		Long: `Measure what each card is worth to its faction: the games are played once as
the ruleset stands (the baseline) and again, on the same seeds, with the card
replaced — by a blank of the same type with no effect and power 0 (--mode
blank, the default), or with only its effect removed (--mode effect-off).
Same seeds mean the same deals and target orders, so each game is compared
with its own twin.

The impact is the faction's win share with the card minus without it, with a
95% interval from the per-game paired differences (Student's t; the exact
sign test gives the p-value when fewer than 25 games differ), and p-values
adjusted for the number of cards tested by Benjamini–Hochberg (a false
discovery rate of 5% among the cards flagged *). Cards are ranked by impact.

--games N is the number of paired games per card: only the lineups with the
card's faction are replayed, so with --matchups all (each faction in 3 of
the 6 pairs) every lineup plays ⌈N/3⌉ games. The result never depends on
--workers. docs/metrics.md ("Paired comparisons") explains every figure.`,
		Example: `  cardlab impact --bots greedy --games 2000             # every card, blanked
  cardlab impact --cards kl-d7,kl-raptor --mode effect-off --games 5000
  cardlab impact --players starfleet,klingon --games 1000 --json --out impact.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBatchFlags(cmd, g, &opts.BatchOptions, players); err != nil {
				return err
			}
			opts.Mode = strings.ToLower(strings.TrimSpace(opts.Mode))
			if opts.Mode != analysis.ModeBlank && opts.Mode != analysis.ModeEffectOff {
				return usageErrorf("--mode must be blank or effect-off, got %q", opts.Mode)
			}
			opts.Cards = nil
			if c := strings.TrimSpace(cardList); c != "" && c != "all" {
				for _, id := range strings.Split(c, ",") {
					id = strings.TrimSpace(id)
					if id == "" {
						return usageErrorf("--cards %q: empty card id", cardList)
					}
					opts.Cards = append(opts.Cards, id)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return impactRun(opts)
		},
	}
	batchFlags(cmd, &opts.BatchOptions, &players, 1000, "paired games `N` per card (its faction's lineups share them)", true)
	cmd.Flags().StringVar(&cardList, "cards", "all", "the cards to test: all, or card `IDS` comma-separated")
	cmd.Flags().StringVar(&opts.Mode, "mode", analysis.ModeBlank, "blank (same type, no effect, power 0) or effect-off (only the effect removed)")
	return cmd
}

func impactRun(opts *ImpactOptions) error {
	rs, lineups, specs, err := loadBatch(opts.RulesDir, opts.Players, opts.Matchups, opts.Bots)
	if err != nil {
		return err
	}
	ids, err := resolveCards(rs, opts.Cards)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	pc, finish := pairedConfig(&opts.BatchOptions, lineups, specs, "impact")
	res, err := analysis.Impact(ctx, analysis.ImpactConfig{PairedConfig: pc, Ruleset: rs, Mode: opts.Mode,
		Cards: ids, GamesPerCard: opts.Games})
	finish()
	if err != nil {
		return err
	}
	res.ToolVersion = versionString()
	return writePaired(&opts.BatchOptions, res, func(w io.Writer) error { return writeImpactTables(w, res) },
		res.Partial, res.BaselineGames+res.VariantGames)
}

// resolveCards checks card ids (nil: all).
func resolveCards(rs *cards.Ruleset, ids []string) ([]string, error) {
	if ids == nil {
		return nil, nil
	}
	all := make([]string, len(rs.Cards))
	for i := range rs.Cards {
		all[i] = rs.Cards[i].ID
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		c, ok := rs.CardByID(id)
		if !ok {
			for i := range rs.Cards {
				if strings.EqualFold(rs.Cards[i].ID, id) {
					c, ok = &rs.Cards[i], true
					break
				}
			}
		}
		if !ok {
			return nil, didYouMean("card", id, all)
		}
		out = append(out, c.ID)
	}
	return out, nil
}

func writeImpactTables(w io.Writer, r *analysis.ImpactResult) error {
	fmt.Fprintln(w, rulesetLine(r.Ruleset))
	what := "blank: same type, no effect, power 0"
	if r.Mode == analysis.ModeEffectOff {
		what = "effect off: kind N, power kept"
	}
	tested := 0
	for _, c := range r.Cards {
		if c.Skipped == "" {
			tested++
		}
	}
	fmt.Fprintf(w, "Card impact (%s): %d %s; %s\n", what, tested, plural(tested, "card", "cards"), armLine(r.ArmInfo))
	if r.Partial {
		fmt.Fprintln(w, "PARTIAL (interrupted)")
	}
	fmt.Fprintf(w, "IMPACT = the faction's win %% with the card − with it ablated, in points, on the same games;\n")
	fmt.Fprintf(w, "95%% paired interval; p adjusted by Benjamini–Hochberg over %d cards; * significant (FDR %.0f%%)\n\n", tested, 100*r.Alpha)
	t := &table{align: "rllrrrrlrr"}
	t.add("RANK", "CARD", "FACTION", "GAMES", "WITH%", "WITHOUT%", "IMPACT", "95% CI", "P_ADJ", "CHANGED")
	var skipped []analysis.CardImpact
	for _, c := range r.Cards {
		if c.Skipped != "" {
			skipped = append(skipped, c)
			continue
		}
		t.add(strconv.Itoa(c.Rank), c.ID, c.Faction, strconv.FormatInt(c.Games, 10), pct(c.WithCard), pct(c.Ablated),
			points(c.Delta)+star(c.Significant), pointsCI(c.CI95), pValue(c.PAdj), strconv.FormatInt(c.Changed, 10))
	}
	if err := t.write(w); err != nil {
		return err
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "\nNot tested (%d):\n", len(skipped))
		for _, c := range skipped {
			fmt.Fprintf(w, "  %s: %s\n", c.ID, c.Skipped)
		}
	}
	fmt.Fprintf(w, "\n%d baseline + %d ablated games in %.1f s (%.0f games/s)\n", r.BaselineGames, r.VariantGames,
		r.Timing.Seconds, r.Timing.GamesPerSecond)
	return nil
}

// botList splits and checks a comma-separated list of bot specs.
func botList(spec string) ([]string, error) {
	parts := bots.SplitList(spec)
	for i := range parts {
		parts[i] = strings.ToLower(strings.TrimSpace(parts[i]))
		if _, err := bots.Parse(parts[i], 0); err != nil {
			return nil, err
		}
	}
	return parts, nil
}
