package sqlrefs

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// FanOut reports whether the top-level query of sql sums or averages a
// column of one table over a join that repeats that table's rows: another
// table of its FROM is joined by columns that hold no key of it (a primary
// key or unique constraint), even counting the columns the query groups by
// or compares with a constant. `SELECT avg(s.grade) FROM students s JOIN
// friends f ON f.student_id = s.id` averages each student once per friend;
// `... WHERE s.id IN (SELECT student_id FROM friends)` does not.
//
// For a table that declares no key, repeats (when not nil) is asked
// whether the data holds two rows with the same values in cols (the
// columns the query joins, groups or fixes it by); without it, such a
// table is taken not to repeat rows.
//
// It answers false whenever it cannot tell: a table joined twice, a set
// operation, a name it cannot resolve.
func FanOut(sql string, cat *schema.Catalog, searchPath []string, repeats func(table *schema.Table, cols []string) bool) bool {
	tree, err := pgparse.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return false
	}
	s := tree.Stmts[0].GetStmt().GetSelectStmt()
	if s == nil || s.Op != pg_query.SetOperation_SETOP_NONE || len(s.FromClause) == 0 {
		return false
	}
	if len(searchPath) == 0 {
		searchPath = []string{"public"}
	}
	w := &walker{cat: cat, path: searchPath, tables: map[string]bool{}, columns: map[string]bool{}, joins: map[Edge]bool{}}
	sc := &scope{rels: map[string]rel{}, ctes: map[string]bool{}}
	if s.WithClause != nil {
		return false
	}
	for _, f := range s.FromClause {
		w.from(f, sc)
	}
	tables := map[string]*schema.Table{}
	for _, r := range sc.order {
		if r.table == nil {
			continue
		}
		q := r.table.QualifiedName()
		if tables[q] != nil {
			return false // a self-join: the columns cannot be told apart
		}
		tables[q] = r.table
	}
	if len(tables) < 2 {
		return false
	}
	// WHERE equalities between tables are joins too.
	conjuncts(s.WhereClause, func(n *pg_query.Node) {
		if e := n.GetAExpr(); e != nil {
			w.equality(e, sc)
		}
	})
	fixed := map[string][]string{} // table -> columns joined, grouped or set
	fix := func(col string) {
		if col != "" {
			t := tableOf(col)
			fixed[t] = append(fixed[t], col[len(t)+1:])
		}
	}
	for e := range w.joins {
		fix(e.From)
		fix(e.To)
	}
	// An anti-join (LEFT JOIN sales s ... WHERE s.car_id IS NULL) keeps
	// only the rows no row of the joined table matches, each once: a
	// table whose join column, or a column that is never NULL, the WHERE
	// requires to be NULL repeats nothing. fixed holds the join columns
	// only until the GROUP BY and constants below are added.
	anti := map[string]bool{}
	conjuncts(s.WhereClause, func(n *pg_query.Node) {
		nt := n.GetNullTest()
		if nt == nil || nt.Nulltesttype != pg_query.NullTestType_IS_NULL {
			return
		}
		c := nt.Arg.GetColumnRef()
		if c == nil {
			return
		}
		col := w.resolve(c, sc)
		if col == "" {
			return
		}
		t := tableOf(col)
		name := col[len(t)+1:]
		if slices.Contains(fixed[t], name) || neverNull(tables[t], name) {
			anti[t] = true
		}
	})
	for _, g := range s.GroupClause {
		if c := g.GetColumnRef(); c != nil {
			fix(w.resolve(c, sc))
		}
	}
	conjuncts(s.WhereClause, func(n *pg_query.Node) {
		if c := constantEquality(n); c != nil {
			fix(w.resolve(c, sc))
		}
	})
	summed := map[string]bool{} // tables whose columns are summed or averaged
	aggregated := len(s.GroupClause) > 0
	pgparse.WalkNodes(s.ProtoReflect(), func(n *pg_query.Node) bool {
		if n.GetSelectStmt() != nil {
			return false // a subquery aggregates its own rows
		}
		fc := n.GetFuncCall()
		if fc == nil || fc.Over != nil {
			return true
		}
		name := strings.ToLower(fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval())
		aggregated = aggregated || aggregates[name]
		if fc.AggDistinct || len(fc.Args) != 1 {
			return true
		}
		switch name {
		case "sum", "avg":
			// An aggregate of columns of several tables (avg(r.received_on
			// - o.expected_dt)) is one of the joined rows, each once: only
			// one of a single table's columns can count its rows twice.
			of := map[string]bool{}
			pgparse.WalkNodes(fc.Args[0].ProtoReflect(), func(a *pg_query.Node) bool {
				if c := a.GetColumnRef(); c != nil {
					if col := w.resolve(c, sc); col != "" {
						of[tableOf(col)] = true
					}
				}
				return true
			})
			if len(of) == 1 {
				for t := range of {
					summed[t] = true
				}
			}
		}
		return true
	})
	if !aggregated && len(s.DistinctClause) == 0 {
		// A plain list: the tables it shows columns of are repeated by a
		// table it shows nothing of. A limited list picks rows (the best
		// one by a column of that table): a repeat does not show.
		if s.LimitCount != nil {
			return false
		}
		for _, t := range s.TargetList {
			v := t.GetResTarget().GetVal()
			if c := v.GetColumnRef(); c != nil && c.Fields[len(c.Fields)-1].GetAStar() != nil {
				return false // * shows every table
			}
			pgparse.WalkNodes(v.ProtoReflect(), func(a *pg_query.Node) bool {
				if a.GetSelectStmt() != nil {
					return false
				}
				if c := a.GetColumnRef(); c != nil {
					if col := w.resolve(c, sc); col != "" {
						summed[tableOf(col)] = true
					}
				}
				return true
			})
		}
		for b, t := range tables {
			if !summed[b] && !anti[b] && len(summed) > 0 && repeated(t, fixed[b], repeats) {
				return true
			}
		}
		return false
	}
	for a := range summed {
		for b, t := range tables {
			if b != a && !anti[b] && repeated(t, fixed[b], repeats) {
				return true
			}
		}
	}
	return false
}

