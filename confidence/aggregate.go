package confidence

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// The question names an aggregate with what it aggregates: "the average
// patient height", "the total revenue", "the mean rating". A query that
// aggregates that column otherwise (sums the heights) answers another
// question while reading and returning what this one names; the shape
// checks see only that some average is computed somewhere.

// askedAggregates are the question's aggregate words, the aggregates that
// give them (a total may be a count: "the total number of students"), and
// the one that is the mistake: a sum for an average, an average for a
// total, the minimum for the maximum and back. A count beside "average"
// is no doubt ("the average number of employees" averages counts);
// "highest" and "lowest" are ends a sort keeps as well (judged by
// ExtremeReversed).
var askedAggregates = []struct {
	cue         cues.Cue
	gives       []string
	counterpart string
}{
	{cues.NewCue("average", "mean", "avg"), []string{"avg"}, "sum"},
	{cues.NewCue("total", "sum"), []string{"sum", "count"}, "avg"},
	{cues.NewCue("maximum", "max"), []string{"max"}, "min"},
	{cues.NewCue("minimum", "min"), []string{"min"}, "max"},
}

// aggregateAdjectives before an aggregate word make it part of a name
// ("the average total amount", "the maximum average rating"): the
// aggregate asked is the first one.
var aggregateAdjectives = map[string]bool{"average": true, "mean": true, "avg": true, "total": true, "sum": true,
	"maximum": true, "max": true, "minimum": true, "min": true}

// measureWords say how much of what follows them ("the total number of
// reviews"): no column is found by them.
var measureWords = map[string]bool{"number": true, "count": true, "num": true}

// aggregateCall is an aggregate the query computes and the stems of the
// column names it reads.
type aggregateCall struct {
	fn     string // avg, sum, count, max or min; a sum divided by something is an avg
	stems  []string
	column string // "sum(height_cm)", for the reason
	// derived is true when it reads a column the query names itself (an
	// alias of a subquery or a WITH query): avg(customer_total) averages
	// per-group totals.
	derived bool
}

// queryAggregates is what the query aggregates, for mismatchedAggregate.
type queryAggregates struct {
	calls []aggregateCall
	// divides is true when the query divides by something other than a
	// constant: an average may be written out (total / n, a weighted
	// sum(price * qty) / sum(qty)).
	divides bool
	counts  bool // it counts something (count(*) too)
}

// mismatchedAggregate returns the first aggregate the question asks for
// ("average patient height") whose column the query aggregates, but only
// otherwise, with what it computes instead ("sum(height_cm)"); "", "" when
// there is none. An average is given by avg() of the column, by avg() of
// a column the query derives (the average of per-customer totals), or
// written out (a sum divided by a count or a column); "the total number
// of" by any count. q is the question read without its quoted values.
func mismatchedAggregate(q *cues.Reading, tree *pg_query.ParseResult) (asked, computed string) {
	if tree == nil {
		return "", ""
	}
	var agg *queryAggregates
	var cols [][]string
	for k, a := range askedAggregates {
		for _, m := range q.FindAll(a.cue) {
			if aggregateAdjectives[q.Before(m)] {
				continue // "the average total amount" averages stored totals
			}
			if q.InName(m) {
				continue // "Total Wine"
			}
			words, phrase := aggregatePhrase(q.After(m, 4))
			if len(phrase) == 0 {
				continue
			}
			if agg == nil {
				agg, cols = aggregatesOf(tree), columnWords(tree)
			}
			// The aggregate word may name a column that stores it (the
			// total amount: tot_amt; the minimum temperature:
			// min_temperature_f). With another aggregate or end in the
			// question, that one is asked of it ("the lowest maximum
			// temperature", "the sum insured, on average"); alone, it
			// asks of that column only.
			named := namesColumn(q, m, cols)
			if named && otherAggregate(q, k, m) {
				continue
			}
			switch {
			case a.counterpart == "sum" && (agg.divides || slices.ContainsFunc(agg.calls, func(c aggregateCall) bool { return c.fn == "avg" && c.derived })):
				continue // an average written out, or of derived totals
			case measureWords[words[0]] && agg.counts:
				continue // "the total number of orders": count(*)
			}
			var other *aggregateCall
			gives := false
			for i, c := range agg.calls {
				if !slices.ContainsFunc(phrase, func(w string) bool { return slices.Contains(c.stems, w) }) ||
					named && !slices.Contains(c.stems, gloss.Stem(m.Text)) {
					continue // another column
				}
				if slices.Contains(a.gives, c.fn) {
					gives = true
					break
				}
				if other == nil && c.fn == a.counterpart {
					other = &agg.calls[i]
				}
			}
			if !gives && other != nil {
				return m.Text + " " + strings.Join(words, " "), other.column
			}
		}
	}
	return "", ""
}

