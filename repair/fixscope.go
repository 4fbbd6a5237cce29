package repair

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// RuleScopeFilter drops a filter on a column that does not exist whose
// value names the request's own scope (t.division = 'div_19' in a request
// scoped to schema div_19).
const RuleScopeFilter = "42703.scope_filter"

// undefinedColumnInScope is the 42703 handler: the column rules first;
// when none applies, a phantom filter that restates the scope is dropped.
func (d *doc) undefinedColumnInScope(f Failure) []edit {
	if out := d.undefinedColumn(f); len(out) > 0 {
		return out
	}
	if e, ok := d.scopeFilter(f); ok {
		return []edit{e}
	}
	return nil
}

// scopeSchema returns the schema a request is scoped to: the first schema
// of the search path, unless it is public (no scope: public is shared).
func (r *Repairer) scopeSchema() string {
	if s := r.cfg.searchPath[0]; s != "public" {
		return s
	}
	return ""
}

// scopeFilter drops WHERE conjunct col = 'S' (or col IN ('S')) when col does
// not exist, S is the scope schema's name (compared case-insensitively; no
// other spelling such as a bare number is taken: whether '19' or 19 names
// div_19 is a guess), and the column's table — every table of the SELECT
// when the column is unqualified — lives in that schema: every row read is
// the scope's already, so the filter keeps them all. A filter on a shared
// table, under OR, NOT or in a JOIN, or with another value is kept (no fix).
func (d *doc) scopeFilter(f Failure) (edit, bool) {
	schema := d.r.scopeSchema()
	if schema == "" {
		return edit{}, false
	}
	off := d.offset(f.Position)
	h := d.find(off, isColumnRef)
	if h == nil {
		return edit{}, false
	}
	sel, _, field := h.enclosingSelect()
	if sel == nil || field != "where_clause" {
		return edit{}, false
	}
	if _, i := scopeConjunct(sel, h.node, schema); i < 0 {
		return edit{}, false
	}
	sc := d.scopeAt(h.path)
	if sc == nil || sc.sel != sel || !inSchema(sc, h.node.GetColumnRef(), schema) {
		return edit{}, false
	}
	lit, _ := scopeConjunct(sel, h.node, schema)
	name := strings.Join(colParts(h.node.GetColumnRef()), ".")
	return edit{rule: RuleScopeFilter, note: "dropped " + name + " = '" + lit + "': schema " + schema + " is the request's scope",
		fn: func(d *doc) error {
			h, sel, err := d.inSelect(off, isColumnRef)
			if err != nil {
				return err
			}
			_, i := scopeConjunct(sel, h.node, schema)
			if i < 0 {
				return errStale
			}
			b := sel.WhereClause.GetBoolExpr()
			switch {
			case b == nil:
				sel.WhereClause = nil
			case len(b.Args) == 2:
				sel.WhereClause = b.Args[1-i]
			default:
				b.Args = append(b.Args[:i], b.Args[i+1:]...)
			}
			return nil
		}}, true
}

// scopeConjunct finds, among the top-level AND conjuncts of sel's WHERE, the
// comparison col = 'schema' (either side) or col IN ('schema') whose column
// is the node col; it returns the literal and the conjunct's index (-1 when
// there is none).
func scopeConjunct(sel *pg_query.SelectStmt, col *pg_query.Node, schema string) (string, int) {
	conj := []*pg_query.Node{sel.WhereClause}
	if b := sel.WhereClause.GetBoolExpr(); b != nil {
		if b.Boolop != pg_query.BoolExprType_AND_EXPR {
			return "", -1
		}
		conj = b.Args
	}
	for i, c := range conj {
		e := c.GetAExpr()
		if e == nil || len(e.Name) != 1 {
			continue
		}
		var other *pg_query.Node
		switch {
		case e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && e.Name[0].GetString_().GetSval() == "=" && e.Lexpr == col:
			other = e.Rexpr
		case e.Kind == pg_query.A_Expr_Kind_AEXPR_OP && e.Name[0].GetString_().GetSval() == "=" && e.Rexpr == col:
			other = e.Lexpr
		case e.Kind == pg_query.A_Expr_Kind_AEXPR_IN && e.Name[0].GetString_().GetSval() == "=" && e.Lexpr == col:
			if l := e.Rexpr.GetList(); l != nil && len(l.Items) == 1 {
				other = l.Items[0]
			}
		}
		if other == nil || other.GetAConst().GetSval() == nil {
			continue
		}
		if lit := other.GetAConst().GetSval().Sval; strings.EqualFold(lit, schema) {
			return lit, i
		}
	}
	return "", -1
}

// inSchema reports whether the tables the column may belong to all live in
// schema: the qualifier's table, or every relation of the SELECT.
func inSchema(sc *scope, c *pg_query.ColumnRef, schema string) bool {
	p := colParts(c)
	rels := sc.rels
	if len(p) >= 2 {
		rels = nil
		for _, r := range sc.rels {
			if r.alias == p[len(p)-2] {
				rels = append(rels, r)
			}
		}
	}
	if len(rels) == 0 {
		return false
	}
	for _, r := range rels {
		if r.table == nil || r.table.Schema != schema || r.has(p[len(p)-1]) {
			return false
		}
	}
	return true
}
