package nl2sql

import "github.com/nl2sqlgo/nl2sql/internal/pgparse"

// grouped reports whether the top-level query of sql has a GROUP BY (a
// set operation's branches do not count: UNION of groups is not a group).
func grouped(sql string) bool {
	tree, err := pgparse.Parse(sql)
	if err != nil || len(tree.Stmts) != 1 {
		return false
	}
	sel := tree.Stmts[0].GetStmt().GetSelectStmt()
	return sel != nil && len(sel.GroupClause) > 0
}
