package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/internal/terminal"
)

// SimulateOptions are the inputs of `cardlab simulate`.
type SimulateOptions struct {
	BatchOptions
	Shard analysis.Shard
	// GamesOut receives one JSON line per game.
	GamesOut string
}

// NewCmdSimulate parses the flags of `cardlab simulate`; runF replaces
// simulateRun in tests.
func NewCmdSimulate(g *globalOptions, runF func(*SimulateOptions) error) *cobra.Command {
	opts := &SimulateOptions{}
	var players, shard string
	cmd := &cobra.Command{
		Use:   "simulate [--players F1,F2 | --matchups all] [--bots SPEC] --games N --seed S",
		Short: "Play many games between bots and report balance statistics",
		Long: `Play many games between bots on all CPU cores and report what they show:
each faction's win rate with a 95% confidence interval (Wilson), seat and
turn-order advantage, every matchup, every target card (how often it is
taken, by whom, by what margin, on ties) and every player card (win rate
when drawn and when not drawn, improvement when drawn, play rate, how often
the row it was played in was won, combat power contributed, effects fired,
blocked and fizzled). docs/metrics.md defines every figure.

What is played: --players F1,F2[,…] is one lineup; --matchups all (the
default) is every pair of factions, all:3 every three factions (all:4 …),
or explicit lineups separated by ";" (or by repeating --matchups). Each
lineup plays --games games with its seats rotated, so every faction sits
in every seat equally often. --bots is one bot spec for every seat or one
per seat (available: ` + strings.Join(defaultBotNames(), ", ") + `).
Bots default to ` + simulateDefaultBots + ` here: simulate gives raw figures fast (the analysis
commands and report default to ` + defaultBots + `, about a hundred times the cost).

A ruleset of another game (rules.yaml's game:, 'cardlab games') plays the
same way with that game's sides (where one side may take several seats,
all:N repeats it), bots and counts, which the tables show as they are.

The result depends only on the ruleset, the lineups, the bots, --games and
--seed — never on --workers or on how the run is split into --shard k/n
parts, whose JSON results 'cardlab merge' adds up exactly. Game i has the
seed printed by --games-out, and 'cardlab play' with that seed, seats and
bots replays it.

Output: aligned tables on standard output, or --json (the contract is in
docs/metrics.md); --out FILE writes the JSON to FILE instead, atomically
(a file is always JSON, for 'cardlab merge' and 'cardlab report --from').
--games-out FILE writes one JSON line per game. Figures resting on fewer
than --min-sample games are marked low_n (* in the tables). A progress bar
appears on standard error when it is a terminal. Ctrl-C stops at once,
abandoning the games in play: what was finished is written, marked
"partial": true, and the exit status is 1; with --out FILE it goes to
FILE.partial.json beside FILE, which keeps its complete result (the same
for --games-out). A second Ctrl-C quits at once without writing.`,
		Example: `  cardlab simulate --games 2000                       # every pair of factions
  cardlab simulate --players starfleet,klingon --bots greedy --games 5000
  cardlab simulate --matchups all:4 --games 1000 --json --out 4p.json
  cardlab simulate --games 100000 --shard 2/8 --json --out shard2.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBatchFlags(cmd, g, &opts.BatchOptions, players); err != nil {
				return err
			}
			sh, err := parseShard(shard)
			if err != nil {
				return err
			}
			opts.Shard = sh
			if opts.OutFile != "" && opts.GamesOut != "" && files.Same(opts.OutFile, opts.GamesOut) {
				return usageErrorf("--out %q and --games-out %q name the same file", opts.OutFile, opts.GamesOut)
			}
			if opts.OutFile == "" && opts.GamesOut != "" && namesStdout(opts.GamesOut) {
				return usageErrorf("--games-out %q is standard output, where the result goes too: give the result a file with --out, or the games one", opts.GamesOut)
			}
			if runF != nil {
				return runF(opts)
			}
			return simulateRun(opts)
		},
	}
	batchFlags(cmd, &opts.BatchOptions, &players, defaultGames, "games per lineup `N` (over all shards)", simulateDefaultBots)
	fl := cmd.Flags()
	fl.StringVar(&shard, "shard", "1/1", "play only part `k/n` of the games (merge the parts with 'cardlab merge')")
	fl.StringVar(&opts.GamesOut, "games-out", "", "write one JSON line per game to `FILE`")
	return cmd
}

// parseShard parses "k/n" with 1 <= k <= n.
func parseShard(s string) (analysis.Shard, error) {
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return analysis.Shard{}, usageErrorf("invalid --shard %q: want k/n, e.g. 2/8 for the second of eight parts", s)
	}
	if n < 1 || k < 1 || k > n || n > maxShards {
		return analysis.Shard{}, usageErrorf("invalid --shard %q: k/n needs 1 <= k <= n <= %d", s, maxShards)
	}
	return analysis.Shard{K: k, N: n}, nil
}

// isTerminal reports whether w (under its terminal.Writer) is a terminal
// (character device).
func isTerminal(w io.Writer) bool {
	f, ok := terminal.Unwrap(w).(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func simulateRun(opts *SimulateOptions) error {
	// The outputs are opened (and so checked) before anything is played.
	out, err := openResult(opts.Out, opts.OutFile)
	if err != nil {
		return err
	}
	defer out.Abort()
	var games *files.Output
	if opts.GamesOut != "" {
		if games, err = files.Create(opts.GamesOut, opts.Out); err != nil {
			return err
		}
		defer games.Abort()
	}
	cfg := analysis.Config{Games: opts.Games, Seed: opts.Seed, Workers: opts.Workers, Shard: opts.Shard, MinSample: opts.MinSample}
	var rs game.Ruleset
	if rs, cfg.Matchups, cfg.Bots, err = loadBatch(opts.RulesDir, opts.Players, opts.Matchups, opts.Bots); err != nil {
		return err
	}
	cfg.Game = rs
	ctx, stop := interruptible(opts.Context)
	defer stop()

	if opts.MinSample == 0 {
		cfg.MinSample = -1 // 0 asked for: nothing is low_n
	}
	if games != nil {
		// One line per game as it finishes: memory does not grow with --games.
		enc := json.NewEncoder(games)
		enc.SetEscapeHTML(false)
		cfg.Record = func(g *analysis.GameRecord) error { return enc.Encode(g) }
	}
	bar := newGameBar(opts.ErrOut, opts.Progress, "simulating")
	cfg.Progress = bar.progress()
	res, err := analysis.Run(ctx, cfg)
	bar.done()
	if err != nil {
		return err
	}
	rep := res.Report(versionString())
	text, err := formatReport(rep, opts.JSON)
	if err != nil {
		return err
	}
	if _, err := out.Write(text); err != nil {
		return err
	}
	gamesWhere := ""
	if games != nil {
		if gamesWhere, err = finishOutput(games, res.Partial); err != nil {
			return err
		}
	}
	where, err := finishOutput(out, res.Partial)
	if err != nil {
		return err
	}
	if res.Partial {
		msg := fmt.Sprintf("interrupted after %d of %d games: %s", rep.Games, res.Total, partialNote(where, opts.OutFile))
		if games != nil {
			msg += "; the games played are in " + gamesWhere
		}
		return errors.New(msg)
	}
	if opts.OutFile != "" {
		fmt.Fprintf(opts.ErrOut, "wrote %s (%d games, %.0f games/s)\n", opts.OutFile, rep.Games, rep.Timing.GamesPerSecond)
	}
	return nil
}

// loadBatch does what every batch command does first: load the ruleset,
// turn --players or --matchups into lineups and check --bots against them.
func loadBatch(rulesDir string, players, matchups []string, botSpecs string) (game.Ruleset, [][]string, []string, error) {
	rs, err := loadRulesetDir(rulesDir)
	if err != nil {
		return nil, nil, nil, err
	}
	lineups, err := resolveLineups(rs, players, matchups)
	if err != nil {
		return nil, nil, nil, err
	}
	specs, err := checkBotSpecs(rs, botSpecs, lineups)
	if err != nil {
		return nil, nil, nil, err
	}
	return rs, lineups, specs, nil
}

// pairedBatch is what a paired command (sweep, impact) does once its
// ruleset is loaded: the game's default bot where --bots was not given
// (gameDefaults), the lineups of --players or --matchups, and --bots
// checked against them.
func pairedBatch(o *BatchOptions, rs game.Ruleset) ([][]string, []string, error) {
	gameDefaults(o, rs)
	lineups, err := resolveLineups(rs, o.Players, o.Matchups)
	if err != nil {
		return nil, nil, err
	}
	specs, err := checkBotSpecs(rs, o.Bots, lineups)
	if err != nil {
		return nil, nil, err
	}
	return lineups, specs, nil
}

// resolveLineups turns --players or --matchups into lineups of faction ids.
// Its messages name the sides in the game's Vocabulary ("faction").
//
// A mirror (one side on several seats: Goofspiel, Eclipse) has lineups of
// seats, not sets of sides: mirrorLineups.
func resolveLineups(rs game.Ruleset, players, matchups []string) ([][]string, error) {
	if rs.Mirror() {
		return mirrorLineups(rs, players, matchups)
	}
	side, sides := sideWords(rs)
	lo, hi := rs.Seats()
	ids := sideIDs(rs)
	if players != nil {
		l, err := checkLineup(rs, players, "--players")
		if err != nil {
			return nil, err
		}
		return [][]string{l}, nil
	}
	var out [][]string
	seen := map[string]string{}
	add := func(l []string, given string) error {
		key := slices.Clone(l)
		slices.Sort(key)
		k := strings.Join(key, ",")
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("--matchups lists the %s %s twice (%q and %q)", sides, strings.Join(key, ", "), prev, given)
		}
		seen[k] = given
		out = append(out, l)
		return nil
	}
	for _, v := range matchups {
		for _, item := range strings.Split(v, ";") {
			item = strings.TrimSpace(item)
			switch {
			case item == "":
				return nil, usageErrorf("--matchups %q: empty lineup", v)
			case item == "all" || strings.HasPrefix(item, "all:"):
				size := 2
				if item != "all" {
					n, err := strconv.Atoi(strings.TrimPrefix(item, "all:"))
					if err != nil {
						return nil, usageErrorf("--matchups %q: want all, all:N or lineups like starfleet,klingon", item)
					}
					// No ruleset seats fewer than 1 or more than
					// game.MaxSeats: such an N is malformed (2), one the
					// ruleset's rules do not allow cannot be satisfied (1).
					if n < 1 || n > game.MaxSeats {
						return nil, usageErrorf("--matchups %q: N is the players per table, 1 to %d", item, game.MaxSeats)
					}
					size = n
				}
				if size < lo || size > hi || size > len(ids) {
					return nil, fmt.Errorf("--matchups %s: tables of %d players; the rules allow %d to %d and there are %d %s",
						item, size, lo, hi, len(ids), sides)
				}
				for _, l := range combinations(ids, size) {
					if err := add(l, item); err != nil {
						return nil, err
					}
				}
			default:
				var ids []string
				for _, p := range strings.Split(item, ",") {
					p = strings.TrimSpace(p)
					if p == "" {
						return nil, usageErrorf("--matchups %q: empty %s name", item, side)
					}
					ids = append(ids, p)
				}
				l, err := checkLineup(rs, ids, "--matchups "+item)
				if err != nil {
					return nil, err
				}
				if err := add(l, item); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// namesStdout reports whether path is "-" or the file standard output
// goes to (/dev/stdout, or the file stdout is redirected to); /dev/null
// mixes nothing.
func namesStdout(path string) bool {
	if path == files.Stdout {
		return true
	}
	if path == os.DevNull {
		return false
	}
	a, err := os.Stat(path)
	if err != nil {
		return false
	}
	b, err := os.Stdout.Stat()
	return err == nil && os.SameFile(a, b)
}

// checkLineup resolves side names (findSide): known, none twice, as many
// as the rules allow.
func checkLineup(rs game.Ruleset, in []string, what string) ([]string, error) {
	side, sides := sideWords(rs)
	lo, hi := rs.Seats()
	out := make([]string, 0, len(in))
	for _, p := range in {
		i := findSide(rs, p)
		if i < 0 {
			return nil, didYouMean(side, p, sideIDs(rs))
		}
		id := rs.Sides()[i].ID
		if slices.Contains(out, id) {
			return nil, fmt.Errorf("%s %q is listed twice in %s", side, id, what)
		}
		out = append(out, id)
	}
	if n := len(out); n < lo || n > hi {
		return nil, fmt.Errorf("%s names %d %s; the rules allow %d to %d players", what, n, plural(n, side, sides), lo, hi)
	}
	return out, nil
}

// combinations lists every k-subset of ids in order.
func combinations(ids []string, k int) [][]string {
	var out [][]string
	var pick func(start int, cur []string)
	pick = func(start int, cur []string) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i < len(ids); i++ {
			pick(i+1, append(cur, ids[i]))
		}
	}
	pick(0, nil)
	return out
}

// checkBotSpecs checks a --bots value against the lineups: one spec for
// every seat, or one per seat when every lineup has that many seats.
func checkBotSpecs(rs game.Ruleset, spec string, lineups [][]string) ([]string, error) {
	parts := bots.SplitList(spec)
	for i := range parts {
		parts[i] = strings.ToLower(strings.TrimSpace(parts[i]))
		if _, err := bots.ParseFor(rs, parts[i], 0); err != nil {
			return nil, err // a bots.SpecError: a malformed value, exit 2
		}
	}
	if len(parts) > 1 {
		for _, l := range lineups {
			if len(l) != len(parts) {
				// Well-formed, but not for these lineups: exit 1.
				return nil, fmt.Errorf("--bots %q names %d bots for a lineup of %d players (give one for all or one per seat)", spec, len(parts), len(l))
			}
		}
	}
	return parts, nil
}

// runLine is a simulation summary's second line: the games, lineups,
// bots, seed, the shards it holds, and whether it was interrupted.
func runLine(rep *analysis.Report) string {
	c := rep.Config
	what := fmt.Sprintf("%d games: %d %s × %d, bots %s, seed %d", rep.Games, len(c.Matchups),
		plural(len(c.Matchups), "lineup", "lineups"), c.Games, strings.Join(c.Bots, ","), c.Seed)
	if c.Shard.N > 1 {
		ks := make([]string, len(c.Shard.K))
		for i, k := range c.Shard.K {
			ks[i] = strconv.Itoa(k)
		}
		what += fmt.Sprintf(", shard %s of %d", strings.Join(ks, ","), c.Shard.N)
	}
	if rep.Partial {
		what += " — PARTIAL (interrupted)"
	}
	return what
}

// lowMarks marks the figures resting on fewer games than --min-sample
// ("*") and remembers whether any was, for the footnote.
type lowMarks struct{ seen bool }

func (l *lowMarks) mark(low bool) string {
	if low {
		l.seen = true
		return "*"
	}
	return ""
}

// formatReport renders a report as JSON or as tables.
func formatReport(rep *analysis.Report, asJSON bool) ([]byte, error) {
	var b bytes.Buffer
	if asJSON {
		if err := writeJSON(&b, rep); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	write := writeReportTables
	if rep.Ruleset.Game != "" {
		write = writeGameTables // another game than Alpha Tactics
	}
	if err := write(&b, rep); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// --- tables -------------------------------------------------------------------

// table lines up cells in columns: align has one letter per column, 'l' or
// 'r'.
type table struct {
	align string
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) error {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		b.WriteString("  ")
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i < len(t.align) && t.align[i] == 'r' {
				b.WriteString(pad + c)
			} else if i < len(r)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(x float64) string { return fmt.Sprintf("%.1f", 100*x) }

func ci(c [2]float64) string { return fmt.Sprintf("[%.1f, %.1f]", 100*c[0], 100*c[1]) }

// writeReportTables writes the compact human summary of a report.
func writeReportTables(w io.Writer, rep *analysis.Report) error {
	c := rep.Config
	fmt.Fprintf(w, "%s %s (ruleset %s)\n", rep.Ruleset.Name, rep.Ruleset.Version, shortHash(rep.Ruleset.Hash))
	fmt.Fprintln(w, runLine(rep))
	var low lowMarks
	mark := low.mark

	fmt.Fprintln(w, "\nFactions")
	t := &table{align: "lrrlrr"}
	t.add("FACTION", "GAMES", "WIN%", "95% CI", "MEAN VP", "SD")
	for _, f := range rep.Raw.Factions {
		s := rep.Factions[f.ID]
		t.add(f.ID, strconv.FormatInt(s.Games, 10), pct(s.WinRate)+mark(s.LowN), ci(s.CI95),
			fmt.Sprintf("%.2f", s.MeanVP), fmt.Sprintf("%.2f", s.VPSD))
	}
	if err := t.write(w); err != nil {
		return err
	}

	for _, s := range rep.Seats {
		fmt.Fprintf(w, "\nSeats at %d-player tables (%d games; balanced: %s%% each)\n", s.Players, s.Games, pct(s.Expected))
		t = &table{align: "lrl lrl"}
		t.add("SEAT", "WIN%", "95% CI", "", "TURN ORDER", "WIN%", "95% CI")
		for i := range s.Seats {
			a, b := s.Seats[i], s.StartOrder[i]
			t.add(strconv.Itoa(a.Seat), pct(a.WinRate)+mark(a.LowN), ci(a.CI95), "", analysis.TurnOrderLabel(b.Seat), pct(b.WinRate)+mark(b.LowN), ci(b.CI95))
		}
		if err := t.write(w); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\nMatchups (each faction's win % and 95% CI)")
	t = &table{align: "lr"}
	for _, m := range rep.Matchups {
		cells := []string{strings.Join(m.Lineup, " vs "), fmt.Sprintf("%d games", m.Games)}
		for _, id := range m.Lineup {
			s := m.Factions[id]
			cells = append(cells, fmt.Sprintf("%s %s%s %s", id, pct(s.WinRate), mark(s.LowN), ci(s.CI95)))
		}
		t.add(cells...)
	}
	if err := t.write(w); err != nil {
		return err
	}

	if err := writeCardTable(w, rep, mark); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nTargets")
	t = &table{align: "lrrrrrrl"}
	t.add("TARGET", "LAID", "TAKEN", "NEGOTIATED", "EMPTY", "MARGIN", "TIES%", "MOST OFTEN TAKEN BY")
	for _, tg := range rep.Targets {
		best, bestShare := "-", -1.0
		for _, f := range rep.Raw.Factions {
			if cs, ok := tg.Captures[f.ID]; ok && cs.Captures > 0 && cs.Share > bestShare {
				best, bestShare = f.ID, cs.Share
			}
		}
		if bestShare >= 0 {
			best = fmt.Sprintf("%s %s%%", best, pct(bestShare))
		}
		t.add(tg.ID, strconv.FormatInt(tg.Laid, 10), strconv.FormatInt(tg.Captured, 10)+mark(tg.LowN),
			strconv.FormatInt(tg.Negotiated, 10), strconv.FormatInt(tg.Unclaimed, 10),
			fmt.Sprintf("%.2f", tg.MeanMargin), pct(tg.TieRate), best)
	}
	if err := t.write(w); err != nil {
		return err
	}

	g := rep.Game
	fmt.Fprintf(w, "\nGames: %.1f decisions (sd %.1f), %.2f rounds, %.1f deployment turns per round,\n", g.DecisionsMean, g.DecisionsSD, g.RoundsMean, g.DeployTurnsPerRound)
	fmt.Fprintf(w, "  %.2f passes, %.2f reshuffles, margin of victory %.2f VP (sd %.2f), shared victories %s%% (%d)\n",
		g.PassesMean, g.ReshufflesMean, g.MarginMean, g.MarginSD, pct(g.SharedRate), g.SharedVictories)
	if low.seen {
		fmt.Fprintf(w, "\n* fewer than %d games behind this figure (--min-sample): treat it with care\n", c.MinSample)
	}
	return nil
}

// writeCardTable lists the cards with the highest and lowest improvement
// when drawn (IWD) among those with enough games on both sides. When decks
// cycle, nearly every card is drawn in every game and IWD has no sample;
// the table then ranks by the opening-hand IWD instead.
func writeCardTable(w io.Writer, rep *analysis.Report, mark func(bool) string) error {
	const top = 8
	type entry struct {
		k        analysis.CardStats
		iwd      float64
		lo, hi   float64
		low      bool
		gih, gns float64
	}
	var ok, opening []entry
	for _, k := range rep.Cards {
		if !k.LowN {
			ci := analysis.CIOr0(k.IWDCI95)
			ok = append(ok, entry{k, analysis.Or0(k.IWD), ci[0], ci[1], false, analysis.Or0(k.GIHWR), analysis.Or0(k.GNSWR)})
		}
		oci := analysis.CIOr0(k.OHIWDCI95)
		opening = append(opening, entry{k, analysis.Or0(k.OHIWD), oci[0], oci[1], k.OHLowN || k.OHIWD == nil, analysis.Or0(k.OHWR), analysis.Or0(k.NotOHWR)})
	}
	list := ok
	title := "Cards by improvement when drawn (IWD: owner's win % when drawn − when not drawn)"
	heads := []string{"CARD", "FACTION", "DRAWN", "GIH WR%", "GNS WR%", "IWD", "95% CI", "PLAY%", "ROW WON%", "POWER"}
	if len(ok) < len(rep.Cards)/2 {
		list = opening
		title = "Cards by opening-hand IWD (owner's win % with a copy in the opening hand − without;\n" +
			fmt.Sprintf("  %d of %d cards are drawn in too nearly every game for the plain IWD, see --json)", len(rep.Cards)-len(ok), len(rep.Cards))
		heads[2], heads[3], heads[4], heads[5] = "IN OH", "OH WR%", "NOT OH WR%", "OH IWD"
	}
	slices.SortStableFunc(list, func(a, b entry) int {
		switch {
		case a.iwd > b.iwd:
			return -1
		case a.iwd < b.iwd:
			return 1
		}
		return strings.Compare(a.k.ID, b.k.ID)
	})
	fmt.Fprintln(w, "\n"+title)
	t := &table{align: "llrrrrlrrr"}
	t.add(heads...)
	row := func(e entry) {
		k := e.k
		n := k.Drawn
		if heads[2] == "IN OH" {
			n = k.Opening
		}
		t.add(k.ID, k.Faction, strconv.FormatInt(n, 10), pct(e.gih), pct(e.gns), fmt.Sprintf("%+.1f%s", 100*e.iwd, mark(e.low)),
			fmt.Sprintf("[%+.1f, %+.1f]", 100*e.lo, 100*e.hi), pct(k.PlayRate), pct(k.RowWinRate), fmt.Sprintf("%.2f", k.MeanPower))
	}
	if len(list) <= 2*top {
		for _, e := range list {
			row(e)
		}
	} else {
		for _, e := range list[:top] {
			row(e)
		}
		t.add("…", fmt.Sprintf("%d more", len(list)-2*top))
		for _, e := range list[len(list)-top:] {
			row(e)
		}
	}
	return t.write(w)
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
