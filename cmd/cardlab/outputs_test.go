package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A file written by --out is always machine-readable: merge, simulate and
// the paired commands write JSON there even without --json, so that report
// --from and merge can read it back (issue 25, item 15).
func TestOutFileIsAlwaysJSON(t *testing.T) {
	tmp := t.TempDir()
	s1, s2 := filepath.Join(tmp, "s1.json"), filepath.Join(tmp, "s2.json")
	for i, f := range []string{s1, s2} {
		if code, _, stderr := cardlab(t, "simulate", "--players", "klingon,romulan", "--games", "6", "--shard", []string{"1/2", "2/2"}[i], "--out", f); code != 0 {
			t.Fatalf("simulate: exit %d: %s", code, stderr)
		}
	}
	m := filepath.Join(tmp, "m.json")
	if code, _, stderr := cardlab(t, "merge", s1, s2, "--out", m); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	for _, f := range []string{s1, s2, m} {
		data, _ := os.ReadFile(f)
		if !json.Valid(data) {
			t.Errorf("%s written by --out without --json is not JSON:\n%.200s", filepath.Base(f), data)
		}
	}
	if code, _, stderr := cardlab(t, "report", "--from", m, "--out", filepath.Join(tmp, "rep")); code != 0 {
		t.Errorf("report --from a merge --out file: exit %d: %s", code, stderr)
	}
	// Tables on standard output stay tables.
	if code, stdout, _ := cardlab(t, "merge", s1, s2); code != 0 || json.Valid([]byte(stdout)) {
		t.Errorf("merge without --out: exit %d, stdout is JSON: %v", code, json.Valid([]byte(stdout)))
	}
}

// A file of text tables given where a result belongs is named for what it
// is, not "invalid character 'S'".
func TestReadingTablesSaysWhatItFound(t *testing.T) {
	tmp := t.TempDir()
	_, tables, _ := cardlab(t, "simulate", "--players", "klingon,romulan", "--games", "4")
	f := filepath.Join(tmp, "tables.json")
	if err := os.WriteFile(f, []byte(tables), 0o644); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(tables), "\n")
	for _, args := range [][]string{{"report", "--from", f, "--out", filepath.Join(tmp, "rep")}, {"merge", f}} {
		code, _, stderr := cardlab(t, args...)
		if code != 1 || !strings.Contains(stderr, "holds text, not JSON") || !strings.Contains(stderr, first[:10]) || strings.Contains(stderr, "invalid character") {
			t.Errorf("%s of a text table: exit %d, %q", args[0], code, stderr)
		}
	}
}

func TestReportHelpCountsTheFiles(t *testing.T) {
	_, stdout, _ := cardlab(t, "report", "--help")
	if !strings.Contains(stdout, "the data the other four are made from") {
		t.Errorf("report --help does not say the other four files:\n%s", stdout)
	}
}

// Ctrl-C on an idle watch has no games in play to stop.
func TestInterruptNote(t *testing.T) {
	if s := interruptNote(false); strings.Contains(s, "games in play") && !strings.Contains(s, "no games in play") {
		t.Errorf("idle: %q", s)
	}
	if s := interruptNote(true); !strings.Contains(s, "stopping the games in play") {
		t.Errorf("playing: %q", s)
	}
}

// The tolerance band changes the findings and the verdict: results.json
// stores it, report --from renders with it again, and "Reproduce with"
// names the one the report was rendered with (issue 25, item 12).
func TestReportToleranceIsStoredAndReproduced(t *testing.T) {
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a")
	if code, _, stderr := cardlab(t, "report", "--games", "8", "--bots", "random", "--values=false", "--tolerance", "3", "--out", a); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	stored := func(dir string) float64 {
		t.Helper()
		var d struct {
			Report struct {
				Tolerance *float64 `json:"tolerance_points"`
			} `json:"report"`
		}
		data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
		if err := json.Unmarshal(data, &d); err != nil || d.Report.Tolerance == nil {
			t.Fatalf("%s/results.json stores no tolerance_points (%v)", dir, err)
		}
		return *d.Report.Tolerance
	}
	reproduce := func(dir string) string {
		t.Helper()
		md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
		_, after, _ := strings.Cut(string(md), "Reproduce with:")
		line, _, _ := strings.Cut(strings.TrimLeft(after, "\n`sh"), "\n```")
		return strings.TrimSpace(line)
	}
	if got := stored(a); got != 3 {
		t.Errorf("stored tolerance %g, want 3", got)
	}
	for _, tt := range []struct {
		name string
		args []string
		want float64
		cmd  string // what the reproduce command says of the tolerance
	}{
		{"as stored", nil, 3, " --tolerance 3 --out "},
		{"another", []string{"--tolerance", "5"}, 5, " --tolerance 5 --out "},
		{"the default", []string{"--tolerance", "2"}, 2, " --seed 1 --check-bots strong --values=false --out "},
	} {
		dir := filepath.Join(tmp, strings.ReplaceAll(tt.name, " ", "-"))
		args := append([]string{"report", "--from", filepath.Join(a, "results.json"), "--out", dir}, tt.args...)
		if code, _, stderr := cardlab(t, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, stderr)
		}
		if got := stored(dir); got != tt.want {
			t.Errorf("%s: stored tolerance %g, want %g", tt.name, got, tt.want)
		}
		if cmd := reproduce(dir); !strings.Contains(cmd, tt.cmd) || strings.Count(cmd, "--tolerance") > 1 {
			t.Errorf("%s: reproduce with %q, want it to contain %q", tt.name, cmd, tt.cmd)
		}
		md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
		if want := fmt.Sprintf("±%g points", tt.want); !strings.Contains(string(md), want) {
			t.Errorf("%s: summary.md does not say %q", tt.name, want)
		}
	}
}

