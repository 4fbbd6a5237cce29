package confidence

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/score"
)

// missedColumns are the columns the question links to strongly
// (qualified names, in.Columns) of the tables candidate c reads that are
// not among used, less those the question does not owe them (see
// notOwed). A key (a name ending in "id") is how tables meet, not what
// the question asks about: an anti-join reads sales to find the
// salespersons without any, and "salesperson ID" links to sales.id as
// well.
func missedColumns(in *score.Input, c score.Candidate, used []string, q *cues.Reading, qa, ea *gloss.Analysis, tree *pg_query.ParseResult) []string {
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
				ow = newOwing(in, c, q, qa, ea, tree)
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
// one it does not: the question's words, the evidence's clauses, and the
// words of the values the question names that the query uses.
type owing struct {
	question []string   // the question's words, stemmed, stopwords aside
	clauses  [][]string // the evidence's clauses, likewise (evidenceClauses)
	defines  []bool     // for each clause, whether it defines a term the question writes
	values   [][]string // the words of each value the question names that the query uses, likewise
}

func newOwing(in *score.Input, c score.Candidate, q *cues.Reading, qa, ea *gloss.Analysis, tree *pg_query.ParseResult) *owing {
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
		for _, cl := range evidenceClauses(in.Evidence) {
			ow.clauses = append(ow.clauses, gloss.Terms(cl))
			ow.defines = append(ow.defines, definesAsked(cl, ow.question))
		}
	}
	// A value is used where the query compares it with a column that
	// stores it ('Active' written against first_name leaves
	// employees.status owed; selecting airline is no comparison), or
	// through the evidence's definition of it.
	var compared []string
	for _, v := range in.Values {
		if !q.Contains(v) && !stemsIn(v, stems) {
			continue
		}
		if !usesDefinition(in.Evidence, c.SQL, v, tree) {
			if !usesValue(c.SQL, v) && !usesCode(q, c.SQL, v) || len(in.ValueColumns) != len(in.Values) {
				continue
			}
			if compared == nil {
				compared = conditionColumns(tree)
			}
			if !comparedWhereStored(in, v, c.Columns, compared) {
				continue
			}
		}
		// Its words as the question's analysis splits them, as written
		// and as lower case: "Jetblue Airways" in the question reads
		// jetblue, airways; 'JetBlue Airways' jet, blue, airways.
		ow.values = append(ow.values, gloss.Terms(v), gloss.Terms(strings.ToLower(v)))
	}
	return ow
}

// conditionColumns are the bare names, lower case, of the columns the
// query's conditions read (conditionsOf), anywhere in it; never nil.
func conditionColumns(tree *pg_query.ParseResult) []string {
	out := []string{}
	if tree == nil {
		return out
	}
	for _, q := range allConditions(tree) {
		pgparse.Walk(q.ProtoReflect(), func(m protoreflect.Message) bool {
			if ref, ok := m.Interface().(*pg_query.ColumnRef); ok && len(ref.Fields) > 0 {
				if name := columnName(ref); name != "" {
					out = append(out, strings.ToLower(name))
				}
			}
			return true
		})
	}
	return out
}

// allConditions are the conditions (conditionsOf) of every SELECT and
// join of tree, at any depth.
func allConditions(tree *pg_query.ParseResult) []*pg_query.Node {
	var quals []*pg_query.Node
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		quals = append(quals, conditionsOf(m)...)
		return true
	})
	return quals
}

// conditionsOf are the conditions the node m holds itself: a SELECT's
// WHERE and HAVING, a join's ON; those it lacks left out.
func conditionsOf(m protoreflect.Message) []*pg_query.Node {
	var out []*pg_query.Node
	switch n := m.Interface().(type) {
	case *pg_query.SelectStmt:
		out = []*pg_query.Node{n.WhereClause, n.HavingClause}
	case *pg_query.JoinExpr:
		out = []*pg_query.Node{n.Quals}
	}
	return slices.DeleteFunc(out, func(q *pg_query.Node) bool { return q == nil })
}

// comparedWhereStored reports whether the query reads a column that
// stores the value v (or one that differs from it only in its words'
// endings), by in.ValueColumns, in one of its conditions (compared: the
// bare names conditionColumns gives); false when ValueColumns do not say.
func comparedWhereStored(in *score.Input, v string, columns, compared []string) bool {
	if len(in.ValueColumns) != len(in.Values) {
		return false
	}
	key := valueKey(v)
	for j, o := range in.Values {
		col := in.ValueColumns[j]
		if valueKey(o) == key && slices.ContainsFunc(columns, func(c string) bool { return strings.EqualFold(c, col) }) &&
			slices.Contains(compared, strings.ToLower(col[strings.LastIndexByte(col, '.')+1:])) {
			return true
		}
	}
	return false
}

// notOwed reports whether the question does not owe a column the query
// leaves unused the phrase that links to it:
//   - the phrase is the evidence's, not the question's, and no clause
//     of the evidence that writes it defines a term of the question: the
//     evidence is help, not a demand ("engine_type" in a definition of
//     another question's term), unless it says what the question's
//     words mean ("VIP = loyalty_tier 'Platinum'" for "VIP customers");
//   - the question writes the phrase only inside a value it names that
//     the query compares with a column that stores it, or uses through
//     the evidence's definition: "JetBlue" links to
//     airlines.abbreviation, which stores 'JetBlue', and the query
//     compares airlines.airline with 'JetBlue Airways'; "territory" in
//     "US territory" links to country.region, and the query filters on
//     governmentform = 'US Territory'; "Rotterdam" to warehouses.city,
//     and the evidence says the Rotterdam hub is warehouse WH-RTM. The
//     "active" of "active subscriptions of Active Fitness Ltd" stands
//     outside the value too, and stays owed.
func (ow *owing) notOwed(phrase string) bool {
	p := gloss.Terms(phrase) // "JetBlue": jet, blue, as the question reads it
	if len(p) == 0 {
		return false
	}
	if !phraseIn(ow.question, p) {
		written, defines := false, false
		for k, cl := range ow.clauses {
			if phraseIn(cl, p) {
				written = true
				defines = defines || ow.defines[k]
			}
		}
		return written && !defines
	}
	return slices.ContainsFunc(ow.values, func(v []string) bool { return within(ow.question, p, v) })
}

// within reports whether every place p stands in text (one at least) is
// inside a place v stands.
func within(text, p, v []string) bool {
	found := false
	for i := 0; i+len(p) <= len(text); i++ {
		if !slices.Equal(text[i:i+len(p)], p) {
			continue
		}
		found = true
		inside := false
		for j := max(0, i+len(p)-len(v)); j <= i && j+len(v) <= len(text); j++ {
			if slices.Equal(text[j:j+len(v)], v) {
				inside = true
				break
			}
		}
		if !inside {
			return false
		}
	}
	return found
}
