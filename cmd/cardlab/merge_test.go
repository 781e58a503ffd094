package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
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
	for _, v := range []float64{1e308, -1, math.MaxFloat64, 4e9} {
		// A forger recomputes the checksum (it is no secret): only the
		// range check can refuse the figure.
		rep, err := analysis.DecodeReport(files[0], data)
		if err != nil {
			t.Fatal(err)
		}
		rep.Timing.Seconds = v
		rep.Checksum = rep.Sum()
		forged, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(files[0], forged, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := cardlab(t, append([]string{"merge"}, files...)...)
		if code != exitError || !strings.Contains(stderr, "timing.seconds") || strings.Contains(stdout, "-9.2") {
			t.Errorf("seconds %g: exit %d, want %d and timing.seconds refused\nstdout: %s\nstderr: %s", v, code, exitError, stdout, stderr)
		}
	}
}
