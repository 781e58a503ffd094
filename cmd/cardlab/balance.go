package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/reports"
)

// balanceSearchBots and balanceVerifyBots are balance's tiers: the search
// plays greedy (the strong tier costs a hundred times more a game and is
// not yet ISMCTS-400's strength, issue 26), the verification both.
const (
	balanceSearchBots = "greedy"
	balanceVerifyBots = defaultBots
)

// A search at a costly tier (--bots strong): each racing stage plays
// balanceCostlyGames per lineup, the card values balanceCostlyValueGames,
// and a round races the balanceCostlyShortlist edits predicted best
// (docs/metrics.md, "Balance", "Searching at the strong tier").
const (
	balanceCostlyGames      = 200
	balanceCostlyValueGames = 2000
	balanceCostlyShortlist  = 3
)

// BalanceOptions are the inputs of `cardlab balance`.
type BalanceOptions struct {
	BatchOptions
	OutDir     string
	VerifyBots string
	// VerifyGiven: --verify-bots was given (else the game's default tier,
	// defaultBotFor: strong where the game has it).
	VerifyGiven bool
	// Tiers is "both" (search at --bots and --verify-bots, the default
	// when they differ) or "search" (at --bots only); Finalists,
	// TierGames and TierValueGames size the second tier's search.
	Tiers                                string
	Finalists, TierGames, TierValueGames int
	Tolerance                            float64
	SeatTolerance                        float64
	Knobs, Lock                          []string
	MaxStep                              int
	MaxEdits                             int
	VerifyGames                          int
	ValueGames                           int
	Shortlist                            int
	BudgetGames                          int64
	BudgetTime                           time.Duration
	// Command is the command line that reproduces the run (balance.md).
	Command string
}

