package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/reports"
)

// timingBlock matches a result's timing object: the one part of a merged
// result allowed to differ from the unsharded run's.
var timingBlock = regexp.MustCompile(`"timing": \{[^}]*\}`)

func withoutTiming(b []byte) string { return timingBlock.ReplaceAllString(string(b), `"timing": {}`) }

// runShards runs args once per shard of n (--shard k/n --out DIR/shard-k.json)
// and returns the files.
func runShards(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := 1; k <= n; k++ {
		f := filepath.Join(dir, "shard-"+strconv.Itoa(k)+".json")
		a := append(append([]string{}, args...), "--shard", strconv.Itoa(k)+"/"+strconv.Itoa(n), "--workers", "1", "--out", f)
		if code, _, stderr := cardlab(t, a...); code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(a, " "), code, stderr)
		}
		out = append(out, f)
	}
	return out
}

// TestShardsMergeToUnsharded: for every command that splits, the merged
// shards are the unsharded run's result byte for byte but for timing —
// JSON and tables — whatever the number of shards.
func TestShardsMergeToUnsharded(t *testing.T) {
	base := writeDefault(t)
	edited := writeDefault(t)
	corrupt(t, edited, "klingon.yaml", "    power: 4\n    copies: 2\n", "    power: 6\n    copies: 2\n")
	two := "--matchups=klingon,romulan;starfleet,vulcan;klingon,vulcan"
	// A mirror (Spacetrace), whose figures are the starting seat's: the
	// shards carry who began each game.
	st, stDraw := initSpacetraceFirst(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"impact screening", []string{"impact", "--bots", "greedy", two, "--precision", "0", "--value-games", "160", "--seed", "3"}},
		{"impact ablation", []string{"impact", "--method", "ablation", "--cards", "kl-d7,vu-suurok", "--bots", "greedy", "--games", "40", "--mode", "blank"}},
		{"diff", []string{"--rules", edited, "diff", "--base", base, "--bots", "greedy", two, "--games", "50", "--seed", "9"}},
		{"sweep", []string{"sweep", "--card", "kl-d7", "--values", "2..5", "--bots", "greedy", two, "--games", "30"}},
		{"sweep param", []string{"sweep", "--param", "planet_bonus", "--values", "0,2", "--bots", "greedy", "--players", "romulan,vulcan", "--games", "40"}},
		{"sweep mirror", []string{"sweep", "--rules", st, "--param", "draw.per_turn", "--values", "1,3", "--bots", "greedy", "--games", "40"}},
		{"diff mirror", []string{"--rules", stDraw, "diff", "--base", st, "--bots", "greedy", "--games", "40"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			full := filepath.Join(dir, "full.json")
			code, tables, stderr := cardlab(t, append(append([]string{}, c.args...), "--workers", "2")...)
			if code != 0 {
				t.Fatalf("unsharded: exit %d: %s", code, stderr)
			}
			if code, _, stderr := cardlab(t, append(append([]string{}, c.args...), "--out", full)...); code != 0 {
				t.Fatalf("unsharded: exit %d: %s", code, stderr)
			}
			want, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 3} {
				sd := filepath.Join(dir, strconv.Itoa(n))
				shards := runShards(t, sd, n, c.args...)
				merged := filepath.Join(sd, "merged.json")
				if code, _, stderr := cardlab(t, append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
					t.Fatalf("merge of %d: exit %d: %s", n, code, stderr)
				}
				got, err := os.ReadFile(merged)
				if err != nil {
					t.Fatal(err)
				}
				if withoutTiming(got) != withoutTiming(want) {
					t.Errorf("%d shards merged differ from the unsharded run:\n%s\nwant\n%s", n, got, want)
				}
				code, gotTables, stderr := cardlab(t, append([]string{"merge"}, shards...)...)
				if code != 0 {
					t.Fatalf("merge of %d as tables: exit %d: %s", n, code, stderr)
				}
				if untimedTables(gotTables) != untimedTables(tables) {
					t.Errorf("%d shards merged print other tables:\n%s\nwant\n%s", n, gotTables, tables)
				}
			}
		})
	}
}

