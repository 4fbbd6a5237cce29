package nl2sql

import (
	"context"
	"errors"
	"time"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/validate"
)

func (e *Engine) queryOptions(path []string, maxRows int, role string) []execute.QueryOption {
	o := []execute.QueryOption{execute.Scope(path...), execute.MaxRows(maxRows)}
	if role != "" {
		o = append(o, execute.AsRole(role))
	}
	return o
}

// sqlRequest is what every call on caller-written SQL starts from: its
// options, the prepared engine state and the request's scope.
type sqlRequest struct {
	ac     askConfig
	st     *state
	path   []string
	scoped bool
}

// sqlRequest checks the SQL's size (before any other work), prepares the
// engine and resolves the request's scope.
func (e *Engine) sqlRequest(ctx context.Context, sql string, opts []AskOption) (*sqlRequest, error) {
	rq := &sqlRequest{ac: e.askConfig(opts)}
	if err := checkSQL("the SQL", sql); err != nil {
		return nil, err
	}
	var err error
	if rq.st, err = e.state(ctx); err != nil {
		return nil, err
	}
	if rq.path, rq.scoped, err = e.requestScope(rq.st, rq.ac.scope); err != nil {
		return nil, err
	}
	return rq, nil
}

// Run executes caller-written SQL with the same guarantees as an answer:
// validated on the parse tree against the request's scope, run read-only
// with timeouts and the row cap. No model, no repair.
func (e *Engine) Run(ctx context.Context, sql string, opts ...AskOption) (_ *Result, err error) {
	defer coded(&err)
	res := &Result{Timings: Timings{}}
	if err := e.usable(ctx); err != nil {
		return res, res.fail(err)
	}
	rq, err := e.sqlRequest(ctx, sql, opts)
	if err != nil {
		return res, res.fail(ended(ctx, err))
	}
	ac, st, path, scoped := rq.ac, rq.st, rq.path, rq.scoped
	start := time.Now()
	vr, err := st.validator(path, scoped).Validate(sql)
	if err != nil {
		return res, res.fail(st.rejection("the query is not allowed", err))
	}
	res.SQL, res.Tables = vr.SQL, vr.Tables
	er, err := e.executor(st, path, scoped).Query(ctx, vr.SQL, e.queryOptions(path, ac.maxRows, ac.role)...)
	res.Timings["execute"] = time.Since(start)
	if ve := (*validate.Error)(nil); errors.As(err, &ve) {
		// The executor's own check of the server's plan (V015, V027)
		// refused it: a refusal like the validator's, not a failure.
		return res, res.fail(st.rejection("the query is not allowed", err))
	}
	if err != nil {
		return res, res.fail(ended(ctx, executionError("the query failed to run", err)))
	}
	res.setRows(er, ac)
	return res, nil
}