// NewCmdBalance parses the flags of `cardlab balance`; runF replaces
// balanceRun in tests.
func NewCmdBalance(g *globalOptions, runF func(*BalanceOptions) error) *cobra.Command {
	opts := &BalanceOptions{}
	var players, budget string
	cmd := &cobra.Command{
		Use:   "balance --out NEWDIR [--tolerance 2] [--seat-tolerance 3] [--knobs power] [--lock CARD[:KNOB]]",
		Short: "Find the fewest card edits that bring every side within the band of fair share, verified on fresh games",
		Long: `Search for a package of integer card edits (a card's power by default;
--knobs power,copies, and rule parameters by name: --knobs power,hand_size)
that brings every side's win share within --tolerance points of its fair
share — and, with --seat-tolerance, the starting seat's within that band of
its own (the starter's advantage) — and write the ruleset with the package applied to
NEWDIR: a copy of the ruleset's files in which only the edited values change
(comments, key order and quoting kept), plus balance.md with the package, the
evidence and the command that reproduces it.

The card-value experiment predicts every single edit's effect (the price of
one unit of value per side, each card's value, with intervals); the edits
predicted to help most race on paired games, stage by stage, until the games
tell them apart; the best joins the package, and the next round starts from
the package as played — a package is never judged by adding up predictions.
The search stops within the band, at --max-edits, or when --budget (games, or
a time like 10m) is spent. The package is then re-played on fresh seeds the
search never used, with the search's bots (--bots, default greedy) and with
--verify-bots (default strong): "balanced" and exit 0 only when every side is
within the band at both; otherwise the best package found, why the search
stopped, and exit 1. docs/metrics.md, "Balance", derives the method.

With two tiers (--tiers both, the default when --verify-bots differs from
--bots) the search aims at both: an edit is judged by the worse of the two
tiers' deviations. The race plays --bots as above and keeps every edit not
surely worse than the package; its --finalists best (measured at --bots,
predicted at --verify-bots by that tier's own card values, --tier-value-games)
then play --tier-games games per lineup at --verify-bots beside the package
as it is, and the worse tier decides. --tiers search searches at --bots only
(faster; the package may then hold at one tier only: it is then called
skill-dependent, with both tiers' figures, and the exit status is 1).

--bots strong --verify-bots greedy --tiers search searches at the strong tier:
with a costly bot each round races --shortlist 3 edits on --games 200 per
lineup a stage, the card values play --value-games 2000, and the package's
own games are brought from round to round on the same deals, not replayed.

The card-value model predicts edits of cards between sides only. An edit it
cannot predict — a rule parameter, any edit when the starting seat is what is
off — races on its own games: at most 16 such edits a round, so name few.
A mirror (every seat plays one side, as in Goofspiel or Spacetrace) is fair
between sides by construction: there balance brings the starting seat within
--seat-tolerance (default: --tolerance) of its fair share.`,
		Example: `  cardlab balance --out balanced
  cardlab balance --rules mygame --out mygame-balanced --knobs power,copies --lock kl-d7
  cardlab balance --out b --tolerance 3 --budget 5m --verify-bots greedy
  cardlab balance --out b --tiers search --value-games 2000
  cardlab balance --out b --bots strong --verify-bots greedy --tiers search --max-edits 6
  cardlab balance --out b --seat-tolerance 3 --knobs power,hand_size
  cardlab balance --rules myspacetrace --out st-b --knobs hand.start,draw.per_turn --max-step 1`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := &opts.BatchOptions
			o.Out, o.ErrOut, o.RulesDir, o.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), g.RulesDir, cmd.Context()
			var err error
			o.Players, o.Matchups, err = checkRunFlags(cmd, players, o.Matchups, o.Games, o.Workers, 0)
			if err != nil {
				return err
			}
			f := cmd.Flags()
			if opts.OutDir == "" {
				return usageErrorf("--out NEWDIR is required: balance writes the edited ruleset there")
			}
			if f.Changed("seat-tolerance") && !(opts.SeatTolerance > 0 && opts.SeatTolerance < 50) {
				return usageErrorf("--seat-tolerance must be above 0 and below 50 points, got %v", opts.SeatTolerance)
			}
			if !(opts.Tolerance > 0 && opts.Tolerance < 50) {
				return usageErrorf("--tolerance must be above 0 and below 50 points, got %v", opts.Tolerance)
			}
			if opts.Tiers != "both" && opts.Tiers != "search" {
				return usageErrorf("--tiers %q: give both (search at --bots and --verify-bots) or search (at --bots only)", opts.Tiers)
			}
			for _, c := range []struct {
				flag   string
				v, top int
			}{{"max-step", opts.MaxStep, 99}, {"max-edits", opts.MaxEdits, 64}, {"verify-games", opts.VerifyGames, 1 << 24}, {"value-games", opts.ValueGames, 1 << 24},
				{"finalists", opts.Finalists, 16}, {"shortlist", opts.Shortlist, 64}, {"tier-games", opts.TierGames, 1 << 24}, {"tier-value-games", opts.TierValueGames, 1 << 24}} {
				if err := checkCount(c.flag, c.v, 1, c.top); err != nil {
					return err
				}
			}
			if budget != "" {
				if d, err := time.ParseDuration(budget); err == nil && d > 0 {
					opts.BudgetTime = d
				} else if n, err := parsePositive(budget); err == nil {
					opts.BudgetGames = n
				} else {
					return usageErrorf("--budget %q: give games (200000) or a time (10m)", budget)
				}
			}
			for i := range opts.Knobs {
				opts.Knobs[i] = strings.ToLower(strings.TrimSpace(opts.Knobs[i]))
			}
			opts.VerifyGiven = f.Changed("verify-bots")
			if costly(strings.Split(o.Bots, ",")) {
				// A search at a costly tier (strong: a hundred greedy games
				// a game) races fewer edits on fewer games, and measures
				// the card values on fewer (docs/metrics.md, "Balance").
				for _, d := range []struct {
					flag string
					p    *int
					v    int
				}{{"games", &o.Games, balanceCostlyGames}, {"value-games", &opts.ValueGames, balanceCostlyValueGames}, {"shortlist", &opts.Shortlist, balanceCostlyShortlist}} {
					if !f.Changed(d.flag) {
						*d.p = d.v
					}
				}
			}
			opts.Command = balanceCommand(f)
			if runF != nil {
				return runF(opts)
			}
			return balanceRun(opts)
		},
	}
	fl := cmd.Flags()
	o := &opts.BatchOptions
	fl.StringVar(&players, "players", "", "play one lineup: the sides in seat order, a comma-separated `LIST`")
	fl.StringArrayVar(&o.Matchups, "matchups", nil, "the lineups to play: all (every pair), all:N, or `LINEUPS` like a,b;c,d (default all)")
	fl.StringVar(&o.Bots, "bots", balanceSearchBots, "the search's bot `SPEC` (greedy: the strong tier costs a hundred times more a game)")
	fl.IntVar(&o.Games, "games", analysis.DefaultBalanceGames, "games `N` per lineup of each racing stage")
	fl.Uint64Var(&o.Seed, "seed", 1, "master seed `S` of the search and the verification")
	fl.IntVar(&o.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU); never changes the result")
	fl.BoolVar(&o.JSON, "json", false, "write the result as JSON on standard output instead of balance.md's text")
	fl.StringVar(&opts.OutDir, "out", "", "write the ruleset with the package applied, and balance.md, to the folder `NEWDIR`")
	fl.StringVar(&opts.VerifyBots, "verify-bots", balanceVerifyBots, "the second tier's bot `SPEC` the package is verified at (a game without strong: its default tier)")
	floatVar(fl, &opts.Tolerance, "tolerance", 100*analysis.DefaultBalanceTolerance, "the band around each side's fair share, in `POINTS`")
	floatVar(fl, &opts.SeatTolerance, "seat-tolerance", 0, "also bring the starting seat within `POINTS` of its fair share (a mirror: default --tolerance)")
	fl.StringSliceVar(&opts.Knobs, "knobs", []string{"power"}, "the `KNOBS` edits may change: card knobs (power, copies) and rule parameters by name")
	fl.StringArrayVar(&opts.Lock, "lock", nil, "never edit `CARD` (its id or name), or only its knob (CARD:copies); repeatable")
	fl.IntVar(&opts.MaxStep, "max-step", analysis.DefaultBalanceMaxStep, "change a value by at most `N` either way")
	fl.IntVar(&opts.MaxEdits, "max-edits", analysis.DefaultBalanceMaxEdits, "edit at most `N` values")
	fl.IntVar(&opts.VerifyGames, "verify-games", analysis.DefaultBalanceVerify, "games `N` per lineup of each tier's verification")
	fl.IntVar(&opts.ValueGames, "value-games", analysis.DefaultValueGames, "games `N` per lineup of the card-value experiment")
	fl.IntVar(&opts.Shortlist, "shortlist", analysis.DefaultBalanceShortlist, "race the `N` edits predicted best a round (besides each side's most out-of-line card)")
	for _, d := range []struct {
		flag string
		v    int
	}{{"games", balanceCostlyGames}, {"value-games", balanceCostlyValueGames}, {"shortlist", balanceCostlyShortlist}} {
		f := fl.Lookup(d.flag)
		f.DefValue = fmt.Sprintf("%s; %d when --bots is costly, as strong", f.DefValue, d.v)
	}
	fl.StringVar(&opts.Tiers, "tiers", "both", "search at `TIERS`: both (--bots and --verify-bots: the worse tier decides) or search (--bots only)")
	fl.IntVar(&opts.Finalists, "finalists", analysis.DefaultBalanceFinalists, "with two tiers, play the race's best `N` edits a round at --verify-bots")
	fl.IntVar(&opts.TierGames, "tier-games", analysis.DefaultBalanceTier2Games, "with two tiers, games `N` per lineup each finalist plays at --verify-bots")
	fl.IntVar(&opts.TierValueGames, "tier-value-games", analysis.DefaultBalanceTier2Value, "with two tiers, games `N` per lineup of the card-value experiment at --verify-bots")
	fl.StringVar(&budget, "budget", "", "stop the search after `N` games or a time such as 10m (the verification is played after)")
	return cmd
}

