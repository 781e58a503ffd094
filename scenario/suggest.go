package scenario

import (
	"strconv"
	"strings"
)

// suggest returns the candidate closest to word when it is close enough to be
// a plausible misspelling (about one edit per three letters, or the same word
// in another case), else "".
func suggest(word string, candidates []string) string {
	w := strings.ToLower(word)
	if len(w) > 64 {
		return ""
	}
	best, bestD := "", -1
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == w {
			if c == word {
				continue
			}
			return c
		}
		d := levenshtein(w, lc)
		if d > max(1, len(w)/3) || d >= len(lc) {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// hintFor is a ", did you mean …?" for a misspelt word, or else the allowed
// values when there are few enough to list.
func hintFor(word string, values []string) string {
	if s := suggest(word, values); s != "" {
		return ", did you mean " + strconv.Quote(s) + "?"
	}
	if len(values) > 0 && len(values) <= 8 {
		return " (expected one of " + quoteList(values) + ")"
	}
	return ""
}

// levenshtein is the edit distance between a and b: insertions, deletions,
// substitutions and transpositions of adjacent bytes each cost one (the
// optimal-string-alignment variant, so "sede" is one edit from "seed").
func levenshtein(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
