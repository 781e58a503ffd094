package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestPanicExitsOne: a panic in a command — in its own goroutine or in a
// worker playing games — is a bug reported with its stack and exit status
// 1, never Go's exit status 2, which cardlab reserves for usage errors
// (issue 24: a ruleset at the engine's limits crashed every command that
// plays with exit 2).
func TestPanicExitsOne(t *testing.T) {
	root := NewCmdRoot()
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		var s []int
		_ = s[len(s)+3]
		return nil
	}}, &cobra.Command{Use: "boom-worker", RunE: func(*cobra.Command, []string) error {
		_, err := analysis.Run(context.Background(), analysis.Config{Game: alphatactics.Ruleset{RS: rules.Default()},
			Matchups: [][]string{{"starfleet", "klingon"}}, Bots: []string{"random"}, Games: 8, Workers: 2,
			Record: func(*analysis.GameRecord) error { panic("a worker's bug") }})
		return err
	}})
	for _, c := range root.Commands() {
		markRunErrors(c)
	}
	for _, tc := range []struct{ cmd, msg string }{
		{"boom", "index out of range"},
		{"boom-worker", "a worker's bug"},
	} {
		var out, errb bytes.Buffer
		code := execute(root, []string{tc.cmd}, &out, &errb)
		if code != exitError {
			t.Errorf("%s: exit %d, want %d\n%s", tc.cmd, code, exitError, errb.String())
		}
		msg := errb.String()
		if !strings.HasPrefix(msg, "cardlab: internal error (please report this bug): ") || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: stderr does not report the bug: %q", tc.cmd, msg)
		}
		if !strings.Contains(msg, "goroutine ") || strings.Contains(msg, "Usage:") {
			t.Errorf("%s: stderr should hold the stack and no usage:\n%s", tc.cmd, msg)
		}
	}
}
