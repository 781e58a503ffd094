package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
