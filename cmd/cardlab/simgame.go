package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// mirrorLineups turns --players or --matchups into lineups of a mirror's
// seats (resolveLineups):
// --players one lineup; --matchups all (all:N) every N sides, a side
// repeated where rs mirrors (N = the fewest seats for all), or explicit
// lineups separated by ";".
func mirrorLineups(rs game.Ruleset, players, matchups []string) ([][]string, error) {
	var ids []string
	for _, s := range rs.Sides() {
		ids = append(ids, s.ID)
	}
	side := sideWord(rs)
	lo, hi := rs.Seats()
	check := func(l []string, what string) error {
		for i, id := range l {
			if !slices.Contains(ids, id) {
				return didYouMean(side, id, ids)
			}
			if !rs.Mirror() && slices.Contains(l[:i], id) {
				return fmt.Errorf("%s %q is listed twice in %s", side, id, what)
			}
		}
		if n := len(l); n < lo || n > hi {
			return fmt.Errorf("%s names %d seats; the rules allow %d to %d", what, n, lo, hi)
		}
		return nil
	}
	if players != nil {
		if err := check(players, "--players"); err != nil {
			return nil, err
		}
		return [][]string{slices.Clone(players)}, nil
	}
	var out [][]string
	seen := map[string]bool{}
	for _, v := range matchups {
		for _, item := range strings.Split(v, ";") {
			item = strings.TrimSpace(item)
			var ls [][]string
			switch {
			case item == "":
				return nil, usageErrorf("--matchups %q: empty lineup", v)
			case item == "all" || strings.HasPrefix(item, "all:"):
				size := lo
				if item != "all" {
					n, err := strconv.Atoi(strings.TrimPrefix(item, "all:"))
					if err != nil || n < 1 || n > game.MaxSeats {
						return nil, usageErrorf("--matchups %q: want all or all:N, N the players per table, 1 to %d", item, game.MaxSeats)
					}
					size = n
				}
				if size < lo || size > hi {
					return nil, fmt.Errorf("--matchups %s: tables of %d players; the rules allow %d to %d", item, size, lo, hi)
				}
				ls = sideCombinations(ids, size, rs.Mirror())
				if len(ls) == 0 {
					return nil, fmt.Errorf("--matchups %s: %d %s cannot fill a table of %d", item, len(ids), side+"s", size)
				}
			default:
				var l []string
				for _, p := range strings.Split(item, ",") {
					if p = strings.TrimSpace(p); p == "" {
						return nil, usageErrorf("--matchups %q: empty %s name", item, side)
					}
					l = append(l, p)
				}
				if err := check(l, "--matchups "+item); err != nil {
					return nil, err
				}
				ls = [][]string{l}
			}
			for _, l := range ls {
				if k := strings.Join(l, ","); !seen[k] {
					seen[k] = true
					out = append(out, l)
				}
			}
		}
	}
	return out, nil
}

// sideCombinations lists every k sides in order, with repetition when
// mirror (Goofspiel's one side: player,player).
func sideCombinations(ids []string, k int, mirror bool) [][]string {
	if !mirror {
		return combinations(ids, k)
	}
	var out [][]string
	var pick func(start int, cur []string)
	pick = func(start int, cur []string) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i < len(ids); i++ {
			pick(i, append(cur, ids[i]))
		}
	}
	pick(0, nil)
	return out
}

// sideWord is what the game calls a side ("player").
func sideWord(rs game.Ruleset) string {
	one, _ := sideWords(rs)
	return one
}

// sideWords are what the game calls a side and sides ("faction",
// "factions"); "side", "sides" for a game that does not say.
func sideWords(rs game.Ruleset) (one, many string) {
	if g, ok := game.Lookup(rs.Game()); ok && g.Vocabulary().Side != "" {
		v := g.Vocabulary()
		if v.Sides == "" {
			v.Sides = v.Side + "s"
		}
		return v.Side, v.Sides
	}
	return "side", "sides"
}

