package otel_test

import (
	"context"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/llm"
	nlotel "github.com/nl2sqlgo/nl2sql/otel"
)

// BenchmarkTracerAsk is the tracer's own cost for one Ask: the request
// span, nine stage spans, three model calls and the metrics, sampled
// and recorded by the SDK (no exporter: what an exporter costs is its
// own).
func BenchmarkTracerAsk(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	tr, err := nlotel.New(nlotel.WithTracerProvider(tp), nlotel.WithMeterProvider(mp), nlotel.WithModel("openai", "m"))
	if err != nil {
		b.Fatal(err)
	}
	stages := []nl2sql.Stage{nl2sql.StageRetrieve, nl2sql.StageLink, nl2sql.StagePlan, nl2sql.StagePrompt,
		nl2sql.StageGenerate, nl2sql.StageValidate, nl2sql.StageRepair, nl2sql.StageScore, nl2sql.StageExecute}
	res := &nl2sql.Result{SQL: "SELECT 1", Confidence: 0.9, Attempts: 3, Tables: []string{"public.t"},
		Candidates: []nl2sql.Candidate{{Status: nl2sql.StatusOK, Repairs: []string{"r"}}}, Timings: nl2sql.Timings{"total": time.Millisecond}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		rctx := tr.RequestStart(ctx, nl2sql.RequestInfo{Operation: nl2sql.OperationAsk, Scope: "s"})
		for _, st := range stages {
			sctx := tr.StageStart(rctx, st)
			if st == nl2sql.StageGenerate {
				for range 3 {
					tr.TraceModel(sctx, nl2sql.ModelCall{Model: "m", Took: time.Millisecond, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 20}, FinishReason: "stop"})
				}
			}
			tr.Stage(sctx, st, time.Microsecond, nil)
		}
		tr.RequestEnd(rctx, res, nil)
	}
}
