package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// updateBaseline rewrites testdata/baseline/: only on purpose, with the
// reason in the commit (docs/architecture.md, "Baseline for the core
// migration").
var updateBaseline = flag.Bool("update-baseline", false, "rewrite testdata/baseline/ (results every refactoring must keep)")

// baselineDir holds what Alpha Tactics' commands wrote before the
// game-neutral core migration (issue 27, design §3.14 step 0).
var baselineDir = filepath.Join("..", "..", "testdata", "baseline")

// A baselineRun is one command whose output is pinned: its JSON result
// (file, written with --out) and, for simulate, its --games-out lines.
type baselineRun struct {
	name string
	args []string // OUT stands for the run's scratch directory
	// gamesOut: the run writes OUT/games.jsonl, pinned as name.jsonl; its
	// result is pinned only by its checksum (simulate-checksums.json), as
	// the full figures of a simulate result are pinned by report and merge.
	gamesOut bool
	// rules: the run reads the default ruleset with one card edited from
	// OUT/edited, the base from OUT/base.
	rules bool
}

// baselineRuns are small (CI runs them in a few seconds) but reach every
// command the migration touches: report with card values, impact by
// ablation and by screening, diff, sweep, skill, simulate for 2, 3 and 4
// players with each kind of bot, and merge.
var baselineRuns = []baselineRun{
	{name: "report", args: []string{"report", "--bots", "greedy", "--check-bots", "none", "--games", "200", "--value-games", "200", "--precision", "20", "--out", "OUT/report"}},
	{name: "impact-ablation", args: []string{"impact", "--bots", "greedy", "--method", "ablation", "--mode", "blank-copy", "--cards", "kl-warriors,sf-sovereign,vu-surak", "--games", "100", "--out", "OUT/r.json"}},
	{name: "impact-effect-off", args: []string{"impact", "--bots", "greedy", "--method", "ablation", "--mode", "effect-off", "--cards", "ro-cloaking-device", "--players", "romulan,starfleet", "--games", "100", "--out", "OUT/r.json"}},
	{name: "impact-screening", args: []string{"impact", "--bots", "greedy", "--method", "screening", "--cards", "all", "--value-games", "200", "--precision", "20", "--out", "OUT/r.json"}},
	{name: "diff", rules: true, args: []string{"diff", "--bots", "greedy", "--rules", "OUT/edited", "--base", "OUT/base", "--games", "200", "--out", "OUT/r.json"}},
	{name: "sweep", args: []string{"sweep", "--bots", "greedy", "--card", "sf-sovereign", "--field", "power", "--values", "2..5", "--games", "100", "--out", "OUT/r.json"}},
	{name: "skill", args: []string{"skill", "--bots", "random,greedy", "--games", "100", "--out", "OUT/r.json"}},
	{name: "merge", args: []string{"merge", "OUT/shard1.json", "OUT/shard2.json", "--out", "OUT/r.json"}},
}

// simulateRuns are the simulate --games-out runs: 2, 3 and 4 players, each
// with random, greedy and ISMCTS (few iterations, so few games suffice).
func simulateRuns() []baselineRun {
	lineups := []string{"starfleet,klingon", "vulcan,romulan,klingon", "starfleet,vulcan,romulan,klingon"}
	bots := []struct{ name, spec, games string }{
		{"random", "random", "40"},
		{"greedy", "greedy", "40"},
		{"ismcts", "ismcts:iters=10", "6"},
	}
	var runs []baselineRun
	for i, players := range lineups {
		for _, b := range bots {
			runs = append(runs, baselineRun{
				name:     fmt.Sprintf("simulate-%dp-%s", i+2, b.name),
				gamesOut: true,
				args: []string{"simulate", "--players", players, "--bots", b.spec, "--games", b.games, "--seed", "5",
					"--games-out", "OUT/games.jsonl", "--out", "OUT/r.json"},
			})
		}
	}
	return runs
}

