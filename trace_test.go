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
