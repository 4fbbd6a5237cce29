package nl2sql

import (
	"context"
	"errors"
)

// request is what every Engine entry point starts from: the call's
// options, the prepared engine state and the request's scope. newRequest
// builds it, in one order for every call, so that no entry point checks
// less than another.
type request struct {
	ac      askConfig
	st      *state
	scope   *scope
	tracers tracers  // the engine's, then OnProgress's adapter
	view    *view    // what its prompts may show: set by the first context built
	reading *reading // the question read once (read)
}

// newRequest checks the engine and ctx, applies opts, checks the call's
// input with input (nil: none), before any other work, so an over-long
// input costs nothing but its check; then prepares the engine and
// resolves the request's scope.
func (e *Engine) newRequest(ctx context.Context, opts []AskOption, input func(askConfig) error) (*request, error) {
	if err := e.usable(ctx); err != nil {
		return nil, err
	}
	rq := &request{ac: e.askConfig(opts)}
	rq.tracers = e.tracers.with(progressTracer(rq.ac.progress))
	if input != nil {
		if err := input(rq.ac); err != nil {
			return nil, err
		}
	}
	var err error
	if rq.st, err = e.state(ctx); err != nil {
		return nil, err
	}
	if rq.scope, err = e.newScope(rq.st, rq.ac); err != nil {
		return nil, err
	}
	return rq, nil
}

// startRequest tells the engine's RequestTracers that a call of op
// starts: the request's context, and whether they are to be told of its
// end (false when there are none, or when the call is unusable).
func (e *Engine) startRequest(ctx context.Context, op Operation, question string, opts []AskOption) (context.Context, bool) {
	if e.usable(ctx) != nil || !has[RequestTracer](e.tracers) {
		return ctx, false
	}
	scope := e.askConfig(opts).scope
	if scope == "" {
		scope = e.cfg.scope
	}
	return e.tracers.requestStart(ctx, RequestInfo{Operation: op, Question: question, Scope: scope}), true
}

// sqlInput is the input check of a call on caller-written SQL.
func sqlInput(sql string) func(askConfig) error {
	return func(askConfig) error { return checkSQL("the SQL", sql) }
}

// errNotNew is the cause of a call on an Engine New did not make.
var errNotNew = errors.New("the Engine was not made by New")

// usable is the error of a call on an Engine New did not make (nil, or the
// zero value) or with a nil context, nil otherwise: the first thing every
// public method checks, so such a call fails at once instead of panicking
// deep inside.
func (e *Engine) usable(ctx context.Context) error {
	switch {
	case e == nil || e.db == nil:
		return &Error{Class: ClassConfig, Message: "no database: build the Engine with New", Err: errNotNew}
	case ctx == nil:
		return &Error{Class: ClassInput, Message: "nil context (pass context.Background() or context.TODO())"}
	}
	return nil
}

// checkRequest returns the input error of a request's text: question,
// evidence and history.
func (e *Engine) checkRequest(question string, ac askConfig) error {
	if err := e.checkQuestion(question, ac.evidence); err != nil {
		return err
	}
	return e.checkHistory(ac.history)
}

// read reads the request's question and evidence, once: every entry point
// that asks a question calls it before the stages and hands them what it
// returns (later stages, scoring, find it in rq.reading).
func (rq *request) read(question string) *reading {
	if !rq.reading.of(question, rq.ac.evidence) {
		rq.reading = read(question, rq.ac.evidence)
	}
	return rq.reading
}

func (e *Engine) askConfig(opts []AskOption) askConfig {
	ac := askConfig{maxRows: e.cfg.maxRows, abstain: e.cfg.abstain, role: e.cfg.role, minMatch: e.cfg.minMatch, timeout: e.cfg.timeout}
	for _, o := range opts {
		if o != nil { // a nil option changes nothing
			o.applyAsk(&ac)
		}
	}
	if ac.maxRows > e.cfg.maxRows {
		ac.askedRows = ac.maxRows
	}
	if ac.maxRows <= 0 || ac.maxRows > e.cfg.maxRows {
		ac.maxRows = e.cfg.maxRows
	}
	return ac
}
