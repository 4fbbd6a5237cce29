package nl2sql

import (
	"context"
	"time"

	"github.com/nl2sqlgo/nl2sql/llm"
)

// Stage names a step of Ask. The stages of one Ask, in order: retrieve,
// link, plan, prompt, generate, validate, backward (only when backward
// recall ran; it repeats link, plan and prompt for the wider context),
// repair, score, execute. SchemaContext runs the first four.
type Stage string

// The stages, as Tracer, Progress and Result.Timings name them.
const (
	StageRetrieve Stage = "retrieve" // the schema tables for the question
	StageLink     Stage = "link"     // question phrases to columns and values
	StagePlan     Stage = "plan"     // join paths and the skeleton
	StagePrompt   Stage = "prompt"   // few-shot examples and the prompt
	StageGenerate Stage = "generate" // the model writes the candidates
	StageValidate Stage = "validate" // validation, EXPLAIN and deterministic repairs
	StageBackward Stage = "backward" // backward recall: tables added, sampled again
	StageRepair   Stage = "repair"   // repair turns of the model
	StageScore    Stage = "score"    // scoring and result voting
	StageExecute  Stage = "execute"  // the chosen query runs (or its run to compare results is reused)
)

// The stages of Prepare and Refresh, reported to Progress only.
const (
	StageIntrospect Stage = "introspect" // reading the catalog
	StageValues     Stage = "values"     // building the value index
	StageIndex      Stage = "index"      // embedding the schema documents
	StageReady      Stage = "ready"      // the engine is prepared
)

// Tracer observes the stages of Ask and SchemaContext, for metrics and
// tracing systems: Stage is called as each stage ends, from the calling
// goroutine, with its wall time and its error (nil when it did its work,
// even if the work found nothing to keep).
//
// It is the one way a request is observed, in the pgx style: a Tracer
// that also implements StageStarter is told when each stage starts, and
// can put a span in the stage's context; one that implements
// ProgressTracer is told of long work (Progress). WithProgress and
// OnProgress are adapters of it, and Result.Timings holds what it is told
// at each stage's end.
type Tracer interface {
	Stage(ctx context.Context, stage Stage, took time.Duration, err error)
}

// StageStarter is implemented by a Tracer that wants to wrap each stage:
// StageStart is called as a stage begins, and the context it returns is
// the stage's own (the stage's calls, such as the model requests of
// generate or the queries of validate and execute, run under it, and the
// Stage call that ends it receives it).
type StageStarter interface {
	StageStart(ctx context.Context, stage Stage) context.Context
}

// ProgressTracer is implemented by a Tracer that wants to hear of long
// work (see Progress): introspection and indexing, and each wait of Ask
// for the model. TraceProgress is called from the goroutine doing the
// work; with concurrent calls, from several at once.
type ProgressTracer interface {
	TraceProgress(ctx context.Context, p Progress)
}

// RequestTracer is implemented by a Tracer that wants to wrap each Ask
// and SchemaContext whole (a span per request): RequestStart is called as
// the call begins, before its input is checked, and the context it
// returns is the request's (every stage starts from it); RequestEnd is
// called as it returns, with that context, Ask's Result (partial on
// failure; nil for SchemaContext) and its error (an *Error with its Code,
// or nil).
type RequestTracer interface {
	RequestStart(ctx context.Context, r RequestInfo) context.Context
	RequestEnd(ctx context.Context, res *Result, err error)
}

// Operation names the entry point of a request, as a RequestTracer is told.
type Operation string

// The operations a RequestTracer wraps.
const (
	OperationAsk           Operation = "ask"            // Ask: RequestEnd gets its Result
	OperationSchemaContext Operation = "schema_context" // SchemaContext: RequestEnd gets a nil Result
)

// RequestInfo is what a RequestTracer is told as a request starts.
type RequestInfo struct {
	Operation Operation
	// Question is the caller's text, unchecked: it may be long and hold
	// what a tracer should not export (a customer's name), so a tracer
	// records it only by choice.
	Question string
	// Scope is the request's scope (Scope, else WithScope), "" for none.
	Scope string
}

// ModelTracer is implemented by a Tracer that wants to hear of each model
// call of Ask (each sample, backward recall's too, and each repair turn):
// TraceModel is called as the call returns, from the goroutine that made
// it (samples run concurrently), with the context the call ran under (its
// stage's).
type ModelTracer interface {
	TraceModel(ctx context.Context, c ModelCall)
}

// ModelCall is one model call as a ModelTracer hears of it.
type ModelCall struct {
	// Model is the model that answered, as the server reported it; ""
	// when it did not answer.
	Model        string
	Took         time.Duration // the call's wall time, retries included
	Usage        llm.Usage     // tokens, as the server counted them
	FinishReason string        // llm.FinishStop, llm.FinishLength or the provider's own
	Err          error         // the call's error (llm's sentinels), nil on success
}

