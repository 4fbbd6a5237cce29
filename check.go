package nl2sql

import (
	"context"
	"errors"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// CheckResult is the verdict on caller-written SQL: what Run would do with
// it, without running it.
type CheckResult struct {
	// OK is true when the SQL passes the policy and the planner accepts it.
	OK bool
	// SQL is the text that passed validation (no row cap applied); empty
	// when rejected.
	SQL string
	// Issues are the validator's findings: violations (SeverityError), lint
	// warnings and rewrite notes, in text order.
	Issues []validate.Issue
	// SQLState, Message and Position (byte offset in SQL, -1 if none)
	// describe the planner's error when the query validated but does not
	// plan; SQLState is empty otherwise.
	SQLState string
	Message  string
	Position int
	// Cost is the planner's total cost estimate when the query plans.
	Cost float64
}

// Check validates sql with exactly the policy Run, Ask, Repair and Pick
// apply to the request (its scope's tables and schemas, the function, type
// and resource rules) and asks the planner about it (EXPLAIN, whose
// resolved functions are checked against the same policy). Nothing runs.
func (e *Engine) Check(ctx context.Context, sql string, opts ...AskOption) (_ *CheckResult, err error) {
	defer finish(ctx, &err)
	if err := e.usable(ctx); err != nil {
		return nil, err
	}
	rq, err := e.sqlRequest(ctx, sql, opts)
	if err != nil {
		return nil, err
	}
	st, path, scoped := rq.st, rq.path, rq.scoped
	r := st.validator(path, scoped).Explain(ctx, e.db, []string{sql}, validate.AsRole(rq.ac.role))[0]
	out := &CheckResult{Position: -1}
	if r.Validation != nil {
		out.SQL, out.Issues = r.Validation.SQL, r.Validation.Issues
	}
	var ve *validate.Error
	lost := lostOrEnded(ctx, "the query could not be checked", r.Err)
	switch {
	case r.Err == nil:
		out.OK, out.Cost = true, r.TotalCost
	case errors.As(r.Err, &ve):
		out.SQL, out.Issues = "", ve.Issues
	case lost != nil:
		// Not the query's fault: the database could not be asked.
		return out, lost
	case r.SQLState != "":
		out.SQLState, out.Message, out.Position = r.SQLState, r.Message, r.Location
	default:
		// Not the query's fault: the database could not be asked.
		return out, executionError("the query could not be checked", r.Err)
	}
	return out, nil
}