// parsePositive parses a positive whole number.
func parsePositive(s string) (int64, error) {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil || n < 1 || fmt.Sprint(n) != strings.TrimSpace(s) {
		return 0, fmt.Errorf("not a positive whole number")
	}
	return n, nil
}

// balanceCommand is the command line of the flags given, for balance.md.
func balanceCommand(f *pflag.FlagSet) string {
	parts := []string{"cardlab", "balance"}
	f.Visit(func(fl *pflag.Flag) {
		if fl.Name == "workers" || fl.Name == "json" {
			return // neither changes balance.md
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				parts = append(parts, "--"+fl.Name, shellQuote(v))
			}
			return
		}
		if fl.Value.Type() == "bool" {
			parts = append(parts, "--"+fl.Name+"="+fl.Value.String())
			return
		}
		parts = append(parts, "--"+fl.Name, shellQuote(fl.Value.String()))
	})
	return strings.Join(parts, " ")
}

func balanceRun(opts *BalanceOptions) error {
	rs, err := loadRulesetDir(opts.RulesDir)
	if err != nil {
		return err
	}
	if err := analysis.BalanceRefusal(rs); err != nil {
		return err
	}
	lineups, err := resolveLineups(rs, opts.Players, opts.Matchups)
	if err != nil {
		return err
	}
	specs, err := checkBotSpecs(rs, opts.Bots, lineups)
	if err != nil {
		return err
	}
	if !opts.VerifyGiven {
		opts.VerifyBots = defaultBotFor(rs)
	}
	verify, err := checkBotSpecs(rs, opts.VerifyBots, lineups)
	if err != nil {
		return err
	}
	lock := []string{}
	for _, l := range opts.Lock {
		ref, knob, _ := strings.Cut(l, ":")
		ids, err := resolveCardRefs(rs, []string{ref})
		if err != nil {
			return err
		}
		if knob != "" {
			ids[0] += ":" + strings.ToLower(knob)
		}
		lock = append(lock, ids[0])
	}
	// The output is checked before any game: every file balance writes.
	if opts.RulesDir != "" {
		a, _ := filepath.Abs(opts.RulesDir)
		b, _ := filepath.Abs(opts.OutDir)
		if rel, err := filepath.Rel(a, b); err == nil && filepath.IsLocal(rel) || a == b {
			return fmt.Errorf("--out %s is inside the ruleset's own folder: balance never writes into the designer's ruleset; give a folder elsewhere", opts.OutDir)
		}
	}
	copied, err := rulesetCopy(opts.RulesDir)
	if err != nil {
		return err
	}
	names := []string{"balance.md"}
	for n := range copied {
		if n != "balance.md" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if err := files.CheckDir(opts.OutDir, names); err != nil {
		return err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	cfg := analysis.BalanceConfig{Game: rs, Matchups: lineups, Bots: specs, VerifyBots: verify, Seed: opts.Seed, Workers: opts.Workers,
		Knobs: opts.Knobs, Lock: lock, MaxStep: opts.MaxStep, MaxEdits: opts.MaxEdits, Tolerance: opts.Tolerance / 100, SeatTolerance: opts.SeatTolerance / 100,
		Games: opts.Games, VerifyGames: opts.VerifyGames, ValueGames: opts.ValueGames, Shortlist: opts.Shortlist, BudgetGames: opts.BudgetGames, Log: opts.ErrOut}
	// The package's games are brought from round to round at a costly
	// tier only (docs/metrics.md, "Balance", "Pooling the package's games").
	cfg.Pool = costly(specs)
	if opts.Tiers == "both" {
		// The second tier is searched too; the same bots as the search's
		// leave one tier (analysis.Balance drops it).
		cfg.Tier2, cfg.Finalists, cfg.Tier2Games, cfg.Tier2ValueGames = verify, opts.Finalists, opts.TierGames, opts.TierValueGames
		cfg.Pool2 = costly(verify)
	}
	if opts.BudgetTime > 0 {
		cfg.Deadline = time.Now().Add(opts.BudgetTime)
	}
	res, err := analysis.Balance(ctx, cfg)
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("balance: interrupted: nothing written")
	}
	if err != nil {
		return err
	}
	edited, err := res.EditedFiles(rs)
	if err != nil {
		return err
	}
	for n, data := range edited {
		copied[n] = data
	}
	var md bytes.Buffer
	writeBalanceMarkdown(&md, res, opts.Command)
	if res.Partial {
		return fmt.Errorf("balance: interrupted: nothing written")
	}
	err = files.ReplaceDir(opts.OutDir, names, func(tmp string) error {
		for name, data := range copied {
			if name == "balance.md" {
				continue
			}
			p := filepath.Join(tmp, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return err
			}
		}
		// The edited ruleset must load and validate, and read the package's
		// values, before it replaces anything.
		if err := checkBalanced(tmp, res); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, "balance.md"), md.Bytes(), 0o644)
	})
	if err != nil {
		return err
	}
	if opts.JSON {
		var b bytes.Buffer
		if err := writeJSON(&b, res); err != nil {
			return err
		}
		if _, err := opts.Out.Write(b.Bytes()); err != nil {
			return err
		}
	} else if _, err := opts.Out.Write(md.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(opts.ErrOut, "balance: wrote %s (%d %s of the ruleset, %d edited, and balance.md)\n", opts.OutDir, len(names)-1, plural(len(names)-1, "file", "files"), len(res.Package))
	return balanceVerdict(res, opts.OutDir)
}

