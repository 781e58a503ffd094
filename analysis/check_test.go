package analysis

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// twoShards plays a run split in two and returns the shards as merge reads
// them from files.
func twoShards(t testing.TB) (*Report, *Report) {
	t.Helper()
	cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan"}}, Games: 30, Seed: 3, Workers: 1}
	var out [2]*Report
	for k := range 2 {
		c := cfg
		c.Shard = Shard{K: k + 1, N: 2}
		out[k] = roundTrip(t, mustRun(t, c).Report("test"))
	}
	return out[0], out[1]
}

// TestMergeRefusesCorruptShards: one test per corruption the hostile-input
// campaign of issue 14 found, each edit made both with the checksum left as
// it was (refused as edited) and with the checksum recomputed by the editor
// (refused by the consistency checks).
func TestMergeRefusesCorruptShards(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *Report)
		want string // with the checksum recomputed
	}{
		{"inflated win units", func(r *Report) { r.Raw.Factions[0].WinUnits = 926 * r.Raw.Factions[0].Games * 12 }, "win units"},
		{"negative games", func(r *Report) { r.Raw.Games = -5; r.Games = -5 }, "raw.games is -5"},
		{"negative faction games", func(r *Report) { r.Raw.Factions[1].Games = -1 }, "raw.factions[1].games is -1"},
		{"int64-max counts", func(r *Report) {
			*countOf(t, r.Raw, "cards", 0, "fired") = math.MaxInt64
			*countOf(t, r.Raw, "targets", 0, "laid") = math.MaxInt64
		}, "a count must lie between 0 and"},
		{"shard k emptied", func(r *Report) { r.Config.Shard.K = []int{} }, "config.shard"},
		{"shard k out of range", func(r *Report) { r.Config.Shard.K = []int{3} }, "config.shard"},
		{"games added", func(r *Report) {
			r.Raw.Games += 30
			r.Games += 30
			r.Raw.Lineups[0].Games += 30
		}, "raw counts disagree"},
		{"a whole shard's counts doubled", func(r *Report) {
			c := cloneCounts(r.Raw)
			r.Raw.Add(c)
			r.Games = r.Raw.Games
		}, "not marked partial"},
		{"captures beyond targets won", func(r *Report) { r.Raw.Section("targets").Rows[2].Sides[0][0] += 7 }, "target"},
		{"card drawn more often than played games", func(r *Report) {
			*countOf(t, r.Raw, "cards", 3, "drawn") = *countOf(t, r.Raw, "cards", 3, "games") + 1
		}, "card"},
		{"lineup renamed", func(r *Report) { r.Raw.Lineups[1].Lineup = []string{"vulcan", "klingon"} }, "raw lineups differ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, resum := range []bool{false, true} {
				s1, s2 := twoShards(t)
				tt.edit(s2)
				want := "checksum does not match"
				if resum || strings.HasPrefix(tt.want, "raw lineups") { // caught before the checksum
					s2.Checksum = s2.Sum()
					want = tt.want
				}
				_, err := Merge([]File{{"s1.json", s1}, {"s2.json", s2}})
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "s2.json") {
					t.Errorf("checksum recomputed %v: Merge = %v, want an error naming s2.json with %q", resum, err, want)
				}
			}
		})
	}
}

// countOf is the count col of row i of c's section key.
func countOf(t *testing.T, c *Counts, key string, i int, col string) *int64 {
	t.Helper()
	s := c.Section(key)
	if s == nil {
		t.Fatalf("no section %s", key)
	}
	k, per, ok := s.Column(col)
	if !ok || per {
		t.Fatalf("section %s has no count %s", key, col)
	}
	return &s.Rows[i].Values[k]
}

// TestMergeRefusesWrappingSums: two shards each within the limits whose sum
// would not be are refused rather than wrapped around.
func TestMergeRefusesWrappingSums(t *testing.T) {
	a := &Counts{Game: GameCounts{Decisions: math.MaxInt64 - 1}}
	b := &Counts{Game: GameCounts{Decisions: 2}}
	if err := addChecked(a, b); err == nil {
		t.Fatal("an overflowing sum was added")
	}
	if a.Game.Decisions != math.MaxInt64-1 {
		t.Fatal("a failed add changed the counts")
	}
}

