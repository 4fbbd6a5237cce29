package repair

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// RuleBareMinMax rewrites SQLite's bare columns beside a lone MIN or MAX
// (SELECT max(hp), make FROM cars) to the row holding the extreme.
const RuleBareMinMax = "42803.bare_min_max"

// bareMinMax answers 42803 for SQLite's "bare columns" query: with exactly
// one aggregate, a MIN or a MAX, and no GROUP BY, SQLite returns the other
// columns from the row holding the extreme. SELECT max(hp), make FROM cars
// becomes SELECT hp AS max, make FROM cars ORDER BY hp DESC NULLS LAST
// LIMIT 1 (MIN: ASC), which returns that row. Adding a GROUP BY instead
// would return one row per group: a different answer. Ties pick one of the
// tied rows, as SQLite does; on no input row the aggregate returned one row
// of NULLs and the rewrite returns none.
func (d *doc) bareMinMax(h *hit) (edit, bool) {
	sel, selIdx, field := h.enclosingSelect()
	if sel == nil || field != "target_list" || !plainSelect(sel) || setOperand(h.path, selIdx) {
		return edit{}, false
	}
	agg, ok := loneExtreme(sel)
	if !ok {
		return edit{}, false
	}
	name := strings.ToLower(funcName(agg))
	off := h.node.GetColumnRef().Location
	note := strings.ToUpper(name) + "(x) beside bare columns → the row with the "
	if name == "max" {
		note += "largest x (ORDER BY x DESC NULLS LAST LIMIT 1)"
	} else {
		note += "smallest x (ORDER BY x LIMIT 1)"
	}
	return edit{rule: RuleBareMinMax, note: note, fn: func(d *doc) error {
		_, sel, err := d.inSelect(off, isColumnRef)
		if err != nil {
			return err
		}
		agg, ok := loneExtreme(sel)
		if !ok {
			return errStale
		}
		x := agg.Args[0]
		for _, t := range sel.TargetList {
			rt := t.GetResTarget()
			if rt == nil {
				continue
			}
			if rt.Val.GetFuncCall() == agg {
				if rt.Name == "" {
					rt.Name = name // the column keeps the name the aggregate gave it
				}
				rt.Val = x
				break
			}
			replaceNode(rt.Val, agg, x)
		}
		dir, nulls := pg_query.SortByDir_SORTBY_ASC, pg_query.SortByNulls_SORTBY_NULLS_DEFAULT
		if name == "max" {
			dir, nulls = pg_query.SortByDir_SORTBY_DESC, pg_query.SortByNulls_SORTBY_NULLS_LAST
		}
		sel.SortClause = []*pg_query.Node{pg_query.MakeSortByNode(proto.Clone(x).(*pg_query.Node), dir, nulls, -1)}
		sel.LimitCount = intConst(1)
		sel.LimitOption = pg_query.LimitOption_LIMIT_OPTION_COUNT
		return nil
	}}, true
}

// plainSelect reports a SELECT that returns one aggregate row: no GROUP
// BY, HAVING, DISTINCT, window, ORDER BY or OFFSET, and a LIMIT of at
// least one if any.
func plainSelect(s *pg_query.SelectStmt) bool {
	if s.Op != pg_query.SetOperation_SETOP_NONE || len(s.GroupClause) > 0 || s.HavingClause != nil ||
		len(s.DistinctClause) > 0 || len(s.WindowClause) > 0 || len(s.SortClause) > 0 || s.LimitOffset != nil ||
		len(s.LockingClause) > 0 || len(s.FromClause) == 0 || s.IntoClause != nil {
		return false
	}
	if s.LimitCount != nil {
		n, ok := constText(s.LimitCount)
		return ok && isNumberConst(s.LimitCount) && n != "0" && !strings.HasPrefix(n, "-")
	}
	return true
}

// setOperand reports a SELECT that is an arm of UNION/INTERSECT/EXCEPT.
func setOperand(path []step, selIdx int) bool {
	for i := selIdx - 1; i >= 0; i-- {
		if _, ok := path[i].msg.Interface().(*pg_query.SelectStmt); ok {
			return path[i].field == "larg" || path[i].field == "rarg"
		}
	}
	return false
}

// loneExtreme returns the target list's only aggregate call when it is a
// plain MIN or MAX of one argument (no FILTER, ORDER BY or window), not
// looking into subqueries.
func loneExtreme(sel *pg_query.SelectStmt) (*pg_query.FuncCall, bool) {
	aggs := targetCalls(sel, func(fc *pg_query.FuncCall) bool {
		return isAggregate(strings.ToLower(funcName(fc))) || fc.AggStar || fc.Over != nil
	})
	if len(aggs) != 1 {
		return nil, false
	}
	a := aggs[0]
	name := strings.ToLower(funcName(a))
	if (name != "max" && name != "min") || len(a.Args) != 1 || a.AggStar || a.Over != nil || a.AggFilter != nil ||
		len(a.AggOrder) > 0 || a.AggWithinGroup || (len(a.Funcname) > 1 && a.Funcname[0].GetString_().GetSval() != "pg_catalog") {
		return nil, false
	}
	return a, true
}

// replaceNode swaps the Node wrapping fc under root for x.
func replaceNode(root *pg_query.Node, fc *pg_query.FuncCall, x *pg_query.Node) {
	walkNodes(root.ProtoReflect(), func(n *pg_query.Node, _ []step) bool {
		if n.GetFuncCall() == fc {
			replace(n, x)
			return false
		}
		return true
	})
}
