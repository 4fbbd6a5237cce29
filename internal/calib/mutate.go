package calib

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// The made-up negatives a calibrator is fitted on beside real answers:
// queries that read the question's tables and agree with themselves but
// answer a nearby question. Both are made deterministically from a query's
// parse tree and deparsed; a query they cannot change (no WHERE, no column
// with a same-typed sibling, a set operation) gives ok false.

// Column is a table's column and its type, as the swap needs them.
type Column struct{ Name, Type string }

// DropCondition removes the last conjunct of the query's top-level WHERE
// (the whole WHERE when it is one condition): the answer to the question
// without one of its conditions.
func DropCondition(sql string) (string, bool) {
	tree, s, ok := topSelect(sql)
	if !ok || s.WhereClause == nil {
		return "", false
	}
	if b := s.WhereClause.GetBoolExpr(); b != nil && b.Boolop == pg_query.BoolExprType_AND_EXPR && len(b.Args) > 2 {
		b.Args = b.Args[:len(b.Args)-1]
	} else if b != nil && b.Boolop == pg_query.BoolExprType_AND_EXPR && len(b.Args) == 2 {
		s.WhereClause = b.Args[0]
	} else {
		s.WhereClause = nil
	}
	return deparse(tree)
}

// SwapColumn replaces the first plain column the query returns (or, when
// it returns none, the first one its WHERE compares) with the first other
// column of the same table and type, in columns' order: the answer about a
// neighbouring attribute. columns gives a table's columns by its name as
// the query writes it (lower case, schema-qualified when the query
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
	if a := s.WhereClause.GetAExpr(); a != nil {
		if r := a.Lexpr.GetColumnRef(); r != nil {
			refs = append(refs, r)
		}
	}
	for _, r := range refs {
		var names []string
		for _, f := range r.Fields {
			if f.GetString_() == nil {
				names = nil
				break
			}
			names = append(names, f.GetString_().Sval)
		}
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
			if c.Type == owner[i].Type && !strings.EqualFold(c.Name, col) {
				r.Fields[len(r.Fields)-1] = pg_query.MakeStrNode(c.Name)
				return deparse(tree)
			}
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
