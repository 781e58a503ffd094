package analysis

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestUnifiedDiff(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "l%d\n", i)
		}
		return b.String()
	}
	base := lines(20)
	tests := []struct {
		name, after, want string
	}{
		{"one line", strings.Replace(base, "l10\n", "L10\n", 1),
			"--- a/f.yaml\n+++ b/f.yaml\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n"},
		{"first line", strings.Replace(base, "l1\n", "L1\n", 1),
			"--- a/f.yaml\n+++ b/f.yaml\n@@ -1,4 +1,4 @@\n-l1\n+L1\n l2\n l3\n l4\n"},
		// Six kept lines between two changes: one hunk; seven: two.
		{"close", strings.NewReplacer("l5\n", "L5\n", "l12\n", "L12\n").Replace(base),
			"--- a/f.yaml\n+++ b/f.yaml\n@@ -2,14 +2,14 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n l9\n l10\n l11\n-l12\n+L12\n l13\n l14\n l15\n"},
		{"apart", strings.NewReplacer("l5\n", "L5\n", "l13\n", "L13\n").Replace(base),
			"--- a/f.yaml\n+++ b/f.yaml\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n@@ -10,7 +10,7 @@\n l10\n l11\n l12\n-l13\n+L13\n l14\n l15\n l16\n"},
		{"inserted", strings.Replace(base, "l3\n", "l3\nnew\n", 1),
			"--- a/f.yaml\n+++ b/f.yaml\n@@ -1,6 +1,7 @@\n l1\n l2\n l3\n+new\n l4\n l5\n l6\n"},
		{"no newline at the end", strings.TrimSuffix(strings.Replace(base, "l20\n", "L20\n", 1), "\n"),
			"--- a/f.yaml\n+++ b/f.yaml\n@@ -17,4 +17,4 @@\n l17\n l18\n l19\n-l20\n+L20\n\\ No newline at end of file\n"},
		{"unchanged", base, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UnifiedDiff(map[string][]byte{"f.yaml": []byte(base)}, map[string][]byte{"f.yaml": []byte(tt.after)})
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
			if got != "" {
				if back := applyDiff(t, base, got); back != tt.after {
					t.Fatalf("applied: %q, want %q", back, tt.after)
				}
			}
		})
	}
	// git apply, as a designer would: the patch applies in the folder.
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	after := strings.NewReplacer("l5\n", "L5\n", "l13\n", "L13\nnew\n").Replace(base)
	if err := os.WriteFile(filepath.Join(dir, "f.yaml"), []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(patch, []byte(UnifiedDiff(map[string][]byte{"f.yaml": []byte(base)}, map[string][]byte{"f.yaml": []byte(after)})), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", patch)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v: %s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "f.yaml")); string(got) != after {
		t.Fatalf("git apply wrote %q", got)
	}
}

// The diff of any two files applies to the first and gives the second.
func TestUnifiedDiffApplies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.SliceOfN(rapid.SampledFrom([]string{"a\n", "b\n", "c\n", "d\n"}), 0, 30)
		a, b := strings.Join(gen.Draw(t, "a"), ""), strings.Join(gen.Draw(t, "b"), "")
		if rapid.Bool().Draw(t, "chop") && b != "" {
			b = b[:len(b)-1]
		}
		d := UnifiedDiff(map[string][]byte{"f": []byte(a)}, map[string][]byte{"f": []byte(b)})
		if (d == "") != (a == b) {
			t.Fatalf("diff %q of %q and %q", d, a, b)
		}
		if d != "" {
			if got := applyDiff(t, a, d); got != b {
				t.Fatalf("applied %q to %q: %q, want %q", d, a, got, b)
			}
		}
	})
}

// applyDiff applies a one-file unified diff strictly: every hunk's range
// and context must match where its header says.
func applyDiff(t interface {
	Helper()
	Fatalf(string, ...any)
}, base, diff string) string {
	t.Helper()
	src := splitLines(base)
	var out []string
	at := 0 // next line of src to copy
	ls := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(ls) && ls[i] != ""; {
		var la, na, lb, nb int
		h := ls[i]
		if n, _ := fmt.Sscanf(h, "@@ -%d,%d +%d,%d @@", &la, &na, &lb, &nb); n != 4 {
			la, na, lb, nb = 0, 1, 0, 1
			var sa, sb string
			if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", &sa, &sb); err != nil {
				t.Fatalf("hunk header %q", h)
			}
			parse := func(s string, l, n *int) {
				if strings.Contains(s, ",") {
					fmt.Sscanf(s, "%d,%d", l, n)
				} else {
					fmt.Sscanf(s, "%d", l)
				}
			}
			parse(sa, &la, &na)
			parse(sb, &lb, &nb)
		}
		start := la - 1
		if na == 0 {
			start = la
		}
		if start < at || start > len(src) {
			t.Fatalf("hunk %q out of order", h)
		}
		out = append(out, src[at:start]...)
		at = start
		i++
		gotA, gotB := 0, 0
		for ; i < len(ls) && ls[i] != "" && !strings.HasPrefix(ls[i], "@@"); i++ {
			l := ls[i][1:]
			if i+1 < len(ls) && strings.HasPrefix(ls[i+1], "\\ No newline") {
				l += ls[i+1]
				i++
			}
			switch ls[i-strings.Count(l, "\\ No newline")][0] {
			case ' ', '-':
				if at >= len(src) || src[at] != l {
					t.Fatalf("context %q does not match %q", l, src[min(at, len(src)-1)])
				}
				if ls[i-strings.Count(l, "\\ No newline")][0] == ' ' {
					out = append(out, l)
					gotB++
				}
				at++
				gotA++
			case '+':
				out = append(out, l)
				gotB++
			}
		}
		if gotA != na || gotB != nb {
			t.Fatalf("hunk %q has %d/%d lines", h, gotA, gotB)
		}
	}
	out = append(out, src[at:]...)
	s := strings.Join(out, "")
	return strings.ReplaceAll(s, "\n\\ No newline at end of file\n", "")
}

// The menu starts at the ruleset as written and marks a package no better
// than a smaller one as off the front.
func TestBalanceMenu(t *testing.T) {
	share := func(s float64) []SideShare {
		return []SideShare{{Side: "a", Share: s, Fair: 0.5}, {Side: "b", Share: 1 - s, Fair: 0.5}}
	}
	e := func(n int) []BalanceEdit { return make([]BalanceEdit, n) }
	r := &BalanceResult{Before: share(0.6), Steps: []BalanceStep{
		{Edits: e(1), Shares: share(0.55), MaxDev: 0.05},
		{Edits: e(2), Shares: share(0.56), MaxDev: 0.06},
		{Tried: []BalanceCandidate{{}}}, // a round whose winner did not join
		{Edits: e(3), Shares: share(0.47), MaxDev: 0.03},
	}}
	m := r.menu()
	var got []string
	for _, row := range m {
		got = append(got, fmt.Sprintf("%d:%.2f:%v", len(row.Edits), row.MaxDev, row.Pareto))
	}
	if want := "0:0.10:true 1:0.05:true 2:0.06:false 3:0.03:true"; strings.Join(got, " ") != want {
		t.Fatalf("menu %v, want %s", got, want)
	}
}
