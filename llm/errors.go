package llm

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Sentinel errors. Every error returned by the providers in llm/... matches
// at most one of these with errors.Is (context errors aside), so callers can
// decide what to do without parsing messages.
var (
	// ErrRateLimited: the server answered 429 (after the client's retries).
	ErrRateLimited = errors.New("llm: rate limited")
	// ErrServer: the server failed (5xx, Anthropic's 529 overloaded) after
	// the client's retries.
	ErrServer = errors.New("llm: server error")
	// ErrAuth: the server rejected the credentials (401, 403).
	ErrAuth = errors.New("llm: authentication failed")
	// ErrBadRequest: the request was rejected as invalid, by the server (other
	// 4xx: unknown model, too many tokens...) or before sending (no messages).
	ErrBadRequest = errors.New("llm: bad request")
	// ErrMalformedResponse: the server answered 2xx with a body that is not
	// the expected JSON (garbage, missing fields, no choices, wrong vector
	// count or dimension).
	ErrMalformedResponse = errors.New("llm: malformed response")
	// ErrTruncated: the response was cut off, either on the wire (the
	// connection closed mid-body) or by the model (it stopped at the token
	// limit before writing any content).
	ErrTruncated = errors.New("llm: truncated response")
	// ErrResponseTooLarge: the body exceeded the client's response size limit.
	ErrResponseTooLarge = errors.New("llm: response too large")
	// ErrUnreachable: the request never reached the server: the name did
	// not resolve, the connection was refused or could not be set up
	// (after the client's retries).
	ErrUnreachable = errors.New("llm: server unreachable")
	// ErrRefused: the model declined to answer (OpenAI's refusal field,
	// Anthropic's "refusal" stop reason).
	ErrRefused = errors.New("llm: model refused")
)

// APIError is a non-2xx answer from a provider. It matches ErrRateLimited,
// ErrServer, ErrAuth or ErrBadRequest with errors.Is depending on StatusCode.
type APIError struct {
	Provider   string        // "openai", "ollama", "anthropic"
	StatusCode int           // HTTP status
	Type       string        // provider's error type or code, when given
	Message    string        // provider's message (or the start of the body)
	RetryAfter time.Duration // from Retry-After / retry-after-ms, 0 if absent
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("llm: %s: HTTP %d", e.Provider, e.StatusCode)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

// Is reports whether the error belongs to the class target names.
func (e *APIError) Is(target error) bool {
	return target != nil && e.class() == target
}

func (e *APIError) class() error {
	switch {
	case e.StatusCode == http.StatusTooManyRequests:
		return ErrRateLimited
	case e.StatusCode >= 500:
		return ErrServer
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return ErrAuth
	default:
		return ErrBadRequest
	}
}

// Retryable reports whether sending the same request again may succeed:
// rate limits, server errors and request timeouts are; other 4xx are not.
func (e *APIError) Retryable() bool {
	switch e.StatusCode {
	case http.StatusTooManyRequests, http.StatusRequestTimeout, http.StatusConflict:
		return true
	case http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return false
	}
	return e.StatusCode >= 500
}
