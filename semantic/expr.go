package semantic

import (
	"errors"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// MaxExprSize is the longest expression (dimension, measure, filter,
// metric) the model accepts.
const MaxExprSize = 8 << 10

// errNotExpr is returned by singleExpr for a text that is not exactly one
// SQL expression.
var errNotExpr = errors.New("not a single SQL expression (it would change the query it is put into)")

// singleExpr checks that expr is exactly one SQL expression and nothing
// else: an expression is pasted into the queries that use it, so a text
// that closes its parenthesis, adds a FROM, a UNION or a second statement,
// or comments out the rest of the line would change their meaning. The
// parse tree decides, not the spelling: "SELECT expr" must parse as one
// SELECT whose only clause is one target, and the text must hold no
// comment.
func singleExpr(expr string) error {
	if strings.TrimSpace(expr) == "" {
		return errors.New("empty expression")
	}
	if len(expr) > MaxExprSize {
		return errors.New("expression longer than 8 KiB")
	}
	toks, err := pg.Scan(expr)
	if err != nil {
		return err
	}
	for _, t := range toks.Tokens {
		if t.Token == pg.Token_SQL_COMMENT || t.Token == pg.Token_C_COMMENT {
			return errNotExpr
		}
	}
	tree, err := pg.Parse("SELECT " + expr)
	if err != nil {
		return err
	}
	if len(tree.Stmts) != 1 {
		return errNotExpr
	}
	s := tree.Stmts[0].Stmt.GetSelectStmt()
	if s == nil || len(s.TargetList) != 1 || s.Op != pg.SetOperation_SETOP_NONE ||
		len(s.FromClause) > 0 || s.WhereClause != nil || len(s.GroupClause) > 0 || s.HavingClause != nil ||
		len(s.WindowClause) > 0 || len(s.SortClause) > 0 || s.LimitCount != nil || s.LimitOffset != nil ||
		s.WithClause != nil || len(s.DistinctClause) > 0 || s.IntoClause != nil || len(s.LockingClause) > 0 ||
		len(s.ValuesLists) > 0 {
		return errNotExpr
	}
	if rt := s.TargetList[0].GetResTarget(); rt == nil || rt.Name != "" {
		return errNotExpr // an alias (AS x) is the query's business
	}
	return nil
}
