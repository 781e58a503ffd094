package analysis

import (
	"fmt"
	"slices"
	"strings"
)

// BalanceMenuRow is the best package of one size the search found, as
// played on its games: the menu a designer chooses from.
type BalanceMenuRow struct {
	Edits  []BalanceEdit `json:"edits"`
	Shares []SideShare   `json:"shares"`
	MaxDev float64       `json:"max_dev"`
	// Shares2 and MaxDev2 are the second search tier's (nil without one).
	Shares2 []SideShare `json:"shares_tier2,omitempty"`
	MaxDev2 float64     `json:"max_dev_tier2,omitempty"`
	// Pareto: no smaller package left a smaller largest deviation (with
	// two tiers, at the worse tier).
	Pareto bool `json:"pareto"`
}

// menu lists the package of each size, the ruleset as written first (0
// edits), each with the shares its search games measured.
func (r *BalanceResult) menu() []BalanceMenuRow {
	out := []BalanceMenuRow{{Edits: []BalanceEdit{}, Shares: r.Before, MaxDev: round6(maxDev(r.Before)), Pareto: true}}
	if r.Before2 != nil {
		out[0].Shares2, out[0].MaxDev2 = r.Before2, round6(maxDev(r.Before2))
	}
	best := max(out[0].MaxDev, out[0].MaxDev2)
	for _, s := range r.Steps {
		if len(s.Edits) == 0 {
			continue // a round whose winner did not join
		}
		worse := max(s.MaxDev, s.MaxDev2)
		row := BalanceMenuRow{Edits: s.Edits, Shares: s.Shares, MaxDev: s.MaxDev, Shares2: s.Shares2, MaxDev2: s.MaxDev2, Pareto: worse < best}
		best = min(best, worse)
		out = append(out, row)
	}
	return out
}

// maxDiffCells bounds the line-diff table; a file region beyond it is
// shown as one replaced block (still a correct patch, only longer).
const maxDiffCells = 4 << 20

// UnifiedDiff is the unified diff (three lines of context, paths a/NAME
// and b/NAME) from before to after over the files named in both, in
// sorted order: what `patch -p1` or `git apply` in the ruleset's folder
// applies. Files that did not change are left out.
func UnifiedDiff(before, after map[string][]byte) string {
	var names []string
	for n := range after {
		if b, ok := before[n]; ok && string(b) != string(after[n]) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var w strings.Builder
	for _, n := range names {
		a, b := splitLines(string(before[n])), splitLines(string(after[n]))
		hunks := diffHunks(a, b, 3)
		if len(hunks) == 0 {
			continue
		}
		fmt.Fprintf(&w, "--- a/%s\n+++ b/%s\n", n, n)
		for _, h := range hunks {
			w.WriteString(h)
		}
	}
	return w.String()
}

// splitLines splits s into lines, each keeping its "\n"; a last line
// without one is marked as diff marks it.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s+"\n\\ No newline at end of file\n")
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// diffOp is one line of an edit script: ' ' kept, '-' removed, '+' added.
type diffOp struct {
	op   byte
	line string
}

// diffScript is a shortest edit script from a to b: the common prefix and
// suffix trimmed, the middle by longest common subsequence.
func diffScript(a, b []string) []diffOp {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var ops []diffOp
	for _, l := range a[:p] {
		ops = append(ops, diffOp{' ', l})
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma)*len(mb) > maxDiffCells {
		for _, l := range ma {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, diffOp{'+', l})
		}
	} else {
		// lcs[i][j]: the longest common subsequence of ma[i:] and mb[j:].
		n, m := len(ma), len(mb)
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, diffOp{' ', ma[i]})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffOp{'-', ma[i]})
				i++
			default:
				ops = append(ops, diffOp{'+', mb[j]})
				j++
			}
		}
	}
	for _, l := range a[len(a)-s:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// diffHunks groups the edit script of a to b into unified hunks with ctx
// lines of context.
func diffHunks(a, b []string, ctx int) []string {
	ops := diffScript(a, b)
	var out []string
	for i := 0; i < len(ops); {
		if ops[i].op == ' ' {
			i++
			continue
		}
		// A hunk from ctx lines before the change to ctx lines after the
		// last change closer than 2·ctx kept lines to the one before.
		start := max(0, i-ctx)
		end := i
		for k := i; k < len(ops); k++ {
			if ops[k].op != ' ' {
				end = k + 1
			} else if k-end >= 2*ctx {
				break
			}
		}
		stop := min(len(ops), end+ctx)
		la, lb := 1, 1 // the hunk's first line in a and in b
		for _, o := range ops[:start] {
			if o.op != '+' {
				la++
			}
			if o.op != '-' {
				lb++
			}
		}
		na, nb := 0, 0
		var body strings.Builder
		for _, o := range ops[start:stop] {
			if o.op != '+' {
				na++
			}
			if o.op != '-' {
				nb++
			}
			body.WriteByte(o.op)
			body.WriteString(o.line)
		}
		if na == 0 {
			la-- // an empty range names the line before it
		}
		if nb == 0 {
			lb--
		}
		out = append(out, fmt.Sprintf("@@ -%s +%s @@\n%s", hunkRange(la, na), hunkRange(lb, nb), body.String()))
		i = stop
	}
	return out
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
