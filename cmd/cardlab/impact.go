package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/game"
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
	// Shard is --shard k/n (impact, diff, sweep; zero: the whole run), and
	// ShardArgs the command's flags its shard file records (shardArgs).
	Shard     analysis.Shard
	ShardArgs []string
	// BotsGiven and GamesGiven: --bots and --games were given (another
	// game's defaults replace strong's where they were not).
	BotsGiven, GamesGiven bool
}

// defaultGames is --games of every command that measures the balance of
// a ruleset as written — simulate, report, diff, sweep (at every value):
// games per lineup. The commands meant to answer quickly (watch, skill,
// ladder) and the ablation (per card) have their own, in README's table.
const defaultGames = 2000

// batchFlags registers the shared flags; players receives --players.
func batchFlags(cmd *cobra.Command, o *BatchOptions, players *string, games int, gamesUsage string, bots string) {
	fl := cmd.Flags()
	fl.StringVar(players, "players", "", "play one lineup: the factions in seat order, a comma-separated `LIST`")
	fl.StringArrayVar(&o.Matchups, "matchups", nil, "the lineups to play: all (every pair), all:N, or `LINEUPS` like a,b;c,d (default all)")
	if bots != "" {
		fl.StringVar(&o.Bots, "bots", bots, botsFlagUsage)
	}
	fl.IntVar(&o.Games, "games", games, gamesUsage)
	fl.Uint64Var(&o.Seed, "seed", 1, "master seed `S`: game i is seeded from S and i")
	fl.IntVar(&o.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU); never changes the result")
	fl.BoolVar(&o.JSON, "json", false, "write the result as JSON (docs/metrics.md); --out FILE always does")
	fl.StringVar(&o.OutFile, "out", "", "write the result as JSON to `FILE` (atomically) instead of standard output")
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
	o.BotsGiven, o.GamesGiven = cmd.Flags().Changed("bots"), cmd.Flags().Changed("games")
	if n := cmd.Name(); (n == "diff" || n == "sweep") && !cmd.Flags().Changed("games") && costly(strings.Split(o.Bots, ",")) {
		o.Games = costlyGames
	}
	o.JSON = o.JSON || writesFile(o.OutFile)
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
	// Cards are the ids or names to show (screening) or test (ablation);
	// nil for all.
	Cards []string
	// Method is "screening" (every card at once, the default) or
	// "ablation" (one card at a time, paired).
	Method string
	Mode   string
	// Precision is the screening's target median half-width of a card's
	// value in win-share points; ValueGames its first stage and MaxGames
	// its cap, in games per lineup (--games is the ablation's alone).
	Precision  float64
	ValueGames int
	MaxGames   int
	GamesSet   bool
}

// Methods of `cardlab impact`.
const (
	methodScreening = "screening"
	methodAblation  = "ablation"
)

