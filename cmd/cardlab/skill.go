package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// SkillOptions are the inputs of `cardlab skill`; BatchOptions.Bots holds
// the levels, comma-separated.
type SkillOptions struct {
	BatchOptions
	Levels []string
	// Settle is the band, in points, within which a step counts as no
	// movement.
	Settle float64
}

// NewCmdSkill parses the flags of `cardlab skill`; runF replaces skillRun in
// tests.
func NewCmdSkill(g *globalOptions, runF func(*SkillOptions) error) *cobra.Command {
	opts := &SkillOptions{}
	var players string
	cmd := &cobra.Command{
		Use:   "skill [--bots random,greedy,ismcts] [--players F1,F2 | --matchups all] --games N",
		Short: "Compare faction and card strength at different levels of play",
		Long: `Play the same games (same seeds, same deals) once per skill level, every seat
taken by the same bot — --bots lists the levels, weakest first — and compare:
each faction's win share and rank at every level, its paired change from one
level to the next (95% interval, Holm-corrected over factions and steps,
* significant), where each faction's share stops moving (settled: every
later step's 95% interval within ±--settle points; moving: the last step is
significant; unresolved: neither, with the games per lineup that would
tell), and every card's opening-hand improvement (oh_iwd) and rank
within its faction at every level.

Rank changes name the factions and cards that are "strong only against weak
play" (their rank drops as play gets stronger, significantly) or that reward
skilled play. A card is listed only when its oh_iwd changes significantly
between the levels (a z-test, Holm-corrected over the cards).

The default levels are greedy and ` + defaultBots + `; ` + defaultBots + ` is the bot every other
analysis command (impact, sweep, diff, watch, report) plays by default, so
skill's strongest default level matches their figures. ISMCTS is slow (about
a second per game with the default 500 iterations per decision): start with
a few hundred games, or ismcts:iters=100.`,
		Example: `  cardlab skill --games 500                            # random, greedy
  cardlab skill --bots random,greedy,ismcts:iters=200 --games 200
  cardlab skill --bots greedy,strong,ismcts:iters=200,ismcts:iters=400 --games 100   # a skill trace
  cardlab skill --players starfleet,klingon --games 2000 --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBatchFlags(cmd, g, &opts.BatchOptions, players); err != nil {
				return err
			}
			levels, err := botList(opts.Bots)
			if err != nil {
				return usageErrorf("--bots: %v", err)
			}
			if len(levels) < 2 {
				return usageErrorf("--bots needs at least two levels to compare, e.g. random,greedy")
			}
			for i, l := range levels {
				for _, m := range levels[:i] {
					if m == l {
						return usageErrorf("--bots names %q twice", l)
					}
				}
			}
			opts.Levels = levels
			if opts.Settle <= 0 || opts.Settle >= 100 {
				return usageErrorf("--settle %v: a band in points between 0 and 100, e.g. 3", opts.Settle)
			}
			if runF != nil {
				return runF(opts)
			}
			return skillRun(opts)
		},
	}
	batchFlags(cmd, &opts.BatchOptions, &players, 300, "games `N` per lineup at every level", "")
	cmd.Flags().StringVar(&opts.Bots, "bots", "greedy,"+defaultBots, "the skill levels: bot `SPECS` comma-separated, weakest first")
	floatVar(cmd.Flags(), &opts.Settle, "settle", analysis.DefaultSettleTolerance*100,
		"a step between levels within ±`P` points (its 95% interval inside) counts as no movement")
	return cmd
}

func skillRun(opts *SkillOptions) error {
	g, lineups, err := skillRuleset(opts)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	pc, finish := pairedConfig(&opts.BatchOptions, lineups, nil, "skill")
	res, err := analysis.Skill(ctx, analysis.SkillConfig{PairedConfig: pc, Game: g, Levels: opts.Levels,
		SettleTolerance: opts.Settle / 100})
	finish()
	if err != nil {
		return err
	}
	res.ToolVersion = versionString()
	games := int64(len(res.Levels) * len(res.Matchups) * res.Games)
	return writePaired(&opts.BatchOptions, res, func(w io.Writer) error { return writeSkillTables(w, res) }, res.Partial, games)
}

// skillRuleset loads --rules with its lineups and checks the levels
// against its bots. Without --bots the levels are greedy and strong where
// the game has both, else random and its default bot (defaultBotFor;
// ismcts for a game whose default is random).
func skillRuleset(opts *SkillOptions) (game.Ruleset, [][]string, error) {
	rs, err := loadRulesetDir(opts.RulesDir)
	if err != nil {
		return nil, nil, err
	}
	if !opts.BotsGiven && !hasBots(rs, opts.Levels) {
		top := defaultBotFor(rs)
		if top == "random" {
			top = "ismcts"
		}
		opts.Levels = []string{"random", top}
	}
	for _, l := range opts.Levels {
		if _, err := bots.ParseFor(rs, l, 0); err != nil {
			return nil, nil, err
		}
	}
	lineups, err := resolveLineups(rs, opts.Players, opts.Matchups)
	return rs, lineups, err
}

// hasBots reports whether every spec is a bot of rs.
func hasBots(rs game.Ruleset, specs []string) bool {
	for _, s := range specs {
		if _, err := bots.ParseFor(rs, s, 0); err != nil {
			return false
		}
	}
	return true
}

func writeSkillTables(w io.Writer, r *analysis.SkillResult) error {
	fmt.Fprintln(w, rulesetLine(r.Ruleset))
	fmt.Fprintf(w, "Skill levels %s: %d %s × %d games each, seed %d\n", strings.Join(r.Levels, " → "),
		len(r.Matchups), plural(len(r.Matchups), "lineup", "lineups"), r.Games, r.Seed)
	if r.Partial {
		fmt.Fprintln(w, "PARTIAL (interrupted)")
	}
	// What is compared: the game's sides ("faction"), or the seats where
	// every seat plays one side (analysis.Skill's mirror).
	word := "faction"
	if gm, ok := game.Lookup(cmp.Or(r.Ruleset.Game, game.DefaultID)); ok && gm.Vocabulary().Side != "" {
		word = gm.Vocabulary().Side
	}
	order := ""
	if r.Compared != "" {
		word = "seat"
		if r.Compared == analysis.ComparedTurnOrder {
			// The starting seat, then those after it: the starter's
			// advantage is what skill may move in a mirror.
			order = " in turn order (the starting seat: the seat that began each game)"
		}
	}
	fmt.Fprintf(w, "\n%ss%s: win %% [95%% CI] (rank) at each level\n", strings.ToUpper(word[:1])+word[1:], order)
	t := &table{align: "l"}
	head := []string{strings.ToUpper(word)}
	for _, l := range r.Levels {
		head = append(head, strings.ToUpper(l))
		t.align += "l"
	}
	t.add(head...)
	for _, f := range r.Factions {
		cells := []string{f.Faction}
		for _, s := range f.Levels {
			cells = append(cells, fmt.Sprintf("%s %s (%d)", pct(s.WinRate), ci(s.CI95), s.Rank))
		}
		t.add(cells...)
	}
	if err := t.write(w); err != nil {
		return err
	}
	for _, st := range r.Steps {
		fmt.Fprintf(w, "\n%s → %s: paired change in points, 95%% CI, Holm-corrected (* significant)\n", st.From, st.To)
		t := &table{align: "lrll"}
		for _, f := range st.Factions {
			t.add(f.Faction, points(f.Delta)+star(f.Significant), pointsCI(f.CI95), "p_adj "+pValue(f.PAdj))
		}
		if err := t.write(w); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nWhere each %s's share stops moving (a step within ±%g points: its 95%% interval inside)\n", word, math.Round(r.SettleTolerance*1000)/10)
	t = &table{align: "ll"}
	for _, f := range r.Factions {
		t.add(f.Faction, settleText(&f.Settle))
	}
	if err := t.write(w); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nRank changes")
	if len(r.RankChanges) == 0 {
		if len(r.Cards) == 0 { // a game whose counts have no opening hands
			fmt.Fprintln(w, "  none: every "+word+" keeps its rank")
			return nil
		}
		fmt.Fprintln(w, "  none: every "+word+" keeps its rank and no card's oh_iwd moves beyond its interval")
		return nil
	}
	t = &table{align: "llllll"}
	for _, rc := range r.RankChanges {
		who := rc.ID
		if rc.Kind == "card" {
			who += " (" + rc.Faction + ")"
		}
		t.add(rc.Kind, who, fmt.Sprintf("%s %s → %s %s", rankOrdinal(rc.RankFrom), rc.From, rankOrdinal(rc.RankTo), rc.To), rc.Note)
	}
	return t.write(w)
}

// rankOrdinal is 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st.
func rankOrdinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// settleText is a faction's SkillSettle in words.
func settleText(s *analysis.SkillSettle) string {
	switch s.State {
	case analysis.SettleSettled:
		return "settled from " + s.Level + " on"
	case analysis.SettleMoving:
		return "still moving: the last step is significant; try a stronger level"
	}
	if s.GamesNeeded > 0 {
		return fmt.Sprintf("unresolved: the last step is not significant but its interval is wider than the band; about %d games per lineup would tell", s.GamesNeeded)
	}
	return "unresolved: the last step is not significant, but its change is at or beyond the band"
}
