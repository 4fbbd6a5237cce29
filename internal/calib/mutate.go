package calib

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// The made-up negatives a calibrator is fitted on beside real answers:
// queries that read the question's tables and agree with themselves but
// answer a nearby question, the mistakes models make: a condition dropped,
// a column swapped, the other end of a sort, another aggregate, DISTINCT
// dropped. Each is made deterministically from a query's parse tree and
// deparsed; a query one cannot change (no WHERE, no column with a
// same-typed sibling, no limited sort, a set operation) gives ok false.

// Column is a table's column and its type, as the swap needs them.
type Column struct{ Name, Type string }

// DropCondition removes the last condition of the query's top-level WHERE
// (the whole WHERE when it holds one): the answer to the question without
// one of its conditions. A condition is a conjunct, or the two conjuncts
// that bound one column from either side ("in 2024" written as
// order_date >= '2024-01-01' AND order_date < '2025-01-01'): a model that
// forgets the year drops both, and half of the range answers "since
// 2024", a mistake of its own.
func DropCondition(sql string) (string, bool) {
	tree, s, ok := topSelect(sql)
	if !ok || s.WhereClause == nil {
		return "", false
	}
	b := s.WhereClause.GetBoolExpr()
	if b == nil || b.Boolop != pg_query.BoolExprType_AND_EXPR {
		s.WhereClause = nil
		return deparse(tree)
	}
	last := b.Args[len(b.Args)-1]
	col, side := rangeBound(last)
	var kept []*pg_query.Node
	for _, a := range b.Args[:len(b.Args)-1] {
		if c, other := rangeBound(a); col == "" || c != col || other == side {
			kept = append(kept, a)
		}
	}
	switch len(kept) {
	case 0:
		s.WhereClause = nil
	case 1:
		s.WhereClause = kept[0]
	default:
		b.Args = kept
	}
	return deparse(tree)
}

// rangeBound reads a comparison of a column with <, <=, > or >= as the
// column (its name as written) and the side it bounds: +1 from below
// (order_date >= x, x < order_date), -1 from above. Anything else gives
// "".
func rangeBound(n *pg_query.Node) (column string, side int) {
	a := n.GetAExpr()
	if a == nil || a.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(a.Name) != 1 {
		return "", 0
	}
	switch a.Name[0].GetString_().GetSval() {
	case ">", ">=":
		side = 1
	case "<", "<=":
		side = -1
	default:
		return "", 0
	}
	name := func(e *pg_query.Node) string { return strings.Join(refNames(e.GetColumnRef()), ".") }
	if c := name(a.Lexpr); c != "" && name(a.Rexpr) == "" {
		return c, side
	}
	if c := name(a.Rexpr); c != "" && name(a.Lexpr) == "" {
		return c, -side
	}
	return "", 0
}

// SwapColumn replaces the first plain column the query returns (or, when
// it returns none, the first one its WHERE compares) with the first other
// column of the same table and type, in columns' order, that the select
// list does not read already: the answer about a neighbouring attribute.
// (A model that takes the wrong column shows another attribute, not one
// it shows already: "the code and the code" is a mistake no model makes
// and any check would see.) columns gives a table's columns by its name
// as the query writes it (lower case, schema-qualified when the query
// qualifies it).
func SwapColumn(sql string, columns func(table string) []Column) (string, bool) {
	tree, s, ok := topSelect(sql)
	if !ok {
		return "", false
	}
	tables := fromTables(s.FromClause)
	var refs []*pg_query.ColumnRef
	for _, t := range s.TargetList {
		if r := t.GetResTarget().GetVal().GetColumnRef(); r != nil {
			refs = append(refs, r)
		}
	}
	shown := selectedNames(s)
	if a := s.WhereClause.GetAExpr(); a != nil {
		if r := a.Lexpr.GetColumnRef(); r != nil {
			refs = append(refs, r)
		}
	}
	for _, r := range refs {
		names := refNames(r)
		if len(names) == 0 || len(names) > 2 {
			continue
		}
		col := names[len(names)-1]
		var owner []Column
		for alias, table := range tables {
			if len(names) == 2 && alias != names[0] {
				continue
			}
			cols := columns(table)
			if i := indexColumn(cols, col); i >= 0 {
				if owner != nil {
					owner = nil // two tables hold it: ambiguous
					break
				}
				owner = cols
			}
		}
		i := indexColumn(owner, col)
		if i < 0 {
			continue
		}
		for _, c := range owner {
			if c.Type == owner[i].Type && !strings.EqualFold(c.Name, col) && !shown[strings.ToLower(c.Name)] {
				r.Fields[len(r.Fields)-1] = pg_query.MakeStrNode(c.Name)
				return deparse(tree)
			}
		}
	}
	return "", false
}

// FlipOrder reverses the direction of the first sort key of a query that
// keeps the first rows of its sort (ORDER BY ... LIMIT): the other end,
// "the lowest" for "the highest". A sort without a limit returns the same
// rows, so it gives ok false.
func FlipOrder(sql string) (string, bool) {
	tree, s, ok := topSelect(sql)
	if !ok || len(s.SortClause) == 0 || s.LimitCount == nil {
		return "", false
	}
	sb := s.SortClause[0].GetSortBy()
	switch {
	case sb == nil || sb.SortbyDir == pg_query.SortByDir_SORTBY_USING:
		return "", false
	case sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC:
		sb.SortbyDir = pg_query.SortByDir_SORTBY_ASC
	default:
		sb.SortbyDir = pg_query.SortByDir_SORTBY_DESC
	}
	return deparse(tree)
}

