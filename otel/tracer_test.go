package otel_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
	nlotel "github.com/nl2sqlgo/nl2sql/otel"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// harness is an Engine on a fresh demo ERP whose model is a fake OpenAI
// server, traced into an in-memory span recorder and a manual metric
// reader.
type harness struct {
	eng     *nl2sql.Engine
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
}

func newHarness(t *testing.T, script llmfake.Script, k int, opts ...nlotel.Option) *harness {
	t.Helper()
	pgtest.SkipShort(t)
	h := &harness{spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.metrics))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	tr, err := nlotel.New(append([]nlotel.Option{nlotel.WithTracerProvider(tp), nlotel.WithMeterProvider(mp), nlotel.WithModel("openai", "fake")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmfake.New(t, script)
	model := openai.New(openai.WithBaseURL(srv.BaseURL()), openai.WithModel("fake"), openai.WithTransport(llm.Transport{MaxAttempts: 1}))
	pool := pgtest.Pool(t, erptest.Single(t))
	h.eng, err = nl2sql.New(pool, nl2sql.WithLLM(model), nl2sql.WithModules(erp.Modules()), nl2sql.WithTracer(tr), nl2sql.WithK(k, k, k))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h
}

func fenced(sql string) llmfake.Reply { return llmfake.Reply{Content: "```sql\n" + sql + "\n```"} }

// attrs is a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// find returns the ended spans named name.
func find(spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// everyValue is the text of every attribute, event and status of spans.
func everyValue(spans []sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	for _, s := range spans {
		fmt.Fprintln(&b, s.Name(), s.Status().Description)
		for _, kv := range s.Attributes() {
			fmt.Fprintln(&b, kv.Key, kv.Value.Emit())
		}
		for _, ev := range s.Events() {
			fmt.Fprintln(&b, ev.Name, ev.Attributes)
		}
	}
	return b.String()
}

// TestTracerOverEngine: an answered question is one nl2sql.ask span with
// a child span per stage in order, a chat span per model call under
// nl2sql.generate (GenAI attributes, the fake's token counts), the
// dashboard's attributes on the request span, no row value, question or
// SQL by default; and the metrics count it.
func TestTracerOverEngine(t *testing.T) {
	const sql = "SELECT first_name, last_name FROM employees ORDER BY employee_id LIMIT 3"
	const question = "List three employees by their first and last names"
	h := newHarness(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(sql) }, 2)
	res, err := h.eng.Ask(context.Background(), question)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 3 {
		t.Fatalf("rows %v", res.Rows)
	}
	spans := h.spans.Ended()
	roots := find(spans, "nl2sql.ask")
	if len(roots) != 1 || roots[0].Parent().IsValid() {
		t.Fatalf("request spans %v", roots)
	}
	root := roots[0]
	var stages []string
	for _, s := range spans {
		if s.Parent().SpanID() == root.SpanContext().SpanID() {
			stages = append(stages, s.Name())
			if s.SpanContext().TraceID() != root.SpanContext().TraceID() {
				t.Errorf("%s is in another trace", s.Name())
			}
		}
	}
	want := []string{"nl2sql.retrieve", "nl2sql.link", "nl2sql.plan", "nl2sql.prompt", "nl2sql.generate",
		"nl2sql.validate", "nl2sql.repair", "nl2sql.score", "nl2sql.execute"}
	if !slices.Equal(stages, want) {
		t.Errorf("stage spans\n got %v\nwant %v", stages, want)
	}
	gen := find(spans, "nl2sql.generate")[0]
	chats := find(spans, "chat fake")
	if len(chats) != 2 {
		t.Fatalf("%d chat spans, want 2", len(chats))
	}
	for _, c := range chats {
		a := attrs(c)
		if c.Parent().SpanID() != gen.SpanContext().SpanID() || c.SpanKind().String() != "client" {
			t.Errorf("chat span not a client child of generate: %v %v", c.Parent(), c.SpanKind())
		}
		if a["gen_ai.operation.name"].AsString() != "chat" || a["gen_ai.provider.name"].AsString() != "openai" ||
			a["gen_ai.request.model"].AsString() != "fake" || a["gen_ai.response.model"].AsString() != "fake" ||
			a["gen_ai.usage.input_tokens"].AsInt64() != 100 || a["gen_ai.usage.output_tokens"].AsInt64() != 20 ||
			!slices.Equal(a["gen_ai.response.finish_reasons"].AsStringSlice(), []string{"stop"}) {
			t.Errorf("chat span attributes %v", c.Attributes())
		}
		if !c.EndTime().After(c.StartTime()) || c.StartTime().Before(gen.StartTime()) {
			t.Errorf("chat span times %v..%v outside generate's from %v", c.StartTime(), c.EndTime(), gen.StartTime())
		}
	}
	a := attrs(root)
	rules := 0
	for _, c := range res.Candidates {
		rules += len(c.Repairs)
	}
	status := string(res.Verdict) // answered or uncertain, by the calibrator
	if status != "answered" && status != "uncertain" {
		t.Fatalf("verdict %q", status)
	}
	if a["nl2sql.status"].AsString() != status || a["nl2sql.candidates"].AsInt64() != 1 || a["nl2sql.candidates.ok"].AsInt64() != 1 ||
		a["nl2sql.attempts"].AsInt64() != 2 || !slices.Equal(a["nl2sql.tables"].AsStringSlice(), res.Tables) || len(res.Tables) != 1 ||
		a["nl2sql.confidence"].AsFloat64() != res.Confidence || a["nl2sql.rows"].AsInt64() != 3 ||
		a["gen_ai.usage.input_tokens"].AsInt64() != 200 || a["gen_ai.usage.output_tokens"].AsInt64() != 40 ||
		a["gen_ai.response.model"].AsString() != "fake" || a["db.system.name"].AsString() != "postgresql" ||
		a["nl2sql.repairs"].AsInt64() != int64(rules) || a["nl2sql.model.duration"].AsFloat64() <= 0 {
		t.Errorf("request span attributes %v", root.Attributes())
	}
	if root.Status().Code != codes.Unset {
		t.Errorf("request span status %v", root.Status())
	}
	if a := attrs(find(spans, "nl2sql.execute")[0]); a["db.system.name"].AsString() != "postgresql" {
		t.Errorf("execute span attributes %v", a)
	}

	// Nothing of the rows, the question or the SQL by default.
	all := everyValue(spans)
	for _, row := range res.Rows {
		for _, v := range row {
			if s := fmt.Sprint(v); strings.Contains(all, s) {
				t.Errorf("a row value %q is in the spans", s)
			}
		}
	}
	for _, secret := range []string{question, "first_name", "ORDER BY"} {
		if strings.Contains(all, secret) {
			t.Errorf("%q is in the spans by default", secret)
		}
	}

	// The metrics.
	m := collect(t, h.metrics)
	if got, all := m.sum(nlotel.MetricAnswers, "nl2sql.status="+status), m.sum(nlotel.MetricAnswers, ""); got != 1 || all != 1 {
		t.Errorf("answers{%s} = %v of %v", status, got, all)
	}
	if got := m.sum(nlotel.MetricRepairs, "nl2sql.repair.kind=rule"); got != float64(rules) {
		t.Errorf("repairs{rule} = %v, want %d", got, rules)
	}
	if got := m.sum(nlotel.MetricModelTokens, "gen_ai.token.type=input"); got != 200 {
		t.Errorf("input tokens = %v", got)
	}
	if got := m.sum(nlotel.MetricModelTokens, "gen_ai.token.type=output"); got != 40 {
		t.Errorf("output tokens = %v", got)
	}
	if got := m.count(nlotel.MetricTokenUsage, "gen_ai.token.type=input"); got != 2 {
		t.Errorf("token usage histogram count = %v", got)
	}
	if got := m.count(nlotel.MetricRequestDuration, "nl2sql.status="+status); got != 1 {
		t.Errorf("request duration count = %v", got)
	}
	if got := m.count(nlotel.MetricModelDuration, "gen_ai.response.model=fake"); got != 2 {
		t.Errorf("model duration count = %v", got)
	}
	for _, st := range []string{"retrieve", "generate", "validate", "execute"} {
		if got := m.count(nlotel.MetricStageDuration, "nl2sql.stage="+st); got != 1 {
			t.Errorf("stage duration count{%s} = %v", st, got)
		}
	}
	if got := m.sum(nlotel.MetricAbstentions, ""); got != 0 {
		t.Errorf("abstentions = %v", got)
	}
}

// TestTracerOptIn: WithQuestion and WithQueryText add the question and
// the SQL to the request span, and nothing else changes.
func TestTracerOptIn(t *testing.T) {
	const sql = "SELECT count(*) FROM employees"
	h := newHarness(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(sql) }, 1,
		nlotel.WithQuestion(true), nlotel.WithQueryText(true))
	if _, err := h.eng.Ask(context.Background(), "Count the employees", nl2sql.Scope("public")); err != nil {
		t.Fatal(err)
	}
	a := attrs(find(h.spans.Ended(), "nl2sql.ask")[0])
	if a["nl2sql.question"].AsString() != "Count the employees" || a["db.query.text"].AsString() != sql || a["nl2sql.scope"].AsString() != "public" {
		t.Errorf("request span attributes %v", a)
	}
}

// TestTracerFailures: a model that fails is an error answer whose span
// says its class and code (not its message), with the failed chat span;
// a query the server refuses gets a repair turn, counted; a confidence
// below the minimum is an abstention, not an error.
func TestTracerFailures(t *testing.T) {
	t.Run("model", func(t *testing.T) {
		h := newHarness(t, func(int, *llmfake.Request) llmfake.Reply {
			return llmfake.Reply{Status: 400, Body: `{"error":{"message":"no such model","type":"invalid_request_error"}}`}
		}, 1)
		_, err := h.eng.Ask(context.Background(), "Count the employees")
		var ne *nl2sql.Error
		if !errors.As(err, &ne) {
			t.Fatalf("err = %v", err)
		}
		spans := h.spans.Ended()
		root := find(spans, "nl2sql.ask")[0]
		a := attrs(root)
		if a["nl2sql.status"].AsString() != "error" || a["error.type"].AsString() != string(ne.Class) || a["nl2sql.error.code"].AsString() != ne.Code ||
			root.Status().Code != codes.Error || strings.Contains(root.Status().Description, "no such model") {
			t.Errorf("request span %v status %v (error %v)", a, root.Status(), err)
		}
		chat := find(spans, "chat fake")
		if len(chat) != 1 || attrs(chat[0])["error.type"].AsString() != "http_400" || chat[0].Status().Code != codes.Error {
			t.Errorf("chat spans %v", chat)
		}
		gen := find(spans, "nl2sql.generate")
		if len(gen) != 1 || gen[0].Status().Code != codes.Error {
			t.Errorf("generate span %v", gen)
		}
		m := collect(t, h.metrics)
		if got := m.sum(nlotel.MetricAnswers, "nl2sql.status=error"); got != 1 {
			t.Errorf("answers{error} = %v", got)
		}
		if got := m.sum(nlotel.MetricModelTokens, ""); got != 0 {
			t.Errorf("tokens of a failed call = %v", got)
		}
	})
	t.Run("repair", func(t *testing.T) {
		h := newHarness(t, func(n int, _ *llmfake.Request) llmfake.Reply {
			if n == 0 {
				return fenced("SELECT count(*) FROM employees WHERE no_such_column = 1")
			}
			return fenced("SELECT count(*) FROM employees")
		}, 1)
		if _, err := h.eng.Ask(context.Background(), "Count the employees"); err != nil {
			t.Fatal(err)
		}
		spans := h.spans.Ended()
		rep := find(spans, "nl2sql.repair")
		if len(rep) != 1 {
			t.Fatalf("repair spans %v", rep)
		}
		var turns int
		for _, c := range find(spans, "chat fake") {
			if c.Parent().SpanID() == rep[0].SpanContext().SpanID() {
				turns++
			}
		}
		a := attrs(find(spans, "nl2sql.ask")[0])
		if turns != 1 || a["nl2sql.repairs"].AsInt64() < 1 || a["nl2sql.candidates"].AsInt64() != 2 {
			t.Errorf("%d repair turns under the repair span; request %v", turns, a)
		}
		m := collect(t, h.metrics)
		if got := m.sum(nlotel.MetricRepairs, "nl2sql.repair.kind=turn"); got != 1 {
			t.Errorf("repairs{turn} = %v", got)
		}
	})
	t.Run("abstain", func(t *testing.T) {
		h := newHarness(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT count(*) FROM employees") }, 1)
		_, err := h.eng.Ask(context.Background(), "Count the employees", nl2sql.MinConfidence(0.999999))
		if !errors.Is(err, nl2sql.ErrLowConfidence) {
			t.Fatalf("err = %v", err)
		}
		root := find(h.spans.Ended(), "nl2sql.ask")[0]
		if a := attrs(root); a["nl2sql.status"].AsString() != "abstained" || root.Status().Code == codes.Error {
			t.Errorf("request span %v %v", a, root.Status())
		}
		m := collect(t, h.metrics)
		if m.sum(nlotel.MetricAbstentions, "") != 1 || m.sum(nlotel.MetricAnswers, "nl2sql.status=abstained") != 1 {
			t.Errorf("abstentions %v, answers{abstained} %v", m.sum(nlotel.MetricAbstentions, ""), m.sum(nlotel.MetricAnswers, "nl2sql.status=abstained"))
		}
	})
}

// metrics is what a ManualReader collected.
type metrics struct{ rm metricdata.ResourceMetrics }

func collect(t *testing.T, r *sdkmetric.ManualReader) metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return metrics{rm}
}

// matches reports whether set holds key=value (filter "" matches all).
func matches(set attribute.Set, filter string) bool {
	if filter == "" {
		return true
	}
	k, v, _ := strings.Cut(filter, "=")
	got, ok := set.Value(attribute.Key(k))
	return ok && got.Emit() == v
}

// sum adds the points of counter name whose attributes match filter.
func (m metrics) sum(name, filter string) float64 {
	var total float64
	for _, sm := range m.rm.ScopeMetrics {
		for _, md := range sm.Metrics {
			if s, ok := md.Data.(metricdata.Sum[int64]); ok && md.Name == name {
				for _, p := range s.DataPoints {
					if matches(p.Attributes, filter) {
						total += float64(p.Value)
					}
				}
			}
		}
	}
	return total
}

// count adds the counts of histogram name whose attributes match filter.
func (m metrics) count(name, filter string) uint64 {
	var total uint64
	for _, sm := range m.rm.ScopeMetrics {
		for _, md := range sm.Metrics {
			if md.Name != name {
				continue
			}
			switch h := md.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range h.DataPoints {
					if matches(p.Attributes, filter) {
						total += p.Count
					}
				}
			case metricdata.Histogram[int64]:
				for _, p := range h.DataPoints {
					if matches(p.Attributes, filter) {
						total += p.Count
					}
				}
			}
		}
	}
	return total
}

