package main

import (
	"encoding/json"
	"os"
	"os/exec"
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

// print plays no game, so it prints any game's cards: a Goofspiel ruleset
// through Goofspiel's faces, with its layout.yaml read and checked (a side
// colour by its side id, the badge under its old name power), and
// --with-values, which reads Alpha Tactics' card values, refused by name.
func TestPrintGoofspiel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "goof")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 || !strings.Contains(stderr, "cardlab print --rules "+dir) {
		t.Fatalf("init --game goofspiel: exit %d, and its next steps should name print: %s", code, stderr)
	}
	layout := "colors:\n  factions: {player: \"#123456\"}\nfields:\n  power: {size: 18}\n"
	if err := os.WriteFile(filepath.Join(dir, "layout.yaml"), []byte(layout), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "print")
	code, stdout, stderr := cardlab(t, "print", "--rules", dir, "--out", out, "--formats", "pdf,csv", "--json")
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
	if res.Copies != 4*13+13 || len(res.Decks) != 5 || res.Decks[0].ID != "hand-1" || res.Decks[4].ID != "prizes" {
		t.Errorf("result %+v, want 4 hands of 13 bid cards and 13 prizes", res)
	}
	data, err := os.ReadFile(filepath.Join(out, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "id,deck,name,kind,value,text,copies,color,back\nbid-1,hand-1,Bid 1,bid,1,") ||
		strings.Count(string(data), ",#123456,") != 4*13 {
		t.Errorf("cards.csv does not list the bid cards in layout.yaml's player colour:\n%s", data)
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		text, err := exec.Command(pdftotext, "-layout", filepath.Join(out, "print-a4.pdf"), "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Goofspiel 1.0", "Player 4's hand", "Bid 13", "Prize 13", "takes its 13 points"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("print-a4.pdf lacks %q", want)
			}
		}
	} else if os.Getenv("CARDLAB_PDF_TESTS") == "1" {
		t.Fatal("pdftotext not found and CARDLAB_PDF_TESTS=1: install poppler-utils")
	}

	code, _, stderr = cardlab(t, "print", "--rules", dir, "--out", out, "--with-values", filepath.Join(out, "results.json"))
	if want := "cardlab print --with-values reads Alpha Tactics card values only so far (issue 27); this ruleset is goofspiel"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("--with-values: exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
	corrupt(t, dir, "layout.yaml", "{player:", "{players:")
	want := filepath.ToSlash(dir) + `/layout.yaml:2:14: unknown player "players", did you mean "player"?`
	for _, args := range [][]string{{"print", "--rules", dir, "--out", out}, {"validate", "--rules", dir}} {
		if code, _, stderr := cardlab(t, args...); code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %s", args[0], code, stderr, want)
		}
	}
}