// balanceVerdict is the run's exit: nil only when every side is within the
// band at every tier verified ("balanced"); a package within the band at
// one tier only is skill-dependent — verified with both figures, but not
// balanced, so it exits 1 like any package that is not.
func balanceVerdict(res *analysis.BalanceResult, out string) error {
	if res.SkillDependent {
		return fmt.Errorf("balance: skill-dependent, not balanced: on fresh games every side is within the band at %s but not at %s (%s); the package, marked skill-dependent, is in %s", tiersWhere(res, true), tiersWhere(res, false), tierDevs(res), out)
	}
	if !res.Balanced {
		return fmt.Errorf("balance: not balanced: on fresh games a side is outside the band at %s (the search stopped: %s); the best package found is in %s", outside(res), res.Stop, out)
	}
	return nil
}

// maxCopied caps a file balance copies from the ruleset's folder.
const maxCopied = 16 << 20

// rulesetCopy reads every regular file of the ruleset's folder (the
// embedded default's for dir ""), at any depth: NEWDIR is the designer's
// folder, not only the files the loader reads. Links and other special
// files are left out.
func rulesetCopy(dir string) (map[string][]byte, error) {
	fsys, _ := rulesetFS(dir)
	if fsys == nil {
		return nil, fmt.Errorf("balance: no ruleset to copy")
	}
	out := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxCopied {
			return fmt.Errorf("%s is larger than %d MiB: balance does not copy it", p, maxCopied>>20)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out[p] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("balance: copying the ruleset: %v", err)
	}
	return out, nil
}

