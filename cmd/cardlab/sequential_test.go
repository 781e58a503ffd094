package main

import (
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestUntilPrecise plays stages whose half-widths follow the 1/√n law and
// checks where they stop: at the precision, at the cap, or at once.
func TestUntilPrecise(t *testing.T) {
	for _, c := range []struct {
		name       string
		first, max int
		precision  float64
		wantStages []int
	}{
		{"off", 100, 1000, 0, []int{100}},
		{"already precise", 400, 10000, 5, []int{400}},
		{"one more stage", 100, 10000, 5, []int{100, 441}}, // 100·(10/5)²·1.1, rounded up
		{"capped", 100, 300, 1, []int{100, 300}},
		{"grows at least half", 100, 10000, 9.9, []int{100, 150}},
		// Issue 24: games needed beyond an int went to the cap by way of
		// a wrapped-around number, not by comparison.
		{"far below the half-width", 100, 1 << 62, 1e-300, []int{100, 1 << 62}},
		{"just beyond an int", 100, 1 << 62, 1e-8, []int{100, 1 << 62}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stages []int
			games, err := untilPrecise(c.first, c.max, c.precision, io.Discard, func(g int) (float64, error) {
				stages = append(stages, g)
				return 100 / math.Sqrt(float64(g)), nil // 10 points at 100 games
			})
			if err != nil || !slices.Equal(stages, c.wantStages) || games != stages[len(stages)-1] {
				t.Errorf("stages %v, returned %d, %v; want %v", stages, games, err, c.wantStages)
			}
		})
	}
}

func TestSequentialFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"diff", "--base", ".", "--precision", "-1"}, "--precision must be 0 (off) or at least 0.01 points"},
		{[]string{"diff", "--base", ".", "--games", "500", "--max-games", "100", "--precision", "1"}, "--max-games (100) must be at least --games (500)"},
		{[]string{"sweep", "--card", "kl-d7", "--values", "3,4", "--precision", "-2"}, "--precision must be 0 (off)"},
		{[]string{"sweep", "--card", "kl-d7", "--values", "3,4", "--precision", "1e-9"}, "--precision must be 0 (off) or at least 0.01 points, got 1e-09"},
		{[]string{"diff", "--base", ".", "--precision", "5e-324"}, "--precision must be 0 (off) or at least 0.01 points"},
		{[]string{"impact", "--precision", "1e-9"}, "or at least 0.01 (a half-width in win-share points), got 1e-09"},
		{[]string{"report", "--out", ".", "--precision", "5e-324"}, "or at least 0.01 (a half-width in win-share points), got 5e-324"},
		{[]string{"watch", "--rules", ".", "--precision", "0.001"}, "--precision must be at least 0.01"},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	// A run that reaches its precision after one more stage says so.
	base := writeDefault(t)
	variant := writeDefault(t)
	corrupt(t, variant, "klingon.yaml", "    name: Raptor\n    type: ship\n    kind: X\n    power: 2", "    name: Raptor\n    type: ship\n    kind: X\n    power: 4")
	code, _, stderr := cardlab(t, "diff", "--base", base, "--rules", variant, "--players", "starfleet,klingon", "--bots", "random",
		"--games", "100", "--precision", "3")
	if code != 0 || !strings.Contains(stderr, "playing again with") {
		t.Errorf("diff --precision: exit %d, stderr %q", code, stderr)
	}
}
