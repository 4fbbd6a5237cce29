package confidence

import (
	"strings"
	"unicode"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// measureAdjectives lead an adjective to the measure it asks for: "the
// longest rivers" ask for their length, "older than 30" for an age, "how
// far" for a distance. "High", "large" and "small" lead to none: "the
// highest salary" asks for no height, "the largest population" for no
// size.
var measureAdjectives = func() map[string]string {
	m := map[string]string{}
	for measure, words := range map[string]string{
		"length":   "long longer longest",
		"height":   "tall taller tallest",
		"width":    "wide wider widest",
		"depth":    "deep deeper deepest",
		"weight":   "heavy heavier heaviest",
		"age":      "old older oldest young younger youngest",
		"distance": "far farther farthest",
		"speed":    "fast faster fastest slow slower slowest",
		"price":    "expensive cheap cheaper cheapest costly",
	} {
		for _, w := range strings.Fields(words) {
			m[w] = measure
		}
	}
	return m
}()

// measuresAsked are the measures (measureAdjectives) the question asks
// for by an adjective used as a measure: after "how" ("how long", but not
// "how long ago"), compared ("older than 30", "more expensive than"), or
// as the extreme of the rows ("which river is the longest", "the longest
// rivers" when the query reads a table the next word names). Not an
// adjective that only describes ("a long description", "the old price",
// "heavy users", "older orders"), one inside a set phrase ("no longer",
// "so far", "by far", "far from", "as long as"), a hyphenated word
// ("fast-moving") or a name ("Neil Young"); tables are the tables the
// query reads.
func measuresAsked(qa *gloss.Analysis, tables []string) []string {
	if qa == nil {
		return nil
	}
	var read map[string]bool // the words of the tables' names, read once a superlative needs them
	ws := qa.Words
	var out []string
	for i, w := range ws {
		measure := measureAdjectives[w.Text]
		if measure == "" {
			continue
		}
		tok := qa.Tokens[w.Token]
		if !tok.SentStart && strings.IndexFunc(tok.Text, unicode.IsUpper) == 0 {
			continue // a name: "Neil Young", "Old Town"
		}
		if tok.Start > 0 && qa.Text[tok.Start-1] == '-' || tok.End < len(qa.Text) && qa.Text[tok.End] == '-' {
			continue // "fast-moving", "long-term"
		}
		prev, next, nextWord := "", "", gloss.Word{}
		if i > 0 && ws[i-1].Token == w.Token-1 {
			prev = ws[i-1].Text
		}
		if i+1 < len(ws) && ws[i+1].Token == w.Token+1 {
			nextWord = ws[i+1]
			next = nextWord.Text
		}
		switch {
		case next == "ago" || next == "from" || next == "away":
			continue // "long ago", "far from"
		case prev == "no" || prev == "any" || prev == "as" || prev == "so" || prev == "by" || prev == "thus":
			continue // "no longer", "as long as", "so far", "by far"
		}
		superlative := strings.HasSuffix(w.Text, "est") || prev == "most" || prev == "least"
		comparative := strings.HasSuffix(w.Text, "er") || prev == "more" || prev == "less"
		switch {
		case prev == "how":
		case comparative && !superlative:
			if next != "than" {
				continue // "older orders"
			}
		case superlative:
			// "the longest rivers" ask for the rivers' length; "the
			// oldest orders" of a query that reads no orders, for none.
			if nextWord.Text != "" && !nextWord.Stop {
				if read == nil {
					read = tableWords(tables)
				}
				if !read[nextWord.Stem] {
					continue
				}
			}
		default:
			continue // "a long description", "heavy users"
		}
		out = append(out, measure)
	}
	return out
}
