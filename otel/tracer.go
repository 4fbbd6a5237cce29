package otel

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	gootel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/nl2sqlgo/nl2sql/otel"

// The statuses of an answer (nl2sql.status).
const (
	StatusAnswered  = "answered"
	StatusUncertain = "uncertain"
	StatusAbstained = "abstained"
	StatusError     = "error"
)

// Tracer is an nl2sql.Tracer that exports OpenTelemetry spans and metrics:
// give it to nl2sql.WithTracer. It is safe for concurrent use.
type Tracer struct {
	cfg    config
	tracer trace.Tracer
	in     *instruments
}

// The Engine's optional tracer interfaces Tracer implements.
var (
	_ nl2sql.StageStarter  = (*Tracer)(nil)
	_ nl2sql.RequestTracer = (*Tracer)(nil)
	_ nl2sql.ModelTracer   = (*Tracer)(nil)
)

// New returns a Tracer over the global providers, or the ones the options
// name. Its error is a metric instrument the meter provider refused.
func New(opts ...Option) (*Tracer, error) {
	cfg := config{tracerProvider: gootel.GetTracerProvider(), meterProvider: gootel.GetMeterProvider()}
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	in, err := newInstruments(cfg.meterProvider.Meter(ScopeName))
	if err != nil {
		return nil, fmt.Errorf("otel: %w", err)
	}
	return &Tracer{cfg: cfg, tracer: cfg.tracerProvider.Tracer(ScopeName), in: in}, nil
}

// request is what a request's span gathers from its model calls; it rides
// in the request's context.
type request struct {
	op        nl2sql.Operation
	mu        sync.Mutex
	input     int64
	output    int64
	modelTime time.Duration
	turns     int    // model calls of the repair stage
	model     string // the first the server named
}

type requestKey struct{}

type stageKey struct{}

// RequestStart implements nl2sql.RequestTracer: the span nl2sql.ask (or
// nl2sql.schema_context, ...: nl2sql. and the operation).
func (t *Tracer) RequestStart(ctx context.Context, r nl2sql.RequestInfo) context.Context {
	attrs := []attribute.KeyValue{KeyDBSystem.String("postgresql")}
	if r.Scope != "" {
		attrs = append(attrs, KeyScope.String(r.Scope))
	}
	if t.cfg.question {
		attrs = append(attrs, KeyQuestion.String(r.Question))
	}
	op := r.Operation
	if op == "" {
		op = nl2sql.OperationAsk
	}
	ctx, _ = t.tracer.Start(ctx, "nl2sql."+string(op), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, requestKey{}, &request{op: op})
}

// RequestEnd implements nl2sql.RequestTracer: the request span's outcome,
// and an Ask's metrics (the answers are Ask's only).
func (t *Tracer) RequestEnd(ctx context.Context, res *nl2sql.Result, err error) {
	span := trace.SpanFromContext(ctx)
	rq, _ := ctx.Value(requestKey{}).(*request)
	if rq == nil {
		rq = &request{op: nl2sql.OperationAsk}
	}
	if rq.op != nl2sql.OperationAsk {
		if err != nil {
			failed(span, err)
		}
		span.End()
		return
	}
	status := statusOf(res, err)
	attrs := []attribute.KeyValue{KeyStatus.String(status)}
	metricAttrs := []attribute.KeyValue{KeyStatus.String(status)}
	var took time.Duration
	rules := 0
	if res != nil {
		took = res.Timings["total"]
		ok := 0
		for _, c := range res.Candidates {
			rules += len(c.Repairs)
			if c.Status == nl2sql.StatusOK {
				ok++
			}
		}
		attrs = append(attrs,
			KeyCandidates.Int(len(res.Candidates)), KeyValid.Int(ok), KeyAttempts.Int(res.Attempts),
			KeyContext.Int(len(res.Context)), KeyTables.StringSlice(res.Tables))
		if res.SQL != "" {
			attrs = append(attrs, KeyConfidence.Float64(res.Confidence))
		}
		if err == nil {
			attrs = append(attrs, KeyRows.Int(len(res.Rows)))
		}
		if t.cfg.queryText && res.SQL != "" {
			attrs = append(attrs, KeyDBQueryText.String(res.SQL))
		}
	}
	rq.mu.Lock()
	turns := rq.turns
	attrs = append(attrs, KeyRepairs.Int(rules+turns),
		KeyInputTokens.Int64(rq.input), KeyOutputTokens.Int64(rq.output),
		KeyModelTime.Float64(rq.modelTime.Seconds()))
	if rq.model != "" {
		attrs = append(attrs, KeyResponseModel.String(rq.model))
	}
	rq.mu.Unlock()
	if status == StatusError {
		metricAttrs = append(metricAttrs, failed(span, err))
	}
	span.SetAttributes(attrs...)
	span.End()

	set := metric.WithAttributes(metricAttrs...)
	t.in.answers.Add(ctx, 1, set)
	if took > 0 {
		t.in.request.Record(ctx, took.Seconds(), set)
	}
	if status == StatusAbstained {
		t.in.abstentions.Add(ctx, 1)
	}
	if rules > 0 {
		t.in.repairs.Add(ctx, int64(rules), metric.WithAttributes(KeyRepairKind.String("rule")))
	}
	if turns > 0 {
		t.in.repairs.Add(ctx, int64(turns), metric.WithAttributes(KeyRepairKind.String("turn")))
	}
}

