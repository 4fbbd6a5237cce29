package validate

import (
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// definitionIssues judges the text of an object the query reaches whose
// body the query does not show: a view's query, a row-level security
// policy's expression, a domain's CHECK (as pg_get_viewdef and pg_get_expr
// print them). EXPLAIN prints no VALUES list, LIMIT, OFFSET or window frame
// offset and no domain check, and pg_depend records no call of a built-in,
// so a tenant's view or domain could call query_to_xml where neither the
// plan check nor the dependency rows see it. The text is walked with the
// plan's policy (functions, operators, types; relations are the view
// owner's business and the plan's), and a text that does not parse is
// refused.
func (v *Validator) definitionIssues(text, what string) []string {
	body := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	upper := strings.ToUpper(body)
	if !strings.HasPrefix(upper, "SELECT") && !strings.HasPrefix(upper, "WITH") && !strings.HasPrefix(upper, "VALUES") {
		body = "SELECT " + body
	}
	tree, err := pgparse.Parse(body)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt == nil || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return []string{what + " could not be checked; the query cannot run here"}
	}
	c := v.newChecker()
	c.planExpr(tree.Stmts[0].Stmt)
	var msgs []string
	for _, is := range c.issues {
		if is.Severity != SeverityError || planIgnored[is.Code] || is.Code == CodeTableNotAllowed {
			continue
		}
		msgs = append(msgs, fmt.Sprintf("%s runs what the policy refuses (%s %s); the query cannot run here", what, is.Code, is.Message))
	}
	return msgs
}
