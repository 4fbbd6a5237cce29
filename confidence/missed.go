package confidence

import (
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/score"
)

// missedColumns are the columns the question links to strongly
// (qualified names, in.Columns) of the tables candidate c reads that are
// not among used, less those the question does not owe them (see
// notOwed). A key (a name ending in "id") is how tables meet, not what
// the question asks about: an anti-join reads sales to find the
// salespersons without any, and "salesperson ID" links to sales.id as
// well.
func missedColumns(in *score.Input, c score.Candidate, used []string, q *cues.Reading, qa, ea *gloss.Analysis) []string {
	linked := in.Columns
	var out []string
	var ow *owing
	for k, l := range linked {
		i := strings.LastIndexByte(l, '.')
		if i <= 0 || !slices.Contains(c.Tables, l[:i]) || slices.Contains(used, l) || strings.HasSuffix(strings.ToLower(l[i+1:]), "id") {
			continue
		}
		// The question's word links to a column of every table that has
		// one of its name; a query using the status of invoices meets
		// "unpaid" though customers.status is linked too. A column of the
		// name that is not linked meets nothing: customers.name does not
		// answer "the names of the products".
		if slices.ContainsFunc(used, func(u string) bool {
			return u != l && slices.Contains(linked, u) && strings.EqualFold(u[strings.LastIndexByte(u, '.')+1:], l[i+1:])
		}) {
			continue
		}
		if len(in.ColumnPhrases) == len(linked) {
			if ow == nil {
				ow = newOwing(in, c, q, qa, ea)
			}
			if ow.notOwed(in.ColumnPhrases[k]) {
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// owing is what tells a linked column's phrase the question owes from
// one it does not: the question's words, the evidence's, and the words
// of the values the question names that the query uses.
type owing struct {
	question []string   // the question's words, stemmed, stopwords aside
	evidence []string   // the evidence's words, likewise
	values   [][]string // the words of each value the question names that the query uses
}

func newOwing(in *score.Input, c score.Candidate, q *cues.Reading, qa, ea *gloss.Analysis) *owing {
	ow := &owing{}
	stems := map[string]bool{}
	if qa != nil {
		for _, w := range qa.Words {
			stems[w.Stem] = true
			if !w.Stop {
				ow.question = append(ow.question, w.Stem)
			}
		}
	}
	if ea != nil {
		for _, w := range ea.Words {
			if !w.Stop {
				ow.evidence = append(ow.evidence, w.Stem)
			}
		}
	}
	// A value is used where the query compares it with a column that
	// stores it ('Active' written against first_name leaves
	// employees.status owed), or through the evidence's definition of it.
	where := len(in.ValueColumns) == len(in.Values)
	for _, v := range in.Values {
		if !q.Contains(v) && !stemsIn(v, stems) {
			continue
		}
		if usesDefinition(in.Evidence, c.SQL, v) ||
			(usesValue(c.SQL, v) || usesCode(q, c.SQL, v)) && (!where || storedIn(in, v, c.Columns)) {
			ow.values = append(ow.values, phraseStems(v))
		}
	}
	return ow
}

// storedIn reports whether one of columns stores the value v (or one
// that differs from it only in its words' endings), by in.ValueColumns.
func storedIn(in *score.Input, v string, columns []string) bool {
	key := valueKey(v)
	for j, o := range in.Values {
		if slices.Contains(columns, in.ValueColumns[j]) && valueKey(o) == key {
			return true
		}
	}
	return false
}

// notOwed reports whether the question does not owe a column the query
// leaves unused the phrase that links to it:
//   - the phrase is the evidence's, not the question's: the evidence is
//     help, not a demand ("engine_type" in a definition of another
//     question's term, "business.name" in a hint);
//   - the query spends the phrase on a value the question names, which
//     it compares with a column that stores it, or uses through the
//     evidence's definition: "JetBlue" links to airlines.abbreviation,
//     which stores 'JetBlue', and the query compares airlines.airline
//     with 'JetBlue Airways'; "territory" links to country.region, and
//     the query filters on governmentform = 'US Territory'; "Rotterdam"
//     to warehouses.city, and the evidence says the Rotterdam hub is
//     warehouse WH-RTM.
func (ow *owing) notOwed(phrase string) bool {
	p := phraseStems(phrase)
	if len(p) == 0 {
		return false
	}
	if !phraseIn(ow.question, p) && phraseIn(ow.evidence, p) {
		return true
	}
	return slices.ContainsFunc(ow.values, func(v []string) bool { return subset(p, v) })
}

// phraseStems are a phrase's words (a linked phrase, a stored value, a
// reference such as business.name), stemmed, stopwords aside.
func phraseStems(p string) []string {
	var out []string
	for _, w := range valueWords(p) {
		if !gloss.Stopword(w) {
			out = append(out, gloss.Stem(w))
		}
	}
	return out
}

// subset reports whether every word of a is a word of b.
func subset(a, b []string) bool {
	return !slices.ContainsFunc(a, func(w string) bool { return !slices.Contains(b, w) })
}
