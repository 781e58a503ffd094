package analysis

import (
	"fmt"
	"slices"
	"strings"
)

// File is a report read from a file, for Merge's messages.
type File struct {
	Name   string
	Report *Report
}

// Merge adds the raw counts of shard reports of one run and recomputes every
// figure from the sums. The files must come from the same tool version and
// ruleset (hash) and the same config (matchups, bots, games, seed,
// min_sample, shard count n), and together hold every shard exactly once.
// Merging all n shards gives the report of the whole run, identical except
// for timing and config.shard. The result is partial if any input is.
//
// Every file is checked first (Report.Verify): its checksum, its counts'
// consistency and that it holds the games its shards call for; the sums are
// checked for overflow. A damaged or edited shard is refused, never added.
func Merge(files []File) (*Report, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	first := files[0]
	for _, f := range files {
		if f.Report == nil || f.Report.Raw == nil {
			return nil, fmt.Errorf("%s: no raw counts (not a 'cardlab simulate --json' result)", f.Name)
		}
		if err := compatible(first, f); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		if err := f.Report.Verify(); err != nil {
			return nil, fmt.Errorf("%s: %v: refusing to merge it", f.Name, err)
		}
	}
	n := first.Report.Config.Shard.N
	owner := map[int]string{}
	for _, f := range files {
		for _, k := range f.Report.Config.Shard.K {
			if k < 1 || k > n {
				return nil, fmt.Errorf("%s: shard %d/%d is out of range", f.Name, k, n)
			}
			if prev, dup := owner[k]; dup {
				return nil, fmt.Errorf("shard %d/%d is in both %s and %s", k, n, prev, f.Name)
			}
			owner[k] = f.Name
		}
	}
	var missing []string
	lacking := 0
	for k := 1; k <= n; k++ {
		if _, ok := owner[k]; !ok {
			if lacking++; len(missing) < 10 {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
	}
	if lacking > 0 {
		more := ""
		if lacking > len(missing) {
			more = fmt.Sprintf(" and %d more", lacking-len(missing))
		}
		return nil, fmt.Errorf("missing shard %s%s: merge needs every shard of the run", strings.Join(missing, ", "), more)
	}

	sum := cloneCounts(first.Report.Raw)
	partial := first.Report.Partial
	secs := first.Report.Timing.Seconds
	for _, f := range files[1:] {
		if err := addChecked(sum, f.Report.Raw); err != nil {
			return nil, fmt.Errorf("adding %s: %v: refusing to merge", f.Name, err)
		}
		partial = partial || f.Report.Partial
		secs += f.Report.Timing.Seconds
	}
	cfg := first.Report.Config
	cfg.Shard = ShardInfo{N: n}
	for k := 1; k <= n; k++ {
		cfg.Shard.K = append(cfg.Shard.K, k)
	}
	h := header{tool: first.Report.ToolVersion, ruleset: first.Report.Ruleset, config: cfg,
		partial: partial, timing: timing(sum.Games, secs)}
	merged := summarize(h, sum)
	if err := merged.Raw.Check(); err != nil {
		return nil, fmt.Errorf("the merged counts: %v", err)
	}
	return merged, nil
}

// compatible reports why f cannot be merged with first.
func compatible(first, f File) error {
	a, b := first.Report, f.Report
	differ := func(what string, x, y any) error {
		return fmt.Errorf("%s and %s differ in %s (%v vs %v): they are not shards of one run", first.Name, f.Name, what, x, y)
	}
	switch {
	case a.ToolVersion != b.ToolVersion:
		return differ("tool_version", a.ToolVersion, b.ToolVersion)
	case a.Ruleset.Hash != b.Ruleset.Hash:
		return differ("ruleset (hash)", a.Ruleset.Name+" "+a.Ruleset.Version+" "+short(a.Ruleset.Hash), b.Ruleset.Name+" "+b.Ruleset.Version+" "+short(b.Ruleset.Hash))
	case !slices.EqualFunc(a.Config.Matchups, b.Config.Matchups, slices.Equal):
		return differ("config.matchups", a.Config.Matchups, b.Config.Matchups)
	case !slices.Equal(a.Config.Bots, b.Config.Bots):
		return differ("config.bots", a.Config.Bots, b.Config.Bots)
	case a.Config.Games != b.Config.Games:
		return differ("config.games", a.Config.Games, b.Config.Games)
	case a.Config.Seed != b.Config.Seed:
		return differ("config.seed", a.Config.Seed, b.Config.Seed)
	case a.Config.MinSample != b.Config.MinSample:
		return differ("config.min_sample", a.Config.MinSample, b.Config.MinSample)
	case a.Config.Shard.N != b.Config.Shard.N:
		return differ("the shard count n", a.Config.Shard.N, b.Config.Shard.N)
	}
	if err := sameLayout(a.Raw, b.Raw); err != nil {
		return fmt.Errorf("%s and %s: %v", first.Name, f.Name, err)
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// sameLayout checks that two Counts list the same things in the same order
// (and so can be added position by position).
func sameLayout(a, b *Counts) error {
	bad := func(what string) error { return fmt.Errorf("raw %s differ (a damaged or edited file?)", what) }
	if a.WinUnit != b.WinUnit {
		return bad("win units")
	}
	if !slices.EqualFunc(a.Factions, b.Factions, func(x, y FactionCounts) bool { return x.ID == y.ID }) {
		return bad("factions")
	}
	if !slices.EqualFunc(a.Lineups, b.Lineups, func(x, y LineupCounts) bool {
		return slices.Equal(x.Lineup, y.Lineup) && len(x.WinUnits) == len(y.WinUnits) && len(x.WinUnits) == len(x.Lineup)
	}) {
		return bad("lineups")
	}
	if !slices.EqualFunc(a.Seats, b.Seats, func(x, y SeatCounts) bool {
		return x.Players == y.Players && len(x.SeatWins) == x.Players && len(y.SeatWins) == y.Players &&
			len(x.StartWins) == x.Players && len(y.StartWins) == y.Players &&
			len(x.RandomStartWins) == len(y.RandomStartWins)
	}) {
		return bad("seats")
	}
	// Bound to their game, the sections say which columns are constant;
	// an error is Check's to report.
	_, _ = a.bind(), b.bind()
	if err := sameSections(a.Sections, b.Sections, len(a.Factions)); err != nil {
		return err
	}
	return sameQuality(a.Quality, b.Quality)
}

func cloneCounts(c *Counts) *Counts {
	out := *c
	out.Factions = slices.Clone(c.Factions)
	out.Lineups = make([]LineupCounts, len(c.Lineups))
	for i, l := range c.Lineups {
		out.Lineups[i] = LineupCounts{Lineup: slices.Clone(l.Lineup), Games: l.Games, WinUnits: slices.Clone(l.WinUnits)}
	}
	out.Seats = make([]SeatCounts, len(c.Seats))
	for i, s := range c.Seats {
		out.Seats[i] = SeatCounts{Players: s.Players, Games: s.Games, SeatWins: slices.Clone(s.SeatWins), StartWins: slices.Clone(s.StartWins),
			RandomGames: s.RandomGames, RandomStartWins: slices.Clone(s.RandomStartWins)}
	}
	out.Sections = cloneSections(c.Sections)
	out.Quality = cloneQuality(c.Quality)
	return &out
}
