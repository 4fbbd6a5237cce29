package validate

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// The unused-ranking lint (L012). A query that numbers or ranks rows in a
// CTE or a FROM subquery (`row_number() OVER (PARTITION BY dept ORDER BY
// salary DESC) AS rn`) and never reads rn returns every row it ranked: the
// ranking can change nothing, and what it was written for, the condition
// that keeps the first of each group (`WHERE rn = 1`), is missing. It is
// how "the employee with the highest salary in each department" comes back
// as every employee.
//
// The lint only speaks when no reading of the query could use the ranking:
// any column reference of its name anywhere, a star, a whole-row reference
// to the relation, a column alias list renaming the output, a USING list
// or a NATURAL join (which join on names unseen), or a CTE nobody reads
// keep it silent.

// rankingFunctions number or rank the rows of a window.
var rankingFunctions = setOf("row_number", "rank", "dense_rank", "ntile", "percent_rank", "cume_dist")

// unusedRanking warns about a ranking a CTE or FROM subquery of s returns
// that nothing reads.
func (a *analyzer) unusedRanking(s *pg.SelectStmt) {
	type ranking struct {
		name string   // the output column's name
		rel  []string // names the relation is referred to by (CTE name, aliases)
		loc  int32
		cte  string // the CTE's name; "" for a subquery
	}
	var found []ranking
	refs := map[string]bool{}         // last fields of column references
	wholeRow := map[string]bool{}     // single-field references (a column or a whole row)
	cteReads := map[string][]string{} // CTE name -> names its readers call it
	opaque := false                   // a star, USING or NATURAL: names joined or expanded unseen
	collect := func(sel *pg.SelectStmt, rel []string, cte string) {
		if sel == nil || sel.Op != pg.SetOperation_SETOP_NONE {
			return
		}
		for _, t := range sel.TargetList {
			rt := t.GetResTarget()
			fc := rt.GetVal().GetFuncCall()
			if fc == nil || fc.Over == nil {
				continue
			}
			if !rankingFunctions[pgparse.BuiltinName(fc)] {
				continue
			}
			name := rt.Name
			if name == "" {
				name = figureColname(rt.Val)
			}
			found = append(found, ranking{name: name, rel: rel, loc: fc.Location, cte: cte})
		}
	}
	pgparse.WalkNodes(s.ProtoReflect(), func(n *pg.Node) bool {
		switch {
		case n.GetCommonTableExpr() != nil:
			cte := n.GetCommonTableExpr()
			if len(cte.Aliascolnames) == 0 {
				collect(cte.Ctequery.GetSelectStmt(), []string{cte.Ctename}, cte.Ctename)
			}
		case n.GetRangeSubselect() != nil:
			rs := n.GetRangeSubselect()
			if rs.Alias != nil && len(rs.Alias.Colnames) == 0 {
				collect(rs.Subquery.GetSelectStmt(), []string{rs.Alias.Aliasname}, "")
			}
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			if rv.Schemaname == "" {
				cteReads[rv.Relname] = append(cteReads[rv.Relname], rv.Relname)
				if rv.Alias != nil {
					cteReads[rv.Relname] = append(cteReads[rv.Relname], rv.Alias.Aliasname)
				}
			}
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			opaque = opaque || j.IsNatural || len(j.UsingClause) > 0
		case n.GetColumnRef() != nil:
			f := n.GetColumnRef().Fields
			if len(f) == 0 {
				break
			}
			last := f[len(f)-1]
			if last.GetAStar() != nil {
				opaque = true
			}
			refs[last.GetString_().GetSval()] = true
			if len(f) == 1 {
				wholeRow[last.GetString_().GetSval()] = true
			}
		}
		return true
	})
	if opaque {
		return
	}
	for _, r := range found {
		rel := r.rel
		if r.cte != "" {
			if len(cteReads[r.cte]) == 0 {
				continue // a CTE nobody reads changes nothing either way
			}
			rel = cteReads[r.cte]
		}
		if refs[r.name] || anyOf(rel, wholeRow) {
			continue
		}
		a.warn(CodeUnusedRanking, int(r.loc),
			"%s ranks the rows of %s but nothing reads it, so every ranked row is returned; to keep the first of each group filter on it (WHERE %s = 1), or drop the ranking",
			r.name, r.rel[0], r.name)
	}
}

// anyOf reports whether one of names is in set.
func anyOf(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