// checkBalanced loads the ruleset written in dir and checks every edit of
// the package reads back.
func checkBalanced(dir string, res *analysis.BalanceResult) error {
	got, err := loadRulesetDir(dir)
	if err != nil {
		return fmt.Errorf("balance: the edited ruleset does not load (a bug): %v", err)
	}
	for _, e := range res.Package {
		if v, err := e.ReadBack(got); err != nil || v != e.To {
			return fmt.Errorf("balance: the edited ruleset does not read %s as %d (a bug)", e.Text, e.To)
		}
	}
	return nil
}

// writeBalanceMarkdown writes balance.md (and the text on stdout): the
// verdict, the package as edits to paste, the evidence per tier, the menu
// of packages by size, and the command.
func writeBalanceMarkdown(w io.Writer, r *analysis.BalanceResult, command string) {
	md := reports.MarkdownText
	fmt.Fprintf(w, "# Balance of %s %s\n\n", md(r.Ruleset.Name), md(r.Ruleset.Version))
	switch {
	case r.AlreadyBalanced:
		fmt.Fprintf(w, "**Already balanced**: %s at every tier verified; nothing was changed.\n\n", balanceBands(r))
	case r.Balanced:
		fmt.Fprintf(w, "**Balanced** with %d %s: %s at every tier verified, on fresh games.\n\n", len(r.Package), plural(len(r.Package), "edit", "edits"), balanceBands(r))
	case r.SkillDependent:
		fmt.Fprintf(w, "**Skill-dependent** — not balanced at every tier: on fresh games the package holds %s at %s, not at %s (%s). The search stopped: %s.\n\n",
			balanceBands(r), md(tiersWhere(r, true)), md(tiersWhere(r, false)), md(tierDevs(r)), md(r.Stop))
	default:
		fmt.Fprintf(w, "**Not balanced**: the best package found leaves a side outside its band (%s). The search stopped: %s.\n\n", balanceBands(r), md(r.Stop))
	}
	if r.Tier2 != nil {
		fmt.Fprintf(w, "Searched with bots %s and %s (the worse tier's deviation decides; the race at %s, its %d best a round at %s on %d games per lineup); verified at %s on fresh seeds the search never used. %s.\n\n",
			md(strings.Join(r.Bots, ",")), md(strings.Join(r.Tier2, ",")), md(strings.Join(r.Bots, ",")), r.Finalists, md(strings.Join(r.Tier2, ",")), r.Tier2Games,
			md(tierNames(r)), md(gamesLine(r)))
	} else {
		fmt.Fprintf(w, "Searched with bots %s; verified at %s on fresh seeds the search never used. %s.\n\n",
			md(strings.Join(r.Bots, ",")), md(tierNames(r)), md(gamesLine(r)))
	}
	if len(r.Package) > 0 {
		var b strings.Builder
		for _, e := range r.Package {
			b.WriteString(e.Text + "\n")
		}
		f := reports.MarkdownFence(b.String())
		fmt.Fprintf(w, "## The package\n\n%s\n%s%s\n\n", f, b.String(), f)
		if r.Diff != "" {
			// The whole change as a patch: in DIR, patch -p1 < it (or git
			// apply) writes exactly NEWDIR's edits.
			f := reports.MarkdownFence(r.Diff)
			fmt.Fprintf(w, "As a patch of the ruleset's folder (`patch -p1` or `git apply` in it):\n\n%sdiff\n%s%s\n\n", f, r.Diff, f)
		}
	}
	for _, v := range r.Verify {
		fmt.Fprintf(w, "## Verification with bots %s (%d games per lineup, seed %d)\n\n", md(strings.Join(v.Bots, ",")), v.Games, v.Seed)
		verdict := "within the band"
		if !v.InBand {
			verdict = "outside the band"
		}
		fmt.Fprintf(w, "Largest deviation from fair share after: %.1f points (%s).\n\n", 100*v.MaxDev, verdict)
		for k, s := range v.Sides {
			fmt.Fprintf(w, "- %s: %s%% %s → %s%% %s (fair %s%%; paired change %s points %s)\n", md(s.Faction), pct(s.Base), ci(s.BaseCI95),
				pct(s.Variant), ci(s.VariantCI95), pct(r.Fair[k]), points(s.Delta), ci(s.CI95))
		}
		fmt.Fprintln(w)
	}
	writeBalanceMenu(w, r)
	if len(r.Price) > 0 {
		fmt.Fprintf(w, "## The model\n\nPrice of one %s on one copy (card-value experiment, %d games per lineup):\n\n", md(r.ValueUnit), r.ValueGames)
		for _, f := range r.Sides {
			p := r.Price[f]
			fmt.Fprintf(w, "- %s: %.2f points [%.2f, %.2f]\n", md(f), p.Pts, p.CI95[0], p.CI95[1])
		}
		fmt.Fprintln(w)
		if len(r.Price2) > 0 {
			fmt.Fprintf(w, "At %s (%d games per lineup):\n\n", md(strings.Join(r.Tier2, ",")), r.ValueGames2)
			for _, f := range r.Sides {
				p := r.Price2[f]
				fmt.Fprintf(w, "- %s: %.2f points [%.2f, %.2f]\n", md(f), p.Pts, p.CI95[0], p.CI95[1])
			}
			fmt.Fprintln(w)
		}
	}
	f := reports.MarkdownFence(command)
	fmt.Fprintf(w, "## Reproduce\n\n%s\n%s\n%s\n", f, command, f)
}