// defaultBotNames are the bots of the default game's embedded ruleset for
// the help texts: its own in its order (game.Botter), then the core's it
// does not name.
func defaultBotNames() []string {
	g, ok := game.Lookup(game.DefaultID)
	if !ok {
		return bots.CoreNames()
	}
	rs, _ := g.Default()
	var names []string
	if b, ok := rs.(game.Botter); ok {
		names = slices.Clone(b.BotNames())
	}
	for _, n := range bots.CoreNames() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// writeGameTables is simulate's summary of another game's result: sides,
// seats, lineups, the game's count sections as tables, and whole games.
func writeGameTables(w io.Writer, rep *analysis.Report) error {
	voc := game.Vocabulary{Side: "side", Sides: "sides", Score: "points"}
	if g, ok := game.Lookup(rep.Ruleset.Game); ok {
		voc = g.Vocabulary()
	}
	c := rep.Config
	fmt.Fprintf(w, "%s %s (game %s, ruleset %s)\n", rep.Ruleset.Name, rep.Ruleset.Version, rep.Ruleset.Game, shortHash(rep.Ruleset.Hash))
	fmt.Fprintln(w, runLine(rep))
	var low lowMarks
	mark := low.mark
	fmt.Fprintf(w, "\n%s\n", upperFirst(voc.Sides))
	t := &table{align: "lrrlrr"}
	t.add(strings.ToUpper(voc.Side), "SEATS", "WIN%", "95% CI", "MEAN "+strings.ToUpper(voc.Score), "SD")
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
		t = &table{align: "lrl"}
		t.add("SEAT", "WIN%", "95% CI")
		for _, a := range s.Seats {
			t.add(strconv.Itoa(a.Seat), pct(a.WinRate)+mark(a.LowN), ci(a.CI95))
		}
		if err := t.write(w); err != nil {
			return err
		}
	}
	for _, sec := range rep.Raw.Sections {
		if sec.Key == game.GameSection {
			continue
		}
		fmt.Fprintf(w, "\n%s: %s\n", upperFirst(sec.Key), sec.Doc)
		t = &table{align: strings.Repeat("l", len(sec.Labels)) + strings.Repeat("r", len(sec.Columns))}
		var head []string
		for _, l := range sec.Labels {
			head = append(head, strings.ToUpper(l))
		}
		for _, col := range sec.Columns {
			head = append(head, strings.ToUpper(col.Key))
		}
		t.add(head...)
		for _, r := range sec.Rows {
			cells := slices.Clone(r.Labels)
			v, p := 0, 0
			for _, col := range sec.Columns {
				if col.PerSide {
					var xs []string
					for _, x := range r.Sides[p] {
						xs = append(xs, strconv.FormatInt(x, 10))
					}
					cells = append(cells, strings.Join(xs, "/"))
					p++
					continue
				}
				cells = append(cells, strconv.FormatInt(r.Values[v], 10))
				v++
			}
			t.add(cells...)
		}
		if err := t.write(w); err != nil {
			return err
		}
	}
	g := rep.Game
	fmt.Fprintf(w, "\nGames: %.1f decisions (sd %.1f), margin of victory %.2f %s (sd %.2f), shared victories %s%% (%d)\n",
		g.DecisionsMean, g.DecisionsSD, g.MarginMean, voc.Score, g.MarginSD, pct(g.SharedRate), g.SharedVictories)
	if sec := rep.Raw.Section(game.GameSection); sec != nil && len(sec.Rows) == 1 && rep.Games > 0 {
		var parts []string
		for i, col := range sec.Columns {
			if col.Squares {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %.2f", col.Key, float64(sec.Rows[0].Values[i])/float64(rep.Games)))
		}
		fmt.Fprintf(w, "  per game: %s\n", strings.Join(parts, ", "))
	}
	if low.seen {
		fmt.Fprintf(w, "\n* fewer than %d games behind this figure (--min-sample): treat it with care\n", c.MinSample)
	}
	return nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