// failed marks span as failed with err: error.type (the Class of an
// *nl2sql.Error) and nl2sql.error.code (its Code); it returns the
// error.type attribute, for the metrics. The status's description is the
// class and code, never the message: a server's message may quote a value
// ("invalid input syntax for type integer: \"Acme\"").
func failed(span trace.Span, err error) attribute.KeyValue {
	et, code := errorType(err), ""
	var ne *nl2sql.Error
	if errors.As(err, &ne) {
		et, code = string(ne.Class), ne.Code
	}
	span.SetAttributes(KeyErrorType.String(et))
	if code != "" {
		span.SetAttributes(KeyErrorCode.String(code))
	}
	span.SetStatus(codes.Error, et+" "+code)
	return KeyErrorType.String(et)
}

// statusOf is an answer's nl2sql.status: its verdict, abstained when it
// did not run for its confidence, error for any other failure.
func statusOf(res *nl2sql.Result, err error) string {
	switch {
	case res != nil && res.Verdict == nl2sql.VerdictAbstained && errors.Is(err, nl2sql.ErrLowConfidence):
		return StatusAbstained
	case err != nil:
		return StatusError
	case res != nil && res.Verdict == nl2sql.VerdictUncertain:
		return StatusUncertain
	}
	return StatusAnswered
}

// StageStart implements nl2sql.StageStarter: the span nl2sql.<stage>, a
// child of the request's.
func (t *Tracer) StageStart(ctx context.Context, stage nl2sql.Stage) context.Context {
	attrs := []attribute.KeyValue{KeyStage.String(string(stage))}
	switch stage {
	case nl2sql.StageValidate, nl2sql.StageExecute, nl2sql.StageScore:
		// The stages that run queries (EXPLAIN, result votes, the answer).
		attrs = append(attrs, KeyDBSystem.String("postgresql"))
	}
	ctx, _ = t.tracer.Start(ctx, "nl2sql."+string(stage), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, stageKey{}, stage)
}

// Stage implements nl2sql.Tracer: the stage's span ends (when StageStart
// opened it) and its time is recorded.
func (t *Tracer) Stage(ctx context.Context, stage nl2sql.Stage, took time.Duration, err error) {
	attrs := []attribute.KeyValue{KeyStage.String(string(stage))}
	var et attribute.KeyValue
	if err != nil {
		et = KeyErrorType.String(errorType(err))
		attrs = append(attrs, et)
	}
	if s, _ := ctx.Value(stageKey{}).(nl2sql.Stage); s == stage {
		span := trace.SpanFromContext(ctx)
		if err != nil {
			span.SetAttributes(et)
			span.SetStatus(codes.Error, et.Value.AsString())
		}
		span.End()
	}
	t.in.stage.Record(ctx, took.Seconds(), metric.WithAttributes(attrs...))
}

