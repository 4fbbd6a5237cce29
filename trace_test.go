package nl2sql_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/llm"
)

type spanKey struct{}

// spanTracer opens a "span" per stage (a context value) and checks that the
// stage ends with the context it opened.
type spanTracer struct {
	mu     sync.Mutex
	events []string
	errs   map[nl2sql.Stage]error
	bad    []string
}

func (s *spanTracer) StageStart(ctx context.Context, stage nl2sql.Stage) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, "start:"+string(stage))
	return context.WithValue(ctx, spanKey{}, stage)
}

func (s *spanTracer) Stage(ctx context.Context, stage nl2sql.Stage, took time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, "end:"+string(stage))
	if got, _ := ctx.Value(spanKey{}).(nl2sql.Stage); got != stage || took <= 0 {
		s.bad = append(s.bad, string(stage))
	}
	if s.errs == nil {
		s.errs = map[nl2sql.Stage]error{}
	}
	s.errs[stage] = err
}

// TestTracerStageStarter: a Tracer that is a StageStarter sees each stage
// start and end as it happens, in order, with the context it returned, and
// the stage's own error.
func TestTracerStageStarter(t *testing.T) {
	tr := &spanTracer{}
	// The model calls run under the generate stage's context: the fake
	// server cannot see it, but a transport can; here the check is that the
	// tracer's context reached the stage's end.
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM employees")
	}, nl2sql.WithTracer(tr))
	if _, err := eng.Ask(context.Background(), "Count the employees"); err != nil {
		t.Fatal(err)
	}
	want := "start:retrieve,end:retrieve,start:link,end:link,start:plan,end:plan,start:prompt,end:prompt," +
		"start:generate,end:generate,start:validate,end:validate,start:repair,end:repair," +
		"start:score,end:score,start:execute,end:execute"
	if got := strings.Join(tr.events, ","); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if len(tr.bad) > 0 {
		t.Errorf("stages ended without their own context or time: %v", tr.bad)
	}

	// A model that fails: generate ends with the model's error.
	tr = &spanTracer{}
	eng, srv := engine(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Status: 400} }, nl2sql.WithTracer(tr))
	_ = srv
	if _, err := eng.Ask(context.Background(), "Count the employees"); !errors.Is(err, nl2sql.ErrLLM) {
		t.Fatalf("err = %v", err)
	}
	if tr.errs[nl2sql.StageGenerate] == nil {
		t.Errorf("generate ended with no error: %v", tr.errs)
	}
	if strings.Contains(strings.Join(tr.events, ","), "validate") {
		t.Errorf("stages after the failed generate ran: %v", tr.events)
	}
}

// progressTracer is a spanTracer that also hears of long work, in the
// same stream as the stages.
type progressTracer struct{ spanTracer }

func (p *progressTracer) TraceProgress(_ context.Context, pr nl2sql.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events = append(p.events, showProgress(pr))
}

func showProgress(p nl2sql.Progress) string {
	return fmt.Sprintf("progress:%s %d/%d", p.Stage, p.Done, p.Total)
}

// progressOf keeps the progress events of events.
func progressOf(events []string) []string {
	var out []string
	for _, e := range events {
		if strings.HasPrefix(e, "progress:") {
			out = append(out, e)
		}
	}
	return out
}

// TestProgressTracer: the tracer is the one way a request is observed. A
// Tracer that is a ProgressTracer hears of the same long work as
// WithProgress's callback (Prepare's and Ask's) and OnProgress's (Ask's
// waits), in the same order, inside the stage that waits; Result.Timings
// holds the stages the tracer saw end.
func TestProgressTracer(t *testing.T) {
	tr := &progressTracer{}
	var mu sync.Mutex
	var engineSaw, requestSaw []string
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM employees")
	}, nl2sql.WithTracer(tr), nl2sql.WithProgress(func(p nl2sql.Progress) {
		mu.Lock()
		defer mu.Unlock()
		engineSaw = append(engineSaw, showProgress(p))
	}))
	prepared := progressOf(tr.events)
	if !slices.Equal(prepared, engineSaw) || len(prepared) == 0 || !strings.HasPrefix(prepared[len(prepared)-1], "progress:ready ") {
		t.Fatalf("Prepare: the tracer heard %v, WithProgress %v", prepared, engineSaw)
	}

	tr.events, engineSaw = nil, nil
	res, err := eng.Ask(context.Background(), "Count the employees", nl2sql.OnProgress(func(p nl2sql.Progress) {
		mu.Lock()
		defer mu.Unlock()
		requestSaw = append(requestSaw, showProgress(p))
	}))
	if err != nil {
		t.Fatal(err)
	}
	asked := progressOf(tr.events)
	if !slices.Equal(asked, engineSaw) || !slices.Equal(asked, requestSaw) {
		t.Errorf("Ask: the tracer heard %v, WithProgress %v, OnProgress %v", asked, engineSaw, requestSaw)
	}
	got := strings.Join(tr.events, ",")
	if want := "start:generate,progress:generate 0/1,progress:generate 1/1,end:generate"; !strings.Contains(got, want) {
		t.Errorf("events\n got %s\nwant them to hold %s", got, want)
	}
	var ended []string
	for _, e := range tr.events {
		if s, ok := strings.CutPrefix(e, "end:"); ok {
			ended = append(ended, s)
		}
	}
	var timed []string
	for s := range res.Timings {
		if s != "total" {
			timed = append(timed, s)
		}
	}
	slices.Sort(ended)
	slices.Sort(timed)
	if !slices.Equal(ended, timed) {
		t.Errorf("the tracer saw %v end, Timings hold %v", ended, timed)
	}
}

