package repair

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// rel is a FROM item visible in a SELECT: a catalog table, or a derived
// table/CTE whose output column names are known (cols) or not (opaque).
type rel struct {
	alias  string // the name columns are qualified with
	table  *schema.Table
	cols   []string
	opaque bool
	rv     *pg_query.RangeVar
	top    int // index of the top-level FROM item holding it
	// nullable is true on the NULL-extended side of an outer join: its
	// columns may be NULL where the other side's are not.
	nullable bool
}

func (r *rel) has(col string) bool {
	if r.table != nil {
		return r.table.Column(col) != nil
	}
	for _, c := range r.cols {
		if c == col {
			return true
		}
	}
	return false
}

// scope is the FROM of one SELECT plus the scopes of the SELECTs around it.
type scope struct {
	sel    *pg_query.SelectStmt
	rels   []*rel
	outer  *scope
	output []string // output column names of the target list
}

// scopeAt builds the scope of the nearest SELECT on path.
func (d *doc) scopeAt(path []step) *scope {
	var sc *scope
	for i := range path {
		s, ok := path[i].msg.Interface().(*pg_query.SelectStmt)
		if !ok || (s.Op != pg_query.SetOperation_SETOP_NONE && s.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED) {
			continue
		}
		sc = d.newScope(s, path[:i], sc)
	}
	return sc
}

// newScope resolves the FROM items of s; ctx is the path above s, used to
// find CTEs.
func (d *doc) newScope(s *pg_query.SelectStmt, ctx []step, outer *scope) *scope {
	sc := &scope{sel: s, outer: outer}
	for i, f := range s.FromClause {
		d.addFrom(sc, f, i, s, ctx, false)
	}
	for _, t := range s.TargetList {
		if rt := t.GetResTarget(); rt != nil {
			sc.output = append(sc.output, outputName(rt))
		}
	}
	return sc
}

func outputName(rt *pg_query.ResTarget) string {
	if rt.Name != "" {
		return rt.Name
	}
	if c := rt.Val.GetColumnRef(); c != nil {
		p := colParts(c)
		return p[len(p)-1]
	}
	if fc := rt.Val.GetFuncCall(); fc != nil {
		return funcName(fc)
	}
	return ""
}

func (d *doc) addFrom(sc *scope, n *pg_query.Node, top int, s *pg_query.SelectStmt, ctx []step, nullable bool) {
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		r := &rel{alias: rv.Relname, rv: rv, top: top, nullable: nullable}
		if rv.Alias != nil {
			r.alias = rv.Alias.Aliasname
		}
		if cte := findCTE(rv, s, ctx); cte != nil {
			r.cols, r.opaque = selectOutput(cte), false
			if len(cte.Aliascolnames) > 0 {
				r.cols = nil
				for _, c := range cte.Aliascolnames {
					r.cols = append(r.cols, c.GetString_().GetSval())
				}
			}
			if r.cols == nil {
				r.opaque = true
			}
		} else if rv.Schemaname != "" {
			r.table = d.r.cat.Lookup(rv.Schemaname, rv.Relname)
		} else {
			r.table = d.r.cat.Resolve(rv.Relname, d.r.cfg.searchPath)
		}
		if r.table == nil && r.cols == nil {
			r.opaque = true
		}
		sc.rels = append(sc.rels, r)
	case n.GetJoinExpr() != nil:
		j := n.GetJoinExpr()
		left, right := nullable, nullable
		switch j.Jointype {
		case pg_query.JoinType_JOIN_LEFT:
			right = true
		case pg_query.JoinType_JOIN_RIGHT:
			left = true
		case pg_query.JoinType_JOIN_FULL:
			left, right = true, true
		}
		d.addFrom(sc, j.Larg, top, s, ctx, left)
		d.addFrom(sc, j.Rarg, top, s, ctx, right)
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		r := &rel{top: top, opaque: true, nullable: nullable}
		if rs.Alias != nil {
			r.alias = rs.Alias.Aliasname
		}
		if sub := rs.Subquery.GetSelectStmt(); sub != nil {
			if cols := selectOutput(&pg_query.CommonTableExpr{Ctequery: rs.Subquery}); cols != nil {
				r.cols, r.opaque = cols, false
			}
		}
		if rs.Alias != nil && len(rs.Alias.Colnames) > 0 {
			r.cols, r.opaque = nil, false
			for _, c := range rs.Alias.Colnames {
				r.cols = append(r.cols, c.GetString_().GetSval())
			}
		}
		sc.rels = append(sc.rels, r)
	default: // functions, VALUES...: unknown columns
		r := &rel{top: top, opaque: true, nullable: nullable}
		if rf := n.GetRangeFunction(); rf != nil && rf.Alias != nil {
			r.alias = rf.Alias.Aliasname
		}
		sc.rels = append(sc.rels, r)
	}
}

