package confidence

import (
	"slices"
	"strings"
	"unicode"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
)

// An evidence defines what the question's words mean ("the Rotterdam
// hub is warehouse WH-RTM", "VIP = loyalty_tier 'Platinum'"), one clause
// at a time: a query that compares with the constant a clause writes
// uses the value the clause defines, and a column the clause names is
// owed when it defines a word of the question.

// usesDefinition reports whether the query compares with a constant
// that the evidence writes in the clause that defines the value v: "the
// Rotterdam hub is warehouse WH-RTM" for w.wh_cd = 'WH-RTM', "open deals
// are opportunities not in stage Closed Won or Closed Lost" for stage
// NOT IN ('Closed Won', 'Closed Lost'). The value is then used through
// its definition. A clause ends at a line, a semicolon, a comma or a
// sentence's end ("Platinum is P, Gold is G"); a constant of stopwords
// alone ('A') matches no clause's article; a clause that defines by
// exclusion ("not in") needs a query that excludes.
func usesDefinition(evidence, sql, v string, tree *pg_query.ParseResult) bool {
	if evidence == "" {
		return false
	}
	vw := valueWords(v)
	if len(vw) == 0 {
		return false
	}
	var lits [][]string
	for _, lit := range cues.StringLiteral.FindAllString(sql, -1) {
		w := valueWords(strings.ReplaceAll(strings.Trim(lit, "'"), "''", "'"))
		if len(w) > 0 && !slices.Equal(w, vw) && slices.ContainsFunc(w, func(x string) bool { return !gloss.Stopword(x) }) {
			lits = append(lits, w)
		}
	}
	if len(lits) == 0 {
		return false
	}
	for _, clause := range evidenceClauses(evidence) {
		cw := valueWords(clause)
		if !phraseIn(cw, vw) || !slices.ContainsFunc(lits, func(l []string) bool { return phraseIn(cw, l) }) {
			continue
		}
		if !slices.ContainsFunc(cw, func(w string) bool { return exclusionWords[w] }) || sqlNegates(tree) {
			return true
		}
	}
	return false
}

// abbreviation reports whether text ends with a short capitalised word
// that a full stop abbreviates ("St", "Mr", "Inc"), not a sentence's end.
func abbreviation(text string) bool {
	w := text[strings.LastIndexFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })+1:]
	return len(w) >= 2 && len(w) <= 3 && unicode.IsUpper(rune(w[0])) && strings.ToLower(w[1:]) == w[1:]
}

// exclusionWords define by exclusion: "open deals are those not in stage
// Closed Won".
var exclusionWords = map[string]bool{"not": true, "no": true, "without": true, "except": true, "excluding": true, "exclude": true, "excludes": true}

// evidenceClauses are the evidence's clauses: it split at lines,
// semicolons, commas and the ends of sentences (a full stop before a
// space or the end, but after an abbreviation: "v2.1" and "St. John's"
// stay whole).
func evidenceClauses(evidence string) []string {
	var out []string
	start := 0
	for i := 0; i < len(evidence); i++ {
		c := evidence[i]
		end := c == '\n' || c == ';' || c == ',' ||
			c == '.' && (i+1 == len(evidence) || evidence[i+1] == ' ' || evidence[i+1] == '\n') && !abbreviation(evidence[start:i])
		if end {
			if i > start {
				out = append(out, evidence[start:i])
			}
			start = i + 1
		}
	}
	if start < len(evidence) {
		out = append(out, evidence[start:])
	}
	return out
}

// definesAsked reports whether a clause of the evidence defines a term
// the question (stemmed words) writes: its words before "=", "means",
// "is", "are", "refers to", "have" or "has" stand in the question
// ("wholesale customers have segment B2B").
func definesAsked(clause string, question []string) bool {
	lower := strings.ToLower(clause)
	cut := -1
	for _, sep := range []string{"=", " means ", " is ", " are ", " refers to ", " have ", " has "} {
		if i := strings.Index(lower, sep); i > 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut < 0 {
		return false
	}
	term := gloss.Terms(lower[:cut])
	return len(term) > 0 && phraseIn(question, term)
}