// counterparts are the aggregates ChangeAggregate trades: the other
// extreme, a mean for a sum.
var counterparts = map[string]string{"max": "min", "min": "max", "sum": "avg", "avg": "sum"}

// ChangeAggregate replaces the first of max, min, sum and avg the query
// returns (in its select list, inside another call or a cast too) by its
// counterpart: min for max, avg for sum and back.
func ChangeAggregate(sql string) (string, bool) {
	tree, s, ok := topSelect(sql)
	if !ok {
		return "", false
	}
	for _, t := range s.TargetList {
		if f := firstAggregate(t.GetResTarget().GetVal()); f != nil {
			name := f.Funcname[len(f.Funcname)-1].GetString_()
			name.Sval = counterparts[strings.ToLower(name.Sval)]
			return deparse(tree)
		}
	}
	return "", false
}

// firstAggregate finds, depth first, a call of an aggregate counterparts
// trades, written unqualified or pg_catalog-qualified.
func firstAggregate(n *pg_query.Node) *pg_query.FuncCall {
	switch {
	case n == nil:
		return nil
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		if _, ok := counterparts[strings.ToLower(pgparse.BuiltinName(f))]; ok && f.Over == nil {
			return f
		}
		for _, a := range f.Args {
			if g := firstAggregate(a); g != nil {
				return g
			}
		}
	case n.GetTypeCast() != nil:
		return firstAggregate(n.GetTypeCast().Arg)
	case n.GetAExpr() != nil:
		if g := firstAggregate(n.GetAExpr().Lexpr); g != nil {
			return g
		}
		return firstAggregate(n.GetAExpr().Rexpr)
	}
	return nil
}

// DropDistinct removes the query's DISTINCT (not DISTINCT ON), or else
// the DISTINCT of the first count(DISTINCT ...) it returns: the answer
// that repeats what the question asks to list, or count, once.
func DropDistinct(sql string) (string, bool) {
	tree, s, ok := topSelect(sql)
	if !ok {
		return "", false
	}
	if len(s.DistinctClause) == 1 && s.DistinctClause[0].GetNode() == nil {
		s.DistinctClause = nil
		return deparse(tree)
	}
	if len(s.DistinctClause) > 0 {
		return "", false // DISTINCT ON keeps one row per key: no plain repeat to make
	}
	for _, t := range s.TargetList {
		if f := t.GetResTarget().GetVal().GetFuncCall(); f != nil && f.AggDistinct {
			f.AggDistinct = false
			return deparse(tree)
		}
	}
	return "", false
}

func indexColumn(cols []Column, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// refNames are the names a column reference writes ("t", "total" for
// t.total); nil for a star or no reference.
func refNames(r *pg_query.ColumnRef) []string {
	var names []string
	for _, f := range r.GetFields() {
		if f.GetString_() == nil {
			return nil
		}
		names = append(names, f.GetString_().Sval)
	}
	return names
}

// selectedNames are the names (in lower case) of the columns s's select
// list reads, at any depth of its expressions.
func selectedNames(s *pg_query.SelectStmt) map[string]bool {
	out := map[string]bool{}
	for _, t := range s.TargetList {
		pgparse.Walk(t.ProtoReflect(), func(m protoreflect.Message) bool {
			if r, ok := m.Interface().(*pg_query.ColumnRef); ok && len(r.Fields) > 0 {
				if name := r.Fields[len(r.Fields)-1].GetString_(); name != nil {
					out[strings.ToLower(name.Sval)] = true
				}
			}
			return true
		})
	}
	return out
}

// fromTables maps each alias (or table name) of a FROM list to its table
// name, schema-qualified when the query qualifies it, through joins.
func fromTables(from []*pg_query.Node) map[string]string {
	out := map[string]string{}
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if rv := n.GetRangeVar(); rv != nil {
			name := rv.Relname
			if rv.Schemaname != "" {
				name = rv.Schemaname + "." + name
			}
			alias := rv.Relname
			if rv.Alias != nil {
				alias = rv.Alias.Aliasname
			}
			out[alias] = name
		}
		if j := n.GetJoinExpr(); j != nil {
			walk(j.Larg)
			walk(j.Rarg)
		}
	}
	for _, n := range from {
		walk(n)
	}
	return out
}

func topSelect(sql string) (*pg_query.ParseResult, *pg_query.SelectStmt, bool) {
	tree, err := pg_query.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return nil, nil, false
	}
	s := tree.Stmts[0].Stmt.GetSelectStmt()
	if s == nil || s.Op != pg_query.SetOperation_SETOP_NONE || s.ValuesLists != nil {
		return nil, nil, false
	}
	return tree, s, true
}

func deparse(tree *pg_query.ParseResult) (string, bool) {
	out, err := pg_query.Deparse(tree)
	return out, err == nil
}
