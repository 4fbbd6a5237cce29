package validate

import (
	pg "github.com/pganalyze/pg_query_go/v6"
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
// Both sides must each be one row of aggregates: no GROUP BY, every output
// an aggregate call (built-in: unqualified or pg_catalog; a cast of one
// counts) and none of them a window. UNION of such rows is a list of
// figures, which is a fine answer, and is not flagged; so are a side that
// groups, or returns a column beside its aggregates, or nests another set
// operation.

// aggregateSetOp warns about INTERSECT or EXCEPT between two single rows
// of aggregates.
func (a *analyzer) aggregateSetOp(s *pg.SelectStmt) {
	var op string
	switch s.Op {
	case pg.SetOperation_SETOP_INTERSECT:
		op = "INTERSECT"
	case pg.SetOperation_SETOP_EXCEPT:
		op = "EXCEPT"
	default:
		return
	}
	if !aggregateRow(s.Larg) || !aggregateRow(s.Rarg) {
		return
	}
	a.warn(CodeAggregateSetOp, nodeLocation(s.Larg.TargetList[0]),
		"%s compares the two sides' aggregates (a count or a total is one number), not the rows they count: it returns the first number when the two are %s and nothing otherwise; to count the things both sides find, %s the rows first and aggregate the result",
		op, map[string]string{"INTERSECT": "equal", "EXCEPT": "different"}[op], op)
}

// aggregateRow reports whether s is a plain SELECT that returns one row of
// aggregates: no GROUP BY, and every output a built-in aggregate call
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
		if qn := splitName(fc.Funcname); !aggregates[qn.name] || !qn.builtin() {
			return false
		}
	}
	return true
}
