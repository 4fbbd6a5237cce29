package cues

import (
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// OutOfOrder reports whether the output columns of a query (columns: what
// each returns, in words, as describe.Description.Columns gives them) that
// the question names (words) come in another order than the question names
// them: "the number of channels, the language" for "for each language,
// the number of channels". A column the question does not name places
// nothing; "the number of ..." is named by "how many" and "count".
func OutOfOrder(words []gloss.Word, columns []string) bool {
	pos := map[string]int{}
	for i, w := range words {
		if _, ok := pos[w.Stem]; !ok {
			pos[w.Stem] = i
		}
	}
	last := -1
	for _, col := range columns {
		terms := gloss.Terms(col)
		if strings.HasPrefix(col, "the number of") {
			terms = append(terms, "many", "count")
		}
		at := -1
		for _, t := range terms {
			if p, ok := pos[t]; ok && (at < 0 || p < at) {
				at = p
			}
		}
		if at < 0 {
			continue
		}
		if at < last {
			return true
		}
		last = at
	}
	return false
}
