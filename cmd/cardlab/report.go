package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/reports"
)

// Defaults of `cardlab report`: the strong bot plays 1000 games per lineup
// (every faction's interval about ±1.8 points wide), cheap bots (greedy,
// random) 2000 (±1.3); the check stage replays the same games with the
// other tier (docs/metrics.md, "Skill-dependent verdicts").
const (
	reportDefaultBots  = defaultBots
	reportDefaultGames = defaultGames
	// reportStrongGames is --games at a costly tier (strong, ISMCTS): 6000
	// games of the strong bot take about 54 s of CPU.
	reportStrongGames = 1000
	// reportStrongValueGames and reportStrongValueMaxGames are the card
	// values' first stage and budget per lineup at a costly tier: the
	// precision --precision asks for (59,000 greedy games) would take
	// about 9 minutes of CPU with the strong bot, so the experiment stops
	// at the budget and the report states the precision it reached.
	reportStrongValueGames    = 1500
	reportStrongValueMaxGames = 2500
	// noCheck is --check-bots that skips the check stage.
	noCheck = "none"
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
	// CheckBots is the check stage's tier ("": the other tier, greedy or
	// strong; noCheck: none).
	CheckBots string
	// ValueMaxGames caps the card values' games per lineup (0: the tier's
	// default).
	ValueMaxGames int
	// GamesSet, ValueGamesSet: --games, --value-games were given (else the
	// tier's defaults apply).
	GamesSet, ValueGamesSet bool
	// BotsSet: --bots was given (another game without strong plays its
	// own default bot otherwise: defaultBotFor).
	BotsSet bool
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
	// ValueFlags are the flags given of the card values and impact, which
	// only a game with a game.Valuer has.
	ValueFlags []string
	// Progress shows progress bars on ErrOut (when it is a terminal).
	Progress bool
	// Now is the time shown as when the report was made (zero: now).
	Now time.Time
	// Shard is --shard k/n (zero: the whole run), and ShardArgs the flags
	// its shard file records: see shard.go.
	Shard     analysis.Shard
	ShardArgs []string
}

// NewCmdReport parses the flags of `cardlab report`; runF replaces reportRun
// in tests.
func NewCmdReport(g *globalOptions, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{}
	var shard string
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

By default every pair of factions plays --games games (` + fmt.Sprint(reportStrongGames) + `; ` + fmt.Sprint(reportDefaultGames) + ` with greedy
or random bots) with --bots ` + reportDefaultBots + ` (seats rotate; docs/metrics.md explains every
figure): the faction, seat, matchup and target figures describe the ruleset as
written, as strong play finds it.

A check stage then replays the same games (same per-game seeds, so the same
deals) with --check-bots (greedy; strong when --bots is greedy or random;
none skips it) and compares every faction's win share between the two tiers
on the paired games, and with card values every card's value: a verdict that
changes with skill (the change beyond the --tolerance band after the Holm
correction, and the verdict different) is marked skill-dependent in the
verdict, the findings, the cards chart, summary.md, the workbook and
results.json ("Klingon: +4.7 (possibly out) against greedy play, -8.8 (out
of balance) against strong play").

Then every card's value is measured in a separate experiment (--values,
on by default): each game blanks a few random card copies and moves a few
powers by ±1, and a model fitted over all games says what one copy of each
card is worth against a blank — in win-share points and in power points
("plays like a 9.4-power card") — and how far above or below its faction's
typical card it plays. It plays from --value-games per lineup until the
median 95% half-width of a card's value is at most --precision win-share
points (` + fmt.Sprint(analysis.DefaultValuePrecision) + `) or --value-max-games per lineup are played
(` + fmt.Sprint(analysis.DefaultValueMaxGames) + `; ` + fmt.Sprint(reportStrongValueMaxGames) + ` with a costly bot such as strong,
whose 9 ms a game would take minutes to reach the precision); the report
says the precision reached and the bots that played. --impact adds the older one-card-at-a-time
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
the same comparison, live.