// aggregates are the aggregate functions a query without GROUP BY is
// recognised by.
var aggregates = map[string]bool{"count": true, "sum": true, "avg": true, "min": true, "max": true,
	"string_agg": true, "array_agg": true, "bool_and": true, "bool_or": true, "every": true,
	"stddev": true, "variance": true, "json_agg": true, "jsonb_agg": true}

// repeated reports whether t can hold two rows with the same values in
// fixed: no key of t among them (a declared one), or, for a table that
// declares none, the data says so.
func repeated(t *schema.Table, fixed []string, repeats func(*schema.Table, []string) bool) bool {
	if hasKey(t) {
		return !coversKey(t, fixed)
	}
	return repeats != nil && len(fixed) > 0 && repeats(t, dedupe(fixed))
}

// conjuncts calls fn on each operand of a top-level AND chain (or on n).
func conjuncts(n *pg_query.Node, fn func(*pg_query.Node)) {
	if n == nil {
		return
	}
	if b := n.GetBoolExpr(); b != nil && b.Boolop == pg_query.BoolExprType_AND_EXPR {
		for _, a := range b.Args {
			conjuncts(a, fn)
		}
		return
	}
	fn(n)
}

// constantEquality returns the column of `column = constant` (either way
// round, casts allowed), or nil.
func constantEquality(n *pg_query.Node) *pg_query.ColumnRef {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(e.Name) != 1 || e.Name[0].GetString_().GetSval() != "=" {
		return nil
	}
	constant := func(x *pg_query.Node) bool {
		if tc := x.GetTypeCast(); tc != nil {
			x = tc.Arg
		}
		return x.GetAConst() != nil
	}
	if c := e.Lexpr.GetColumnRef(); c != nil && constant(e.Rexpr) {
		return c
	}
	if c := e.Rexpr.GetColumnRef(); c != nil && constant(e.Lexpr) {
		return c
	}
	return nil
}

func dedupe(cols []string) []string {
	out := slices.Clone(cols)
	slices.Sort(out)
	return slices.Compact(out)
}

// neverNull reports whether column name of t holds no NULL (declared NOT
// NULL or part of the primary key): IS NULL on it is true only of a row a
// LEFT JOIN made up.
func neverNull(t *schema.Table, name string) bool {
	if t == nil {
		return false
	}
	c := t.Column(name)
	return slices.Contains(t.PrimaryKey, name) || c != nil && (c.NotNull || c.PrimaryKey)
}

func hasKey(t *schema.Table) bool { return len(t.PrimaryKey) > 0 || len(t.Unique) > 0 }

// coversKey reports whether cols hold every column of some key of t.
func coversKey(t *schema.Table, cols []string) bool {
	covers := func(key []string) bool {
		for _, k := range key {
			if !slices.Contains(cols, k) {
				return false
			}
		}
		return len(key) > 0
	}
	if covers(t.PrimaryKey) {
		return true
	}
	return slices.ContainsFunc(t.Unique, covers)
}
