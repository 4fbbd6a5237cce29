package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql/cmd/nl2sql/cli"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestServeOTel: nl2sql-otel serve, with the standard OTEL_ variables
// pointing at a local OTLP/HTTP receiver, exports a question
// asked in the console as the request's span and the answers metric
// under the service name nl2sql-console, flushed when the server stops;
// the question's text is not exported. Without --otel and without an
// OTEL_ variable, nothing is. (--otel is Enabled(true): TestEnabled.)
func TestServeOTel(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Single(t)
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM projects\n```"}
	})
	var mu sync.Mutex
	got := map[string][]byte{}
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[r.URL.Path] = append(got[r.URL.Path], b...)
		mu.Unlock()
	}))
	defer recv.Close()
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_SERVICE_NAME", "OTEL_SDK_DISABLED", "OTEL_RESOURCE_ATTRIBUTES"} {
		t.Setenv(k, "")
	}
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	const question = "How many projects are there in total?"
	serve := func() {
		t.Helper()
		args := []string{"serve", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--addr", "127.0.0.1:0"}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		pr, pw := io.Pipe()
		done := make(chan int, 1)
		go func() {
			done <- cli.Main(ctx, args, io.Discard, pw, cli.Hooks{Telemetry: telemetry})
			pw.Close()
		}()
		sc := bufio.NewScanner(pr)
		var base string
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "nl2sql console: "); ok {
				base = strings.TrimSuffix(u, "/")
				break
			}
			t.Log(sc.Text())
		}
		go io.Copy(io.Discard, pr)
		if base == "" {
			t.Fatalf("no URL printed (exit %d)", <-done)
		}
		resp, err := http.Get(base + "/?q=" + url.QueryEscape(question))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "projects") {
			t.Fatalf("ask: %d\n%.2000s", resp.StatusCode, body)
		}
		cancel()
		if code := <-done; code != 0 {
			t.Fatalf("serve exited %d", code)
		}
	}

	// No --otel, no OTEL_ variable: nothing is exported.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	serve()
	mu.Lock()
	if len(got) != 0 {
		t.Errorf("exported without --otel or an OTEL_ variable: %v", len(got))
	}
	mu.Unlock()

	// The endpoint's variable turns it on, as --otel does.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	serve()
	mu.Lock()
	defer mu.Unlock()
	for path, names := range map[string][]string{
		"/v1/traces":  {"nl2sql.ask", "nl2sql.execute", "chat fake", "nl2sql-console", "gen_ai.provider.name", "openai"},
		"/v1/metrics": {"nl2sql.answers", "nl2sql.request.duration", "nl2sql-console"},
	} {
		for _, n := range names {
			if !bytes.Contains(got[path], []byte(n)) {
				t.Errorf("%s lacks %q (%d bytes)", path, n, len(got[path]))
			}
		}
	}
	if bytes.Contains(got["/v1/traces"], []byte(question)) {
		t.Error("the question's text was exported")
	}
}
