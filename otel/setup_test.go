package otel_test

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/otlpsink"
	nlotel "github.com/nl2sqlgo/nl2sql/otel"
)

// TestEnabled: the flag or an OTEL_ variable naming an exporter, an
// endpoint or a service turns export on; OTEL_SDK_DISABLED=true turns it
// off whatever else says.
func TestEnabled(t *testing.T) {
	for _, n := range []string{"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT",
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_SERVICE_NAME", "OTEL_SDK_DISABLED"} {
		t.Setenv(n, "")
	}
	if nlotel.Enabled(false) || !nlotel.Enabled(true) {
		t.Errorf("with no variable: Enabled(false) %v, Enabled(true) %v", nlotel.Enabled(false), nlotel.Enabled(true))
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	if !nlotel.Enabled(false) {
		t.Error("OTEL_EXPORTER_OTLP_ENDPOINT does not enable it")
	}
	t.Setenv("OTEL_SDK_DISABLED", "TRUE")
	if nlotel.Enabled(true) {
		t.Error("OTEL_SDK_DISABLED=TRUE does not disable it")
	}
}

// TestSetupExportsOTLP: Setup reads the standard variables, and what a
// request's tracer records reaches an OTLP/HTTP receiver (a local one,
// speaking the wire format) at shutdown: the request span under the
// service name OTEL_SERVICE_NAME gives, and the answers metric.
func TestSetupExportsOTLP(t *testing.T) {
	recv := otlpsink.New(t)
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_METRICS_EXPORTER", "otlp")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "nl2sql-test-service")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "")

	ctx := context.Background()
	tr, shutdown, err := nlotel.Setup(ctx, "nl2sql")
	if err != nil {
		t.Fatal(err)
	}
	rctx := tr.RequestStart(ctx, nl2sql.RequestInfo{Question: "a question", Scope: "sales"})
	sctx := tr.StageStart(rctx, nl2sql.StageRetrieve)
	tr.Stage(sctx, nl2sql.StageRetrieve, time.Millisecond, nil)
	tr.RequestEnd(rctx, &nl2sql.Result{Timings: nl2sql.Timings{"total": 2 * time.Millisecond}}, nil)
	sd, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := shutdown(sd); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nl2sql-test-service", "nl2sql.ask", "nl2sql.retrieve", "sales"} {
		if !recv.Has("/v1/traces", want) {
			t.Errorf("the exported traces lack %q", want)
		}
	}
	if recv.Has("/v1/traces", "a question") {
		t.Error("the question was exported")
	}
	for _, want := range []string{"nl2sql-test-service", nlotel.MetricAnswers, nlotel.MetricStageDuration} {
		if !recv.Has("/v1/metrics", want) {
			t.Errorf("the exported metrics lack %q", want)
		}
	}
}
