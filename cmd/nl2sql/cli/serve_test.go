package cli

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/servetest"
)

// TestServe starts the console without a model on a free loopback port,
// reads a page, and stops it as SIGINT would (its context ends).
func TestServe(t *testing.T) {
	dsn := erptest.Single(t)
	base, stop := serveInProcess(t, "--dsn", dsn, "--llm", "none")
	for path, want := range map[string]string{"/schema": "public.employees", "/": `id="need-model"`} {
		if code, body := getPage(t, base+path); code != 200 || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d, no %q", path, code, want)
		}
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d after shutdown", code)
	}
}

// TestServeVerdicts: serve --min-confidence makes the console abstain
// (the query not run, the reasons shown); without it the same answer is
// shown unsure.
func TestServeVerdicts(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_LLM", "")
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT 1\n```"}
	})
	q := "/?q=" + url.QueryEscape("How many employees are in each department?")
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--min-confidence", "0.5"}, `data-verdict="abstained"`},
		{[]string{"--uncertain-below", "1.01"}, `data-verdict="uncertain"`},
	} {
		base, stop := serveInProcess(t, append([]string{"--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL()}, c.flags...)...)
		code, body := getPage(t, base+q)
		if code != 200 || !strings.Contains(body, c.want) || !strings.Contains(body, "the query reads no table") {
			t.Errorf("serve %v: %d, want %s with its reason:\n%s", c.flags, code, c.want, body)
		}
		stop()
	}
	for _, bad := range [][]string{{"--min-confidence", "1.5"}, {"--uncertain-below", "-1"}} {
		for _, args := range [][]string{{"serve"}, {"ask", "How many?"}} {
			args = append(append([]string{args[0], "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL()}, bad...), args[1:]...)
			if code, _, errs := cli(t, args...); code != 2 || !strings.Contains(errs, "--min-confidence must be within 0..1") {
				t.Errorf("%v: exit %d %s", args, code, errs)
			}
		}
	}
}

// serveInProcess runs serve with args on a free loopback port and returns
// its URL, and stop, which ends it as SIGINT would and returns its exit
// status.
func serveInProcess(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	return servetest.Console(t, run, args...)
}

func getPage(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeUsage(t *testing.T) {
	if code := run(context.Background(), []string{"serve", "extra"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("serve with an argument: exit %d", code)
	}
}
