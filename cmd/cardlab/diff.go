package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
)

// DiffOptions are the inputs of `cardlab diff`.
type DiffOptions struct {
	BatchOptions
	// BaseDir is the ruleset compared against (--base); RulesDir (--rules,
	// or the embedded default) is the new version.
	BaseDir string
	// FailOnSignificant makes a significant change an error (exit 1).
	FailOnSignificant bool
	SequentialOptions
}

// NewCmdDiff parses the flags of `cardlab diff`; runF replaces diffRun in
// tests.
func NewCmdDiff(g *globalOptions, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{}
	var players, shard string
	cmd := &cobra.Command{
		Use:   "diff --base DIR [--rules DIR] [--games N] [--fail-on-significant]",
		Short: "Compare two versions of a ruleset: what changed and what it does",
		Long: `Compare the ruleset in --rules (or the embedded default) with the older
version in --base: first every definition that changed (rule parameters,
factions, cards and targets: added, removed, field by field), then both
versions play the same games (same seeds, so the same deals and target
orders) and every faction's win share is compared game by game.

Each faction's change comes with a 95% paired interval and a p-value,
Holm-corrected over the factions (* significant); the interval the same games
would give as two independent samples is shown beside it. On a mirror (every
seat the one side) the seats take the factions' place: the starting seat and
the seats after it in turn where the game says who began (Spacetrace), else
seat 1, seat 2, …. Then the cards and targets whose simulate metrics moved
most, and a one-line verdict.

--fail-on-significant exits with status 1 when any faction's change is
significant, so the command can gate a pull request in CI. --games is per
lineup; lineups must be playable under both versions. Two versions with the
same ruleset hash (the same files, byte for byte) make the same games: diff
then says so at once and plays none.

` + defaultBotsHelp,
		Example: `  cardlab diff --base v1 --rules v2 --games 2000
  cardlab diff --base main-rules --rules . --bots greedy --fail-on-significant
  cardlab diff --base v1 --rules v2 --json --out diff.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBatchFlags(cmd, g, &opts.BatchOptions, players); err != nil {
				return err
			}
			if err := opts.SequentialOptions.check(opts.Games); err != nil {
				return err
			}
			if err := opts.checkShard(cmd, shard, &opts.BatchOptions); err != nil {
				return err
			}
			if strings.TrimSpace(opts.BaseDir) == "" {
				return usageErrorf("--base DIR is required: the ruleset to compare against")
			}
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	batchFlags(cmd, &opts.BatchOptions, &players, defaultGames, "games `N` per lineup in each version", defaultBots)
	tierDefault(cmd.Flags(), "games", costlyGames)
	sequentialFlags(cmd, &opts.SequentialOptions, "every faction's")
	cmd.Flags().StringVar(&opts.BaseDir, "base", "", "the ruleset `DIR` to compare against (the old version)")
	cmd.Flags().BoolVar(&opts.FailOnSignificant, "fail-on-significant", false, "exit with status 1 when any faction's win share changes significantly")
	shardFlag(cmd, &shard)
	return cmd
}

func diffRun(opts *DiffOptions) error {
	base, err := loadRulesetDir(opts.BaseDir)
	if err != nil {
		return fmt.Errorf("--base: %w", err)
	}
	variant, err := loadRulesetDir(opts.RulesDir)
	if err != nil {
		return err
	}
	if base.Game() != variant.Game() {
		return fmt.Errorf("cardlab diff compares two versions of one game; the base is %s, the variant %s", base.Game(), variant.Game())
	}
	gameDefaults(&opts.BatchOptions, base)
	lineups, err := diffLineups(base, variant, opts)
	if err != nil {
		return err
	}
	specs, err := checkBotSpecs(base, opts.Bots, lineups)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	ctx, _ = startShard(ctx, opts.Shard)
	if h := base.Info().Hash; h != "" && h == variant.Info().Hash {
		// No games: a shard of it holds none, and the merge answers.
		if handled, err := shardDone(ctx, &opts.BatchOptions, "diff"); handled || err != nil {
			return err
		}
		return diffIdentical(opts, base, variant, lineups, specs)
	}
	return playDiff(ctx, opts, lineups, specs, analysis.DiffConfig{Base: base, Variant: variant})
}

// playDiff plays the paired diff dc names (Alpha Tactics' rulesets or
// another game's) in sequential stages and writes it.
func playDiff(ctx context.Context, opts *DiffOptions, lineups [][]string, specs []string, dc analysis.DiffConfig) error {
	res, cut, err := playStages(opts.SequentialOptions, opts.Games, opts.ErrOut, func(games int) (*analysis.DiffResult, bool, float64, error) {
		bo := opts.BatchOptions
		bo.Games = games
		pc, finish := pairedConfig(&bo, lineups, specs, "diff")
		dc.PairedConfig = pc
		r, err := analysis.Diff(ctx, dc)
		finish()
		if err != nil {
			return nil, false, 0, err
		}
		return r, r.Partial, widest(r.Factions), nil
	})
	if err != nil {
		return err
	}
	if handled, err := shardDone(ctx, &opts.BatchOptions, "diff"); handled || err != nil {
		return err
	}
	res.ToolVersion = versionString()
	games := int64(2 * len(res.Matchups) * res.Games)
	if err := writePaired(&opts.BatchOptions, res, func(w io.Writer) error { return writeDiffTables(w, res) }, res.Partial, games); err != nil {
		return err
	}
	if cut != nil {
		return cut
	}
	if opts.FailOnSignificant && res.Significant {
		return fmt.Errorf("--fail-on-significant: %s", res.Verdict)
	}
	return nil
}

// diffIdentical answers a diff of two rulesets with the same hash at once:
// the same files make the same games, so every paired game would end the
// same and playing them could only confirm it.
func diffIdentical(opts *DiffOptions, base, variant game.Ruleset, lineups [][]string, specs []string) error {
	res := &analysis.DiffResult{
		ToolVersion: versionString(),
		Base:        analysis.RulesetInfoOf(base),
		Variant:     analysis.RulesetInfoOf(variant),
		Changes:     analysis.GameChanges(base, variant),
		ArmInfo:     analysis.ArmInfo{Matchups: lineups, Bots: specs, Seed: opts.Seed, MinSample: opts.MinSample},
		Alpha:       analysis.DefaultAlpha,
		Correction:  analysis.CorrectionHolm,
		Factions:    []analysis.FactionDelta{},
		Cards:       []analysis.CardDelta{},
		Targets:     []analysis.TargetDelta{},
		Verdict:     "no changes: the rulesets are identical (same hash), so every paired game would end the same; none was played",
	}
	return writePaired(&opts.BatchOptions, res, func(w io.Writer) error { return writeDiffTables(w, res) }, false, 0)
}

// diffLineups resolves the lineups in the base ruleset; with --matchups all
// (the default) only factions of both versions play.
func diffLineups(base, variant game.Ruleset, opts *DiffOptions) ([][]string, error) {
	side := sideWord(base)
	in := map[string]bool{}
	for _, id := range sideIDs(variant) {
		in[id] = true
	}
	lineups, err := resolveLineups(base, opts.Players, opts.Matchups)
	if err != nil {
		return nil, err
	}
	var out [][]string
	var dropped []string
	for _, l := range lineups {
		ok := true
		for _, f := range l {
			if !in[f] {
				ok = false
			}
		}
		if ok {
			out = append(out, l)
		} else {
			dropped = append(dropped, strings.Join(l, ","))
		}
	}
	if len(dropped) > 0 {
		explicit := opts.Players != nil
		for _, m := range opts.Matchups {
			if !strings.HasPrefix(strings.TrimSpace(m), "all") {
				explicit = true
			}
		}
		if explicit || len(out) == 0 {
			return nil, fmt.Errorf("lineup %s cannot be played by the new version (a %s is missing there)", dropped[0], side)
		}
		fmt.Fprintf(opts.ErrOut, "note: %d %s with a %s missing from the new version not played: %s\n",
			len(dropped), plural(len(dropped), "lineup", "lineups"), side, strings.Join(dropped, "; "))
	}
	return out, nil
}

func writeDiffTables(w io.Writer, r *analysis.DiffResult) error {
	fmt.Fprintf(w, "Base:    %s\nVariant: %s\n", rulesetLine(r.Base), rulesetLine(r.Variant))
	if len(r.Changes) == 0 {
		fmt.Fprintln(w, "\nNo changes in the definitions.")
	} else {
		fmt.Fprintf(w, "\nChanges (%d)\n", len(r.Changes))
		t := &table{align: "llll"}
		for _, c := range r.Changes {
			what := c.Kind
			if c.ID != "" {
				what += " " + c.ID
			}
			var desc string
			switch c.Change {
			case "added":
				desc = "added"
				if c.Variant != "" {
					desc += " (" + c.Variant + ")"
				}
			case "removed":
				desc = "removed"
				if c.Base != "" {
					desc += " (" + c.Base + ")"
				}
			default:
				desc = fmt.Sprintf("%s: %s → %s", c.Field, clip(c.Base, 40), clip(c.Variant, 40))
			}
			t.add(what, desc, c.Pos)
		}
		if err := t.write(w); err != nil {
			return err
		}
	}
	if r.Games == 0 && len(r.Factions) == 0 && !r.Partial {
		fmt.Fprintf(w, "\nPaired games: none — both versions have ruleset hash %s\n\nVerdict: %s\n", shortHash(r.Base.Hash), r.Verdict)
		return nil
	}
	fmt.Fprintf(w, "\nPaired games: %s", armLine(r.ArmInfo))
	if r.Partial {
		fmt.Fprint(w, " — PARTIAL (interrupted)")
	}
	one, many := "faction", "factions"
	if r.Base.Game != "" {
		one, many = "side", "sides"
		if g, ok := game.Lookup(r.Base.Game); ok && g.Vocabulary().Side != "" {
			one, many = g.Vocabulary().Side, g.Vocabulary().Sides
		}
		if r.Compared != "" {
			one, many = "seat", "seats"
		}
	}
	title := upperFirst(many)
	if r.Compared == analysis.ComparedTurnOrder {
		title, one = "Seats in turn order", "seat in turn order"
	}
	fmt.Fprintf(w, "\n%s (Δ = variant − base in points; 95%% paired CI; p Holm-corrected over %d %s; * significant;\n", title, len(r.Factions), many)
	fmt.Fprintln(w, "MDE80: the smallest change this run detects with 80% power)")
	if r.Compared == analysis.ComparedTurnOrder {
		fmt.Fprintln(w, turnOrderNote(r.ArmInfo))
	}
	t := &table{align: "lrrrrlllrrr"}
	t.add(strings.ToUpper(one), "GAMES", "BASE%", "VARIANT%", "Δ", "95% CI", "UNPAIRED CI", "TEST", "P_ADJ", "CHANGED", "MDE80")
	for _, f := range r.Factions {
		test := f.Test
		if f.Changed == 0 && f.Games > 0 {
			test = "no game changed"
		}
		t.add(f.Faction, strconv.FormatInt(f.Games, 10), pct(f.Base), pct(f.Variant), points(f.Delta)+star(f.Significant),
			pointsCI(f.CI95), pointsCI(f.UnpairedCI95), test, pValue(f.PAdj), strconv.FormatInt(f.Changed, 10),
			fmt.Sprintf("±%.1f", 100*f.MDE80))
	}
	if err := t.write(w); err != nil {
		return err
	}
	if r.Base.Game != "" {
		// Card and target metrics are Alpha Tactics'.
		fmt.Fprintf(w, "\nVerdict: %s\n", r.Verdict)
		return nil
	}
	if err := writeDiffCards(w, r); err != nil {
		return err
	}
	if err := writeDiffTargets(w, r); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nVerdict: %s\n", r.Verdict)
	return nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// writeDiffCards lists the changed cards and those whose played win rate
// moved most.
func writeDiffCards(w io.Writer, r *analysis.DiffResult) error {
	const top = 10
	list := changedFirst(r.Cards, top, func(c analysis.CardDelta) (bool, float64, bool) {
		moved := c.PlayRate.Delta != 0 || c.PlayedWR.Delta != 0 || c.OHWR.Delta != 0 ||
			c.RowWinRate.Delta != 0 || c.MeanPower.Delta != 0 || c.FiredPerGame.Delta != 0
		return c.Changed, c.RowWinRate.Delta, moved
	})
	if len(list) == 0 {
		fmt.Fprintln(w, "\nCards: no card's metrics changed")
		return nil
	}
	// The played win share is left out: a card played in nearly every
	// game it is drawn in has its faction's win share, the same for all
	// of them. The play rate shows only where it is below
	// analysis.PlayRateInforms in a version: elsewhere it is about 100%.
	fmt.Fprintf(w, "\nCards: changed ones (†), then the largest moves of the row won %% (descriptive, not causal; PLAY%% where below %.0f%%)\n", 100*analysis.PlayRateInforms)
	t := &table{align: "llrrrr"}
	t.add("CARD", "FACTION", "PLAY%", "OH WR%", "ROW WON%", "POWER")
	d := func(v analysis.ValueDelta, scale float64) string {
		return fmt.Sprintf("%.1f→%.1f", scale*v.Base, scale*v.Variant)
	}
	for _, c := range list {
		id := c.ID
		if c.Changed {
			id += " †"
		}
		play := ""
		if min(c.PlayRate.Base, c.PlayRate.Variant) < analysis.PlayRateInforms {
			play = d(c.PlayRate, 100)
		}
		t.add(id, c.Faction, play, d(c.OHWR, 100), d(c.RowWinRate, 100), d(c.MeanPower, 1))
	}
	return t.write(w)
}

func writeDiffTargets(w io.Writer, r *analysis.DiffResult) error {
	const top = 8
	list := changedFirst(r.Targets, top, func(t analysis.TargetDelta) (bool, float64, bool) {
		moved := t.CaptureRate.Delta != 0 || t.MeanMargin.Delta != 0 || t.TieRate.Delta != 0 || t.LaidPerGame.Delta != 0
		return t.Changed, t.CaptureRate.Delta, moved
	})
	if len(list) == 0 {
		fmt.Fprintln(w, "\nTargets: no target's metrics changed")
		return nil
	}
	fmt.Fprintln(w, "\nTargets: changed ones (†), then the largest moves of the capture rate")
	t := &table{align: "lrrr"}
	t.add("TARGET", "CAPTURE%", "MARGIN", "TIES%")
	for _, c := range list {
		id := c.ID
		if c.Changed {
			id += " †"
		}
		t.add(id, fmt.Sprintf("%.1f→%.1f", 100*c.CaptureRate.Base, 100*c.CaptureRate.Variant),
			fmt.Sprintf("%.2f→%.2f", c.MeanMargin.Base, c.MeanMargin.Variant),
			fmt.Sprintf("%.1f→%.1f", 100*c.TieRate.Base, 100*c.TieRate.Variant))
	}
	return t.write(w)
}

// changedFirst selects what a diff lists: every changed item, then those
// whose key figure moved most (at least top items in all), leaving out the
// unchanged ones whose figures did not move at all. It keeps the input order
// among equals.
func changedFirst[T any](items []T, top int, look func(T) (changed bool, move float64, moved bool)) []T {
	list := slices.DeleteFunc(slices.Clone(items), func(x T) bool {
		changed, _, moved := look(x)
		return !changed && !moved
	})
	slices.SortStableFunc(list, func(a, b T) int {
		ca, ma, _ := look(a)
		cb, mb, _ := look(b)
		if ca != cb {
			if ca {
				return -1
			}
			return 1
		}
		switch da, db := math.Abs(ma), math.Abs(mb); {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return 0
	})
	n := 0
	for _, x := range list {
		if c, _, _ := look(x); c {
			n++
		}
	}
	return list[:min(len(list), max(top, n))]
}
