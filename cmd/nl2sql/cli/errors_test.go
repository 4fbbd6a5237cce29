package cli

import (
	"net"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

// closedPort is an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestErrorsAndExitCodes: one "nl2sql: " prefix on every message, a code in
// every JSON error, exit 2 when the setup is at fault (the database or the
// model out of reach, a malformed model URL, an unknown scope), with a hint
// of what to check.
func TestErrorsAndExitCodes(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	q := "How many active employees are there?"
	downDSN := "postgres://postgres@" + closedPort(t) + "/erp?sslmode=disable"
	model := "http://" + closedPort(t) + "/v1"
	for _, tc := range []struct {
		name string
		args []string
		want []string // in stderr
	}{
		{"database down", []string{"ask", "--dsn", downDSN, "--dry-run", q}, []string{"connection refused", "is the server running"}},
		{"database down (check)", []string{"check", "--dsn", downDSN, "SELECT 1"}, []string{"connection refused", "is the server running"}},
		{"model unreachable", []string{"ask", "--dsn", dsn, "--llm", "openai:m", "--llm-url", model, q}, []string{"llm_error", "connection refused", "is the model server running"}},
		{"malformed model URL", []string{"ask", "--dsn", dsn, "--llm", "ollama:m", "--llm-url", "ht tp://x", q}, []string{"--llm", "not an http(s) URL"}},
		{"openai without key or URL", []string{"ask", "--dsn", dsn, "--llm", "openai:m", q}, []string{"OPENAI_API_KEY is not set"}},
		{"unknown scope", []string{"ask", "--dsn", dsn, "--scope", "nope", "--dry-run", q}, []string{`unknown scope "nope"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "openai without key or URL" {
				t.Setenv("OPENAI_API_KEY", "")
				t.Setenv("OPENAI_BASE_URL", "")
			}
			code, _, errs := cli(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, errs)
			}
			if strings.Count(errs, "nl2sql: ") != 1 || !strings.HasPrefix(errs, "nl2sql: ") {
				t.Errorf("stderr %q: want one nl2sql: prefix", errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}

	// JSON errors always carry a code.
	code, out, _ := cli(t, "ask", "--dsn", dsn, "--llm", "openai:m", "--llm-url", model, "--json", q)
	e, _ := decode(t, out)["error"].(map[string]any)
	if code != 2 || e["code"] != "llm_unreachable" || e["class"] != "llm_error" {
		t.Errorf("exit %d, JSON error %v", code, e)
	}
}
