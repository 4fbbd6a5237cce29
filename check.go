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
	// Cost is the planner's total cost estimate when the query plans and
	// EstimatesHidden is false.
	Cost float64
	// EstimatesHidden is true when the plan reads a table with row-level
	// security (or that could not be told): the planner's statistics cover
	// every reader's rows, so Cost is 0 and a plan budget refusal's issue
	// names no figure.
	EstimatesHidden bool
}

// Check validates sql with exactly the policy Run, Ask, Repair and Pick
// apply to the request (its scope's tables and schemas, the function, type
// and resource rules) and asks the planner about it (EXPLAIN, whose
// resolved functions are checked against the same policy). Nothing runs.
func (e *Engine) Check(ctx context.Context, sql string, opts ...AskOption) (_ *CheckResult, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, sqlInput(sql))
	if err != nil {
		return nil, err
	}
	r := rq.scope.explain(ctx, []string{sql})[0]
	out := &CheckResult{Position: -1}
	if r.Validation != nil {
		out.SQL, out.Issues = r.Validation.SQL, r.Validation.Issues
	}
	hidden := r.Plan != nil && rq.scope.estimatesHidden(ctx, r.Relations)
	var ve *validate.Error
	lost := lostOrEnded(ctx, "the query could not be checked", r.Err)
	switch {
	case r.Err == nil:
		out.OK, out.Cost, out.EstimatesHidden = true, r.TotalCost, hidden
		if hidden {
			out.Cost = 0
		}
	case errors.As(r.Err, &ve):
		out.SQL, out.Issues, out.EstimatesHidden = "", ve.Issues, hidden
		if hidden {
			out.Issues = hideBudgetFigures(ve.Issues)
		}
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
