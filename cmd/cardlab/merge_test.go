package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMergeRefusesTiming: timing.seconds is not covered by the checksum, so
// a shard may hold any number there; merge refuses what no run can take
// (issue 24: 1e308 seconds printed as −9.2e15 seconds) instead of summing
// it into a wrapped-around figure.
func TestMergeRefusesTiming(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, k := range []string{"1/2", "2/2"} {
		f := filepath.Join(dir, "shard"+k[:1]+".json")
		if code, _, stderr := cardlab(t, "simulate", "--players", "starfleet,klingon", "--games", "6", "--workers", "1",
			"--json", "--shard", k, "--out", f); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", k, code, stderr)
		}
		files = append(files, f)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	seconds := regexp.MustCompile(`"seconds": [0-9.e+-]+`)
	if !seconds.Match(data) {
		t.Fatalf("no timing.seconds in %s", data)
	}
	for _, v := range []string{"1e308", "-1", "1.7976931348623157e308", "4e9"} {
		forged := seconds.ReplaceAll(data, []byte(`"seconds": `+v))
		if err := os.WriteFile(files[0], forged, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := cardlab(t, append([]string{"merge"}, files...)...)
		if code != exitError || !strings.Contains(stderr, "timing.seconds") || strings.Contains(stdout, "-9.2") {
			t.Errorf("seconds %s: exit %d, want %d and timing.seconds refused\nstdout: %s\nstderr: %s", v, code, exitError, stdout, stderr)
		}
	}
}
