package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// entity matches an HTML character reference that a Markdown renderer would
// turn into a character (an escaped "\&" is text).
var entity = regexp.MustCompile(`(^|[^\\])&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);`)

// summary.md of the fixture, with and without --base, against the golden
// files (go test ./reports -run TestSummaryGolden -update rewrites them).
func TestSummaryGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		base bool
	}{{"summary.golden.md", false}, {"summary-base.golden.md", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteMarkdown(&b, fixtureData(tc.base), Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			if e := entity.FindString(got); e != "" {
				t.Errorf("summary.md holds an HTML entity %q", e)
			}
			if strings.Contains(got, "<") && regexp.MustCompile(`(^|[^\\])<`).MatchString(got) {
				t.Error("summary.md holds an unescaped <")
			}
			path := filepath.Join("testdata", tc.name)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("summary.md differs from %s (run with -update after checking the change):\n%s", path, got)
			}
		})
	}
}

// The verdict comes first, what changed right under it with --base, and
// every card name comes back as text.
func TestSummaryStructure(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, fixtureData(true), Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	order := []string{"## Verdict", `Romulan is 9.3 points above fair share \[+8.0, +10.6\], out of balance; its flagged cards: Thalaron Pulse (text adds +11.0 pts)`,
		"### What changed", `Q\*Bert\_\[x\] \<b\>bold\</b\> \& \` + "`" + `tick\` + "`" + ` \| pipe (ro-star): power: 2 → 3`, "rules: hand\\_size: 5 → 6",
		"### Findings", "## Factions", "## Cards", "1. Thalaron Pulse"}
	at := 0
	for _, w := range order {
		i := strings.Index(md[at:], w)
		if i < 0 {
			t.Fatalf("summary.md: no %q after byte %d:\n%s", w, at, md)
		}
		at += i + len(w)
	}
	for _, esc := range []string{`\#1 Scout`, `1\. Raptor`, `p\_adj \< 0.001`} {
		if !strings.Contains(md, esc) {
			t.Errorf("summary.md does not escape %q", esc)
		}
	}
	if strings.Contains(md, "|---") {
		t.Error("summary.md has a table: it must read right without GitHub's extensions")
	}
}

func TestMdText(t *testing.T) {
	for in, want := range map[string]string{"- item": `\- item`, "12. Twelve": `12\. Twelve`, "2) two": `2\) two`, "v 0.9": "v 0.9"} {
		if got := mdStart(in); got != want {
			t.Errorf("mdStart(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"a <b> & c":     `a \<b\> \& c`,
		"x\x07y":        "x\uFFFDy",
		"  spaced\tout": "spaced out",
		"p_adj < 0.001": `p\_adj \< 0.001`,
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}
