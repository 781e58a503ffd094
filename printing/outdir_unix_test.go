//go:build unix

package printing

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Outputs are checked before work starts: --out must be a directory, and a
// file in the way that is not a regular file of ours is never replaced.
func TestOutputSafety(t *testing.T) {
	rs, err := rules.LoadDir("../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("keep"), 0o644)
	if _, err := Print(Options{Ruleset: at(rs), Out: file, Formats: []string{"csv"}}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("--out a file: err = %v, want 'not a folder'", err)
	}

	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("mine"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(out, "cards.csv"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	_, err = Print(Options{Ruleset: at(rs), Out: out, Formats: []string{"csv", "pdf"}})
	if err == nil || !strings.Contains(err.Error(), "is a FIFO, not a file cardlab wrote") {
		t.Errorf("FIFO in the way: err = %v, want 'is a FIFO, not a file cardlab wrote'", err)
	}
	if _, err := os.Stat(filepath.Join(out, "print-a4.pdf")); err == nil {
		t.Error("a PDF was written although the run was refused")
	}
	os.Remove(filepath.Join(out, "cards.csv"))
	os.Symlink(file, filepath.Join(out, "cards.csv"))
	if _, err := Print(Options{Ruleset: at(rs), Out: out, Formats: []string{"csv"}}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlink in the way: err = %v", err)
	}
	os.Remove(filepath.Join(out, "cards.csv"))
	for i := 0; i < 2; i++ { // into an existing directory, twice: replaces its own files
		if _, err := Print(Options{Ruleset: at(rs), Out: out, Formats: []string{"csv"}}); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(out, "mine.txt")); string(data) != "mine" {
		t.Error("a file of the user's in --out was changed")
	}
	if data, _ := os.ReadFile(file); string(data) != "keep" {
		t.Error("the symlink's target was changed")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
}
