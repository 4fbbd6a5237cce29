package confidence

import (
	"fmt"
	"slices"
	"strings"
)

// Reasons says in words why an answer may not answer its question: the
// weak signals, strongest doubt first. Nil when nothing is in doubt.
func (s *Signals) Reasons() []string {
	var out []string
	if s.ReadsNoTable {
		out = append(out, "the query reads no table")
	}
	out = append(out, s.deviations...)
	if s.QuestionCovered < 0.75 && len(s.missingWords) > 0 {
		r := "the question asks about " + list(s.missingWords, 4)
		if len(s.queryWords) > 0 {
			r = "the query reads " + list(s.queryWords, 3) + "; " + r + ", which it does not use"
		}
		out = append(out, r)
	}
	out = append(out, s.shapeProblems...)
	if s.ExtremeReversed {
		out = append(out, "the question asks for the "+s.endAsked+"; the query keeps the "+s.endKept)
	}
	if s.AggregateMismatched {
		out = append(out, "the question asks for the "+s.aggAsked+"; the query computes "+s.aggComputed+" instead")
	}
	if vs := distinctValues(s.missingValues); len(vs) > 0 {
		out = append(out, "the question names "+list(quoteAll(vs), 3)+"; the query does not use "+pick(len(vs) > 1, "them", "it"))
	}
	if s.UnknownValue {
		out = append(out, "the query compares a column with a value no row holds")
	}
	if s.Empty {
		out = append(out, "the query returns no rows")
	}
	if s.Tied {
		out = append(out, "the query keeps the first rows of a sort, and the next row ties with the last one kept: another answer is as right")
	}
	if s.PeriodOpen {
		out = append(out, "the question names a year; the query bounds "+s.openColumn+" from one side only")
	}
	if len(s.missedCols) > 0 {
		out = append(out, missedReason(s.missedCols))
	}
	if len(s.unreturned) > 0 {
		out = append(out, unreturnedReason(s.unreturned))
	}
	if len(s.unaskedCols) > 0 {
		out = append(out, "the query returns "+list(s.unaskedCols, 3)+", which the question does not ask for")
	}
	if len(s.unasked) > 0 {
		out = append(out, "the query filters on "+list(quoteAll(s.unasked), 3)+", which the question does not mention")
	}
	if s.NegationMissed {
		out = append(out, "the question excludes something (not, without, except); the query excludes nothing")
	}
	if s.CountsDisputed {
		out = append(out, "the candidate queries return the same rows but disagree on how often each one comes back (DISTINCT or not)")
	}
	if s.Defect {
		out = append(out, "the query may count rows twice or has a condition that is never true")
	}
	if s.Duplicates {
		out = append(out, "the query returns some rows more than once")
	}
	if s.Candidates > 1 && s.Support < 0.5 {
		what := "queries"
		if s.Compared {
			what = "results"
		}
		out = append(out, fmt.Sprintf("the candidate queries disagree: %d different %s, %.0f%% of the votes for this one", s.Groups, what, 100*s.Support))
	}
	if s.OutsideContext > 0 {
		out = append(out, "the query reads tables retrieval did not rank for the question")
	}
	if s.Repaired {
		out = append(out, "the query named a column or table that does not exist and needed a repair to run")
	}
	return out
}

// list joins up to n items as "a, b and c" (and "and 2 more").
func list(items []string, n int) string {
	if len(items) > n {
		items = append(items[:n:n], fmt.Sprintf("%d more", len(items)-n))
	}
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// missedReason says which linked columns of the tables read the query
// leaves unused: "the query reads countrylanguage but not its isofficial,
// which the question names"; of several tables, each column with its
// table ("author.name and domain.name").
func missedReason(cols []string) string {
	var tables, names, qualified []string
	for _, c := range cols {
		i := strings.LastIndexByte(c, '.')
		t := c[strings.LastIndexByte(c[:i], '.')+1 : i]
		if !slices.Contains(tables, t) {
			tables = append(tables, t)
		}
		names = append(names, c[i+1:])
		qualified = append(qualified, t+"."+c[i+1:])
	}
	if len(tables) > 1 {
		return "the query reads " + list(tables, 3) + " but not " + list(qualified, 3) + ", which the question names"
	}
	return "the query reads " + tables[0] + " but not its " + list(names, 3) + ", which the question names"
}

// unreturnedReason says which columns the question asks to show the
// query leaves out of its rows: "the question asks to show make; the
// query does not return it".
func unreturnedReason(cols []string) string {
	var names []string
	for _, c := range cols {
		names = append(names, c[strings.LastIndexByte(c, '.')+1:])
	}
	return "the question asks to show " + list(names, 3) + "; the query does not return " + pick(len(names) > 1, "them", "it")
}

// distinctValues are vs without repeats (a stored value and the same name
// written with a capital, 'March' and 'March    ' of a padded column),
// in order.
func distinctValues(vs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range vs {
		k := strings.ToLower(strings.TrimSpace(v))
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}
