package retrieve

import (
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// Match says how well the words of a question meet the words of the
// schema: the retrieval's confidence that its tables are about the
// question at all.
type Match string

const (
	// MatchNone: no word of the question is a word of the schema (nor
	// related to one by the thesaurus), and no table is named. The result
	// holds no tables: "xyzzy plugh" is about nothing the database has.
	MatchNone Match = "none"
	// MatchWeak: some words meet the schema, but no table is named and most
	// words do not. The context is widened.
	MatchWeak Match = "weak"
	// MatchStrong: the question names a table (or a glossary term), or most
	// of its words are the schema's.
	MatchStrong Match = "strong"
)

// rank orders matches from none to strong.
func (m Match) rank() int {
	switch m {
	case MatchStrong:
		return 2
	case MatchWeak:
		return 1
	}
	return 0
}

// Below reports whether m is a weaker match than min.
func (m Match) Below(min Match) bool { return m.rank() < min.rank() }

// match grades a question: the share of its content words (not analysis
// words such as "total" or "2024") that the schema knows, directly or
// through the thesaurus, and whether it names a table.
func (ix *Retriever) match(q words, named bool) (Match, float64) {
	content, known := 0, 0
	for i, w := range q.terms {
		if analysisWord(w) {
			continue
		}
		content++
		if ix.df[w] > 0 || len(w) >= 4 && strings.Contains(ix.vocabText, w) {
			// Inside a word counts too: "customer" in a table named
			// sbcustomer, "check" in checkin.
			known++
			continue
		}
		for _, r := range ix.related(q.raw[i], false) {
			if ix.knows(r) {
				known++
				break
			}
		}
	}
	var share float64
	if content > 0 {
		share = float64(known) / float64(content)
	}
	switch {
	case named || share >= 0.5:
		return MatchStrong, share
	case known > 0:
		return MatchWeak, share
	}
	return MatchNone, share
}

// knows reports whether every word of a stemmed phrase is a schema word.
func (ix *Retriever) knows(phrase string) bool {
	for _, w := range gloss.Fields(phrase) {
		if ix.df[w] == 0 {
			return false
		}
	}
	return phrase != ""
}

// joinVocabulary returns the schema's terms in one string, each preceded by
// a space, for finding a word inside them.
func joinVocabulary(df map[string]int) string {
	terms := make([]string, 0, len(df))
	for w := range df {
		terms = append(terms, w)
	}
	sort.Strings(terms)
	return " " + strings.Join(terms, " ")
}