// balanceBands says what the bands are: every side within ±T points of
// its fair share, the starting seat within ±S of its own, or both.
func balanceBands(r *analysis.BalanceResult) string {
	seat := r.SeatTolerance > 0
	sides := len(r.Sides) > 0 && r.Sides[0] != analysis.StarterSide
	switch {
	case seat && sides:
		return fmt.Sprintf("every side within ±%.1f points of its fair share and the starting seat within ±%.1f of its own", 100*r.Tolerance, 100*r.SeatTolerance)
	case seat:
		return fmt.Sprintf("the starting seat within ±%.1f points of its fair share", 100*r.SeatTolerance)
	}
	return fmt.Sprintf("every side within ±%.1f points of its fair share", 100*r.Tolerance)
}

// writeBalanceMenu writes the menu: the best package of each size as a
// table, each side's share before → after with its 95% interval, on the
// search's games (the verification above is the evidence).
func writeBalanceMenu(w io.Writer, r *analysis.BalanceResult) {
	if len(r.Menu) < 2 {
		return
	}
	md := reports.MarkdownText
	fmt.Fprintf(w, "## The menu: the best package of each size\n\n")
	fmt.Fprintf(w, "Each side's win share before → after with its 95%% interval, on the search's games (bots %s; the figures of the edit a race chose lean its way: the verification above is the evidence). Front: no smaller package leaves a smaller largest deviation", md(strings.Join(r.Bots, ",")))
	if r.Tier2 != nil {
		fmt.Fprintf(w, " at the worse tier")
	}
	fmt.Fprintf(w, ".\n\n")
	writeMenuTable(w, r, false)
	if r.Tier2 != nil {
		fmt.Fprintf(w, "The same packages at %s (the finalists' games, %d per lineup):\n\n", md(strings.Join(r.Tier2, ",")), r.Tier2Games)
		writeMenuTable(w, r, true)
	}
}