// tracers tells every tracer of it, in order: the engine's (WithTracer,
// then WithProgress's adapter) and a request's own (OnProgress's).
type tracers []Tracer

// with returns ts and t after them; nil adds nothing.
func (ts tracers) with(t Tracer) tracers {
	if t == nil {
		return ts
	}
	return append(ts[:len(ts):len(ts)], t)
}

// start tells the StageStarters among ts that stage starts, each given
// the context the one before returned.
func (ts tracers) start(ctx context.Context, stage Stage) context.Context {
	for _, t := range ts {
		if ss, ok := t.(StageStarter); ok {
			ctx = ss.StageStart(ctx, stage)
		}
	}
	return ctx
}

// requestStart tells the RequestTracers among ts that a request starts,
// each given the context the one before returned.
func (ts tracers) requestStart(ctx context.Context, r RequestInfo) context.Context {
	for _, t := range ts {
		if rt, ok := t.(RequestTracer); ok {
			ctx = rt.RequestStart(ctx, r)
		}
	}
	return ctx
}

// requestEnd tells the RequestTracers among ts that a request ended, in
// the reverse order of requestStart (the last opened ends first).
func (ts tracers) requestEnd(ctx context.Context, res *Result, err error) {
	for i := len(ts) - 1; i >= 0; i-- {
		if rt, ok := ts[i].(RequestTracer); ok {
			rt.RequestEnd(ctx, res, err)
		}
	}
}

// has reports whether any tracer of ts is a T.
func has[T any](ts tracers) bool {
	for _, t := range ts {
		if _, ok := t.(T); ok {
			return true
		}
	}
	return false
}

// tracedModel is a model whose calls the ModelTracers among tracers hear
// of.
type tracedModel struct {
	llm.Model
	tracers tracers
}

// traceModel is m, told to the ModelTracers among ts; m itself when there
// are none.
func traceModel(m llm.Model, ts tracers) llm.Model {
	if m == nil || !has[ModelTracer](ts) {
		return m
	}
	return tracedModel{Model: m, tracers: ts}
}

// Complete implements llm.Model.
func (m tracedModel) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	start := time.Now()
	resp, err := m.Model.Complete(ctx, req)
	c := ModelCall{Took: time.Since(start), Err: err}
	if resp != nil { // on ErrTruncated and ErrRefused too
		c.Model, c.Usage, c.FinishReason = resp.Model, resp.Usage, resp.FinishReason
	}
	for _, t := range m.tracers {
		if mt, ok := t.(ModelTracer); ok {
			mt.TraceModel(ctx, c)
		}
	}
	return resp, err
}

// progress tells the ProgressTracers among ts of p.
func (ts tracers) progress(ctx context.Context, p Progress) {
	for _, t := range ts {
		if pt, ok := t.(ProgressTracer); ok {
			pt.TraceProgress(ctx, p)
		}
	}
}

// span is a stage in progress.
type span struct {
	tracers tracers
	ctx     context.Context // the stage's context
	stage   Stage
	start   time.Time
}

// begin starts a stage: the returned span's ctx is the one its work runs
// under.
func (ts tracers) begin(ctx context.Context, stage Stage) span {
	return span{tracers: ts, ctx: ts.start(ctx, stage), stage: stage, start: time.Now()}
}

// end records the stage's wall time in t and reports it with err.
func (s span) end(t Timings, err error) {
	d := time.Since(s.start)
	t[string(s.stage)] = d
	for _, tr := range s.tracers {
		tr.Stage(s.ctx, s.stage, d, err)
	}
}

// progressFunc is a callback of WithProgress or OnProgress as a Tracer:
// it hears of long work and of no stage.
type progressFunc func(Progress)

func (progressFunc) Stage(context.Context, Stage, time.Duration, error) {}

// TraceProgress implements ProgressTracer.
func (f progressFunc) TraceProgress(_ context.Context, p Progress) { f(p) }

// progressTracer is fn as a Tracer, nil when fn is.
func progressTracer(fn func(Progress)) Tracer {
	if fn == nil {
		return nil
	}
	return progressFunc(fn)
}

// Progress reports long work: introspection and indexing ("introspect",
// "values", "index", "ready"), and the waits of Ask for the model
// ("generate": Total samples; "backward": samples after backward recall;
// "repair": one repair turn). A wait is reported when it starts (Done 0)
// and when it ends (Done == Total, Took its wall time).
type Progress struct {
	Stage Stage
	Done  int
	Total int
	Took  time.Duration
}
