package nl2sql

import (
	"context"
	"errors"
	"slices"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// The planner's statistics cover every row of a table, whatever its
// policies, and PostgreSQL uses them under row-level security for
// leakproof operators (text = is one): a plan's cost and row estimates
// for WHERE body = 'x' tell whether x is frequent in rows the reader
// cannot see (docs/redteam5.md, finding 7). So when a checked plan reads
// a relation with row-level security, its estimates are not given to the
// caller (Check's Cost, the figures of a plan budget refusal); the budget
// check itself still refuses, which stays a one-bit signal
// (docs/security.md).

// hiddenBudget replaces a plan budget refusal's message when the plan's
// figures are hidden.
const hiddenBudget = "the server's plan is estimated over the plan budget (its estimates are not shown: the plan reads a table " +
	"with row-level security, whose statistics cover other readers' rows); narrow the query: filter the rows (WHERE) before " +
	"joining or comparing them, join on keys that tell rows apart, or aggregate first"

// estimatesHidden reports whether the estimates of a plan that scans
// relations (validate.ExplainResult.Relations) must not reach the caller:
// it reads a table with row-level security. It fails closed: a plan whose
// relations are unknown (nil) hides them.
func (sc *scope) estimatesHidden(ctx context.Context, relations []validate.PlanRelation) bool {
	if relations == nil {
		return true
	}
	var schemas, names []string
	for _, r := range relations {
		schemas, names = append(schemas, r.Schema), append(names, r.Name)
	}
	return sc.rowSecured(ctx, schemas, names, false)
}

// tablesHideEstimates is estimatesHidden for the relations a validated
// query names (validate.Result.Tables, "schema.name"), when its plan is
// not at hand: a view there hides them too, whatever it reads.
func (sc *scope) tablesHideEstimates(ctx context.Context, tables []string) bool {
	cat := sc.catalog()
	var schemas, names []string
	for _, name := range tables {
		t := cat.Table(name)
		if t == nil {
			return true
		}
		schemas, names = append(schemas, t.Schema), append(names, t.Name)
	}
	return sc.rowSecured(ctx, schemas, names, true)
}

// rowSecured asks the server now (not the catalog loaded at start, which
// an ALTER TABLE may have outdated) whether a relation has row-level
// security, itself or a table it inherits from (a partition's parent);
// with views, a relation that is not a table, materialized view or
// partitioned table counts too. A relation the server does not find, or
// an error, counts.
func (sc *scope) rowSecured(ctx context.Context, schemas, names []string, views bool) bool {
	if len(names) == 0 {
		return false
	}
	rows, err := sc.e.db.Query(ctx, `WITH RECURSIVE given AS (
    SELECT c.oid, c.relkind FROM unnest($1::text[], $2::text[]) AS r(nspname, relname)
    LEFT JOIN pg_catalog.pg_namespace n ON n.nspname = r.nspname
    LEFT JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = r.relname
), up(oid) AS (
    SELECT oid FROM given WHERE oid IS NOT NULL
    UNION SELECT i.inhparent FROM pg_catalog.pg_inherits i JOIN up ON i.inhrelid = up.oid
)
SELECT (SELECT count(*) FROM given WHERE oid IS NULL OR ($3 AND relkind NOT IN ('r', 'p', 'm')))
     + (SELECT count(*) FROM up JOIN pg_catalog.pg_class c ON c.oid = up.oid WHERE c.relrowsecurity)`, schemas, names, views)
	if err != nil {
		return true
	}
	defer rows.Close()
	var n int
	if !rows.Next() || rows.Scan(&n) != nil {
		return true
	}
	rows.Close()
	return n > 0 || rows.Err() != nil
}

// budgetRefusal reports whether err is a refusal with a plan budget issue.
func budgetRefusal(err error) (*validate.Error, bool) {
	var ve *validate.Error
	if !errors.As(err, &ve) {
		return nil, false
	}
	return ve, slices.ContainsFunc(ve.Issues, func(is validate.Issue) bool { return is.Code == validate.CodeBudget })
}

// hideBudgetFigures returns issues with every plan budget refusal's
// message replaced by one without figures.
func hideBudgetFigures(issues []validate.Issue) []validate.Issue {
	out := slices.Clone(issues)
	for i := range out {
		if out[i].Code == validate.CodeBudget {
			out[i].Message = hiddenBudget
		}
	}
	return out
}