--shard k/n plays only part k of n of every phase's games (simulation, card
values, --impact, --base) and writes a shard file to --out FILE instead of a
report; 'cardlab merge' of all n files writes the results.json of the whole
run, which 'cardlab report --from FILE --out DIR' renders: the unsharded
report, byte for byte but for times and timings (docs/distributed.md).
A sharded report plays a fixed number of games: give --precision 0 (card
values on exactly --value-games per lineup) or --values=false.`,
		Example: `  cardlab report --out report
  cardlab report --rules mygame --games 5000 --out mygame-report
  cardlab report --rules mygame --impact --out mygame-report
  cardlab simulate --games 10000 --json --out big.json && cardlab report --from big.json --out report
  cardlab report --precision 0 --shard 2/8 --out shard-2.json     # then: cardlab merge shard-*.json --out results.json`,
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
				for _, name := range []string{"games", "bots", "seed", "matchups", "impact", "impact-games", "base", "workers", "min-sample", "values", "precision", "value-games", "value-max-games", "check-bots", "shard"} {
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
			if f.Changed("value-max-games") {
				if err := checkCount("value-max-games", opts.ValueMaxGames, 64, maxGames); err != nil {
					return err
				}
			}
			opts.GamesSet, opts.ValueGamesSet = f.Changed("games"), f.Changed("value-games")
			opts.BotsSet = f.Changed("bots")
			if opts.CheckBots != noCheck && opts.From == "" {
				if opts.CheckBots == "" && f.Changed("check-bots") {
					return usageErrorf("--check-bots needs a bot spec, or %s to skip the check", noCheck)
				}
				if opts.CheckBots != "" {
					if err := checkDefaultBot(opts.CheckBots); err != nil {
						return err
					}
				}
			}
			if !(opts.Precision == 0 || opts.Precision >= analysis.MinPrecision) {
				return usageErrorf("--precision must be 0 (off: exactly --value-games per lineup) or at least %g (a half-width in win-share points), got %g", analysis.MinPrecision, opts.Precision)
			}
			if err := parseShardFlag(cmd, shard, &opts.Shard, &opts.ShardArgs); err != nil {
				return err
			}
			if opts.Shard.N > 0 && opts.Values && opts.Precision != 0 {
				return usageErrorf("--shard needs a fixed number of games: add --precision 0 (card values on exactly --value-games per lineup) or --values=false; stopping when precise enough needs every shard's games in one place")
			}
			if !(opts.Tolerance >= 0 && opts.Tolerance < 50) {
				return usageErrorf("--tolerance must be at least 0 and below 50 points, got %g", opts.Tolerance)
			}
			for _, name := range valueFlags {
				// --values=false and --impact=false ask for what a game
				// without a Valuer gets anyway: no refusal.
				off := (name == "values" && !opts.Values) || (name == "impact" && !opts.Impact)
				if f.Changed(name) && !off {
					opts.ValueFlags = append(opts.ValueFlags, "--"+name)
				}
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
	fl.StringVar(&opts.OutDir, "out", "", "write the report into `DIR` (created if missing; with --shard, the shard FILE)")
	fl.StringVar(&opts.From, "from", "", "render `FILE` (results.json or a 'simulate --json' result) instead of playing games")
	fl.StringArrayVar(&opts.Matchups, "matchups", nil, "the lineups to play: all (every pair), all:N, or `LINEUPS` like a,b;c,d (default all)")
	fl.StringVar(&opts.Bots, "bots", reportDefaultBots, "the bot `SPEC` for every seat, or one per seat comma-separated")
	fl.IntVar(&opts.Games, "games", reportDefaultGames, "games per lineup `N`")
	tierDefault(fl, "games", reportStrongGames)
	fl.StringVar(&opts.CheckBots, "check-bots", "", "replay the same games with the bot `SPEC` and mark the verdicts that change (default: greedy, or strong with --bots greedy or random; another game: greedy, or random with --bots greedy; "+noCheck+": no check)")
	fl.IntVar(&opts.ValueMaxGames, "value-max-games", 0, "card values: play at most `N` games per lineup (default "+fmt.Sprint(analysis.DefaultValueMaxGames)+", "+fmt.Sprint(reportStrongValueMaxGames)+" with a costly bot); the report says the precision reached")
	fl.Uint64Var(&opts.Seed, "seed", 1, "master seed `S`: game i is seeded from S and i")
	fl.IntVar(&opts.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU); never changes the result")
	fl.IntVar(&opts.MinSample, "min-sample", analysis.DefaultMinSample, "flag figures resting on fewer than `N` games")
	fl.BoolVar(&opts.Values, "values", true, "measure every card's value (a screening experiment; --values=false skips it)")
	floatVar(fl, &opts.Precision, "precision", analysis.DefaultValuePrecision, "card values: play until the median 95% half-width of a card's value is at most `P` win-share points (0: exactly --value-games, as --shard needs)")
	fl.IntVar(&opts.ValueGames, "value-games", analysis.DefaultValueGames, "card values: games per lineup `N` to start with (more are played until --precision is reached)")
	tierDefault(fl, "value-games", reportStrongValueGames)
	fl.BoolVar(&opts.Impact, "impact", false, "add each card's causal impact (ablation: the same games without the card)")
	fl.IntVar(&opts.ImpactGames, "impact-games", reportDefaultImpactGames, "with --impact, games per lineup `N` for each card")
	fl.StringVar(&opts.BaseDir, "base", "", "compare with the ruleset in `DIR` (the version before the change) on paired games")
	floatVar(fl, &opts.Tolerance, "tolerance", reports.DefaultTolerance*100,
		"count a win share within ±`POINTS` of its fair share as balanced (findings and verdict)")
	floatVar(fl, &opts.CardTolerance, "card-tolerance", analysis.DefaultCardTolerance,
		"flag a card whose text adds more than ±`POINTS` of win share over a plain card of its printed power")
	shardFlag(cmd, &shard)
	return cmd
}

func reportRun(opts *ReportOptions) error {
	if opts.Shard.N > 0 {
		return reportShard(opts)
	}
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
	now := opts.Now
	if now.IsZero() {
		now = reportTime()
	}
	if err := reports.Write(opts.OutDir, data, reports.Options{Now: now, Tolerance: tol, CardTolerance: opts.CardTolerance}); err != nil {
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
	if data.Meta.Catalog != nil {
		// results.json holds no printed faces (they are the game's
		// wording of its ruleset): the gallery draws them from the ruleset
		// when it is the one the result was made from, else plain faces.
		if g, err := detectGame(opts.RulesDir); err == nil {
			if rs, err := loadRuleset(g, opts.RulesDir); err == nil && rs.Info().Hash == data.Ruleset.Hash {
				reports.AddFaces(data.Meta.Catalog, rs)
			}
		}
	}
	if data.Meta.Catalog == nil {
		g, err := detectGame(opts.RulesDir)
		var rs game.Ruleset
		if err == nil {
			rs, err = loadRuleset(g, opts.RulesDir)
		}
		switch {
		case err != nil:
			fmt.Fprintf(opts.ErrOut, "note: the gallery shows card names without faces: cannot read the ruleset: %v\n", err)
		case rs.Info().Hash == data.Ruleset.Hash:
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

// valueFlags are report's flags of the card values and impact, which only a
// game with a game.Valuer takes.
var valueFlags = []string{"values", "precision", "value-games", "value-max-games", "impact", "impact-games", "card-tolerance"}

// reportPlay plays the games of a report, of any game: card values and
// impact where its ruleset is a game.Valuer (in its unit), and the skill
// check with the card values at the check tier.
func reportPlay(opts *ReportOptions) (*reports.Data, error) {
	rs, err := loadRulesetDir(opts.RulesDir)
	if err != nil {
		return nil, err
	}
	_, valued := rs.(game.Valuer)
	if refused := opts.ValueFlags; !valued && len(refused) > 0 {
		return nil, fmt.Errorf("%s: card values and impact need a blank and a unit of value (a game.Valuer), which %s's rules do not give; its report has the games alone", strings.Join(refused, ", "), rs.Game())
	}
	var base game.Ruleset
	if opts.BaseDir != "" {
		if base, err = loadRulesetDir(opts.BaseDir); err != nil {
			return nil, err
		}
		if base.Game() != rs.Game() {
			return nil, fmt.Errorf("--base: a report compares two versions of one game; the base is %s, this ruleset %s", base.Game(), rs.Game())
		}
	}
	lineups, err := resolveLineups(rs, nil, opts.Matchups)
	if err != nil {
		return nil, err
	}
	if !opts.BotsSet && opts.Bots == reportDefaultBots {
		opts.Bots = defaultBotFor(rs)
	}
	specs, err := checkBotSpecs(rs, opts.Bots, lineups)
	if err != nil {
		return nil, err
	}
	check, err := reportCheckBots(rs, opts.CheckBots, specs, lineups)
	if err != nil {
		return nil, err
	}
	opts.Values, opts.Impact = opts.Values && valued, opts.Impact && valued
	cvg, cvm := checkValueBudget(opts, check)
	tierDefaults(opts, specs)
	ctx, stop := interruptible(opts.Context)
	defer stop()
	minSample := opts.MinSample
	if minSample == 0 {
		minSample = -1 // 0 asked for: nothing is low_n
	}
	return playReport(ctx, reportGames{rules: rs, base: base, baseName: opts.BaseDir, lineups: lineups, specs: specs,
		games: opts.Games, seed: opts.Seed, workers: opts.Workers, minSample: minSample,
		values: opts.Values, valueGames: opts.ValueGames, valueMaxGames: opts.ValueMaxGames, precision: valuePrecision(opts.Precision),
		checkValueGames: cvg, checkValueMaxGames: cvm,
		impact: opts.Impact, impactGames: opts.ImpactGames, phases: &phaseBar{opts: opts},
		check: check, command: reportCommand(opts, specs, check)})
}

// costly says whether a tier's bots cost much more than greedy's (all but
// random and greedy): the report's defaults for games are then smaller.
func costly(specs []string) bool {
	for _, s := range specs {
		if n, _, _ := strings.Cut(s, ":"); n != "greedy" && n != "random" {
			return true
		}
	}
	return false
}

// tierDefaults sets --games, --value-games and --value-max-games that were
// not given to the defaults of the report's tier.
func tierDefaults(opts *ReportOptions, specs []string) {
	c := costly(specs)
	if !opts.GamesSet && c {
		opts.Games = reportStrongGames
	}
	if !opts.ValueGamesSet && c {
		opts.ValueGames = reportStrongValueGames
	}
	if opts.ValueMaxGames == 0 {
		opts.ValueMaxGames = analysis.DefaultValueMaxGames
		if c {
			opts.ValueMaxGames = reportStrongValueMaxGames
		}
	}
	opts.ValueMaxGames = max(opts.ValueMaxGames, opts.ValueGames)
}

// checkValueBudget is the card values' first stage and budget per lineup at
// the check tier: its own tier's defaults, or what --value-games and
// --value-max-games say (never more than a costly tier's budget, so that a
// report at greedy is not made slow by its check).
func checkValueBudget(opts *ReportOptions, check []string) (games, maxGames int) {
	games, maxGames = analysis.DefaultValueGames, analysis.DefaultValueMaxGames
	if costly(check) {
		games, maxGames = reportStrongValueGames, reportStrongValueMaxGames
	}
	if opts.ValueGamesSet {
		games = min(games, opts.ValueGames)
	}
	if opts.ValueMaxGames != 0 {
		maxGames = min(maxGames, opts.ValueMaxGames)
	}
	return games, max(games, maxGames)
}

// reportCheckBots is the check stage's tier: spec, or when "" the other
// tier — strong when the report plays cheap bots (greedy, random) and the
// game has it, else greedy, or random when the report plays greedy or the
// game has no greedy — and nil for none (noCheck, or a default that is the
// report's own tier).
func reportCheckBots(rs game.Ruleset, spec string, specs []string, lineups [][]string) ([]string, error) {
	given := spec != ""
	switch spec {
	case noCheck:
		return nil, nil
	case "":
		names := bots.NamesFor(rs)
		cb, ok := rs.(game.CheckBotter)
		switch {
		case ok:
			spec = cb.CheckBot(strings.Join(specs, ","))
		case !costly(specs) && slices.Contains(names, "strong"):
			spec = "strong"
		case slices.Contains(names, "greedy") && strings.Join(specs, ",") != "greedy":
			spec = "greedy"
		default:
			spec = "random"
		}
	}
	check, err := checkBotSpecs(rs, spec, lineups)
	if err != nil {
		return nil, err
	}
	if strings.Join(check, ",") == strings.Join(specs, ",") {
		if !given {
			return nil, nil
		}
		return nil, fmt.Errorf("--check-bots %s is the report's own tier (--bots): give another bot, or %s", spec, noCheck)
	}
	return check, nil
}

// reportGames is what a report plays: the ruleset, and with base the one
// before the change to compare it with on paired games.
type reportGames struct {
	rules, base game.Ruleset
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
	values        bool
	valueGames    int
	valueMaxGames int // 0: analysis' default
	// checkValueGames, checkValueMaxGames: the same at the check tier.
	checkValueGames, checkValueMaxGames int
	precision                           float64
	impact                              bool
	impactGames                         int
	// check is the check stage's bots (nil: no check): the same games
	// replayed, and with values the card values measured, at that tier.
	check   []string
	phases  phases
	command string
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
	began := reportTime()
	bar := g.phases
	// The histograms count the games as they finish: memory does not grow
	// with --games.
	var hist reports.HistogramCounter
	var outs *analysis.Outcomes
	if g.check != nil {
		outs = analysis.NewOutcomes(g.lineups, g.games)
	}
	cfg := analysis.Config{Game: g.rules, Matchups: g.lineups, Bots: g.specs, Games: g.games, Seed: g.seed,
		Workers: g.workers, MinSample: g.minSample, Progress: bar.progress("simulating (" + strings.Join(g.specs, ",") + ")"),
		Record: func(r *analysis.GameRecord) error {
			hist.Add(r)
			if outs != nil {
				return outs.Record(r)
			}
			return nil
		}}
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
		vc.Precision, vc.Games, vc.MaxGames = g.precision, g.valueGames, g.valueMaxGames
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
			price := "the price of " + g.rules.(game.Valuer).ValueUnit().Short + " in --base"
			bc.Precision, bc.Games, bc.MaxGames, bc.Progress = g.precision, g.valueGames, g.valueMaxGames, bar.progress(price)
			br, err := analysis.CardValues(ctx, bc)
			bar.finish()
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", price, g.baseName, err)
			}
			if br.Partial {
				return nil, errors.New("interrupted during the card values of --base: no report written")
			}
			vc.Unit, vc.UnitFrom = br.Price, analysis.UnitFromInfo(g.base.Info())
		}
		vc.Progress = bar.progress("card values (" + strings.Join(g.specs, ",") + ")")
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
	if g.check != nil {
		tc, err := playCheck(ctx, g, rep, outs)
		if err != nil {
			return nil, err
		}
		data.Tiers = tc
	}
	if g.impact {
		im, err := analysis.Impact(ctx, analysis.ImpactConfig{Game: g.rules, PairedConfig: analysis.PairedConfig{
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

// playCheck is the report's check stage: the same games replayed with the
// check tier's bots and compared faction by faction, and with card values
// the values measured at that tier (docs/metrics.md, "Skill-dependent
// verdicts").
func playCheck(ctx context.Context, g reportGames, rep *analysis.Report, outs *analysis.Outcomes) (*analysis.TierCheck, error) {
	bar := g.phases
	began := time.Now()
	chk := analysis.NewOutcomes(g.lineups, g.games)
	res, err := analysis.Run(ctx, analysis.Config{Game: g.rules, Matchups: g.lineups, Bots: g.check, Games: g.games, Seed: g.seed,
		Workers: g.workers, MinSample: g.minSample, Progress: bar.progress("skill check (" + strings.Join(g.check, ",") + ")"),
		Record: chk.Record})
	bar.finish()
	if err != nil {
		return nil, err
	}
	if res.Partial {
		return nil, errors.New("interrupted during the skill check: no report written")
	}
	tc := analysis.CompareTiers(g.rules, g.lineups, g.games, g.specs, g.check, outs, chk, g.minSample)
	played := res.Counts.Games
	if g.values && rep.CardValueDesign != nil {
		vc := valueConfig(g.rules, g.lineups, g.check, g.seed, g.workers)
		vc.Precision, vc.Games, vc.MaxGames = g.precision, g.valueGames, g.valueMaxGames
		vc.Games, vc.MaxGames = g.checkValueGames, g.checkValueMaxGames
		vc.Progress = bar.progress("skill check: card values (" + strings.Join(g.check, ",") + ")")
		vr, err := analysis.CardValues(ctx, vc)
		bar.finish()
		if err != nil {
			return nil, err
		}
		if vr.Partial {
			return nil, errors.New("interrupted during the skill check's card values: no report written")
		}
		analysis.AttachTierCards(tc, rep, vr, vc)
		played += vr.Games
	}
	tc.Timing = analysis.Timing{Seconds: math.Round(time.Since(began).Seconds()*1000) / 1000}
	if s := time.Since(began).Seconds(); s > 0 {
		tc.Timing.GamesPerSecond = math.Round(float64(played)/s*10) / 10
	}
	return tc, nil
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
func reportCommand(opts *ReportOptions, specs, check []string) string {
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
	if check == nil {
		parts = append(parts, "--check-bots", noCheck)
	} else {
		parts = append(parts, "--check-bots", shellQuote(strings.Join(check, ",")))
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
		if opts.ValueMaxGames != analysis.DefaultValueMaxGames && opts.ValueMaxGames != 0 {
			parts = append(parts, "--value-max-games", fmt.Sprint(opts.ValueMaxGames))
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