// writeMenuTable writes the menu's table at the first search tier, or at
// the second (tier2).
func writeMenuTable(w io.Writer, r *analysis.BalanceResult, tier2 bool) {
	md := reports.MarkdownText
	fmt.Fprintf(w, "| edits | edit added | largest deviation | front |")
	for _, f := range r.Sides {
		fmt.Fprintf(w, " %s |", md(f))
	}
	fmt.Fprintf(w, "\n|---:|---|---:|---|")
	for range r.Sides {
		fmt.Fprintf(w, "---|")
	}
	fmt.Fprintln(w)
	for _, m := range r.Menu {
		added, front := "(the ruleset as written)", "yes"
		if len(m.Edits) > 0 {
			added = md(m.Edits[len(m.Edits)-1].Text)
		}
		if !m.Pareto {
			front = "no"
		}
		shares, before, dev := m.Shares, r.Before, m.MaxDev
		if tier2 {
			shares, before, dev = m.Shares2, r.Before2, m.MaxDev2
		}
		fmt.Fprintf(w, "| %d | %s | %.1f points | %s |", len(m.Edits), added, 100*dev, front)
		for k, s := range shares {
			b := before[k]
			if len(m.Edits) == 0 {
				fmt.Fprintf(w, " %s%% %s |", pct(s.Share), ci(s.CI95))
				continue
			}
			fmt.Fprintf(w, " %s%% %s → %s%% %s |", pct(b.Share), ci(b.CI95), pct(s.Share), ci(s.CI95))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// outside names the tiers whose verification left a side outside the band.
func outside(r *analysis.BalanceResult) string {
	var t []string
	for _, v := range r.Verify {
		if !v.InBand {
			t = append(t, strings.Join(v.Bots, ","))
		}
	}
	if len(t) == 0 {
		return "no tier verified"
	}
	return strings.Join(t, " and ")
}

// gamesLine says how many games the run played, by bots, and how many of
// the package's it brought from one round to the next instead of playing.
func gamesLine(r *analysis.BalanceResult) string {
	var by []string
	keys := make([]string, 0, len(r.GamesByBots))
	for k := range r.GamesByBots {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		by = append(by, fmt.Sprintf("%d at %s", r.GamesByBots[k], k))
	}
	line := fmt.Sprintf("%d games in all", r.Games)
	if len(by) > 1 {
		line += " (" + strings.Join(by, ", ") + ")"
	}
	if r.ReusedGames > 0 {
		line += fmt.Sprintf(", besides %d of the package's brought from the round before on the same deals", r.ReusedGames)
	}
	return line + ", " + r.Elapsed.Round(time.Second).String()
}

// tiersWhere names the tiers whose verification put every side within
// the band (in) or not.
func tiersWhere(r *analysis.BalanceResult, in bool) string {
	var t []string
	for _, v := range r.Verify {
		if v.InBand == in {
			t = append(t, strings.Join(v.Bots, ","))
		}
	}
	return strings.Join(t, " and ")
}

// tierDevs is each verified tier's largest deviation after the package.
func tierDevs(r *analysis.BalanceResult) string {
	var t []string
	for _, v := range r.Verify {
		t = append(t, fmt.Sprintf("largest deviation %.1f points at %s", 100*v.MaxDev, strings.Join(v.Bots, ",")))
	}
	return strings.Join(t, ", ")
}

func tierNames(r *analysis.BalanceResult) string {
	var t []string
	for _, v := range r.Verify {
		t = append(t, strings.Join(v.Bots, ","))
	}
	if len(t) == 0 {
		return "no tier (interrupted)"
	}
	return strings.Join(t, " and ")
}

func maxDevOf(s []analysis.SideShare) float64 {
	d := 0.0
	for _, x := range s {
		d = max(d, abs(x.Share-x.Fair))
	}
	return d
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
