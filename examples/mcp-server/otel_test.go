package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/otlpsink"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestOTelExport: with --otel and the standard OTEL_ variables, a
// question asked through nl_query reaches an OTLP receiver as the
// request's span (under the service name OTEL_SERVICE_NAME gives, the
// model's GenAI span with it) and as the answers metric; the question's
// text does not.
func TestOTelExport(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Single(t)
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM projects\n```"}
	})
	sink := otlpsink.New(t)
	for k, v := range map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": sink.URL, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
		"OTEL_SERVICE_NAME": "mcp-otel-test", "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_METRIC_EXPORT_INTERVAL": "200",
		"OTEL_TRACES_EXPORTER": "", "OTEL_METRICS_EXPORTER": "", "OTEL_SDK_DISABLED": "",
	} {
		t.Setenv(k, v)
	}
	bin := buildBinary(t)
	s := startRaw(t, bin, "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--http", "127.0.0.1:0", "--otel")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url(), DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	const question = "How many projects are there in total?"
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nl_query", Arguments: map[string]any{"question": question}})
	if err != nil || res.IsError {
		t.Fatalf("nl_query: %v %+v", err, res)
	}
	want := map[string][]string{
		"/v1/traces":  {"nl2sql.ask", "nl2sql.generate", "chat fake", "gen_ai.usage.input_tokens", "mcp-otel-test"},
		"/v1/metrics": {"nl2sql.answers", "nl2sql.model.tokens", "mcp-otel-test"},
	}
	deadline := time.Now().Add(30 * time.Second)
	for path, names := range want {
		for _, n := range names {
			for !sink.Has(path, n) {
				if time.Now().After(deadline) {
					t.Fatalf("%s never held %q\nserver stderr:\n%s", path, n, s.stderr())
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	if sink.Has("/v1/traces", question) || sink.Has("/v1/metrics", question) {
		t.Error("the question's text was exported")
	}
	// Stopped by a signal, it flushes and exits 0.
	_ = s.cmd.Process.Signal(os.Interrupt)
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("exit: %v\n%s", err, s.stderr())
	}
	if strings.Contains(s.stderr(), "flushing OpenTelemetry") {
		t.Errorf("the flush failed:\n%s", s.stderr())
	}
}
