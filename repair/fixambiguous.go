package repair

import (
	"sort"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// ambiguousColumn answers 42702. A bare column that several relations in
// scope have is qualified (everywhere in its SELECT) only when the query makes their values equal: a
// join or WHERE equality on that column between them (ON d.dept_id =
// e.dept_id, USING). It is then qualified with a relation no outer join
// NULL-extends, the referenced side of a foreign key on it first, then in
// FROM order. Otherwise which one was meant is a guess (customers.id or
// orders.id? products.unit_price or order_lines.unit_price?), and Fix
// reports them all.
func (d *doc) ambiguousColumn(f Failure) []edit {
	off := d.offset(f.Position)
	h := d.find(off, isColumnRef)
	if h == nil {
		return nil
	}
	parts := colParts(h.node.GetColumnRef())
	if len(parts) != 1 || parts[0] == "" {
		return nil
	}
	col := parts[0]
	sc := d.scopeAt(h.path)
	if sc == nil {
		return nil
	}
	owners, _ := sc.owners(col)
	// The referenced side of a foreign key on this very column first (it
	// is never NULL-extended by the child), then FROM order.
	sort.SliceStable(owners, func(i, j int) bool {
		return references(owners[j], owners[i], col) && !references(owners[i], owners[j], col)
	})
	var ts []target
	var rels []*rel
	for _, r := range owners {
		if r.alias == "" {
			continue
		}
		label := r.alias + "." + col
		ts = append(ts, target{label: label, col: label, edit: edit{rule: RuleAmbiguous, note: col + " → " + label, fn: qualifyAll(off, r.alias, col)}})
		rels = append(rels, r)
	}
	if len(ts) < 2 {
		return nil
	}
	if len(rels) == len(owners) && equated(sc, owners, col) {
		for i, r := range rels {
			if !r.nullable {
				return []edit{ts[i].edit}
			}
		}
	}
	d.decline(RuleAmbiguous, col, true, ts)
	return nil
}

// references reports whether child's column col is a foreign key to
// parent's column of the same name.
func references(child, parent *rel, col string) bool {
	if child.table == nil || parent.table == nil {
		return false
	}
	for _, fk := range child.table.ForeignKeys {
		if fk.RefSchema == parent.table.Schema && fk.RefTable == parent.table.Name {
			for i, c := range fk.Columns {
				if c == col && fk.RefColumns[i] == col {
					return true
				}
			}
		}
	}
	return false
}

// equated reports whether the select of sc makes col equal across all of
// owners: equalities a.col = b.col in the top-level conjunctions of its
// join conditions and WHERE clause, and USING (col), link them into one
// group.
func equated(sc *scope, owners []*rel, col string) bool {
	group := map[*rel]*rel{}
	var find func(r *rel) *rel
	find = func(r *rel) *rel {
		if p, ok := group[r]; ok && p != r {
			root := find(p)
			group[r] = root
			return root
		}
		return r
	}
	isOwner := func(r *rel) bool {
		for _, o := range owners {
			if o == r {
				return true
			}
		}
		return false
	}
	union := func(a, b *rel) {
		if a != nil && b != nil && isOwner(a) && isOwner(b) {
			group[find(a)] = find(b)
		}
	}
	side := func(n *pg_query.Node) *rel {
		c := n.GetColumnRef()
		if c == nil {
			return nil
		}
		p := colParts(c)
		if len(p) != 2 || p[1] != col {
			return nil
		}
		r, s := sc.lookup(p[0])
		if s != sc {
			return nil
		}
		return r
	}
	var conjuncts func(n *pg_query.Node)
	conjuncts = func(n *pg_query.Node) {
		if n == nil {
			return
		}
		if b := n.GetBoolExpr(); b != nil && b.Boolop == pg_query.BoolExprType_AND_EXPR {
			for _, a := range b.Args {
				conjuncts(a)
			}
			return
		}
		if e := n.GetAExpr(); e != nil && e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && len(e.Name) == 1 &&
			e.Name[0].GetString_().GetSval() == "=" && e.Lexpr != nil && e.Rexpr != nil {
			union(side(e.Lexpr), side(e.Rexpr))
		}
	}
	// relsUnder returns the owners read by a FROM item.
	var relsUnder func(n *pg_query.Node) []*rel
	relsUnder = func(n *pg_query.Node) []*rel {
		if rv := n.GetRangeVar(); rv != nil {
			for _, r := range sc.rels {
				if r.rv == rv && isOwner(r) {
					return []*rel{r}
				}
			}
			return nil
		}
		if j := n.GetJoinExpr(); j != nil {
			return append(relsUnder(j.Larg), relsUnder(j.Rarg)...)
		}
		return nil
	}
	var joins func(n *pg_query.Node)
	joins = func(n *pg_query.Node) {
		j := n.GetJoinExpr()
		if j == nil {
			return
		}
		joins(j.Larg)
		joins(j.Rarg)
		conjuncts(j.Quals)
		for _, u := range j.UsingClause {
			if u.GetString_().GetSval() == col {
				for _, a := range relsUnder(j.Larg) {
					for _, b := range relsUnder(j.Rarg) {
						union(a, b)
					}
				}
			}
		}
	}
	for _, n := range sc.sel.FromClause {
		joins(n)
	}
	conjuncts(sc.sel.WhereClause)
	root := find(owners[0])
	for _, o := range owners[1:] {
		if find(o) != root {
			return false
		}
	}
	return true
}

// qualifyAll qualifies with alias the column reference at off and every
// other bare reference to col in its select (one choice for the whole
// query level), in a fresh tree.
func qualifyAll(off int32, alias, col string) func(*doc) error {
	return func(d *doc) error {
		h := d.find(off, isColumnRef)
		if h == nil {
			return errStale
		}
		sel, _, _ := h.enclosingSelect()
		sc := d.scopeAt(h.path)
		if sel == nil || sc == nil {
			return errStale
		}
		h.node.GetColumnRef().Fields = names(alias, col)
		qualifyBare(sel, sc.output, func(c string) string {
			if c == col {
				return alias
			}
			return ""
		})
		return nil
	}
}
