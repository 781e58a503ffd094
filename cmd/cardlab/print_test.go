package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "print")
	code, stdout, stderr := cardlab(t, "print", "--out", out, "--formats", "csv", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Files  []string
		Copies int
		Decks  []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	if strings.Join(res.Files, ",") != "cards.csv" || res.Copies != 156 || len(res.Decks) != 5 {
		t.Errorf("result %+v, want cards.csv, 156 cards in 5 decks", res)
	}
	if _, err := os.Stat(filepath.Join(out, "cards.csv")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(stderr, "printing 156 cards") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no out", []string{"print"}, 2, "print needs --out DIR"},
		{"bad format", []string{"print", "--out", out, "--formats", "pfd"}, 2, `invalid --formats "pfd"; did you mean "pdf"?`},
		{"bad dpi", []string{"print", "--out", out, "--dpi", "5"}, 2, "invalid --dpi"},
		{"missing values", []string{"print", "--out", out, "--with-values", filepath.Join(out, "nope.json")}, 1, "no such file"},
		{"out is a file", []string{"print", "--out", filepath.Join(out, "cards.csv"), "--formats", "csv"}, 1, "not a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cardlab(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant %q", code, tc.code, stderr, tc.stderr)
			}
		})
	}
}

// A typo in layout.yaml is reported like any ruleset error, by print and by
// validate; the simulation commands do not read the layout.
func TestPrintLayoutError(t *testing.T) {
	dir := writeDefault(t)
	if _, err := os.Stat(filepath.Join(dir, "layout.yaml")); err != nil {
		t.Fatalf("init did not write layout.yaml: %v", err)
	}
	corrupt(t, dir, "layout.yaml", "  width: 63", "  widht: 63")
	code, _, stderr := cardlab(t, "print", "--rules", dir, "--out", filepath.Join(t.TempDir(), "o"), "--formats", "csv")
	want := filepath.ToSlash(dir) + `/layout.yaml:6:3: unknown key "widht" in card, did you mean "width"?`
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
	if code, _, stderr := cardlab(t, "validate", "--rules", dir); code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("validate: exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
	if code, _, stderr := cardlab(t, "cards", "--rules", dir, "--faction", "klingon"); code != 0 {
		t.Errorf("cards fails on a layout typo: %s", stderr)
	}
}
