package nl2sql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/repair"
)

// Ask answers a question: see the package documentation for the pipeline.
// On failure it returns the partial Result (trace, candidates) and an
// *Error whose Class says which stage lost.
func (e *Engine) Ask(ctx context.Context, question string, opts ...AskOption) (*Result, error) {
	ctx, traced := e.startRequest(ctx, OperationAsk, question, opts)
	res, err := e.ask(ctx, question, opts)
	if traced {
		e.tracers.requestEnd(ctx, res, err)
	}
	return res, err
}

// ask is Ask, its request not yet told to the RequestTracers.
func (e *Engine) ask(ctx context.Context, question string, opts []AskOption) (_ *Result, err error) {
	defer coded(&err)
	start := time.Now()
	res := &Result{Question: question, Timings: Timings{}}
	fail := func(err error) (*Result, error) {
		res.Timings["total"] = time.Since(start)
		// ctx is the request's, with its budget once set.
		return res, res.fail(ended(ctx, err))
	}
	rq, err := e.newRequest(ctx, opts, func(ac askConfig) error {
		if err := e.checkRequest(question, ac); err != nil {
			res.Question = "" // not echoed: it may be megabytes
			return err
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	ac := rq.ac
	if ac.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, ac.timeout, &budgetError{ac.timeout})
		defer cancel()
	}
	if e.cfg.modelTimeout > 0 {
		ctx = llm.WithCallTimeout(ctx, e.cfg.modelTimeout)
	}
	if handled, err := e.answerVerified(ctx, rq, res); handled {
		if err != nil {
			return fail(err)
		}
		res.Timings["total"] = time.Since(start)
		return res, nil
	}
	c, err := e.context(ctx, rq, rq.read(question))
	if err != nil {
		return fail(err)
	}
	for _, k := range []Stage{StageRetrieve, StageLink, StagePlan, StagePrompt} {
		res.Timings[string(k)] = c.Timings[string(k)]
	}
	for _, t := range c.Tables {
		res.Context = append(res.Context, t.Name)
	}
	if e.gen == nil {
		return fail(&Error{Class: ClassConfig, Message: "no model to write SQL", Err: errNoLLM})
	}
	if c.Match.Below(ac.minMatch) {
		return fail(&Error{Class: ClassRetrievalMiss, Message: fmt.Sprintf("the question does not match the schema (match %s, %.0f%% of its words known); not asking the model", c.Match, 100*c.Known)})
	}

	sp := rq.tracers.begin(ctx, StageGenerate)
	k := e.gen.K(c.Difficulty)
	rq.tracers.progress(ctx, Progress{Stage: StageGenerate, Total: k})
	out, err := e.gen.Generate(sp.ctx, c.Prompt, k)
	rq.tracers.progress(ctx, Progress{Stage: StageGenerate, Done: k, Total: k, Took: time.Since(sp.start)})
	sp.end(res.Timings, err)
	if out != nil {
		res.Attempts = len(out.Samples)
	}
	if err != nil {
		var errs []error
		for _, s := range out.Samples {
			errs = append(errs, s.Err)
		}
		if te := e.timeoutError(ctx, errors.Join(errs...)); te != nil {
			return fail(te)
		}
		class := ClassNoAnswer
		for _, s := range out.Samples {
			if s.Err != nil && !errors.Is(s.Err, generate.ErrNoSQL) {
				class = ClassLLM
			}
		}
		return fail(&Error{Class: class, Message: "the model proposed no query", Err: err})
	}
	var cands []*candidate
	for _, oc := range out.Candidates {
		cands = append(cands, &candidate{Candidate: Candidate{SQL: oc.SQL, Origin: OriginSample, Votes: oc.Votes}})
	}
	sp = rq.tracers.begin(ctx, StageValidate)
	e.check(sp.ctx, rq.scope, cands)
	sp.end(res.Timings, nil)

	// Backward recall, once: the candidates failed on tables of the scope
	// the context lacked; show them and sample again.
	if !anyOK(cands) {
		if recalled := rq.scope.recallTables(c, cands); len(recalled) > 0 {
			sp = rq.tracers.begin(ctx, StageBackward)
			nc, more, berr := e.backward(sp.ctx, rq, c, recalled, res)
			c = nc
			res.Context = append(res.Context, recalled...)
			cands = append(cands, more...)
			sp.end(res.Timings, berr)
		}
	}

	// LLM repair turns, only when nothing deterministic worked.
	var lastWait *Error // the last repair turn cut short by a time bound
	var lastErr error   // the last repair turn's failure
	sp = rq.tracers.begin(ctx, StageRepair)
	for i := 0; i < e.cfg.attempts && !anyOK(cands); i++ {
		if ctx.Err() != nil {
			break // ended outside a model wait: reported below as such
		}
		worst := repairable(cands)
		if worst == nil {
			break
		}
		hint := rq.view.repairer.Prompt(worst.failedSQL, repair.Failure{SQLState: worst.sqlstate, Message: worst.message, Position: worst.position})
		hints := []string{hint}
		if len(worst.alternatives) > 0 {
			hints = append(hints, "It may stand for one of: "+strings.Join(worst.alternatives, ", ")+"; pick the one the question means.")
		}
		rq.tracers.progress(ctx, Progress{Stage: StageRepair, Total: 1})
		rt := time.Now()
		sql, err := e.gen.Repair(sp.ctx, c.Prompt, generate.RepairDelta{SQL: worst.failedSQL, SQLState: worst.sqlstate, Message: worst.message, Hints: hints})
		rq.tracers.progress(ctx, Progress{Stage: StageRepair, Done: 1, Total: 1, Took: time.Since(rt)})
		res.Attempts++
		lastErr = err
		if err != nil {
			if te := e.timeoutError(ctx, err); te != nil {
				lastWait = te
			}
			e.cfg.logger.DebugContext(ctx, "nl2sql: repair turn failed", "err", err)
			continue
		}
		nc := &candidate{Candidate: Candidate{SQL: sql, Origin: OriginRepairPrompt, Votes: 1}}
		cands = append(cands, nc)
		e.check(sp.ctx, rq.scope, []*candidate{nc})
	}
	sp.end(res.Timings, lastErr)

	var ok []*candidate
	for _, cd := range cands {
		if cd.Status == StatusOK {
			ok = append(ok, cd)
		}
	}
	defer func() {
		for _, cd := range cands {
			res.Candidates = append(res.Candidates, cd.Candidate)
		}
	}()
	if len(ok) == 0 {
		if lastWait != nil {
			return fail(lastWait)
		}
		if ctx.Err() != nil {
			// Cut short while candidates were checked, not while the
			// model was asked (that is lastWait): fail reports it as
			// canceled or timeout.
			return fail(ctx.Err())
		}
		return fail(classify(cands))
	}

	sp = rq.tracers.begin(ctx, StageScore)
	sc := e.score(sp.ctx, rq, c, ok, res.Context)
	sp.end(res.Timings, nil)
	chosen := ok[sc.best]
	chosen.Chosen = true
	res.SQL = chosen.validated.SQL
	res.Tables = chosen.validated.Tables
	res.Confidence, res.Assessment = e.assess(sc, ok, ac)
	if res.Verdict == VerdictAbstained {
		res.describe(sc.described[sc.best])
		return fail(&Error{Class: ClassNoAnswer, Code: codeLowConfidence, named: true,
			Message: fmt.Sprintf("confidence %.2f is below the minimum %.2f; not running the query", res.Confidence, ac.abstain), Err: ErrLowConfidence})
	}

	sp = rq.tracers.begin(ctx, StageExecute)
	er, err := sc.reusedRun(ac.maxRows), error(nil)
	if er == nil {
		er, err = rq.scope.query(sp.ctx, res.SQL, ac.maxRows)
	}
	sp.end(res.Timings, err)
	if err != nil {
		return fail(executionError("the chosen query failed to run", err))
	}
	res.setRows(er, sc.described[sc.best], ac.maxRows, ac.askedRows)
	res.Timings["total"] = time.Since(start)
	return res, nil
}

// timeoutError is the Ask error for a model call err cut short by a time
// bound: the request's budget, the caller's context or the per-call model
// timeout; nil when err is not about time. ctx is the request's context.
func (e *Engine) timeoutError(ctx context.Context, err error) *Error {
	var be *budgetError
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &be):
		return &Error{Class: ClassLLM, Message: fmt.Sprintf("the question's %s budget ran out while waiting for the model", be.d), Err: errors.Join(cause, err)}
	case ctx.Err() != nil:
		return &Error{Class: ClassLLM, Message: "the request ended while waiting for the model", Err: errors.Join(cause, err)}
	case e.cfg.modelTimeout > 0 && errors.Is(err, context.DeadlineExceeded):
		return &Error{Class: ClassLLM, Message: fmt.Sprintf("the model did not answer within %s", e.cfg.modelTimeout), Err: err}
	}
	return nil
}
