// Package sqlrefs extracts the tables, columns and join edges a query uses,
// from its libpg_query parse tree, resolved against a catalog. It measures
// retrieval and linking (what a gold query needs) and exam table recall.
package sqlrefs

import (
	"fmt"
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Edge is an equality between columns of two different tables
// ("schema.table.column"), from a JOIN condition or a WHERE clause.
type Edge struct {
	From, To string
}

// Refs is what a query references.
type Refs struct {
	Tables  []string // qualified, sorted
	Columns []string // "schema.table.column", sorted
	Joins   []Edge   // sorted, From < To
	// Unresolved are the column references that name no column of a
	// catalog table they could refer to, in text order. Some are no
	// mistake (an output column named in ORDER BY, a column of a subquery
	// or CTE); a query the server refused with 42703 has its missing column
	// among them, at the server's position.
	Unresolved []Unresolved
}

// Unresolved is a column reference that names no column of the catalog
// tables it was looked up in.
type Unresolved struct {
	Location int    // byte offset of the reference in the query text
	Column   string // as written: "col" or "alias.col"
	// Tables are the qualified tables the reference was looked up in: for
	// "a.col", the table a names (none when a names no table of the
	// catalog); for a bare "col", every catalog table of the FROM items in
	// scope, innermost first.
	Tables []string
}

type rel struct {
	table *schema.Table // nil for CTEs, subqueries, functions
}

type scope struct {
	parent *scope
	rels   map[string]rel // alias or name -> relation
	order  []rel
	ctes   map[string]bool
}

func (s *scope) cte(name string) bool {
	for ; s != nil; s = s.parent {
		if s.ctes[name] {
			return true
		}
	}
	return false
}

type walker struct {
	cat     *schema.Catalog
	path    []string
	tables  map[string]bool
	columns map[string]bool
	joins   map[Edge]bool
	missed  []Unresolved
}

// Extract parses sql (one or more statements) and resolves its references
// against cat, looking up unqualified tables along searchPath.
func Extract(sql string, cat *schema.Catalog, searchPath []string) (*Refs, error) {
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(searchPath) == 0 {
		searchPath = []string{"public"}
	}
	w := &walker{cat: cat, path: searchPath, tables: map[string]bool{}, columns: map[string]bool{}, joins: map[Edge]bool{}}
	for _, st := range tree.Stmts {
		w.node(st.Stmt, nil)
	}
	r := &Refs{Tables: keys(w.tables), Columns: keys(w.columns), Unresolved: w.missed}
	sort.SliceStable(r.Unresolved, func(i, j int) bool { return r.Unresolved[i].Location < r.Unresolved[j].Location })
	for e := range w.joins {
		r.Joins = append(r.Joins, e)
	}
	sort.Slice(r.Joins, func(i, j int) bool {
		if r.Joins[i].From != r.Joins[j].From {
			return r.Joins[i].From < r.Joins[j].From
		}
		return r.Joins[i].To < r.Joins[j].To
	})
	return r, nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (w *walker) node(n *pg_query.Node, sc *scope) {
	if n == nil {
		return
	}
	switch v := n.Node.(type) {
	case *pg_query.Node_SelectStmt:
		w.selectStmt(v.SelectStmt, sc)
	case *pg_query.Node_ColumnRef:
		w.columnRef(v.ColumnRef, sc)
	case *pg_query.Node_AExpr:
		w.equality(v.AExpr, sc)
		w.generic(n.ProtoReflect(), sc)
	default:
		w.generic(n.ProtoReflect(), sc)
	}
}

// generic visits every Node reachable from m without crossing into another
// Node's own handling.
func (w *walker) generic(m protoreflect.Message, sc *scope) {
	pgparse.RangeFields(m, func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				w.message(l.Get(i).Message(), sc)
			}
		case fd.Message() != nil && !fd.IsMap():
			w.message(v.Message(), sc)
		}
		return true
	})
}

func (w *walker) message(m protoreflect.Message, sc *scope) {
	switch x := m.Interface().(type) {
	case *pg_query.Node:
		w.node(x, sc)
	case *pg_query.SelectStmt:
		w.selectStmt(x, sc)
	case *pg_query.ColumnRef:
		w.columnRef(x, sc)
	default:
		w.generic(m, sc)
	}
}

