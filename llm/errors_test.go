package llm_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/llm"
)

func TestAPIErrorClasses(t *testing.T) {
	sentinels := []error{llm.ErrRateLimited, llm.ErrServer, llm.ErrAuth, llm.ErrBadRequest,
		llm.ErrMalformedResponse, llm.ErrTruncated, llm.ErrResponseTooLarge, llm.ErrRefused}
	tests := []struct {
		status    int
		class     error
		retryable bool
	}{
		{429, llm.ErrRateLimited, true},
		{500, llm.ErrServer, true},
		{502, llm.ErrServer, true},
		{529, llm.ErrServer, true},
		{501, llm.ErrServer, false},
		{401, llm.ErrAuth, false},
		{403, llm.ErrAuth, false},
		{400, llm.ErrBadRequest, false},
		{404, llm.ErrBadRequest, false},
		{408, llm.ErrBadRequest, true},
		{413, llm.ErrBadRequest, false},
	}
	for _, tt := range tests {
		err := fmt.Errorf("generate: %w", &llm.APIError{Provider: "p", StatusCode: tt.status})
		for _, s := range sentinels {
			if got, want := errors.Is(err, s), s == tt.class; got != want {
				t.Errorf("status %d: errors.Is(%v) = %v, want %v", tt.status, s, got, want)
			}
		}
		var api *llm.APIError
		if !errors.As(err, &api) || api.StatusCode != tt.status {
			t.Errorf("status %d: errors.As failed", tt.status)
		} else if api.Retryable() != tt.retryable {
			t.Errorf("status %d: Retryable = %v, want %v", tt.status, api.Retryable(), tt.retryable)
		}
	}
}

func TestAPIErrorMessage(t *testing.T) {
	e := &llm.APIError{Provider: "openai", StatusCode: 429, Type: "rate_limit_exceeded", Message: "slow down", RetryAfter: 2 * time.Second}
	if got, want := e.Error(), "llm: openai: HTTP 429 rate_limit_exceeded: slow down (retry after 2s)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestRequestHelpers(t *testing.T) {
	r := &llm.Request{Temperature: llm.Temperature(0.3)}
	if *r.Temperature != 0.3 || r.SchemaNameOrDefault() != "response" {
		t.Fatalf("helpers: %v %q", *r.Temperature, r.SchemaNameOrDefault())
	}
	r.SchemaName = "sql"
	if r.SchemaNameOrDefault() != "sql" {
		t.Fatal("SchemaName ignored")
	}
	if m := llm.User("q"); m.Role != llm.RoleUser || m.Content != "q" {
		t.Fatalf("User = %+v", m)
	}
}
