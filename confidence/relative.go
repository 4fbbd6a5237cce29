package confidence

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// relativeWords say where a period lies from today ("the past 30 days,
// inclusive of today", "the last 6 months excluding the current month",
// "the previous ISO week"): a query answers them by computing from the
// current date, not by naming them.
var relativeWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range periodFrom {
		m[gloss.Stem(w)] = true
	}
	for _, w := range strings.Fields(`recent inclusive exclusive including excluding calendar today ago whole now yesterday tomorrow`) {
		m[gloss.Stem(w)] = true
	}
	return m
}()

// unitWords are the stems of the units of time: "how many days late", "the
// time in minutes" are answered by a difference of two times.
var unitWords = func() map[string]bool {
	m := map[string]bool{}
	for _, units := range []map[string]bool{periodUnit, clockUnit} {
		for w := range units {
			m[gloss.Stem(w)] = true
		}
	}
	return m
}()

// nowFunctions read the clock (CURRENT_DATE and the other SQL value
// functions aside, which the parser gives their own node).
var nowFunctions = map[string]bool{"now": true, "clock_timestamp": true, "statement_timestamp": true, "transaction_timestamp": true}

// clockValue reports whether n reads the clock as a SQL value function
// (CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIME, ...; not CURRENT_USER).
func clockValue(n *pg_query.Node) bool {
	f := n.GetSqlvalueFunction()
	return f != nil && f.Op >= pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE && f.Op <= pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N
}

// readsClock reports whether the query computes from the current date or
// time (CURRENT_DATE, now(), ...).
func readsClock(tree *pg_query.ParseResult) bool {
	if tree == nil {
		return false
	}
	found := false
	pgparse.WalkNodes(tree.ProtoReflect(), func(n *pg_query.Node) bool {
		if found {
			return false
		}
		if clockValue(n) {
			found = true
		} else if fc := n.GetFuncCall(); fc != nil {
			found = nowFunctions[strings.ToLower(pgparse.BuiltinName(fc))]
		}
		return !found
	})
	return found
}

// subtractsTimes reports whether the query computes a duration: one
// column or clock reading less another (received_on - expected_dt,
// CURRENT_DATE - admitted_on), or age().
func subtractsTimes(tree *pg_query.ParseResult) bool {
	if tree == nil {
		return false
	}
	varying := func(n *pg_query.Node) bool {
		found := false
		pgparse.WalkNodes(n.ProtoReflect(), func(m *pg_query.Node) bool {
			found = found || m.GetColumnRef() != nil || clockValue(m)
			return !found
		})
		return found
	}
	found := false
	pgparse.WalkNodes(tree.ProtoReflect(), func(n *pg_query.Node) bool {
		if e := n.GetAExpr(); e != nil && e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && len(e.Name) == 1 &&
			e.Name[0].GetString_().GetSval() == "-" && e.Lexpr != nil && e.Rexpr != nil && varying(e.Lexpr) && varying(e.Rexpr) {
			found = true
		} else if fc := n.GetFuncCall(); fc != nil && len(fc.Funcname) > 0 && fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval() == "age" {
			found = true
		}
		return !found
	})
	return found
}