// untimedTables drops the line that says how long the games took.
func untimedTables(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, "games/s") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestMergeRefusesShards: shards that do not make one run are refused
// (exit 1, nothing written) with a message that says why.
func TestMergeRefusesShards(t *testing.T) {
	dir := t.TempDir()
	args := []string{"impact", "--method", "ablation", "--cards", "kl-d7", "--bots", "greedy", "--games", "12", "--players", "klingon,romulan"}
	shards := runShards(t, dir, 3, args...)
	other := runShards(t, filepath.Join(dir, "other"), 3, append(args, "--seed", "2")...)
	four := runShards(t, filepath.Join(dir, "four"), 4, args...)
	sim := filepath.Join(dir, "sim.json")
	if code, _, stderr := cardlab(t, "simulate", "--players", "klingon,romulan", "--games", "4", "--json", "--out", sim); code != 0 {
		t.Fatal(stderr)
	}
	edited := filepath.Join(dir, "edited.json")
	data, err := os.ReadFile(shards[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, []byte(strings.Replace(string(data), `"games":`, `"games":1`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// A shard whose records were changed and its checksum recomputed (it is
	// no secret): the replay's checks refuse what cannot be a game.
	var forged shardFile
	if err := json.Unmarshal(data, &forged); err != nil {
		t.Fatal(err)
	}
	forged.Phases[0].Arms[0].Units[0] = 100
	forged.Checksum = forged.sum()
	forgedFile := filepath.Join(dir, "forged.json")
	b, _ := json.Marshal(&forged)
	if err := os.WriteFile(forgedFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// A forged time is refused too, not summed into the merged timing.
	var slow shardFile
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatal(err)
	}
	slow.Phases[0].Seconds = 1e308
	slow.Checksum = slow.sum()
	slowFile := filepath.Join(dir, "slow.json")
	b, _ = json.Marshal(&slow)
	if err := os.WriteFile(slowFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// A seat beginning a game it is not at, its checksum recomputed.
	var started shardFile
	if err := json.Unmarshal(data, &started); err != nil {
		t.Fatal(err)
	}
	started.Phases[0].Arms[0].Starts[0] = 7
	started.Checksum = started.sum()
	startedFile := filepath.Join(dir, "started.json")
	b, _ = json.Marshal(&started)
	if err := os.WriteFile(startedFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// A shard of format 1, which recorded no starting seats: refused by
	// its format, not replayed as if seat 1 had begun every game.
	var old shardFile
	if err := json.Unmarshal(data, &old); err != nil {
		t.Fatal(err)
	}
	old.Format = oldShardFormat
	for p := range old.Phases {
		for a := range old.Phases[p].Arms {
			old.Phases[p].Arms[a].Starts = nil
		}
	}
	old.Checksum = old.sum()
	oldFile := filepath.Join(dir, "old.json")
	b, _ = json.Marshal(&old)
	if err := os.WriteFile(oldFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rules := writeDefault(t)
	corrupt(t, rules, "klingon.yaml", "    power: 4\n    copies: 2\n", "    power: 5\n    copies: 2\n")
	for _, c := range []struct {
		name  string
		files []string
		flags []string
		want  string
	}{
		{"missing", shards[:2], nil, "missing shard 3/3"},
		{"duplicate", []string{shards[0], shards[1], shards[1], shards[2]}, nil, "shard 2/3 is in both"},
		{"other seed", []string{shards[0], other[1], shards[2]}, nil, "differ in flags"},
		{"other n", []string{shards[0], four[1], shards[2]}, nil, "differ in the shard count n"},
		{"edited", []string{shards[0], edited, shards[2]}, nil, "checksum does not match"},
		{"forged", []string{shards[0], forgedFile, shards[2]}, nil, "impossible"},
		{"forged seconds", []string{shards[0], slowFile, shards[2]}, nil, "no time a phase takes"},
		{"forged start", []string{shards[0], startedFile, shards[2]}, nil, "seat 8 began a game of 2 seats"},
		{"format 1", []string{shards[0], oldFile, shards[2]}, nil, `a shard file of format "cardlab shard 1" (cardlab `},
		{"simulate result", []string{shards[0], sim}, nil, "merge the shards of one command at a time"},
		{"simulate first", []string{sim, shards[0]}, nil, "merge the shards of one command at a time"},
		{"other ruleset", shards, []string{"--rules", rules}, "merge with the rulesets the shards played"},
	} {
		out := filepath.Join(dir, "merged-"+strings.ReplaceAll(c.name, " ", "-")+".json")
		code, _, stderr := cardlab(t, append(append(append([]string{}, c.flags...), "merge", "--out", out), c.files...)...)
		if code != exitError || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, stderr, exitError, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s written", c.name, out)
		}
	}
}

// TestShardUsage: --shard takes k/n, and a sharded run plays a fixed number
// of games (no --precision), else a usage error.
func TestShardUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"impact", "--shard", "1/4"}, "add --precision 0"},
		{[]string{"impact", "--shard", "1/4", "--precision", "2"}, "add --precision 0"},
		{[]string{"impact", "--shard", "5/4", "--precision", "0"}, "invalid --shard"},
		{[]string{"diff", "--base", ".", "--shard", "1/2", "--precision", "2"}, "drop --precision"},
		{[]string{"sweep", "--card", "kl-d7", "--values", "1..2", "--shard", "1/2", "--precision", "2"}, "drop --precision"},
		{[]string{"sweep", "--card", "kl-d7", "--values", "1..2", "--shard", "x"}, "invalid --shard"},
		{[]string{"report", "--out", "r.json", "--shard", "1/2"}, "add --precision 0"},
		{[]string{"report", "--from", "x.json", "--out", "r", "--shard", "1/2"}, "--shard cannot be used with it"},
	} {
		if code, _, stderr := cardlab(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}

// FuzzDecodeShardFile: any bytes decode to a shard file or an error, never a
// panic; a file that decodes names a command that splits and a shard k/n.
func FuzzDecodeShardFile(f *testing.F) {
	f.Add([]byte(`{"format":"cardlab shard 2","command":"impact","tool_version":"x","shard":{"k":1,"n":2},"args":[],"phases":[]}`))
	f.Add([]byte(`{"format":"cardlab shard 1","command":"impact","tool_version":"x","shard":{"k":1,"n":2},"args":[],"phases":[]}`))
	f.Add([]byte(`{"format":"cardlab shard 2"`))
	f.Add([]byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := decodeShardFile("f.json", data)
		if err != nil {
			return
		}
		if sf.Shard.K < 1 || sf.Shard.K > sf.Shard.N || sf.Checksum != sf.sum() {
			t.Fatalf("decoded %+v", sf)
		}
	})
}

// stamps are the times a report shows (when it was simulated, rendered),
// and timings its speed: what may differ between two runs of one report.
var (
	stamps  = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?( UTC|Z)`)
	timings = regexp.MustCompile(`(?m)^\s*"(seconds|games_per_second)": [0-9.e+-]+,?\n`)
)

// untimedReportFile is a report file with its times and timings left out;
// a workbook is compared part by part (its content-type list comes in any
// order).
func untimedReportFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(name, ".xlsx") {
		return timings.ReplaceAllString(stamps.ReplaceAllString(string(data), "TIME"), "")
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := stamps.ReplaceAllString(string(b), "TIME")
		if f.Name == "[Content_Types].xml" {
			items := strings.Split(s, "<")
			slices.Sort(items)
			s = strings.Join(items, "<")
		}
		parts = append(parts, f.Name+"\n"+s)
	}
	slices.Sort(parts)
	return strings.Join(parts, "\n")
}

// TestReportShardsMergeToUnsharded: a report split into shards, merged
// into results.json and rendered with report --from writes every file of
// the unsharded report, byte for byte but for times and timings — with
// card values, the price of power in --base, the comparison with --base
// and the ablation, every phase a report plays.
func TestReportShardsMergeToUnsharded(t *testing.T) {
	base := writeDefault(t)
	rules := writeDefault(t)
	corrupt(t, rules, "klingon.yaml", "    power: 4\n    copies: 2\n", "    power: 6\n    copies: 2\n")
	dir := t.TempDir()
	args := []string{"--rules", rules, "report", "--base", base, "--bots", "greedy", "--matchups", "klingon,romulan;starfleet,vulcan",
		"--games", "40", "--precision", "0", "--value-games", "128", "--impact", "--impact-games", "8", "--seed", "5", "--check-bots", "random"}
	// One time for every run: the workbook shares equal strings, so a
	// report simulated and rendered in one minute numbers its strings
	// otherwise than one rendered in the next.
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(a)
	if code, _, stderr := cardlab(t, append(append([]string{}, args...), "--out", "report")...); code != 0 {
		t.Fatalf("unsharded: exit %d: %s", code, stderr)
	}
	shards := runShards(t, filepath.Join(dir, "shards"), 3, args...)
	merged := filepath.Join(dir, "merged.json")
	if code, _, stderr := cardlab(t, append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	t.Chdir(b)
	if code, _, stderr := cardlab(t, "report", "--from", merged, "--out", "report"); code != 0 {
		t.Fatalf("report --from: exit %d: %s", code, stderr)
	}
	for _, f := range reports.Files {
		want := untimedReportFile(t, filepath.Join(a, "report", f))
		got := untimedReportFile(t, filepath.Join(b, "report", f))
		if got != want {
			t.Errorf("%s of the merged shards differs from the unsharded report's", f)
		}
	}
	// The shards of a report are refused by merge with another ruleset.
	if code, _, stderr := cardlab(t, append([]string{"--rules", base, "merge", "--out", filepath.Join(dir, "x.json")}, shards...)...); code != exitError ||
		!strings.Contains(stderr, "merge with the rulesets the shards played") {
		t.Errorf("merge with another ruleset: exit %d: %s", code, stderr)
	}
}

// TestInterruptedShardWritesNothing: a shard stopped before its games are
// all played writes no shard file (a merge would miss its games) and says
// to run it again.
func TestInterruptedShardWritesNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"impact", "--method", "ablation", "--cards", "kl-d7", "--bots", "greedy", "--games", "40"},
		{"impact", "--precision", "0", "--value-games", "200", "--bots", "greedy"},
		{"report", "--precision", "0", "--value-games", "200", "--bots", "greedy", "--check-bots", "none", "--games", "40"},
	} {
		out := filepath.Join(dir, "shard.json")
		root := NewCmdRoot()
		root.SetArgs(append(args, "--shard", "1/2", "--out", out))
		var ob, eb bytes.Buffer
		root.SetOut(&ob)
		root.SetErr(&eb)
		err := root.ExecuteContext(ctx)
		if err == nil || !strings.Contains(err.Error(), "shard 1/2 not written") {
			t.Errorf("%v: %v", args, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: an interrupted shard wrote %s", args, out)
		}
	}
}

// TestShardsOfIdenticalDiff: diff of two identical rulesets plays nothing;
// its shards hold no games and their merge answers as the unsharded diff.
func TestShardsOfIdenticalDiff(t *testing.T) {
	rules := writeDefault(t)
	dir := t.TempDir()
	args := []string{"--rules", rules, "diff", "--base", rules, "--bots", "greedy", "--games", "30"}
	full := filepath.Join(dir, "full.json")
	if code, _, stderr := cardlab(t, append(append([]string{}, args...), "--out", full)...); code != 0 {
		t.Fatal(stderr)
	}
	shards := runShards(t, filepath.Join(dir, "s"), 2, args...)
	merged := filepath.Join(dir, "merged.json")
	if code, _, stderr := cardlab(t, append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
		t.Fatal(stderr)
	}
	want, _ := os.ReadFile(full)
	got, _ := os.ReadFile(merged)
	if withoutTiming(got) != withoutTiming(want) {
		t.Errorf("merged identical diff:\n%s\nwant\n%s", got, want)
	}
}

// TestReportTimeFromSourceDateEpoch: SOURCE_DATE_EPOCH, when it is a time,
// is the time a report states; otherwise the clock.
func TestReportTimeFromSourceDateEpoch(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if got := reportTime(); got.Unix() != 1700000000 {
		t.Errorf("SOURCE_DATE_EPOCH=1700000000: %v", got)
	}
	for _, bad := range []string{"", "soon", "-5", "1e9"} {
		t.Setenv("SOURCE_DATE_EPOCH", bad)
		if got := reportTime(); got.Unix() == 1700000000 || time.Since(got) > time.Minute {
			t.Errorf("SOURCE_DATE_EPOCH=%q: %v, want now", bad, got)
		}
	}
}
