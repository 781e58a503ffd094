package scenario

import (
	"strconv"

	"github.com/cardlab/cardlab/cards"
)

// suggest and quoteList are the loader's, so scenario and ruleset errors
// suggest alike.
func suggest(word string, candidates []string) string { return cards.Suggest(word, candidates) }

func quoteList(values []string) string { return cards.QuoteList(values) }

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
