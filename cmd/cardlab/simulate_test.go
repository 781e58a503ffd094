package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// simulateJSON runs simulate with --json and decodes the result generically.
func simulateJSON(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	code, stdout, stderr := cardlab(t, append([]string{"simulate", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("simulate %v: exit %d: %s", args, code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("simulate --json output is not JSON: %v", err)
	}
	return m, stdout
}

func keysOf(m any) []string {
	var out []string
	for k := range m.(map[string]any) {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func wantKeys(t *testing.T, what string, m any, keys ...string) {
	t.Helper()
	got := keysOf(m)
	for _, k := range keys {
		if !slices.Contains(got, k) {
			t.Errorf("%s: no key %q (have %v)", what, k, got)
		}
	}
}

// The documented JSON contract (docs/metrics.md).
func TestSimulateJSONKeys(t *testing.T) {
	m, _ := simulateJSON(t, "--players", "starfleet,klingon", "--games", "40", "--seed", "3", "--workers", "2")
	wantKeys(t, "top level", m, "tool_version", "ruleset", "config", "games", "partial", "factions", "seats",
		"matchups", "targets", "cards", "game", "quality", "timing", "raw", "checksum")
	if len(keysOf(m)) != 15 {
		t.Errorf("top-level keys %v: the contract has 15", keysOf(m))
	}
	wantKeys(t, "quality", m["quality"], "games", "sample_every", "sampled_games", "length", "decisions", "starter",
		"draws", "margin", "lead_changes", "lead_change_share", "decisiveness")
	wantKeys(t, "raw", m["raw"], "quality")
	wantKeys(t, "ruleset", m["ruleset"], "name", "version", "hash")
	wantKeys(t, "config", m["config"], "matchups", "bots", "games", "seed", "shard", "min_sample")
	wantKeys(t, "timing", m["timing"], "seconds", "games_per_second")
	if m["games"].(float64) != 40 || m["partial"].(bool) {
		t.Errorf("games %v, partial %v", m["games"], m["partial"])
	}
	facs := m["factions"].(map[string]any)
	if got := keysOf(facs); !slices.Equal(got, []string{"klingon", "starfleet"}) {
		t.Fatalf("factions %v", got)
	}
	wantKeys(t, "factions.klingon", facs["klingon"], "games", "wins", "win_rate", "ci95", "mean_vp", "vp_sd", "low_n")
	seats := m["seats"].([]any)
	wantKeys(t, "seats[0]", seats[0], "players", "games", "expected", "seats", "start_order")
	wantKeys(t, "matchups[0]", m["matchups"].([]any)[0], "lineup", "games", "factions")
	wantKeys(t, "targets[0]", m["targets"].([]any)[0], "id", "name", "laid", "won", "negotiated", "unclaimed",
		"captured", "capture_rate", "captures", "mean_margin", "margin_sd", "tie_rate", "low_n")
	cardsList := m["cards"].([]any)
	if len(cardsList) == 0 {
		t.Fatal("no cards")
	}
	wantKeys(t, "cards[0]", cardsList[0], "id", "faction", "name", "copies", "games", "drawn", "not_drawn", "played",
		"play_rate", "gih_wr", "gns_wr", "iwd", "iwd_ci95", "played_wr", "opening", "oh_wr", "not_oh_wr", "oh_iwd",
		"placed", "row_win_rate", "scored", "mean_power", "fired", "blocked", "fizzled", "low_n")
	for _, c := range cardsList {
		if f := c.(map[string]any)["faction"]; f != "starfleet" && f != "klingon" {
			t.Errorf("card of faction %v in a starfleet-klingon run", f)
		}
	}
	wantKeys(t, "game", m["game"], "games", "decisions_mean", "rounds_mean", "deploy_turns_per_round",
		"margin_mean", "shared_victories", "passes_mean", "reshuffles_mean")
	// 40 games are fewer than the default minimum sample of 30 per... no:
	// 40 >= 30, so faction figures are not low_n; --min-sample 50 flags them.
	if facs["klingon"].(map[string]any)["low_n"].(bool) {
		t.Error("40 games flagged low_n with --min-sample 30")
	}
	m2, _ := simulateJSON(t, "--players", "starfleet,klingon", "--games", "40", "--seed", "3", "--min-sample", "50")
	if !m2["factions"].(map[string]any)["klingon"].(map[string]any)["low_n"].(bool) {
		t.Error("40 games not flagged low_n with --min-sample 50")
	}
}

// stripVolatile removes what may differ between equivalent runs.
func stripVolatile(t *testing.T, s string, shardToo bool) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "timing")
	if shardToo {
		delete(m, "checksum") // it covers config.shard
		delete(m["config"].(map[string]any), "shard")
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestSimulateShardsMerge(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--matchups", "all", "--games", "21", "--seed", "9"}
	_, whole := simulateJSON(t, append(args, "--workers", "1")...)
	_, whole2 := simulateJSON(t, append(args, "--workers", "2")...)
	if stripVolatile(t, whole, false) != stripVolatile(t, whole2, false) {
		t.Fatal("--workers 1 and 2 give different results")
	}
	var files []string
	for _, k := range []string{"1/3", "2/3", "3/3"} {
		f := filepath.Join(dir, "shard"+k[:1]+".json")
		code, stdout, stderr := cardlab(t, append([]string{"simulate", "--json", "--shard", k, "--out", f}, args...)...)
		if code != 0 || stdout != "" || !strings.Contains(stderr, "wrote "+f) {
			t.Fatalf("shard %s: exit %d, stdout %q, stderr %s", k, code, stdout, stderr)
		}
		files = append(files, f)
	}
	out := filepath.Join(dir, "merged.json")
	code, stdout, stderr := cardlab(t, append([]string{"merge", "--json", "--out", out}, files...)...)
	if code != 0 || stdout != "" {
		t.Fatalf("merge: exit %d: %s%s", code, stdout, stderr)
	}
	merged, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Byte for byte, once timing and config.shard are set aside: compare the
	// raw text with those two lines replaced.
	if stripVolatile(t, whole, true) != stripVolatile(t, string(merged), true) {
		t.Fatal("merged shards differ from the whole run")
	}
	if !sameLinesExcept(whole, string(merged)) {
		t.Fatal("merged output differs from the whole run beyond timing and config.shard")
	}
	// The tables of a merge.
	code, stdout, stderr = cardlab(t, append([]string{"merge"}, files...)...)
	if code != 0 || !strings.Contains(stdout, "shard 1,2,3 of 3") || !strings.Contains(stdout, "Factions") {
		t.Fatalf("merge tables: exit %d: %s%s", code, stdout, stderr)
	}
}

// sameLinesExcept compares two indented JSON texts line by line, skipping
// the timing object and the shard object.
func sameLinesExcept(a, b string) bool {
	clean := func(s string) []string {
		var out []string
		skip := false
		for _, l := range strings.Split(s, "\n") {
			tl := strings.TrimSpace(l)
			if strings.HasPrefix(tl, `"checksum": `) {
				continue // it covers config.shard
			}
			if strings.HasPrefix(tl, `"timing": {`) || strings.HasPrefix(tl, `"shard": {`) {
				skip = true
				continue
			}
			if skip {
				if strings.HasPrefix(tl, "}") {
					skip = false
				}
				continue
			}
			out = append(out, l)
		}
		return out
	}
	return slices.Equal(clean(a), clean(b))
}

func TestSimulateGamesOutReplays(t *testing.T) {
	dir := t.TempDir()
	gf := filepath.Join(dir, "games.jsonl")
	code, stdout, stderr := cardlab(t, "simulate", "--players", "vulcan,romulan", "--bots", "greedy,random", "--games", "4", "--seed", "5", "--games-out", gf)
	if code != 0 || !strings.Contains(stdout, "Factions") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(gf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type rec struct {
		Index    int      `json:"index"`
		Seed     uint64   `json:"seed"`
		Factions []string `json:"factions"`
		Bots     []string `json:"bots"`
		Winners  []string `json:"winners"`
		Rounds   int      `json:"rounds"`
		VP       []struct {
			Total int `json:"total"`
		} `json:"vp"`
	}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var r rec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Index != n || len(r.Factions) != 2 || r.Rounds == 0 {
			t.Fatalf("line %d: %s", n+1, sc.Text())
		}
		// The seats rotate: odd games seat romulan first.
		if want := []string{"vulcan", "romulan"}[n%2]; r.Factions[0] != want {
			t.Errorf("game %d seats %v", n, r.Factions)
		}
		play := playJSONOf(t, "play", "--players", strings.Join(r.Factions, ","), "--bots", strings.Join(r.Bots, ","),
			"--seed", jsonNum(r.Seed), "--json")
		if !slices.Equal(play.Winners, r.Winners) {
			t.Errorf("game %d: play --seed %d gives winners %v, simulate %v", n, r.Seed, play.Winners, r.Winners)
		}
		n++
	}
	if n != 4 {
		t.Fatalf("%d game lines, want 4", n)
	}
}

func jsonNum(u uint64) string {
	b, _ := json.Marshal(u)
	return string(b)
}

func TestSimulateErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown faction", []string{"--players", "starfleet,klingons"}, 1, `unknown faction "klingons"; did you mean "klingon"?`},
		{"unknown faction in matchups", []string{"--matchups", "starflet,klingon"}, 1, `did you mean "starfleet"?`},
		{"faction twice", []string{"--players", "klingon,klingon"}, 1, `faction "klingon" is listed twice`},
		{"too few players for the rules", []string{"--matchups", "all:1"}, 1, "the rules allow 2 to 4"},
		// Issue 24: tables no ruleset can seat are malformed (exit 2).
		{"no players", []string{"--matchups", "all:0"}, 2, "N is the players per table, 1 to 4"},
		{"negative players", []string{"--matchups", "all:-2"}, 2, "N is the players per table, 1 to 4"},
		{"more players than cardlab seats", []string{"--matchups", "all:5"}, 2, "N is the players per table, 1 to 4"},
		{"too many in lineup", []string{"--players", "starfleet,vulcan,romulan,klingon,starfleet"}, 1, "listed twice"},
		{"lineup twice", []string{"--matchups", "starfleet,klingon;klingon,starfleet"}, 1, "twice"},
		{"unknown bot", []string{"--bots", "mcts"}, 2, `unknown bot "mcts"`},
		{"bots count", []string{"--bots", "random,random,random"}, 1, "names 3 bots"},
		{"games 0", []string{"--games", "0"}, 2, "--games must be at least 1"},
		{"shard 0/4", []string{"--shard", "0/4"}, 2, `invalid --shard "0/4"`},
		{"shard 5/4", []string{"--shard", "5/4"}, 2, `invalid --shard "5/4"`},
		{"shard x", []string{"--shard", "x"}, 2, `invalid --shard "x"`},
		{"players and matchups", []string{"--players", "starfleet,klingon", "--matchups", "all"}, 2, "cannot be used together"},
		{"bad all", []string{"--matchups", "all:x"}, 2, "want all, all:N"},
		{"negative workers", []string{"--workers", "-1"}, 2, "--workers"},
		{"argument", []string{"extra"}, 2, "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"simulate", "--games", "5", "--json", "--out", out}, tt.args...)
			if tt.name == "games 0" {
				args = append([]string{"simulate", "--json", "--out", out}, tt.args...)
			}
			code, stdout, stderr := cardlab(t, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %.200s", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}

func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	shard := func(name string, args ...string) string {
		f := filepath.Join(dir, name)
		code, _, stderr := cardlab(t, append([]string{"simulate", "--players", "starfleet,klingon", "--games", "6", "--json", "--out", f}, args...)...)
		if code != 0 {
			t.Fatalf("simulate: %s", stderr)
		}
		return f
	}
	s1 := shard("s1.json", "--shard", "1/2")
	s2 := shard("s2.json", "--shard", "2/2")
	o2 := shard("o2.json", "--shard", "2/2", "--seed", "2")
	b2 := shard("b2.json", "--shard", "2/2", "--bots", "random") // not the default bot
	m2 := shard("m2.json", "--shard", "2/2", "--min-sample", "10")
	t3 := shard("t3.json", "--shard", "2/3")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("Factions\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"valid": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no files", nil, 2, "needs at least one FILE"},
		{"missing shard", []string{s1}, 1, "missing shard 2/2"},
		{"duplicate shard", []string{s1, s2, s2}, 1, "shard 2/2 is in both"},
		{"different seed", []string{s1, o2}, 1, "config.seed"},
		{"different bots", []string{s1, b2}, 1, "config.bots"},
		{"different min sample", []string{s1, m2}, 1, "config.min_sample"},
		{"different shard count", []string{s1, t3}, 1, "shard count"},
		{"not JSON", []string{s1, bad}, 1, "not a 'cardlab simulate --json' result"},
		{"other JSON", []string{s1, other}, 1, "not a 'cardlab simulate --json' result"},
		{"no such file", []string{s1, filepath.Join(dir, "nope.json")}, 1, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "m.json")
			code, stdout, stderr := cardlab(t, append([]string{"merge", "--json", "--out", out}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %.200s", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
	code, _, stderr := cardlab(t, "merge", "--json", s2, s1)
	if code != 0 {
		t.Fatalf("merge of both shards: %s", stderr)
	}
}

func TestSimulateTables(t *testing.T) {
	code, stdout, stderr := cardlab(t, "simulate", "--matchups", "starfleet,vulcan,klingon", "--games", "12", "--seed", "2")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"12 games: 1 lineup × 12", "Factions", "Seats at 3-player tables", "began round 1", "3rd in turn", "Matchups",
		"starfleet vs vulcan vs klingon", "Cards by", "Targets", "Games:", "* fewer than 30 games"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("tables lack %q:\n%s", want, stdout)
		}
	}
}

// TestSimulateGamesOutStdout: the games and the result on one stream
// cannot be told apart (issue 24), so --games-out - without --out is a
// usage error before any game; with the result in a file it is allowed.
func TestSimulateGamesOutStdout(t *testing.T) {
	for _, args := range [][]string{
		{"--games-out", "-"},
		{"--games-out", "-", "--json"},
		{"--games-out", "-", "--out", "-"},
	} {
		code, stdout, stderr := cardlab(t, append([]string{"simulate", "--players", "starfleet,klingon", "--games", "2"}, args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "standard output") && !strings.Contains(stderr, "name the same file") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 before any game", args, code, stdout, firstLine(stderr))
		}
	}
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "2", "--games-out", "-", "--json", "--out", out)
	if code != 0 || strings.Count(stdout, "\n") != 2 {
		t.Errorf("--games-out - with --out FILE: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}