func (w *walker) selectStmt(s *pg_query.SelectStmt, parent *scope) {
	if s == nil {
		return
	}
	sc := &scope{parent: parent, rels: map[string]rel{}, ctes: map[string]bool{}}
	if wc := s.WithClause; wc != nil {
		// A CTE body sees the CTEs before it, and itself and all others
		// only under WITH RECURSIVE.
		for _, c := range wc.Ctes {
			if cte := c.GetCommonTableExpr(); cte != nil && wc.Recursive {
				sc.ctes[cte.Ctename] = true
			}
		}
		for _, c := range wc.Ctes {
			if cte := c.GetCommonTableExpr(); cte != nil {
				w.node(cte.Ctequery, sc)
				sc.ctes[cte.Ctename] = true
			}
		}
	}
	if s.Op != pg_query.SetOperation_SETOP_NONE && s.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		w.selectStmt(s.Larg, sc)
		w.selectStmt(s.Rarg, sc)
		for _, n := range s.SortClause {
			w.node(n, sc)
		}
		return
	}
	for _, f := range s.FromClause {
		w.from(f, sc)
	}
	for _, list := range [][]*pg_query.Node{s.TargetList, s.GroupClause, s.SortClause, s.DistinctClause, s.WindowClause, s.ValuesLists} {
		for _, n := range list {
			w.node(n, sc)
		}
	}
	for _, n := range []*pg_query.Node{s.WhereClause, s.HavingClause, s.LimitCount, s.LimitOffset} {
		w.node(n, sc)
	}
}

// from registers the relations of a FROM item in sc and visits join
// conditions and subqueries.
func (w *walker) from(n *pg_query.Node, sc *scope) {
	switch v := n.Node.(type) {
	case *pg_query.Node_RangeVar:
		w.rangeVar(v.RangeVar, sc)
	case *pg_query.Node_JoinExpr:
		j := v.JoinExpr
		w.from(j.Larg, sc)
		w.from(j.Rarg, sc)
		w.node(j.Quals, sc)
		if len(j.UsingClause) > 0 {
			w.using(j, sc)
		}
	case *pg_query.Node_RangeSubselect:
		rs := v.RangeSubselect
		w.node(rs.Subquery, sc) // LATERAL may see earlier items: sc is fine
		if rs.Alias != nil {
			sc.rels[rs.Alias.Aliasname] = rel{}
			sc.order = append(sc.order, rel{})
		}
	case *pg_query.Node_RangeFunction:
		w.generic(n.ProtoReflect(), sc)
		if a := v.RangeFunction.Alias; a != nil {
			sc.rels[a.Aliasname] = rel{}
		}
	default:
		w.generic(n.ProtoReflect(), sc)
	}
}

func (w *walker) rangeVar(rv *pg_query.RangeVar, sc *scope) {
	name := rv.Relname
	alias := name
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	var t *schema.Table
	if rv.Schemaname != "" {
		t = w.cat.Lookup(rv.Schemaname, name)
	} else if !sc.cte(name) {
		t = w.cat.Resolve(name, w.path)
	}
	if t != nil {
		w.tables[t.QualifiedName()] = true
	}
	r := rel{table: t}
	sc.rels[alias] = r
	sc.order = append(sc.order, r)
}

// using records JOIN ... USING (col) edges between the two sides.
func (w *walker) using(j *pg_query.JoinExpr, sc *scope) {
	left, right := w.sideTables(j.Larg, sc), w.sideTables(j.Rarg, sc)
	for _, u := range j.UsingClause {
		col := u.GetString_().GetSval()
		var l, r *schema.Table
		for _, t := range left {
			if t.Column(col) != nil {
				l = t
			}
		}
		for _, t := range right {
			if t.Column(col) != nil {
				r = t
			}
		}
		if l != nil && r != nil {
			a, b := l.QualifiedName()+"."+col, r.QualifiedName()+"."+col
			w.columns[a], w.columns[b] = true, true
			w.edge(a, b)
		}
	}
}

