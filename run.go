package nl2sql

import (
	"context"
	"time"

	"github.com/nl2sqlgo/nl2sql/execute"
)

func (e *Engine) queryOptions(path []string, maxRows int, role string) []execute.QueryOption {
	o := []execute.QueryOption{execute.Scope(path...), execute.MaxRows(maxRows)}
	if role != "" {
		o = append(o, execute.AsRole(role))
	}
	return o
}

// Run executes caller-written SQL with the same guarantees as an answer:
// validated on the parse tree against the request's scope, run read-only
// with timeouts and the row cap. No model, no repair.
func (e *Engine) Run(ctx context.Context, sql string, opts ...AskOption) (_ *Result, err error) {
	defer coded(&err)
	ac := e.askConfig(opts)
	res := &Result{Timings: Timings{}}
	if err := checkSQL("the SQL", sql); err != nil {
		return res, res.fail(err)
	}
	st, err := e.state(ctx)
	if err != nil {
		return res, res.fail(err)
	}
	path, scoped, err := e.requestScope(st, ac.scope)
	if err != nil {
		return res, res.fail(err)
	}
	start := time.Now()
	vr, err := st.validator(path, scoped).Validate(sql)
	if err != nil {
		return res, res.fail(st.rejection("the query is not allowed", err))
	}
	res.SQL, res.Tables = vr.SQL, vr.Tables
	er, err := e.executor(st, path, scoped).Query(ctx, vr.SQL, e.queryOptions(path, ac.maxRows, ac.role)...)
	res.Timings["execute"] = time.Since(start)
	if err != nil {
		return res, res.fail(executionError("the query failed to run", err))
	}
	res.setRows(er, ac)
	return res, nil
}