// TestTracerSchemaContext: SchemaContext (the CLI's retrieve, the
// console's retrieval page) is one nl2sql.schema_context span over its
// four stages, and no answer in the metrics; an input it refuses is a
// failed span with the error's class and code.
func TestTracerSchemaContext(t *testing.T) {
	h := newHarness(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") }, 1)
	if _, err := h.eng.SchemaContext(context.Background(), "Count the employees"); err != nil {
		t.Fatal(err)
	}
	spans := h.spans.Ended()
	roots := find(spans, "nl2sql.schema_context")
	if len(roots) != 1 || roots[0].Parent().IsValid() || roots[0].Status().Code != codes.Unset {
		t.Fatalf("schema_context spans %v", roots)
	}
	var stages []string
	for _, s := range spans {
		if s.Parent().SpanID() == roots[0].SpanContext().SpanID() {
			stages = append(stages, s.Name())
		}
	}
	if want := []string{"nl2sql.retrieve", "nl2sql.link", "nl2sql.plan", "nl2sql.prompt"}; !slices.Equal(stages, want) || len(spans) != 5 {
		t.Errorf("stages %v of %d spans", stages, len(spans))
	}
	if got := collect(t, h.metrics).sum(nlotel.MetricAnswers, ""); got != 0 {
		t.Errorf("answers = %v after a SchemaContext", got)
	}

	_, err := h.eng.SchemaContext(context.Background(), strings.Repeat("x", 1<<20))
	var ne *nl2sql.Error
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v", err)
	}
	roots = find(h.spans.Ended(), "nl2sql.schema_context")
	a := attrs(roots[len(roots)-1])
	if len(roots) != 2 || roots[1].Status().Code != codes.Error || a["error.type"].AsString() != string(ne.Class) || a["nl2sql.error.code"].AsString() != ne.Code {
		t.Errorf("refused input: %v %v", a, roots[len(roots)-1].Status())
	}
}