// TraceModel implements nl2sql.ModelTracer: a span per model call (the
// GenAI semantic conventions' "chat" client span), its tokens and time
// added to the request's and to the metrics.
func (t *Tracer) TraceModel(ctx context.Context, c nl2sql.ModelCall) {
	end := time.Now()
	model := c.Model
	if model == "" {
		model = t.cfg.model
	}
	common := []attribute.KeyValue{KeyGenAIOperation.String("chat")}
	if t.cfg.provider != "" {
		common = append(common, KeyGenAIProvider.String(t.cfg.provider))
	}
	if t.cfg.model != "" {
		common = append(common, KeyRequestModel.String(t.cfg.model))
	}
	if c.Model != "" {
		common = append(common, KeyResponseModel.String(c.Model))
	}
	attrs := append(common[:len(common):len(common)],
		KeyInputTokens.Int(c.Usage.PromptTokens), KeyOutputTokens.Int(c.Usage.CompletionTokens))
	if c.FinishReason != "" {
		attrs = append(attrs, KeyFinishReasons.StringSlice([]string{c.FinishReason}))
	}
	name := "chat"
	if model != "" {
		name += " " + model
	}
	_, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(end.Add(-c.Took)), trace.WithAttributes(attrs...))
	metricAttrs := common
	if c.Err != nil {
		et := errorType(c.Err)
		span.SetAttributes(KeyErrorType.String(et))
		span.SetStatus(codes.Error, et)
		metricAttrs = append(common[:len(common):len(common)], KeyErrorType.String(et))
	}
	span.End(trace.WithTimestamp(end))

	if rq, _ := ctx.Value(requestKey{}).(*request); rq != nil {
		rq.mu.Lock()
		rq.input += int64(c.Usage.PromptTokens)
		rq.output += int64(c.Usage.CompletionTokens)
		rq.modelTime += c.Took
		if s, _ := ctx.Value(stageKey{}).(nl2sql.Stage); s == nl2sql.StageRepair {
			rq.turns++
		}
		if rq.model == "" {
			rq.model = c.Model
		}
		rq.mu.Unlock()
	}
	t.in.model.Record(ctx, c.Took.Seconds(), metric.WithAttributes(metricAttrs...))
	if c.Err != nil && c.Usage == (llm.Usage{}) {
		return
	}
	for _, tk := range []struct {
		kind string
		n    int
	}{{"input", c.Usage.PromptTokens}, {"output", c.Usage.CompletionTokens}} {
		set := metric.WithAttributes(append(common[:len(common):len(common)], KeyTokenType.String(tk.kind))...)
		t.in.tokens.Add(ctx, int64(tk.n), set)
		t.in.usage.Record(ctx, int64(tk.n), set)
	}
}

// errorType is error.type for err: the code or class of the library's
// typed errors, never a message (it may quote a value).
func errorType(err error) string {
	var (
		ne *nl2sql.Error
		xe *execute.Error
		ve *validate.Error
		ae *llm.APIError
	)
	switch {
	case errors.As(err, &ne):
		if ne.Code != "" {
			return ne.Code
		}
		return string(ne.Class)
	case errors.As(err, &xe) && xe.SQLState != "":
		return xe.SQLState
	case errors.As(err, &ve) && len(ve.Issues) > 0:
		return ve.Issues[0].Code
	case errors.As(err, &ae):
		return fmt.Sprintf("http_%d", ae.StatusCode)
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	for _, s := range []struct {
		err  error
		name string
	}{
		{llm.ErrUnreachable, "llm_unreachable"}, {llm.ErrTruncated, "llm_truncated"}, {llm.ErrRefused, "llm_refused"},
		{llm.ErrMalformedResponse, "llm_malformed_response"}, {llm.ErrResponseTooLarge, "llm_response_too_large"},
	} {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	return "_OTHER"
}
