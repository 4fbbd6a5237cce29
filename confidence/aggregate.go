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
}

// mismatchedAggregate returns the first aggregate the question asks for
// ("average patient height") whose column the query aggregates, but only
// otherwise, with what it computes instead ("sum(height_cm)"); "", "" when
// there is none.
func mismatchedAggregate(q *cues.Reading, tree *pg_query.ParseResult) (asked, computed string) {
	if tree == nil {
		return "", ""
	}
	q = q.Unquoted()
	var calls []aggregateCall
	for _, a := range askedAggregates {
		for _, m := range q.FindAll(a.cue) {
			if aggregateAdjectives[q.Before(m)] {
				continue // "the average total amount" averages stored totals
			}
			words, phrase := aggregatePhrase(q.After(m, 4))
			if len(phrase) == 0 {
				continue
			}
			if calls == nil {
				calls = queryAggregates(tree)
			}
			var other *aggregateCall
			gives := false
			for i, c := range calls {
				if !slices.ContainsFunc(phrase, func(w string) bool { return slices.Contains(c.stems, w) }) {
					continue // another column
				}
				if slices.Contains(a.gives, c.fn) {
					gives = true
					break
				}
				if other == nil && c.fn == a.counterpart {
					other = &calls[i]
				}
			}
			if !gives && other != nil {
				return m.Text + " " + strings.Join(words, " "), other.column
			}
		}
	}
	return "", ""
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

// queryAggregates are the aggregates the query computes, anywhere in it,
// unqualified or pg_catalog-qualified, each with the stems of the words of
// the columns it reads (tot_amt reads total, amount).
func queryAggregates(tree *pg_query.ParseResult) []aggregateCall {
	divided := map[*pg_query.FuncCall]bool{}
	var out []aggregateCall
	pgparse.Walk(tree.ProtoReflect(), func(m protoreflect.Message) bool {
		switch n := m.Interface().(type) {
		case *pg_query.A_Expr:
			// sum(x) / count(*) is an average written out.
			if len(n.Name) == 1 && n.Name[0].GetString_().GetSval() == "/" {
				if f := pgparse.Uncast(n.Lexpr).GetFuncCall(); f != nil {
					divided[f] = true
				}
			}
		case *pg_query.FuncCall:
			fn := strings.ToLower(builtinName(n))
			if !slices.Contains([]string{"avg", "sum", "count", "max", "min"}, fn) {
				return true
			}
			if fn == "sum" && divided[n] {
				fn = "avg"
			}
			var stems, names []string
			for _, a := range n.Args {
				pgparse.Walk(a.ProtoReflect(), func(m protoreflect.Message) bool {
					if ref, ok := m.Interface().(*pg_query.ColumnRef); ok && len(ref.Fields) > 0 {
						name := ref.Fields[len(ref.Fields)-1].GetString_().GetSval()
						names = append(names, name)
						for _, w := range gloss.Words(name) {
							if w = strings.ToLower(w); !gloss.Stopword(w) && !measureWords[w] && !identifierWords[w] {
								stems = append(stems, gloss.Stem(w))
							}
						}
					}
					return true
				})
			}
			if len(stems) > 0 {
				out = append(out, aggregateCall{fn: fn, stems: stems, column: fn + "(" + strings.Join(names, ", ") + ")"})
			}
		}
		return true
	})
	return out
}