func (w *walker) sideTables(n *pg_query.Node, sc *scope) []*schema.Table {
	switch v := n.Node.(type) {
	case *pg_query.Node_RangeVar:
		alias := v.RangeVar.Relname
		if v.RangeVar.Alias != nil {
			alias = v.RangeVar.Alias.Aliasname
		}
		if r := sc.rels[alias]; r.table != nil {
			return []*schema.Table{r.table}
		}
	case *pg_query.Node_JoinExpr:
		return append(w.sideTables(v.JoinExpr.Larg, sc), w.sideTables(v.JoinExpr.Rarg, sc)...)
	}
	return nil
}

// resolve maps a column reference to "schema.table.column", or "" when it
// names a CTE/subquery column, an output alias or nothing known.
func (w *walker) resolve(c *pg_query.ColumnRef, sc *scope) string {
	var parts []string
	for _, f := range c.Fields {
		s := f.GetString_()
		if s == nil {
			return "" // a.* or *
		}
		parts = append(parts, s.Sval)
	}
	switch len(parts) {
	case 1:
		for s := sc; s != nil; s = s.parent {
			var found *schema.Table
			for _, r := range s.order {
				if r.table != nil && r.table.Column(parts[0]) != nil {
					found = r.table
					break
				}
			}
			if found != nil {
				return found.QualifiedName() + "." + parts[0]
			}
		}
	case 2, 3:
		q, col := parts[len(parts)-2], parts[len(parts)-1]
		for s := sc; s != nil; s = s.parent {
			if r, ok := s.rels[q]; ok {
				if r.table != nil && r.table.Column(col) != nil {
					return r.table.QualifiedName() + "." + col
				}
				return ""
			}
		}
	}
	return ""
}

func (w *walker) columnRef(c *pg_query.ColumnRef, sc *scope) {
	if col := w.resolve(c, sc); col != "" {
		w.columns[col] = true
	} else if u, ok := unresolved(c, sc); ok {
		w.missed = append(w.missed, u)
	}
}

// unresolved describes a column reference resolve could not map, with the
// tables it was looked up in; false for a star, or a qualifier naming a
// subquery, CTE or function (whose columns the catalog does not know).
func unresolved(c *pg_query.ColumnRef, sc *scope) (Unresolved, bool) {
	var parts []string
	for _, f := range c.Fields {
		s := f.GetString_()
		if s == nil {
			return Unresolved{}, false
		}
		parts = append(parts, s.Sval)
	}
	u := Unresolved{Location: int(c.Location), Column: strings.Join(parts, ".")}
	switch len(parts) {
	case 1:
		seen := map[string]bool{}
		for s := sc; s != nil; s = s.parent {
			for _, r := range s.order {
				if r.table != nil && !seen[r.table.QualifiedName()] {
					seen[r.table.QualifiedName()] = true
					u.Tables = append(u.Tables, r.table.QualifiedName())
				}
			}
		}
	case 2, 3:
		for s := sc; s != nil; s = s.parent {
			if r, ok := s.rels[parts[len(parts)-2]]; ok {
				if r.table == nil {
					return Unresolved{}, false
				}
				u.Tables = []string{r.table.QualifiedName()}
				break
			}
		}
	default:
		return Unresolved{}, false
	}
	return u, true
}

// equality records a = b between columns of different tables as a join edge.
func (w *walker) equality(e *pg_query.A_Expr, sc *scope) {
	if e.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
		return
	}
	l, r := e.Lexpr.GetColumnRef(), e.Rexpr.GetColumnRef()
	if l == nil || r == nil {
		return
	}
	a, b := w.resolve(l, sc), w.resolve(r, sc)
	if a == "" || b == "" || tableOf(a) == tableOf(b) {
		return
	}
	w.edge(a, b)
}

func (w *walker) edge(a, b string) {
	if a > b {
		a, b = b, a
	}
	w.joins[Edge{From: a, To: b}] = true
}

func tableOf(col string) string { return col[:strings.LastIndex(col, ".")] }

// String renders an edge as "a = b".
func (e Edge) String() string { return fmt.Sprintf("%s = %s", e.From, e.To) }
