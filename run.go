package nl2sql

import (
	"context"
	"errors"
	"time"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Run executes caller-written SQL with the same guarantees as an answer:
// validated on the parse tree against the request's scope, run read-only
// with timeouts and the row cap. No model, no repair.
func (e *Engine) Run(ctx context.Context, sql string, opts ...AskOption) (_ *Result, err error) {
	defer coded(&err)
	res := &Result{Timings: Timings{}}
	rq, err := e.newRequest(ctx, opts, sqlInput(sql))
	if err != nil {
		return res, res.fail(ended(ctx, err))
	}
	st, sc := rq.st, rq.scope
	start := time.Now()
	vr, err := sc.validator().Validate(sql)
	if err != nil {
		return res, res.fail(rejection(st.cat, "the query is not allowed", err))
	}
	res.SQL, res.Tables = vr.SQL, vr.Tables
	er, err := sc.query(ctx, vr.SQL, rq.ac.maxRows)
	res.Timings["execute"] = time.Since(start)
	if ve := (*validate.Error)(nil); errors.As(err, &ve) {
		// The executor's own check of the server's plan (V015, V027)
		// refused it: a refusal like the validator's, not a failure. A
		// budget refusal names no estimate of a table under row-level
		// security (estimates.go).
		if ve, budget := budgetRefusal(err); budget && sc.tablesHideEstimates(ctx, vr.Tables) {
			err = &validate.Error{SQL: ve.SQL, Issues: hideBudgetFigures(ve.Issues)}
		}
		return res, res.fail(rejection(st.cat, "the query is not allowed", err))
	}
	if err != nil {
		return res, res.fail(ended(ctx, executionError("the query failed to run", err)))
	}
	res.setRows(er, nil, rq.ac.maxRows, rq.ac.askedRows)
	return res, nil
}
