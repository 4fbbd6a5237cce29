package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/cmd/nl2sql/cli"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/otlpsink"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/servetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestServeOTel: nl2sql-otel serve, with the standard OTEL_ variables
// pointing at a local OTLP/HTTP receiver, exports a question asked in the
// console as the request's span and the answers metric under the service
// name nl2sql-console, flushed when the server stops; the question's text
// is not exported. Without --otel and without an OTEL_ variable, nothing
// is. (--otel is Enabled(true): TestEnabled.)
func TestServeOTel(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Single(t)
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM projects\n```"}
	})
	sink := otlpsink.New(t)
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_SERVICE_NAME", "OTEL_SDK_DISABLED", "OTEL_RESOURCE_ATTRIBUTES"} {
		t.Setenv(k, "")
	}
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	const question = "How many projects are there in total?"
	serve := func() {
		t.Helper()
		base, stop := servetest.Console(t, func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			return cli.Main(ctx, args, stdout, stderr, cli.Hooks{Telemetry: telemetry})
		}, "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL())
		resp, err := http.Get(base + "/?q=" + url.QueryEscape(question))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "projects") {
			t.Fatalf("ask: %d\n%.2000s", resp.StatusCode, body)
		}
		if code := stop(); code != 0 {
			t.Fatalf("serve exited %d", code)
		}
	}

	// No --otel, no OTEL_ variable: nothing is exported.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	serve()
	if n := sink.Len(); n != 0 {
		t.Errorf("%d bytes exported without --otel or an OTEL_ variable", n)
	}

	// The endpoint's variable turns it on, as --otel does.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", sink.URL)
	serve()
	for path, names := range map[string][]string{
		"/v1/traces":  {"nl2sql.ask", "nl2sql.execute", "chat fake", "nl2sql-console", "gen_ai.provider.name", "openai"},
		"/v1/metrics": {"nl2sql.answers", "nl2sql.request.duration", "nl2sql-console"},
	} {
		for _, n := range names {
			if !sink.Has(path, n) {
				t.Errorf("%s lacks %q", path, n)
			}
		}
	}
	if sink.Has("/v1/traces", question) {
		t.Error("the question's text was exported")
	}
}