// NewCmdImpact parses the flags of `cardlab impact`; runF replaces impactRun
// in tests.
func NewCmdImpact(g *globalOptions, runF func(*ImpactOptions) error) *cobra.Command {
	opts := &ImpactOptions{}
	var players, cardList, shard string
	cmd := &cobra.Command{
		Use:   "impact [--cards all|ID|NAME,…] [--precision P] [--method screening|ablation] [--players F1,F2 | --matchups all] [--bots SPEC]",
		Short: "Measure what each card is worth to its faction, in win-share points and in power points",
		Long: `Measure what one copy of each card is worth to its faction, causally:

  PTS         the faction's win share with the copy minus with a blank in its
              place (same type, power 0, no effect), in percentage points
  POWER       the same in combat-power points: PTS divided by the faction's
              price of a power point (what +1 power on one copy of a card wins)
              — "plays like a 9.4-power card"
  VS_FACTION  POWER minus the median POWER of the faction's other cards: how far above
              (+) or below (−) the faction's typical card it plays; cards are
              ranked by it
  EFFECT      POWER minus what a plain card (no effect) of its printed power
              plays like: positive when the text is worth more than nothing
  FLAG        what a designer would act on (docs/metrics.md, "Flags"): dead
              (one copy adds under 1 point over a blank, whole interval), or
              strong_text / weak_text (the text's worth over a plain card of
              the printed power lies beyond ±8 points, whole interval, where
              the plain card is measured: basis fit or blank)

--method screening (the default) measures every card at once: each game
blanks a few random card copies and moves a few powers by ±1, and a model of
who wins fitted over all games recovers every card's value and every
faction's price of a power point (docs/metrics.md, "Card value"). It plays
until the median 95% half-width of PTS is at most --precision win-share
points (default ` + fmt.Sprint(analysis.DefaultValuePrecision) + `), from --value-games per lineup (default ` + fmt.Sprint(analysis.DefaultValueGames) + `) up to
--max-games. Every figure
has a 95% interval (jackknife over game groups).

--method ablation replays the games one card at a time with the card changed,
on the same seeds (--mode blank-copy: one copy blanked, the default;
blank: every copy; effect-off: only the effect removed), and reports PTS with
a paired interval; --games is then the paired games per card.

--cards shows (or, with ablation, tests) only the cards named, by id or by
name. The result never depends on --workers.

--shard k/n plays only part k of n of the games and writes a shard file
(to --out FILE or standard output); 'cardlab merge' of all n files writes
the result of the whole run, byte for byte but for the timing
(docs/distributed.md). A sharded screening plays exactly --value-games per
lineup: give --precision 0, which plays the same games unsharded.`,
		Example: `  cardlab impact                                       # every card, greedy bots, every pair of factions
  cardlab impact --rules mygame --cards "Klingon Warriors,kl-d7"
  cardlab impact --precision 1.25 --json --out values.json
  cardlab impact --method ablation --cards kl-d7 --mode effect-off --games 5000`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			if err := checkBatchFlags(cmd, g, &opts.BatchOptions, players); err != nil {
				return err
			}
			if err := parseShardFlag(cmd, shard, &opts.Shard, &opts.ShardArgs); err != nil {
				return err
			}
			opts.Method = strings.ToLower(strings.TrimSpace(opts.Method))
			opts.Mode = strings.ToLower(strings.TrimSpace(opts.Mode))
			switch opts.Method {
			case methodScreening:
				for _, name := range []string{"mode"} {
					if f.Changed(name) {
						return usageErrorf("--%s is a setting of --method ablation", name)
					}
				}
				if !(opts.Precision == 0 || opts.Precision >= analysis.MinPrecision) {
					return usageErrorf("--precision must be 0 (off: exactly --value-games per lineup) or at least %g (a half-width in win-share points), got %g", analysis.MinPrecision, opts.Precision)
				}
				if opts.Shard.N > 0 && opts.Precision != 0 {
					return usageErrorf("--shard needs a fixed number of games: add --precision 0 (exactly --value-games per lineup); stopping when precise enough needs every shard's games in one place")
				}
				// One meaning per flag: --games counts the ablation's paired
				// games per card; the screening's games per lineup are
				// --value-games, as in report.
				if f.Changed("games") {
					return usageErrorf("--games is the paired games per card of --method ablation; the screening starts from --value-games per lineup")
				}
				if costly(strings.Split(opts.Bots, ",")) {
					// The strong bot's budget, as in report.
					if !f.Changed("value-games") {
						opts.ValueGames = reportStrongValueGames
					}
					if !f.Changed("max-games") {
						opts.MaxGames = max(opts.ValueGames, reportStrongValueMaxGames)
					}
				}
				if err := checkCount("value-games", opts.ValueGames, 64, maxGames); err != nil {
					return err
				}
				// Records take about 60 bytes a game: a million games per
				// lineup is some 360 MB for six lineups.
				if opts.MaxGames < 64 || opts.MaxGames > 1_000_000 {
					return usageErrorf("--max-games must be at least 64 and at most 1000000 per lineup, got %d", opts.MaxGames)
				}
			case methodAblation:
				for _, name := range []string{"precision", "max-games", "value-games"} {
					if f.Changed(name) {
						return usageErrorf("--%s is a setting of --method screening", name)
					}
				}
				if opts.Mode != analysis.ModeBlankCopy && opts.Mode != analysis.ModeBlank && opts.Mode != analysis.ModeEffectOff {
					return usageErrorf("--mode must be blank-copy, blank or effect-off, got %q", opts.Mode)
				}
			default:
				return usageErrorf("--method must be screening or ablation, got %q", opts.Method)
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
	batchFlags(cmd, &opts.BatchOptions, &players, reportDefaultImpactGames, "ablation: paired games per card `N` (the screening's are --value-games)", defaultBots)
	fl := cmd.Flags()
	fl.StringVar(&cardList, "cards", "all", "the cards to show or test: all, or card `IDS_OR_NAMES` comma-separated")
	fl.StringVar(&opts.Method, "method", methodScreening, "screening (every card at once) or ablation (one card at a time, paired)")
	floatVar(fl, &opts.Precision, "precision", analysis.DefaultValuePrecision, "screening: play until the median 95% half-width of a card's value is at most `P` win-share points (0: exactly --value-games, as --shard needs)")
	fl.IntVar(&opts.ValueGames, "value-games", analysis.DefaultValueGames, "screening: games per lineup `N` to start with (more are played until --precision is reached)")
	tierDefault(fl, "value-games", reportStrongValueGames)
	fl.IntVar(&opts.MaxGames, "max-games", analysis.DefaultValueMaxGames, "screening: at most `N` games per lineup")
	fl.StringVar(&opts.Mode, "mode", analysis.ModeBlankCopy, "ablation: blank-copy (one copy blanked), blank (every copy) or effect-off (only the effect removed)")
	shardFlag(cmd, &shard)
	return cmd
}

func impactRun(opts *ImpactOptions) error {
	rs, err := loadRulesetDir(opts.RulesDir)
	if err != nil {
		return err
	}
	if _, ok := rs.(game.Valuer); !ok {
		return fmt.Errorf("cardlab impact measures %s only with a blank and a unit of value (a game.Valuer), which its rules do not give", rs.Game())
	}
	if _, ok := rs.(game.Ablator); !ok && opts.Method == methodAblation && opts.Mode != analysis.ModeBlankCopy {
		// Without the game's own ablations impact blanks one copy through
		// its Valuer.
		return fmt.Errorf("--mode %s: %s cards have no power, kind or effect to remove; their ablation is blank-copy (one copy blanked)", opts.Mode, rs.Game())
	}
	lineups, specs, err := pairedBatch(&opts.BatchOptions, rs)
	if err != nil {
		return err
	}
	ids, err := resolveCardRefs(rs, opts.Cards)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	ctx, _ = startShard(ctx, opts.Shard)
	if opts.Method == methodScreening {
		return screeningRun(ctx, opts, rs, lineups, specs, ids)
	}
	pc, finish := pairedConfig(&opts.BatchOptions, lineups, specs, "impact")
	res, err := analysis.Impact(ctx, analysis.ImpactConfig{PairedConfig: pc, Game: rs, Mode: opts.Mode,
		Cards: ids, GamesPerCard: opts.Games})
	finish()
	if err != nil {
		return err
	}
	if handled, err := shardDone(ctx, &opts.BatchOptions, "impact"); handled || err != nil {
		return err
	}
	res.ToolVersion = versionString()
	return writePaired(&opts.BatchOptions, res, func(w io.Writer) error { return writeImpactTables(w, res) },
		res.Partial, res.BaselineGames+res.VariantGames)
}

// sideOfGame is what the game of a result (its ruleset's Game: "" for the
// default game) calls a side ("faction", "player"); "side" for a game this
// program does not have.
func sideOfGame(id string) string {
	if id == "" {
		id = game.DefaultID
	}
	if g, ok := game.Lookup(id); ok && g.Vocabulary().Side != "" {
		return g.Vocabulary().Side
	}
	return "side"
}

// gameAblates reports whether the game of a result (its ruleset's Game: ""
// for the default game) ablates cards its own way (game.Ablator: Alpha
// Tactics' blank, effect-off, blank-copy) rather than blanking one copy
// through its Valuer.
func gameAblates(id string) bool {
	if id == "" {
		id = game.DefaultID
	}
	g, ok := game.Lookup(id)
	if !ok {
		return false
	}
	rs, _ := g.Default()
	_, ok = rs.(game.Ablator)
	return ok
}

// valueConfig is the card-value experiment of a command's lineups and bots.
func valueConfig(rs game.Ruleset, lineups [][]string, specs []string, seed uint64, workers int) analysis.CardValueConfig {
	return analysis.CardValueConfig{Game: rs, Matchups: lineups, Bots: specs, Seed: seed, Workers: workers}
}

func screeningRun(ctx context.Context, opts *ImpactOptions, rs game.Ruleset, lineups [][]string, specs []string, ids []string) error {
	played := map[string]bool{}
	for _, l := range lineups {
		for _, f := range l {
			played[f] = true
		}
	}
	sides := rs.Sides()
	owner := map[string]int{}
	for _, c := range rs.Cards() {
		owner[c.ID] = c.Side
	}
	for _, id := range ids {
		if i := owner[id]; i >= 0 && !played[sides[i].ID] {
			return fmt.Errorf("card %s belongs to %s, which plays in none of the lineups", id, sides[i].ID)
		}
	}
	cfg := valueConfig(rs, lineups, specs, opts.Seed, opts.Workers)
	cfg.Precision, cfg.MaxGames = opts.Precision, opts.MaxGames
	if cfg.Precision == 0 {
		cfg.Precision = -1 // off: exactly the first stage
	}
	cfg.Games = min(opts.ValueGames, cfg.MaxGames) // --max-games below the first stage
	bar := newGameBar(opts.ErrOut, opts.Progress, "card values")
	cfg.Progress = bar.progress()
	res, err := analysis.CardValues(ctx, cfg)
	bar.done()
	if err != nil {
		return err
	}
	if handled, err := shardDone(ctx, &opts.BatchOptions, "impact"); handled || err != nil {
		return err
	}
	if res.Values == nil {
		return errors.New("interrupted before the first estimate: nothing written")
	}
	rep := res.Report(rs, cfg, ids)
	rep.ToolVersion = versionString()
	return writePaired(&opts.BatchOptions, rep, func(w io.Writer) error { return writeValueTables(w, rep) },
		res.Partial, res.Games)
}

func writeValueTables(w io.Writer, r *analysis.ValueReport) error {
	d := r.Design
	side := sideOfGame(r.Ruleset.Game) // the column of a card's side and what its value is against
	fmt.Fprintln(w, rulesetLine(r.Ruleset))
	fmt.Fprintf(w, "Card values (one copy against a blank): %d %s × %d games, bots %s, seed %d; %d games in all\n",
		len(d.Matchups), plural(len(d.Matchups), "lineup", "lineups"), d.GamesPerLineup, strings.Join(d.Bots, ","), d.Seed, d.Games)
	if d.Partial {
		fmt.Fprintln(w, "PARTIAL (interrupted): the estimates rest on the games played before the interruption")
	}
	if len(d.Unpriced) > 0 {
		fmt.Fprintf(w, "NOTE: no values for the cards of %s: +1 power gained them nothing measurable in these games (a lineup too one-sided to measure)\n",
			strings.Join(d.Unpriced, ", "))
	}
	if u := d.Unit; u != nil {
		// Another game: its unit, its blank, each seat's copies apart.
		fmt.Fprintln(w, "PTS = what one copy adds to its holder's win share against the game's blank, in percentage points (each seat's copies")
		fmt.Fprintf(w, "perturbed apart, a mirror's seats too); VS_%s = PTS − the median of the %s's other cards; TEXT = PTS − a plain\n", strings.ToUpper(side), side)
		if u.Scale > 1 && u.Currency != "" {
			// A unit that is a step of the game's currency (Spacetrace's
			// 10 MP): PRINTED and the value in the currency.
			fmt.Fprintf(w, "card of its printed value (on the basis named); %s = PTS ÷ the price of %d %s, in %s (\"plays like a 140-%s card\"); 95%% intervals; FLAG: docs/metrics.md, \"Flags\"\n",
				u.Currency, u.Scale, u.Currency, u.Currency, u.Currency)
			fmt.Fprintln(w)
			fmt.Fprintf(w, "Price of %d %s (one copy of a card worth %d %s more to its holder):\n", u.Scale, u.Currency, u.Scale, u.Currency)
		} else {
			fmt.Fprintf(w, "card of its printed value (on the basis named); POWER = PTS ÷ the price of a %s; 95%% intervals; FLAG: docs/metrics.md, \"Flags\"\n", u.Name)
			fmt.Fprintln(w)
			fmt.Fprintf(w, "Price of a %s (+1 %s on one copy of a card), the unit of POWER:\n", u.Name, u.Short)
		}
	} else {
		fmt.Fprintln(w, "PTS = what one copy adds to its faction's win share against a blank, in percentage points;")
		fmt.Fprintln(w, "VS_FACTION = PTS − the median of the faction's other cards; TEXT = PTS − a plain card of its printed power")
		fmt.Fprintln(w, "(on the basis named: fit, interpolated from a blank, extrapolated); POWER = PTS ÷ the faction's price of a power point;")
		fmt.Fprintln(w, "95% intervals; FLAG = dead (PTS under +1 over its whole interval) or strong_text / weak_text (TEXT beyond ±8 points")
		fmt.Fprintln(w, "over its whole interval, on a fit or blank basis): docs/metrics.md, \"Flags\"")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Price of a power point (+1 power on one copy of a card), the unit of POWER:")
	}
	pt := &table{align: "lrll"}
	pt.add(strings.ToUpper(side), "PTS", "95% CI", "FROM")
	factions := make([]string, 0, len(r.PriceOfPower))
	for f := range r.PriceOfPower {
		factions = append(factions, f)
	}
	slices.Sort(factions)
	for _, f := range factions {
		p := r.PriceOfPower[f]
		pt.add(f, fmt.Sprintf("%+.2f", p.Pts), fmt.Sprintf("[%+.2f, %+.2f]", p.CI95[0], p.CI95[1]), d.PowerUnitFrom[f])
	}
	if err := pt.write(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	t := &table{align: "rlllrrlrlrlrll"}
	scale, powerHead := 1, "POWER"
	if u := d.Unit; u != nil && u.Scale > 1 && u.Currency != "" {
		scale, powerHead = u.Scale, u.Currency
	}
	t.add("RANK", "CARD", "NAME", strings.ToUpper(side), "PRINTED", "PTS", "95% CI", "VS_"+strings.ToUpper(side), "95% CI", "TEXT", "BASIS", powerHead, "95% CI", "FLAG")
	for _, c := range r.Cards {
		v := c.Value
		text, basis := fmt.Sprintf("%+.1f", v.EffectPts), v.EffectBasis
		if basis == analysis.EffectNoReference {
			text = "-"
		}
		// The loader refuses control characters in names, so they print
		// as they are.
		power, powerCI := fmt.Sprintf("%.1f", v.Power), ci1(v.PowerCI95)
		if scale > 1 {
			k := float64(scale)
			power, powerCI = fmt.Sprintf("%.0f", v.Power*k), fmt.Sprintf("[%.0f, %.0f]", v.PowerCI95[0]*k, v.PowerCI95[1]*k)
		}
		t.add(strconv.Itoa(c.Rank), c.ID, c.Name, c.Faction, strconv.Itoa(c.Power*scale), fmt.Sprintf("%+.1f", v.Pts), ci1(v.PtsCI95),
			fmt.Sprintf("%+.1f", v.VsFactionPts), ci1(v.VsFactionPtsCI95), text, basis,
			power, powerCI, v.Flag)
	}
	if err := t.write(w); err != nil {
		return err
	}
	target := fmt.Sprintf("target %.2f", d.Precision)
	if d.Precision < 0 {
		target = "no target: a fixed number of games"
	}
	powerHW := fmt.Sprintf("of POWER %.2f", d.MedianPowerHalfWidth)
	if scale > 1 {
		powerHW = fmt.Sprintf("of %s %.0f", powerHead, d.MedianPowerHalfWidth*float64(scale))
	}
	fmt.Fprintf(w, "\nmedian 95%% half-width of PTS %.2f points (%s; %s); %d games in %.1f s (%.0f games/s)\n",
		d.MedianPtsHalfWidth, target, powerHW, d.Games, d.Timing.Seconds, d.Timing.GamesPerSecond)
	return nil
}

func ci1(c [2]float64) string { return fmt.Sprintf("[%+.1f, %+.1f]", c[0], c[1]) }

func writeImpactTables(w io.Writer, r *analysis.ImpactResult) error {
	fmt.Fprintln(w, rulesetLine(r.Ruleset))
	what := "blank: same type, no effect, power 0"
	if r.Mode == analysis.ModeEffectOff {
		what = "effect off: kind N, power kept"
	}
	ownAblation := gameAblates(r.Ruleset.Game)
	if !ownAblation {
		// The ablation through the game's Valuer (analysis.Impact).
		what = "one copy blank; in a mirror one seat's copy blanked (the lineup's first seat of its side)"
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
	if !ownAblation {
		fmt.Fprintf(w, "IMPACT = the seat's win %% with its copy − with it blank, in points, on the same games;\n")
	} else {
		fmt.Fprintf(w, "IMPACT = the faction's win %% with the card − with it ablated, in points, on the same games;\n")
	}
	fmt.Fprintf(w, "95%% paired interval; p adjusted by Benjamini–Hochberg over %d cards; * significant (FDR %.0f%%)\n\n", tested, 100*r.Alpha)
	t := &table{align: "rllrrrrlrr"}
	t.add("RANK", "CARD", strings.ToUpper(sideOfGame(r.Ruleset.Game)), "GAMES", "WITH%", "WITHOUT%", "IMPACT", "95% CI", "P_ADJ", "CHANGED")
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

// botList splits and checks a comma-separated list of bot specs against
// the default game's bots (skill checks them before loading a ruleset).
func botList(spec string) ([]string, error) {
	parts := bots.SplitList(spec)
	for i := range parts {
		parts[i] = strings.ToLower(strings.TrimSpace(parts[i]))
		if err := checkDefaultBot(parts[i]); err != nil {
			return nil, err
		}
	}
	return parts, nil
}

// checkDefaultBot checks spec against the bots of the default game's
// embedded ruleset (bots.ParseFor), for a flag checked before any ruleset
// is loaded; its error is a *bots.SpecError (exit 2).
func checkDefaultBot(spec string) error {
	g, ok := game.Lookup(game.DefaultID)
	if !ok {
		return fmt.Errorf("game: the default game %q is not linked into this program", game.DefaultID)
	}
	rs, _ := g.Default()
	_, err := bots.ParseFor(rs, spec, 0)
	return err
}
