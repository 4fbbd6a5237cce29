package validate

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// The aggregate set-operation lint (L014). `SELECT count(*) FROM
// countrylanguage WHERE language = 'Dutch' INTERSECT SELECT count(*) FROM
// countrylanguage WHERE language = 'English'` intersects two numbers, not
// the countries counted: it returns the count when the two counts happen to
// be equal and no row otherwise. It is how "how many countries speak both
// English and Dutch" comes back wrong; the fix intersects the rows first
// (SELECT countrycode ... INTERSECT SELECT countrycode ...) and counts the
// result. EXCEPT of two such rows is the same mistake.
//
// The set operation must be the statement itself (the answer), and both
// sides each one row of counts, totals or averages: no GROUP BY, every
// output a built-in count, sum or avg (unqualified or pg_catalog; a cast
// of one counts), none of them a window. Not flagged: UNION of such rows
// (a list of figures, a fine answer); a side that groups, returns a column
// beside its aggregates, or nests another set operation; other aggregates
// (array_agg rows compared are sets compared; max against max asks
// whether two extremes are one); and such a comparison inside a sublink,
// CTE or FROM subquery (EXISTS (count ... INTERSECT count ...) asks "as
// many as", which is meaningful).

// aggregateSetOp warns about INTERSECT or EXCEPT between two single rows
// of aggregates.
func (a *analyzer) aggregateSetOp(s *pg.SelectStmt) {
	var op, when string // when the first number comes back
	switch s.Op {
	case pg.SetOperation_SETOP_INTERSECT:
		op, when = "INTERSECT", "equal"
	case pg.SetOperation_SETOP_EXCEPT:
		op, when = "EXCEPT", "different"
	default:
		return
	}
	if !aggregateRow(s.Larg) || !aggregateRow(s.Rarg) {
		return
	}
	a.warn(CodeAggregateSetOp, nodeLocation(s.Larg.TargetList[0]),
		"%s compares the two sides' aggregates (a count or a total is one number), not the rows they count: it returns the first number when the two are %s and nothing otherwise; to count the things both sides find, %s the rows first and aggregate the result",
		op, when, op)
}

// figures are the aggregates whose one row is a number of things or an
// amount: what a question asks "how many" or "how much" of.
var figures = setOf("count", "sum", "avg")

// aggregateRow reports whether s is a plain SELECT that returns one row of
// figures: no GROUP BY, and every output a built-in count, sum or avg
// (possibly cast) that is not a window.
func aggregateRow(s *pg.SelectStmt) bool {
	if s == nil || s.Op != pg.SetOperation_SETOP_NONE || len(s.GroupClause) > 0 || len(s.TargetList) == 0 || len(s.ValuesLists) > 0 {
		return false
	}
	for _, t := range s.TargetList {
		v := t.GetResTarget().GetVal()
		for v.GetTypeCast() != nil {
			v = v.GetTypeCast().Arg
		}
		fc := v.GetFuncCall()
		if fc == nil || fc.Over != nil {
			return false
		}
		if !figures[pgparse.BuiltinName(fc)] {
			return false
		}
	}
	return true
}