// otherAggregate reports whether the question asks for an aggregate or an
// end other than askedAggregates[asked], said at m ("the lowest maximum
// temperature": lowest; a second "total" is the same one; "minimum" is an
// end word too).
func otherAggregate(q *cues.Reading, asked int, m cues.Match) bool {
	for k, a := range askedAggregates {
		if k != asked && q.Has(a.cue) {
			return true
		}
	}
	for _, c := range []cues.Cue{cueHighEnd, cueLowEnd, cueTimeEnd} {
		if slices.ContainsFunc(q.FindAll(c), func(o cues.Match) bool { return o != m }) {
			return true
		}
	}
	return false
}

// aggregatePhrase is what an aggregate word is followed by, up to the
// first stopword ("of", "in", "per") once a word other than a measure is
// read, and the stems of its words but the measures: "average patient
// height in cm" is patient height (patient, height); "total number of
// reviews" is number of reviews (review).
func aggregatePhrase(after []string) (words, stems []string) {
	for _, w := range after {
		if gloss.Stopword(w) {
			if len(stems) > 0 {
				break
			}
			if len(words) > 0 {
				words = append(words, w)
			}
			continue
		}
		words = append(words, w)
		if !measureWords[w] {
			stems = append(stems, gloss.Stem(w))
		}
	}
	return words, stems
}

// aggregatesOf reads the aggregates the query computes, anywhere in it,
// unqualified or pg_catalog-qualified, each with the stems of the words of
// the columns it reads (tot_amt reads total, amount), and whether the
// query divides. A sum divided by a count, a column or a subquery is an
// average; divided by a constant (minutes / 60) or by another sum (a
// ratio, a weighted average), it stays a sum.
func aggregatesOf(tree *pg_query.ParseResult) *queryAggregates {
	out := &queryAggregates{}
	averaged := map[*pg_query.FuncCall]bool{}
	aliases := outputAliases(tree)
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		switch n := m.Interface().(type) {
		case *pg_query.A_Expr:
			if len(n.Name) != 1 || n.Name[0].GetString_().GetSval() != "/" || n.Rexpr == nil {
				return true
			}
			r := pgparse.Uncast(n.Rexpr)
			if r.GetAConst() != nil {
				return true // a unit: minutes / 60
			}
			out.divides = true
			if strings.EqualFold(pgparse.BuiltinName(r.GetFuncCall()), "sum") {
				return true // a ratio of sums, or a weighted average: not a sum averaged
			}
			pgparse.Walk(n.Lexpr.ProtoReflect(), func(m protoreflect.Message) bool {
				if f, ok := m.Interface().(*pg_query.FuncCall); ok && strings.EqualFold(pgparse.BuiltinName(f), "sum") {
					averaged[f] = true
				}
				return true
			})
		case *pg_query.FuncCall:
			fn := strings.ToLower(pgparse.BuiltinName(n))
			if !slices.Contains([]string{"avg", "sum", "count", "max", "min"}, fn) {
				return true
			}
			out.counts = out.counts || fn == "count"
			if fn == "sum" && averaged[n] {
				fn = "avg"
			}
			c := aggregateCall{fn: fn}
			var names []string
			for _, a := range n.Args {
				pgparse.Walk(a.ProtoReflect(), func(m protoreflect.Message) bool {
					if ref, ok := m.Interface().(*pg_query.ColumnRef); ok && len(ref.Fields) > 0 {
						name := columnName(ref)
						names = append(names, name)
						c.derived = c.derived || aliases[strings.ToLower(name)]
						for _, w := range gloss.Words(name) {
							if w = strings.ToLower(w); !gloss.Stopword(w) && !measureWords[w] && !identifierWords[w] {
								c.stems = append(c.stems, gloss.Stem(w))
							}
						}
					}
					return true
				})
			}
			c.column = fn + "(" + strings.Join(names, ", ") + ")"
			if len(c.stems) > 0 || c.derived {
				out.calls = append(out.calls, c)
			}
		}
		return true
	})
	return out
}
