package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/files"
)

// Sum is the checksum of everything a report holds but the checksum itself
// — tool version, ruleset, config, games, partial, every figure (factions,
// seats, matchups, targets, cards and their values, price_of_power,
// card_value_design, game) and the raw counts — as "sha256:HEX" of the JSON
// of the report as decoded, so whatever a renderer reads from the file is
// covered, however the file spells it. It is not a signature — anyone can
// recompute it — but an edited or damaged figure no longer matches, and
// Verify refuses the report. "" when the report cannot be written as JSON
// (a NaN).
//
// Timing is left out: it is the one field in which equivalent runs differ
// (a rerun, another worker count, shards merged), so leaving it out keeps
// their checksums equal too; no report renders it, and Verify bounds it.
func (r *Report) Sum() string {
	c := r.WithoutTiming()
	c.Checksum = ""
	return JSONSum(c)
}

// WithoutTiming is a shallow copy of r with its timings zeroed (its own and
// its card-value design's): what checksums cover.
func (r *Report) WithoutTiming() *Report {
	c := *r
	c.Timing = Timing{}
	if d := c.CardValueDesign; d != nil {
		dc := *d
		dc.Timing = Timing{}
		c.CardValueDesign = &dc
	}
	return &c
}

// JSONSum is the checksum of Sum for any document, such as a report's
// results.json that holds a report and more: "sha256:HEX" of v's JSON, ""
// when v cannot be written as JSON.
func JSONSum(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

// MaxShards bounds the shards a run may be split into (simulate --shard
// k/n refuses more); a shard file claiming more is refused before merge
// lists what is missing.
const MaxShards = 1_000_000

// maxCount bounds every raw count a report may hold: far above any run
// (10^15 games), far enough below the int64 limit that the sums and
// products Check forms cannot overflow.
const maxCount = 1 << 50

// Verify checks a report read from a file before it is merged or rendered:
// its checksum, the consistency of its counts (Counts.Check) and that its
// games are those its config and shards call for.
func (r *Report) Verify() error {
	if r.Raw == nil {
		return errors.New("no raw counts")
	}
	r.Raw.game = r.Ruleset.Game
	if r.Checksum == "" {
		return errors.New("no checksum (written by a cardlab before 0.1, or edited)")
	}
	if r.Checksum != r.Sum() {
		return errors.New("the checksum does not match the figures and counts: the file was edited or damaged after cardlab wrote it (or by an older cardlab, whose checksum covered the counts only)")
	}
	if err := r.Raw.Check(); err != nil {
		return err
	}
	if r.Games != r.Raw.Games {
		return fmt.Errorf("games %d differs from raw.games %d", r.Games, r.Raw.Games)
	}
	if err := r.Timing.check(); err != nil {
		return err
	}
	c := r.Config
	if c.Games < 1 || c.Games > maxCount || len(c.Matchups) == 0 {
		return fmt.Errorf("config: %d games per lineup and %d lineups", c.Games, len(c.Matchups))
	}
	if len(c.Matchups) != len(r.Raw.Lineups) {
		return fmt.Errorf("config lists %d lineups, the counts %d", len(c.Matchups), len(r.Raw.Lineups))
	}
	for i, l := range c.Matchups {
		if !slices.Equal(l, r.Raw.Lineups[i].Lineup) {
			return fmt.Errorf("config lineup %d (%v) differs from the counts' (%v)", i+1, l, r.Raw.Lineups[i].Lineup)
		}
	}
	n := c.Shard.N
	if n > MaxShards {
		return fmt.Errorf("config.shard: n %d is more than %d shards", n, MaxShards)
	}
	if n < 1 || len(c.Shard.K) == 0 || len(c.Shard.K) > n {
		return fmt.Errorf("config.shard: k %v of n %d (want one or more of 1..n)", c.Shard.K, n)
	}
	all := int64(len(c.Matchups)) * int64(c.Games)
	var want int64
	for i, k := range c.Shard.K {
		if k < 1 || k > n || i > 0 && k <= c.Shard.K[i-1] {
			return fmt.Errorf("config.shard: k %v of n %d (want distinct shards of 1..n, ascending)", c.Shard.K, n)
		}
		want += shardGames(all, k, n)
	}
	switch {
	case r.Partial && r.Games > want:
		return fmt.Errorf("%d games, more than the %d its shards play", r.Games, want)
	case !r.Partial && r.Games != want:
		return fmt.Errorf("%d games, but its shards (%v of %d) play %d and it is not marked partial", r.Games, c.Shard.K, n, want)
	}
	return nil
}

// MaxTimingSeconds bounds timing.seconds in a result file: a century of
// playing. The checksum does not cover timing, so a file may hold any
// number there; merge sums the shards' seconds (MaxShards of them stay far
// inside a float64 and an int64 of milliseconds).
const MaxTimingSeconds = 100 * 365.25 * 24 * 3600

// check refuses timing values no run can have: NaN cannot be in JSON, but
// 1e308 or -1 can.
func (t Timing) check() error {
	if !(t.Seconds >= 0 && t.Seconds <= MaxTimingSeconds) {
		return fmt.Errorf("timing.seconds %g is not a duration from 0 to %g seconds", t.Seconds, float64(MaxTimingSeconds))
	}
	if !(t.GamesPerSecond >= 0 && t.GamesPerSecond <= maxCount) {
		return fmt.Errorf("timing.games_per_second %g is out of range", t.GamesPerSecond)
	}
	return nil
}

// shardGames is the number of games shard k of n plays out of all.
func shardGames(all int64, k, n int) int64 {
	if int64(k-1) >= all {
		return 0
	}
	return (all-1-int64(k-1))/int64(n) + 1
}

// Check reports the first inconsistency of the counts: a negative or
// absurdly large count, wins beyond games, totals that disagree (every game
// gives out exactly one victory; the lineups, seats and factions count the
// same games; a card's wins with and without it add up to its faction's).
func (c *Counts) Check() error {
	if c.WinUnit != WinUnit {
		return fmt.Errorf("raw.win_unit is %d, want %d", c.WinUnit, WinUnit)
	}
	if err := inRange(reflect.ValueOf(c).Elem(), "raw"); err != nil {
		return err
	}
	u := c.WinUnit
	bad := func(format string, args ...any) error { return fmt.Errorf("raw counts disagree: "+format, args...) }
	var lineupGames, seatsGames, factionGames int64
	for _, l := range c.Lineups {
		if len(l.WinUnits) != len(l.Lineup) || len(l.Lineup) == 0 {
			return bad("lineup %v has %d win counts", l.Lineup, len(l.WinUnits))
		}
		if sum(l.WinUnits) != l.Games*u {
			return bad("lineup %v: %d win units in %d games (want %d)", l.Lineup, sum(l.WinUnits), l.Games, l.Games*u)
		}
		lineupGames += l.Games
		factionGames += l.Games * int64(len(l.Lineup))
	}
	for _, s := range c.Seats {
		if s.Players < 1 || len(s.SeatWins) != s.Players || len(s.StartWins) != s.Players {
			return bad("seats of %d-player tables", s.Players)
		}
		if sum(s.SeatWins) != s.Games*u || sum(s.StartWins) != s.Games*u {
			return bad("%d-player seats: win units do not add up to their %d games", s.Players, s.Games)
		}
		if (len(s.RandomStartWins) != 0 && len(s.RandomStartWins) != s.Players) || s.RandomGames < 0 || s.RandomGames > s.Games ||
			sum(s.RandomStartWins) != s.RandomGames*u {
			return bad("%d-player seats: random-start win units do not add up to their %d games", s.Players, s.RandomGames)
		}
		seatsGames += s.Games
	}
	if lineupGames != c.Games || seatsGames != c.Games {
		return bad("%d games, but the lineups count %d and the seats %d", c.Games, lineupGames, seatsGames)
	}
	var fGames, fUnits int64
	for _, f := range c.Factions {
		if f.WinUnits > f.Games*u {
			return bad("faction %s: %d win units in %d games", f.ID, f.WinUnits, f.Games)
		}
		fGames += f.Games
		fUnits += f.WinUnits
	}
	if fGames != factionGames || fUnits != c.Games*u {
		return bad("the factions count %d seats and %d win units; the lineups %d seats and %d games", fGames, fUnits, factionGames, c.Games)
	}
	if err := c.checkSections(); err != nil {
		return err
	}
	if c.Game.Shared > c.Games {
		return bad("%d shared victories in %d games", c.Game.Shared, c.Games)
	}
	if c.Quality != nil {
		return c.Quality.check(c.Games)
	}
	return nil
}

// inRange checks that every int64 and int in v lies in [0, maxCount].
func inRange(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Int64, reflect.Int:
		if x := v.Int(); x < 0 || x > maxCount {
			return fmt.Errorf("%s is %d: a count must lie between 0 and %d", path, x, int64(maxCount))
		}
	case reflect.Slice:
		for i := range v.Len() {
			if err := inRange(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Name
			if tag := f.Tag.Get("json"); tag == "-" {
				continue // the game's sections: checkSections, by their columns
			} else if tag != "" {
				name = tag
			}
			if strings.HasSuffix(f.Name, "Sq") && v.Field(i).Kind() == reflect.Int64 {
				// Sums of squares outgrow the bound of a count long before
				// the games do (4-player decisions² pass 2^50 at 3·10^10
				// games); merge adds them with overflow checks.
				if x := v.Field(i).Int(); x < 0 {
					return fmt.Errorf("%s.%s is %d: a sum of squares cannot be negative", path, name, x)
				}
				continue
			}
			if err := inRange(v.Field(i), path+"."+name); err != nil {
				return err
			}
		}
	}
	return nil
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// addChecked adds b's counts to a's like Counts.Add, but fails instead of
// wrapping around when a sum leaves int64.
func addChecked(a, b *Counts) error {
	if err := overflows(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()); err != nil {
		return err
	}
	if a.Quality != nil && b.Quality != nil {
		if err := overflows(reflect.ValueOf(a.Quality).Elem(), reflect.ValueOf(b.Quality).Elem()); err != nil {
			return err
		}
	}
	if err := addSections(a.Sections, b.Sections, true); err != nil {
		return err
	}
	a.Add(b)
	return nil
}

// overflows reports whether adding the int64s of b to a's would overflow.
func overflows(a, b reflect.Value) error {
	switch a.Kind() {
	case reflect.Int64:
		x, y := a.Int(), b.Int()
		if y > 0 && x > math.MaxInt64-y || y < 0 && x < math.MinInt64-y {
			return errors.New("a sum of counts overflows")
		}
	case reflect.Slice:
		for i := range min(a.Len(), b.Len()) {
			if err := overflows(a.Index(i), b.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				if err := overflows(a.Field(i), b.Field(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// MaxReportSize caps a result file read by merge and report --from: a
// result of the default ruleset is about 100 KiB.
const MaxReportSize = 64 << 20

// DecodeReport decodes a `cardlab simulate --json` result (or results.json)
// read from the file name: exactly one JSON value, with line:col on errors,
// holding a tool version and raw counts. Verify is left to the caller.
func DecodeReport(name string, data []byte) (*Report, error) {
	var rep Report
	if what := files.NotJSONObject(data); what != "" {
		return nil, fmt.Errorf("%s: not a 'cardlab simulate --json' result: it %s", name, what)
	}
	if err := files.DecodeJSON(name, data, &rep); err != nil {
		return nil, fmt.Errorf("not a 'cardlab simulate --json' result: %v", err)
	}
	if rep.Raw == nil || rep.ToolVersion == "" {
		return nil, fmt.Errorf("%s: not a 'cardlab simulate --json' result (no tool_version or raw counts)", name)
	}
	rep.Raw.game = rep.Ruleset.Game
	// The sections in their game's order, whatever the file's: the
	// checksum is over the counts as cardlab writes them. An error is
	// Verify's to report.
	_ = rep.Raw.bind()
	return &rep, nil
}