func TestMergeRefusesMissingChecksum(t *testing.T) {
	s1, s2 := twoShards(t)
	s2.Checksum = ""
	if _, err := Merge([]File{{"s1.json", s1}, {"s2.json", s2}}); err == nil || !strings.Contains(err.Error(), "no checksum") {
		t.Fatalf("Merge = %v", err)
	}
	if _, err := Merge([]File{{"s1.json", s1}, {"s2.json", roundTrip(t, s2)}}); err == nil {
		t.Fatal("merged")
	}
}

func TestDecodeReportRefusesTrailingText(t *testing.T) {
	s1, _ := twoShards(t)
	data, _ := json.Marshal(s1)
	if _, err := DecodeReport("s.json", data); err != nil {
		t.Fatal(err)
	}
	for _, tail := range []string{"x", "\n{}", `{"games": 5}`} {
		if _, err := DecodeReport("s.json", append(data, tail...)); err == nil || !strings.Contains(err.Error(), "text after the JSON value") {
			t.Errorf("tail %q: %v", tail, err)
		}
	}
}

// FuzzMergeShard feeds arbitrary bytes as the second shard of a run: merge
// must never panic, and whatever it accepts must be consistent.
func FuzzMergeShard(f *testing.F) {
	s1, s2 := twoShards(f)
	good, _ := json.Marshal(s2)
	f.Add(good)
	// The same shard with only the keys merge reads (the figures are
	// recomputed from raw): a small input the fuzzer mutates much faster.
	lean, _ := json.Marshal(map[string]any{"tool_version": s2.ToolVersion, "ruleset": s2.Ruleset, "config": s2.Config,
		"games": s2.Games, "partial": s2.Partial, "raw": s2.Raw, "checksum": s2.Checksum})
	f.Add(lean)
	f.Add([]byte(`{"tool_version":"test","raw":{"win_unit":12,"games":-1}}`))
	f.Add([]byte("{}"))
	edited := strings.Replace(string(good), `"games":30`, `"games":31`, 1)
	f.Add([]byte(edited))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := DecodeReport("fuzz.json", data)
		if err != nil {
			return
		}
		// An attacker can recompute the checksum (it guards against edits
		// by mistake, not by design): fuzz the checks behind it too.
		if rep.Raw != nil {
			rep.Checksum = rep.Sum()
		}
		m, err := Merge([]File{{"s1.json", s1}, {"fuzz.json", rep}})
		if err != nil {
			return
		}
		if err := m.Verify(); err != nil {
			t.Fatalf("merge accepted a shard and produced an inconsistent result: %v", err)
		}
	})
}

// TestVerifyAcceptsRealRuns: the consistency rules hold for every table size
// and bot, so Verify never refuses an honest result.
func TestVerifyAcceptsRealRuns(t *testing.T) {
	for _, bot := range []string{"random", "greedy"} {
		cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan", "klingon"},
			{"starfleet", "vulcan", "romulan", "klingon"}}, Bots: []string{bot}, Games: 40, Seed: 6, Workers: 2}
		if err := roundTrip(t, mustRun(t, cfg).Report("test")).Verify(); err != nil {
			t.Errorf("%s: %v", bot, err)
		}
	}
}

// TestChecksumLeavesOutTiming: equivalent runs differ only in timing, so
// their checksums must agree (a rerun, another worker count, a merge of
// shards), while any rendered figure still changes the checksum.
func TestChecksumLeavesOutTiming(t *testing.T) {
	cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: 20, Seed: 4, Workers: 1}
	a := mustRun(t, cfg).Report("test")
	cfg.Workers = 2
	b := mustRun(t, cfg).Report("test")
	b.Timing = Timing{Seconds: a.Timing.Seconds + 12.5, GamesPerSecond: 3}
	b.Checksum = b.Sum()
	if a.Checksum != b.Checksum {
		t.Fatalf("equivalent runs (1 and 2 workers, other timings) have checksums %s and %s", a.Checksum, b.Checksum)
	}
	if err := b.Verify(); err != nil {
		t.Fatalf("a result with another timing no longer verifies: %v", err)
	}
	b.Factions["klingon"] = FactionStats{}
	if b.Sum() == a.Checksum {
		t.Fatal("an edited faction figure leaves the checksum as it was")
	}
}
