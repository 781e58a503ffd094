package cards

import (
	"math"
	"strconv"
	"strings"
)

// suggest returns the candidate closest to word when it is close enough to be
// a plausible misspelling, else "". Typos are the commonest designer error, so
// every "unknown X" message offers the nearest valid spelling.
func suggest(word string, candidates []string) string {
	budget := math.MaxInt
	return suggestWithin(word, candidates, &budget)
}

// suggestWithin is suggest with a shared work budget, counted in edit-distance
// table cells: a huge broken file can ask for thousands of suggestions among
// thousands of ids, and answering them all would take minutes. When the
// budget runs out, messages simply go without a suggestion.
func suggestWithin(word string, candidates []string, budget *int) string {
	w := strings.ToLower(word)
	if len(w) > 64 {
		return "" // long garbage is not a typo; keep the quadratic distance cheap
	}
	// Allow about one edit per three characters, and never suggest a
	// candidate that would have to be rewritten completely (this keeps
	// one-letter vocabularies like the effect kinds from matching anything).
	limit := max(1, len(w)/3)
	best, bestD := "", -1
	for _, c := range candidates {
		if *budget <= 0 {
			return ""
		}
		if d := len(c) - len(w); d > limit || -d > limit {
			continue // the length difference alone exceeds the limit
		}
		lc := strings.ToLower(c)
		if lc == w {
			if c == word {
				continue // identical: nothing to suggest
			}
			return c // differs only in case
		}
		*budget -= (len(w) + 1) * (len(lc) + 1)
		d := editDistance(w, lc)
		if d > limit || d >= len(lc) {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// didYouMeanWithin formats suggest's answer for appending to a message.
func didYouMeanWithin(word string, candidates []string, budget *int) string {
	if s := suggestWithin(word, candidates, budget); s != "" {
		return ", did you mean " + strconv.Quote(s) + "?"
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of adjacent bytes
// each cost one, so "tpye" is one edit from "type".
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	// Three rolling rows: i-2, i-1 and i.
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

// quoteList formats values as `"a", "b", "c"` for "expected one of" hints.
func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// Suggest returns the candidate closest to word when it is close enough to
// be a plausible misspelling (about one edit per three letters, or the same
// word in another case), else "". Other packages that read designer input
// (scenarios, command-line ids) use it so every "did you mean" agrees.
func Suggest(word string, candidates []string) string { return suggest(word, candidates) }

// QuoteList formats values as `"a", "b", "c"`.
func QuoteList(values []string) string { return quoteList(values) }
