package nl2sql

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/validate"
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
	defer coded(&err)
	ac := e.askConfig(opts)
	if err := checkSQL("the SQL", sql); err != nil {
		return nil, err
	}
	st, err := e.state(ctx)
	if err != nil {
		return nil, err
	}
	path, scoped, err := e.requestScope(st, ac.scope)
	if err != nil {
		return nil, err
	}
	c := &candidate{Candidate: Candidate{SQL: sql, Origin: "input", Votes: 1}}
	e.check(ctx, st, path, scoped, ac.role, []*candidate{c})
	out := &RepairResult{SQLIn: sql, SQLOut: c.SQL, Rules: c.Repairs}
	if c.validated != nil {
		out.SQLOut = c.validated.SQL
	}
	out.Changed = out.SQLOut != sql && len(c.Repairs) > 0
	if c.Status != "ok" {
		out.SQLState, out.Message, out.Candidates = c.Code, c.Error, c.alternatives
		return out, nil
	}
	_, err = e.executor(st, path, scoped).Query(ctx, out.SQLOut, e.queryOptions(path, 1, ac.role)...)
	if err != nil {
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

func (e *Engine) queryOptions(path []string, maxRows int, role string) []execute.QueryOption {
	o := []execute.QueryOption{execute.Scope(path...), execute.MaxRows(maxRows)}
	if role != "" {
		o = append(o, execute.AsRole(role))
	}
	return o
}

// PickResult is the outcome of scoring SQL written elsewhere.
type PickResult struct {
	// Chosen indexes the winning input candidate; -1 when none validated.
	Chosen int `json:"chosen"`
	// SQL is the chosen candidate with its fixes (dialect rewrites and
	// deterministic repairs) and nothing else: the row cap is applied when
	// it runs, not written into it.
	SQL string `json:"sql"`
	// Scores has one entry per input candidate; failed ones score null.
	Scores []*float64 `json:"scores"`
	// Candidates is the trace of each input candidate.
	Candidates []Candidate `json:"candidates"`
}

// Pick evaluates candidate queries for a question without a model: each is
// normalized, validated, EXPLAINed and deterministically repaired, the
// survivors are scored with the engine's Scorer against the question's
// schema context, and the best is returned (not run). It lets other systems
// reuse the scoring stage.
func (e *Engine) Pick(ctx context.Context, question string, sqls []string, opts ...AskOption) (_ *PickResult, err error) {
	defer coded(&err)
	ac := e.askConfig(opts)
	if err := e.checkText(question, ac.evidence); err != nil {
		return nil, err
	}
	for i, s := range sqls {
		if err := checkSQL(fmt.Sprintf("candidate %d", i), s); err != nil {
			return nil, err
		}
	}
	st, err := e.state(ctx)
	if err != nil {
		return nil, err
	}
	cx, err := e.context(ctx, st, question, ac)
	if err != nil {
		return nil, err
	}
	cands := make([]*candidate, len(sqls))
	for i, s := range sqls {
		cands[i] = &candidate{Candidate: Candidate{SQL: s, Origin: "input", Votes: 1}}
	}
	e.check(ctx, st, cx.SearchPath, cx.Scoped, ac.role, cands)
	res := &PickResult{Chosen: -1, Scores: make([]*float64, len(sqls))}
	var ok []*candidate
	var idx []int
	for i, c := range cands {
		if c.Status == "ok" {
			ok = append(ok, c)
			idx = append(idx, i)
		}
	}
	if len(ok) > 0 {
		var tables []string
		for _, t := range cx.Tables {
			tables = append(tables, t.Name)
		}
		scores, best := e.score(ctx, st, cx, ac, ok, tables)
		for j, i := range idx {
			s := scores[j]
			res.Scores[i] = &s
		}
		res.Chosen, res.SQL = idx[best], ok[best].validated.SQL
		ok[best].Chosen = true
	}
	for _, c := range cands {
		res.Candidates = append(res.Candidates, c.Candidate)
	}
	if res.Chosen < 0 {
		return res, classify(cands)
	}
	return res, nil
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
		ne := &Error{Class: ClassRejected, Message: "the query is not allowed", Err: err}
		var ve *validate.Error
		if errors.As(err, &ve) && len(ve.Violations()) > 0 {
			ne.Code = ve.Violations()[0].Code
		}
		return res, res.fail(ne)
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
