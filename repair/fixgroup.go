package repair

import (
	"errors"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// grouping answers 42803 ("must appear in the GROUP BY clause"). A column
// functionally dependent on the grouped columns — through a primary key or
// a NOT NULL unique key of its table, possibly reached through join
// equalities such as o.customer_id = c.id, or equated to a grouped column —
// is added to GROUP BY without changing the groups (RuleGroupBy). Any other
// column of the top-level SELECT is added only under a check on the data
// (RuleGroupByAdd with Fix.Verify): SQLite and MySQL return such a column's
// value per group, which is the same answer only when every group holds one
// value of it; otherwise adding it would split the groups and whether the
// model meant that or an aggregate cannot be told. Without
// GROUP BY, SQLite's bare columns beside one MIN or MAX become the row
// holding the extreme (RuleBareMinMax).
func (d *doc) grouping(f Failure) []edit {
	off := d.offset(f.Position)
	h := d.find(off, isColumnRef)
	if h == nil {
		return nil
	}
	sel, selIdx, _ := h.enclosingSelect()
	if sel == nil || h.insideAggregate(selIdx) {
		return nil
	}
	if len(sel.GroupClause) == 0 {
		if e, ok := d.bareMinMax(h); ok {
			return []edit{e}
		}
		return nil
	}
	sc := d.scopeAt(h.path)
	if sc == nil || sc.sel != sel {
		return nil
	}
	key := func(c *pg_query.ColumnRef) string {
		r, col := sc.resolve(c)
		if r == nil {
			return ""
		}
		return r.alias + "." + col
	}
	uf := unionFind{}
	grouped := map[string]bool{}
	for _, g := range sel.GroupClause {
		e := g
		if i, ok := pgparse.OutputPosition(g, len(sel.TargetList)); ok {
			e = sel.TargetList[i-1].GetResTarget().GetVal()
		} else if isNumberConst(g) {
			return nil // GROUP BY 0, 1.5: no output position
		}
		if c := e.GetColumnRef(); c != nil {
			if k := key(c); k != "" {
				grouped[k] = true
			} else if p := colParts(c); len(p) == 1 {
				for _, t := range sel.TargetList { // GROUP BY output alias
					if rt := t.GetResTarget(); rt.GetName() == p[0] {
						if c2 := rt.Val.GetColumnRef(); c2 != nil && key(c2) != "" {
							grouped[key(c2)] = true
						}
					}
				}
			}
		}
		if e.GetGroupingSet() != nil {
			return nil
		}
	}
	// Equalities from JOIN ... ON and WHERE conjuncts.
	var equalities func(n *pg_query.Node)
	equalities = func(n *pg_query.Node) {
		if n == nil {
			return
		}
		if b := n.GetBoolExpr(); b != nil && b.Boolop == pg_query.BoolExprType_AND_EXPR {
			for _, a := range b.Args {
				equalities(a)
			}
			return
		}
		if e := n.GetAExpr(); e != nil && e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && len(e.Name) == 1 && e.Name[0].GetString_().GetSval() == "=" {
			if l, r := e.Lexpr.GetColumnRef(), e.Rexpr.GetColumnRef(); l != nil && r != nil {
				if a, b := key(l), key(r); a != "" && b != "" {
					uf.union(a, b)
				}
			}
		}
	}
	equalities(sel.WhereClause)
	var joins func(n *pg_query.Node)
	joins = func(n *pg_query.Node) {
		if j := n.GetJoinExpr(); j != nil {
			if j.Jointype == pg_query.JoinType_JOIN_INNER {
				equalities(j.Quals)
			}
			joins(j.Larg)
			joins(j.Rarg)
		}
	}
	for _, fi := range sel.FromClause {
		joins(fi)
	}
	inClosure := func(k string) bool {
		for g := range grouped {
			if uf.find(g) == uf.find(k) {
				return true
			}
		}
		return false
	}
	dependent := func(c *pg_query.ColumnRef) bool {
		r, col := sc.resolve(c)
		if r == nil || r.table == nil {
			return false
		}
		if inClosure(r.alias + "." + col) {
			return true
		}
		all := func(cols []string, needNotNull bool) bool {
			if len(cols) == 0 {
				return false
			}
			for _, k := range cols {
				if !inClosure(r.alias+"."+k) || (needNotNull && !r.table.Column(k).NotNull) {
					return false
				}
			}
			return true
		}
		if all(r.table.PrimaryKey, false) {
			return true
		}
		for _, u := range r.table.Unique {
			if all(u, true) {
				return true
			}
		}
		return false
	}
	reported := h.node.GetColumnRef()
	if key(reported) == "" {
		return nil
	}
	safe := dependent(reported)
	if !safe && !d.isTop(sel) {
		return nil // no stand-alone query can check the groups
	}
	// Other plain output/ordering columns with the same problem, fixed in
	// the same round.
	adds := []int32{reported.Location}
	seen := map[string]bool{key(reported): true}
	var direct []*pg_query.ColumnRef
	for _, t := range sel.TargetList {
		if c := t.GetResTarget().GetVal().GetColumnRef(); c != nil {
			direct = append(direct, c)
		}
	}
	for _, s := range sel.SortClause {
		if c := s.GetSortBy().GetNode().GetColumnRef(); c != nil {
			direct = append(direct, c)
		}
	}
	for _, c := range direct {
		k := key(c)
		if k == "" || seen[k] || inClosure(k) || (safe && !dependent(c)) {
			continue
		}
		seen[k] = true
		adds = append(adds, c.Location)
	}
	rule, note := RuleGroupBy, "added functionally dependent column(s) to GROUP BY: "
	var verify func(d *doc) (string, error)
	if !safe {
		// Nothing in the schema says the columns follow the groups: the
		// data must. The fix holds only if Verify finds no group where an
		// added column takes two values (or a value and NULL).
		rule, note = RuleGroupByAdd, "added column(s) to GROUP BY, checked to hold one value per group: "
		verify = func(d *doc) (string, error) { return d.groupsCheck(adds) }
	}
	var added []string
	for k := range seen {
		added = append(added, k)
	}
	slices.Sort(added)
	return []edit{{rule: rule, note: note + strings.Join(added, ", "), verify: verify, fn: func(d *doc) error {
		h := d.find(off, isColumnRef)
		if h == nil {
			return errStale
		}
		sel, _, _ := h.enclosingSelect()
		for _, loc := range adds {
			x := d.find(loc, isColumnRef)
			if x == nil {
				return errStale
			}
			sel.GroupClause = append(sel.GroupClause, colRef(colParts(x.node.GetColumnRef())...))
		}
		return nil
	}}}
}

type unionFind map[string]string

func (u unionFind) find(k string) string {
	for {
		p, ok := u[k]
		if !ok || p == k {
			return k
		}
		k = p
	}
}

func (u unionFind) union(a, b string) {
	if ra, rb := u.find(a), u.find(b); ra != rb {
		u[ra] = rb
	}
}

// isTop reports whether sel is the statement's own SELECT (not a subquery,
// CTE or set-operation branch), which a check query can copy on its own.
func (d *doc) isTop(sel *pg_query.SelectStmt) bool {
	return len(d.tree.Stmts) == 1 && d.tree.Stmts[0].Stmt.GetSelectStmt() == sel && sel.Op == pg_query.SetOperation_SETOP_NONE
}

// groupsCheck builds the query that finds a group of the top-level SELECT
// in which one of the columns at locs takes more than one value (NULL
// counting as a value): SELECT 1 FROM ... WHERE ... GROUP BY ... HAVING
// count(DISTINCT c) > 1 OR count(c) NOT IN (0, count(*)) ... LIMIT 1.
func (d *doc) groupsCheck(locs []int32) (string, error) {
	top := d.tree.Stmts[0].Stmt.GetSelectStmt()
	if top == nil {
		return "", errStale
	}
	for _, g := range top.GroupClause {
		if isNumberConst(g) {
			return "", errors.New("repair: GROUP BY by position") // the target list is replaced
		}
		if c := g.GetColumnRef(); c != nil && len(c.Fields) == 1 {
			name := c.Fields[0].GetString_().GetSval()
			for _, t := range top.TargetList {
				if t.GetResTarget().GetName() == name {
					return "", errors.New("repair: GROUP BY by output name")
				}
			}
		}
	}
	count := func(arg *pg_query.Node, distinct bool) *pg_query.Node {
		fc := &pg_query.FuncCall{Funcname: names("count"), Location: -1, AggDistinct: distinct}
		if arg == nil {
			fc.AggStar = true
		} else {
			fc.Args = []*pg_query.Node{arg}
		}
		return &pg_query.Node{Node: &pg_query.Node_FuncCall{FuncCall: fc}}
	}
	op := func(name string, l, r *pg_query.Node) *pg_query.Node {
		return pg_query.MakeAExprNode(pg_query.A_Expr_Kind_AEXPR_OP, names(name), l, r, -1)
	}
	one := func() *pg_query.Node { return pg_query.MakeAConstIntNode(1, -1) }
	var conds []*pg_query.Node
	for _, loc := range locs {
		h := d.find(loc, isColumnRef)
		if h == nil {
			return "", errStale
		}
		parts := colParts(h.node.GetColumnRef())
		conds = append(conds,
			op(">", count(colRef(parts...), true), one()),
			pg_query.MakeBoolExprNode(pg_query.BoolExprType_AND_EXPR, []*pg_query.Node{
				op(">", count(colRef(parts...), false), pg_query.MakeAConstIntNode(0, -1)),
				op("<", count(colRef(parts...), false), count(nil, false)),
			}, -1))
	}
	having := conds[0]
	if len(conds) > 1 {
		having = pg_query.MakeBoolExprNode(pg_query.BoolExprType_OR_EXPR, conds, -1)
	}
	chk := &pg_query.SelectStmt{
		WithClause:   top.WithClause,
		TargetList:   []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(one(), -1)},
		FromClause:   top.FromClause,
		WhereClause:  top.WhereClause,
		GroupClause:  top.GroupClause,
		HavingClause: having,
		LimitCount:   one(),
		LimitOption:  pg_query.LimitOption_LIMIT_OPTION_COUNT,
	}
	tree := &pg_query.ParseResult{Version: d.tree.Version, Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: chk}}}}}
	return pg_query.Deparse(tree)
}