type requestKey struct{}

// requestTracer wraps each request and hears of each model call, under
// the context it returned at the request's start.
type requestTracer struct {
	spanTracer
	infos  []nl2sql.RequestInfo
	ends   []error
	result *nl2sql.Result
	calls  []nl2sql.ModelCall
	orphan int // model calls or request ends outside the request's context
}

func (r *requestTracer) RequestStart(ctx context.Context, info nl2sql.RequestInfo) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.infos = append(r.infos, info)
	return context.WithValue(ctx, requestKey{}, len(r.infos))
}

func (r *requestTracer) StageStart(ctx context.Context, stage nl2sql.Stage) context.Context {
	if ctx.Value(requestKey{}) == nil {
		r.mu.Lock()
		r.orphan++
		r.mu.Unlock()
	}
	return r.spanTracer.StageStart(ctx, stage)
}

func (r *requestTracer) RequestEnd(ctx context.Context, res *nl2sql.Result, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ctx.Value(requestKey{}) != len(r.infos) {
		r.orphan++
	}
	r.ends, r.result = append(r.ends, err), res
}

func (r *requestTracer) TraceModel(ctx context.Context, c nl2sql.ModelCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// A model call runs under its stage's context, inside the request's.
	if ctx.Value(requestKey{}) == nil || ctx.Value(spanKey{}) != nl2sql.StageGenerate {
		r.orphan++
	}
	r.calls = append(r.calls, c)
}

// TestRequestAndModelTracer: a Tracer that is a RequestTracer wraps each
// Ask and SchemaContext (its context is every stage's, its end gets the
// Result and the coded error, an input refusal included); one that is a
// ModelTracer hears
// of every model call with the server's model name and token counts,
// under the stage's context.
func TestRequestAndModelTracer(t *testing.T) {
	tr := &requestTracer{}
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT count(*) FROM employees")
	}, nl2sql.WithTracer(tr), nl2sql.WithK(2, 2, 2))
	res, err := eng.Ask(context.Background(), "Count the employees", nl2sql.Scope("public"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.infos) != 1 || tr.infos[0].Operation != nl2sql.OperationAsk || tr.infos[0].Question != "Count the employees" || tr.infos[0].Scope != "public" {
		t.Errorf("request starts: %+v", tr.infos)
	}
	if len(tr.ends) != 1 || tr.ends[0] != nil || tr.result != res {
		t.Errorf("request ends: %v, result %p want %p", tr.ends, tr.result, res)
	}
	if len(tr.calls) != res.Attempts || res.Attempts != 2 {
		t.Fatalf("%d model calls heard, %d attempts", len(tr.calls), res.Attempts)
	}
	for _, c := range tr.calls {
		if c.Model != "fake" || c.Usage.PromptTokens != 100 || c.Usage.CompletionTokens != 20 || c.FinishReason != "stop" || c.Took <= 0 || c.Err != nil {
			t.Errorf("model call %+v", c)
		}
	}
	if tr.orphan != 0 {
		t.Errorf("%d events outside the request's or stage's context", tr.orphan)
	}

	// A refused input still starts and ends a request, with the coded
	// error, and no stage or model call.
	tr.events, tr.calls = nil, nil
	_, err = eng.Ask(context.Background(), strings.Repeat("x", 1<<20))
	var ne *nl2sql.Error
	if !errors.As(err, &ne) || ne.Code == "" || len(tr.ends) != 2 || tr.ends[1] != err {
		t.Errorf("refused input: err %v, ends %v", err, tr.ends)
	}
	if len(tr.events) != 0 || len(tr.calls) != 0 {
		t.Errorf("a refused input ran stages %v, model calls %d", tr.events, len(tr.calls))
	}

	// SchemaContext is a request too, ended with no Result; its stages
	// run under its context.
	tr.events, tr.infos, tr.ends, tr.result = nil, nil, nil, nil
	if _, err := eng.SchemaContext(context.Background(), "Count the employees"); err != nil {
		t.Fatal(err)
	}
	if len(tr.infos) != 1 || tr.infos[0].Operation != nl2sql.OperationSchemaContext || len(tr.ends) != 1 || tr.ends[0] != nil || tr.result != nil {
		t.Errorf("SchemaContext: starts %+v, ends %v, result %v", tr.infos, tr.ends, tr.result)
	}
	if got := strings.Join(tr.events, ","); got != "start:retrieve,end:retrieve,start:link,end:link,start:plan,end:plan,start:prompt,end:prompt" || tr.orphan != 0 {
		t.Errorf("SchemaContext's stages %s (%d outside the request)", got, tr.orphan)
	}

	// A failing model: the call is heard with its error and no usage.
	tr = &requestTracer{}
	eng, _ = engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Status: 400, Body: `{"error":{"message":"bad","type":"invalid_request_error"}}`}
	}, nl2sql.WithTracer(tr), nl2sql.WithK(1, 1, 1))
	if _, err := eng.Ask(context.Background(), "Count the employees"); !errors.Is(err, nl2sql.ErrLLM) {
		t.Fatalf("err = %v", err)
	}
	if len(tr.calls) != 1 || tr.calls[0].Err == nil || tr.calls[0].Usage != (llm.Usage{}) {
		t.Errorf("failed model call heard as %+v", tr.calls)
	}
	if len(tr.ends) != 1 || !errors.Is(tr.ends[0], nl2sql.ErrLLM) {
		t.Errorf("request ended with %v", tr.ends)
	}
}