// A value belongs to the card as it was measured: after an edit of one
// card, print --with-values prints no value for it (its face says it was
// edited) and the others' values as before (issue 25, item 11).
func TestPrintWithValuesAfterAnEdit(t *testing.T) {
	tmp := t.TempDir()
	rules := writeDefault(t)
	rep := filepath.Join(tmp, "rep")
	if code, _, stderr := cardlab(t, "report", "--rules", rules, "--games", "8", "--bots", "random", "--check-bots", "none",
		"--precision", "100", "--value-games", "64", "--out", rep); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	corrupt(t, rules, "vulcan.yaml", "name: Suurok-class Cruiser\n    type: ship\n    kind: N\n    power: 5", "name: Suurok-class Cruiser\n    type: ship\n    kind: N\n    power: 6")
	out := filepath.Join(tmp, "print")
	code, _, stderr := cardlab(t, "print", "--rules", rules, "--out", out, "--formats", "csv", "--with-values", filepath.Join(rep, "results.json"))
	if code != 0 {
		t.Fatalf("print: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "1 cards were edited since") || !strings.Contains(stderr, "vu-suurok") {
		t.Errorf("print does not say which card was edited: %s", stderr)
	}
	f, err := os.Open(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "value_power")
	if col < 0 {
		t.Fatalf("cards.csv has no value_power column: %v", rows[0])
	}
	valued := 0
	for _, r := range rows[1:] {
		switch {
		case r[0] == "vu-suurok" && r[col] != "":
			t.Errorf("the edited card still carries a value: %v", r)
		case r[0] != "vu-suurok" && r[col] != "":
			valued++
		}
	}
	if valued < 100 {
		t.Errorf("only %d unedited cards carry a value", valued)
	}
}

// TestReadmeFlagTable: README's one table of flags says what every command
// takes: each row's default is the flag's default in each command it names
// (issue 25, item 16: one meaning and one unit per flag).
func TestReadmeFlagTable(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "### Flags: one meaning and one unit each")
	if !ok {
		t.Fatal("README has no flag table")
	}
	root := NewCmdRoot()
	row := regexp.MustCompile("(?m)^\\| `--([a-z-]+)` \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\|$")
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		flag, def := m[1], strings.TrimSpace(m[4])
		for _, name := range strings.Split(m[2], ",") {
			name, _, _ = strings.Cut(strings.TrimSpace(name), " ")
			cmd, _, err := root.Find([]string{name})
			if err != nil || cmd.Name() != name {
				t.Errorf("--%s: no command %q", flag, name)
				continue
			}
			f := cmd.Flags().Lookup(flag)
			if f == nil {
				t.Errorf("%s has no --%s", name, flag)
				continue
			}
			seen[name+" --"+flag] = true
			if f.DefValue != def {
				t.Errorf("%s --%s defaults to %s, README says %s", name, flag, f.DefValue, def)
			}
			if flag == "precision" && !strings.Contains(f.Usage, "win-share points") {
				t.Errorf("%s --precision is not in win-share points: %q", name, f.Usage)
			}
			if strings.Contains(f.Usage, "power points") {
				t.Errorf("%s --%s speaks of power points: %q", name, flag, f.Usage)
			}
		}
	}
	if len(seen) < 30 {
		t.Errorf("the table names only %d command flags", len(seen))
	}
	// Every command with these flags is in the table.
	for _, c := range root.Commands() {
		for _, flag := range []string{"games", "precision", "tolerance", "target", "value-games"} {
			if c.Flags().Lookup(flag) != nil && !seen[c.Name()+" --"+flag] {
				t.Errorf("README's flag table does not list %s --%s", c.Name(), flag)
			}
		}
	}
	// A share of 0..1 given to --target is refused, not read as 0.48%.
	if code, _, stderr := cardlab(t, "sweep", "--bots", "greedy", "--card", "kl-d7", "--values", "3..4", "--target", "0.48"); code != 2 || !strings.Contains(stderr, "--target 48") {
		t.Errorf("--target 0.48: exit %d, %s", code, stderr)
	}
}

// print --with-values checks the results file as report --from does: a
// value edited by hand after the report is refused, never printed on a
// card face (issue 24, item 6's class).
func TestPrintWithValuesRefusesEditedValues(t *testing.T) {
	tmp := t.TempDir()
	rep := filepath.Join(tmp, "rep")
	if code, _, stderr := cardlab(t, "report", "--games", "8", "--bots", "random", "--check-bots", "none",
		"--precision", "100", "--value-games", "64", "--out", rep); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	file := filepath.Join(rep, "results.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), `"power": `)
	if i < 0 {
		t.Fatal("results.json holds no card power")
	}
	j := i + len(`"power": `)
	k := j + strings.IndexAny(string(data[j:]), ",\n}")
	edited := string(data[:j]) + "99.5" + string(data[k:])
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "print")
	code, _, stderr := cardlab(t, "print", "--out", out, "--formats", "csv", "--with-values", file)
	if code != 1 || !strings.Contains(stderr, "checksum") {
		t.Fatalf("print --with-values of an edited results.json: exit %d, want 1 with a checksum error: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("print wrote its outputs from an edited results file")
	}
}
