package nl2sql

import (
	"context"
	"errors"

	"github.com/nl2sqlgo/nl2sql/execute"
)

// RepairResult is the outcome of deterministic repair of one query.
type RepairResult struct {
	SQLIn    string   `json:"sql_in"`
	SQLOut   string   `json:"sql_out"`
	Changed  bool     `json:"changed"`
	Executes bool     `json:"executes"`
	Rules    []string `json:"rules,omitempty"`
	SQLState string   `json:"sqlstate,omitempty"` // of the last failure, when it still fails
	Message  string   `json:"message,omitempty"`
	// Candidates are what the failing name could stand for when more than
	// one fix was plausible: repair does not guess, it reports them
	// ("p.name", "countries.name", "'shipped'").
	Candidates []string `json:"candidates,omitempty"`
}

// Repair applies deterministic repair only (no model): dialect
// normalization, validation, and SQLSTATE-keyed fixes while EXPLAIN fails;
// then it runs the result with a one-row cap to tell whether it executes.
func (e *Engine) Repair(ctx context.Context, sql string, opts ...AskOption) (_ *RepairResult, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, sqlInput(sql))
	if err != nil {
		return nil, err
	}
	c := &candidate{Candidate: Candidate{SQL: sql, Origin: OriginInput, Votes: 1}}
	e.check(ctx, rq.scope, []*candidate{c})
	out := &RepairResult{SQLIn: sql, SQLOut: c.SQL, Rules: c.Repairs}
	if c.validated != nil {
		out.SQLOut = c.validated.SQL
	}
	out.Changed = out.SQLOut != sql && len(c.Repairs) > 0
	if c.Status != StatusOK {
		// The database, not the query, failed: say so instead of
		// reporting the query as broken.
		if err := lostOrEnded(ctx, "checking the query failed", c.err); err != nil {
			return nil, err
		}
		out.SQLState, out.Message, out.Candidates = c.Code, c.Error, c.alternatives
		return out, nil
	}
	_, err = rq.scope.query(ctx, out.SQLOut, 1)
	if err != nil {
		if err := lostOrEnded(ctx, "running the query failed", err); err != nil {
			return nil, err
		}
		out.Message = err.Error()
		var xe *execute.Error
		if errors.As(err, &xe) {
			out.SQLState, out.Message = xe.SQLState, xe.Message
		}
		return out, nil
	}
	out.Executes = true
	return out, nil
}