func TestBaselineResults(t *testing.T) {
	scratch := t.TempDir()
	checksums := map[string]any{}
	for _, r := range append(slices.Clone(baselineRuns), simulateRuns()...) {
		out := filepath.Join(scratch, r.name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		if r.rules {
			editedRuleset(t, out)
		}
		if r.name == "merge" {
			for k, f := range []string{"1/2", "2/2"} {
				runBaseline(t, out, "simulate", "--games", "100", "--shard", f, "--out", fmt.Sprintf("OUT/shard%d.json", k+1))
			}
		}
		runBaseline(t, out, r.args...)
		result := normalized(t, filepath.Join(out, resultFile(r)), out)
		if !r.gamesOut {
			compareBaseline(t, r.name+".json", []any{result})
			continue
		}
		checksums[r.name] = result.(map[string]any)["checksum"]
		compareBaseline(t, r.name+".jsonl", jsonLines(t, filepath.Join(out, "games.jsonl")))
	}
	compareBaseline(t, "simulate-checksums.json", []any{checksums})
}

// runBaseline runs cardlab with OUT in args replaced by dir, and fails on any exit
// but 0.
func runBaseline(t *testing.T, dir string, args ...string) {
	t.Helper()
	a := make([]string, len(args))
	for i, s := range args {
		a[i] = strings.ReplaceAll(s, "OUT", dir)
	}
	if code, _, stderr := cardlab(t, a...); code != 0 {
		t.Fatalf("cardlab %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
}

// resultFile is where r writes its JSON result, relative to its directory.
func resultFile(r baselineRun) string {
	if r.name == "report" {
		return filepath.Join("report", "results.json")
	}
	return "r.json"
}

// editedRuleset writes the default ruleset into dir/base and a copy with
// Klingon Warriors at power 5 (printed 3) into dir/edited.
func editedRuleset(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"base", "edited"} {
		if code, _, stderr := cardlab(t, "init", filepath.Join(dir, name)); code != 0 {
			t.Fatalf("init: exit %d: %s", code, stderr)
		}
	}
	corrupt(t, filepath.Join(dir, "edited"), "klingon.yaml",
		"  - id: kl-warriors\n    name: Klingon Warriors\n    type: troops\n    kind: P\n    power: 3\n",
		"  - id: kl-warriors\n    name: Klingon Warriors\n    type: troops\n    kind: P\n    power: 5\n")
}

// decodeJSON decodes one JSON value keeping numbers as written (a game's
// seed does not fit a float64; a figure must match to its last digit).
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// normalized reads a JSON result and removes what equivalent runs may
// differ in: every timing object (seconds, games per second), the report's
// generation time, and the document checksum that covers that time; the
// scratch directory in the recorded command becomes OUT.
func normalized(t *testing.T, path, dir string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := decodeJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v = stripTiming(v)
	if m, ok := v.(map[string]any); ok {
		delete(m, "document_checksum")
		if meta, ok := m["report"].(map[string]any); ok {
			delete(meta, "generated")
			if c, ok := meta["command"].(string); ok {
				meta["command"] = strings.ReplaceAll(c, dir, "OUT")
			}
		}
	}
	return v
}

// stripTiming removes every "timing" member that is a run's timing (an
// object of seconds and games per second), at any depth; an effect's
// timing, a word, stays.
func stripTiming(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if tm, ok := e.(map[string]any); ok && k == "timing" && isRunTiming(tm) {
				delete(x, k)
				continue
			}
			x[k] = stripTiming(e)
		}
	case []any:
		for i, e := range x {
			x[i] = stripTiming(e)
		}
	}
	return v
}

func isRunTiming(m map[string]any) bool {
	_, s := m["seconds"]
	_, g := m["games_per_second"]
	return s && g && len(m) == 2
}

// jsonLines decodes a file of one JSON value a line.
func jsonLines(t *testing.T, path string) []any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		v, err := decodeJSON(sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// compareBaseline compares got, the values of testdata/baseline/name (one
// JSON document, or one a line for .jsonl), with the file field by field,
// or rewrites the file with -update-baseline.
func compareBaseline(t *testing.T, name string, got []any) {
	t.Helper()
	path := filepath.Join(baselineDir, name)
	if *updateBaseline {
		var buf bytes.Buffer
		for _, v := range got {
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if !strings.HasSuffix(name, ".jsonl") {
				enc.SetIndent("", " ")
			}
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(baselineDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var want []any
	if strings.HasSuffix(name, ".jsonl") {
		want = jsonLines(t, path)
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./cmd/cardlab -run TestBaselineResults -update-baseline creates it)", err)
		}
		v, err := decodeJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want = []any{v}
	}
	var diffs []string
	if len(got) != len(want) {
		diffs = append(diffs, fmt.Sprintf("%d lines, want %d", len(got), len(want)))
	}
	for i := 0; i < len(got) && i < len(want); i++ {
		at := ""
		if len(want) > 1 {
			at = fmt.Sprintf("line %d: ", i+1)
		}
		diffJSON(at, got[i], want[i], &diffs)
	}
	if n := len(diffs); n > 0 {
		const show = 10
		more := ""
		if n > show {
			more = fmt.Sprintf("\n… and %d more", n-show)
			diffs = diffs[:show]
		}
		t.Errorf("%s: %d fields differ from the baseline:\n%s%s\n(an intended change: go test ./cmd/cardlab -run TestBaselineResults -update-baseline, and say why in the commit)",
			name, n, strings.Join(diffs, "\n"), more)
	}
}

// diffJSON appends to diffs every field in which got and want, decoded
// JSON, differ, named by its path (cards[3].value.pts).
func diffJSON(path string, got, want any, diffs *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" && !strings.HasSuffix(path, ": ") {
				p = path + "." + k
			} else {
				p = path + k
			}
			gv, gok := g[k]
			wv, wok := w[k]
			switch {
			case !gok:
				*diffs = append(*diffs, fmt.Sprintf("%s: missing, want %s", p, brief(wv)))
			case !wok:
				*diffs = append(*diffs, fmt.Sprintf("%s: %s, not in the baseline", p, brief(gv)))
			default:
				diffJSON(p, gv, wv, diffs)
			}
		}
		return
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		if len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %d elements, want %d", path, len(g), len(w)))
		}
		for i := 0; i < len(g) && i < len(w); i++ {
			diffJSON(fmt.Sprintf("%s[%d]", strings.TrimSuffix(path, ": "), i), g[i], w[i], diffs)
		}
		return
	default:
		if got == want {
			return
		}
	}
	*diffs = append(*diffs, fmt.Sprintf("%s: %s, want %s", path, brief(got), brief(want)))
}

// brief is v as JSON, cut short.
func brief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "…"
	}
	return string(b)
}
