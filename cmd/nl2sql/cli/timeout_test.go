package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestAskTimeout: a model that accepts and never answers ends the question
// at --timeout with an llm_error naming the budget (exit 1: an answer that
// failed, like every other failed question; 2 is for usage and connection
// errors before any question is asked).
func TestAskTimeout(t *testing.T) {
	dsn := erptest.Single(t)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Delay: time.Hour} })
	t.Setenv("OPENAI_API_KEY", "test")
	start := time.Now()
	code, out, errs := cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--timeout", "2s", "--json", "How many active employees are there?")
	if took := time.Since(start); took > 2*time.Second+5*time.Second {
		t.Fatalf("ask took %v with --timeout 2s", took)
	}
	m := decode(t, out)
	e, _ := m["error"].(map[string]any)
	if code != 1 || e["class"] != "llm_error" || !strings.Contains(e["message"].(string), "the question's 2s budget ran out while waiting for the model") {
		t.Fatalf("exit %d, error %v\n%s", code, e, errs)
	}
	if !strings.Contains(errs, "2s budget ran out") {
		t.Errorf("stderr = %q, want the reason", errs)
	}
	// Without --json: the reason on stderr, exit 1.
	code, _, errs = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--timeout", "1s", "How many active employees are there?")
	if code != 1 || !strings.Contains(errs, "llm_error: the question's 1s budget ran out while waiting for the model") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestTimeoutFlagOnAskAndExam(t *testing.T) {
	for _, cmd := range []string{"ask", "exam"} {
		_, _, errs := cli(t, cmd, "-h")
		if !strings.Contains(errs, "-timeout duration") || !strings.Contains(errs, "(default 1m0s)") {
			t.Errorf("%s -h lacks --timeout:\n%s", cmd, errs)
		}
	}
	if code, _, errs := cli(t, "ask", "--timeout", "soon", "q"); code != 2 || !strings.Contains(errs, "timeout") {
		t.Errorf("bad --timeout: exit %d %q", code, errs)
	}
}

func TestSpinner(t *testing.T) {
	var buf bytes.Buffer
	var forwarded []string
	sp := newSpinner(&buf, "openai:gpt-4o-mini", func(p nl2sql.Progress) { forwarded = append(forwarded, string(p.Stage)) })
	sp.tick = 10 * time.Millisecond
	sp.progress(nl2sql.Progress{Stage: "index", Done: 1, Total: 2})
	sp.progress(nl2sql.Progress{Stage: "generate", Total: 3})
	time.Sleep(60 * time.Millisecond)
	sp.progress(nl2sql.Progress{Stage: "generate", Done: 3, Total: 3})
	got := buf.String()
	if !strings.Contains(got, "waiting for openai:gpt-4o-mini (3 candidates) 0.") || !strings.HasSuffix(got, "\r\033[K") {
		t.Fatalf("spinner drew %q", got)
	}
	if strings.Count(got, "waiting for") < 2 {
		t.Errorf("spinner not redrawn: %q", got)
	}
	buf.Reset()
	sp.progress(nl2sql.Progress{Stage: "repair", Total: 1})
	sp.end() // Ask returned: the line is cleared
	if got := buf.String(); !strings.Contains(got, "waiting for openai:gpt-4o-mini (repair)") || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("repair wait drew %q", got)
	}
	sp.end() // idempotent
	if len(forwarded) != 1 || forwarded[0] != "index" {
		t.Errorf("forwarded %v, want the index progress only", forwarded)
	}
}