// findCTE returns the CTE an unqualified range variable names, looking at
// s's WITH and the WITH clauses of the statements around it.
func findCTE(rv *pg_query.RangeVar, s *pg_query.SelectStmt, ctx []step) *pg_query.CommonTableExpr {
	if rv.Schemaname != "" {
		return nil
	}
	look := func(w *pg_query.WithClause) *pg_query.CommonTableExpr {
		if w == nil {
			return nil
		}
		for _, c := range w.Ctes {
			if cte := c.GetCommonTableExpr(); cte != nil && cte.Ctename == rv.Relname {
				return cte
			}
		}
		return nil
	}
	if c := look(s.WithClause); c != nil {
		return c
	}
	for i := len(ctx) - 1; i >= 0; i-- {
		if o, ok := ctx[i].msg.Interface().(*pg_query.SelectStmt); ok {
			if c := look(o.WithClause); c != nil {
				return c
			}
		}
	}
	return nil
}

// selectOutput returns the output column names of a CTE's query, or nil
// when one is not a plain name (e.g. *).
func selectOutput(cte *pg_query.CommonTableExpr) []string {
	s := cte.Ctequery.GetSelectStmt()
	for s != nil && s.Larg != nil {
		s = s.Larg
	}
	if s == nil {
		return nil
	}
	var out []string
	for _, t := range s.TargetList {
		rt := t.GetResTarget()
		if rt == nil {
			return nil
		}
		if c := rt.Val.GetColumnRef(); c != nil && rt.Name == "" {
			if c.Fields[len(c.Fields)-1].GetAStar() != nil {
				return nil
			}
		}
		name := outputName(rt)
		if name == "" {
			name = "?column?"
		}
		out = append(out, name)
	}
	return out
}

// lookup finds the relation a qualifier names, innermost scope first.
func (sc *scope) lookup(q string) (*rel, *scope) {
	for s := sc; s != nil; s = s.outer {
		for _, r := range s.rels {
			if r.alias == q {
				return r, s
			}
		}
	}
	return nil, nil
}

// owners returns the relations of the innermost scope level that has an
// unqualified column, and whether some relation's columns are unknown.
func (sc *scope) owners(col string) ([]*rel, bool) {
	opaque := false
	for s := sc; s != nil; s = s.outer {
		var out []*rel
		for _, r := range s.rels {
			if r.opaque {
				opaque = true
			}
			if r.has(col) {
				out = append(out, r)
			}
		}
		if len(out) > 0 {
			return out, opaque
		}
	}
	return nil, opaque
}

// tables returns the catalog tables of the innermost level, in FROM order.
func (sc *scope) tables() []*rel {
	var out []*rel
	for _, r := range sc.rels {
		if r.table != nil {
			out = append(out, r)
		}
	}
	return out
}

// resolve maps a column reference to its relation, or nil.
func (sc *scope) resolve(c *pg_query.ColumnRef) (*rel, string) {
	p := colParts(c)
	if len(p) == 0 || p[len(p)-1] == "" {
		return nil, ""
	}
	col := p[len(p)-1]
	if len(p) >= 2 {
		r, _ := sc.lookup(p[len(p)-2])
		if r != nil && r.has(col) {
			return r, col
		}
		return nil, col
	}
	rs, _ := sc.owners(col)
	if len(rs) == 1 {
		return rs[0], col
	}
	return nil, col
}

// usedAliases returns every alias and relation name in the statement, so a
// new alias does not clash.
func (d *doc) usedAliases() map[string]bool {
	used := map[string]bool{}
	walkNodes(d.tree.ProtoReflect(), func(n *pg_query.Node, _ []step) bool {
		if rv := n.GetRangeVar(); rv != nil {
			used[rv.Relname] = true
			if rv.Alias != nil {
				used[rv.Alias.Aliasname] = true
			}
		}
		if rs := n.GetRangeSubselect(); rs != nil && rs.Alias != nil {
			used[rs.Alias.Aliasname] = true
		}
		return true
	})
	return used
}

// levelAliases returns the aliases of sc's innermost level.
func (sc *scope) levelAliases() []string {
	var out []string
	for _, r := range sc.rels {
		out = append(out, r.alias)
	}
	return out
}
