package llm

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// Transport says how a provider client (llm/openai, llm/ollama,
// llm/anthropic) sends its HTTP requests: with which *http.Client, how
// long one attempt may take, how often and how patiently it retries, how
// large an answer it accepts, and where it logs. Each client takes one with
// its WithTransport option:
//
//	c := openai.New(openai.WithModel("gpt-4o-mini"), openai.WithTransport(llm.Transport{
//		Timeout:     30 * time.Second,
//		MaxAttempts: 1, // no retries
//	}))
//
// The zero value is the default transport, and so is every zero field:
// set only what you want to change. The fields are read when the client is
// built; changing the struct afterwards has no effect on the client.
type Transport struct {
	// HTTPClient sends the requests. Nil means http.DefaultClient.
	HTTPClient *http.Client

	// Timeout bounds one attempt: sending the request and reading the whole
	// answer. Zero means 2 minutes; negative means no bound. The context
	// bounds the whole call, retries and waits included, and
	// WithCallTimeout on it can shorten each attempt further.
	Timeout time.Duration

	// MaxAttempts is how many times a request is sent at most, the first
	// time included. Rate limits (429), server errors (5xx, Anthropic's
	// 529), answers cut off on the wire and network faults are retried;
	// other failures are not. Zero (or negative) means 3, so two retries;
	// 1 means no retries.
	MaxAttempts int

	// BaseDelay is the wait before the first retry, doubled for each
	// retry after it, with jitter (each wait is between half and all of
	// it). Zero means 500ms; negative means retrying at once.
	BaseDelay time.Duration

	// MaxDelay caps every wait between attempts, the server's Retry-After
	// included. Zero (or negative) means 30s. No wait ever runs past the
	// context's deadline: the last error is returned instead.
	MaxDelay time.Duration

	// MaxResponseBytes caps an answer's body; a larger one fails with
	// ErrResponseTooLarge. Zero (or negative) means 32 MiB.
	MaxResponseBytes int64

	// Sleep waits d between attempts, or returns ctx's error as soon as
	// ctx is done. Nil means a timer. Tests set it to skip the waiting and
	// to see the backoff.
	Sleep func(ctx context.Context, d time.Duration) error

	// Logger gets a debug record for each retry. Nil means silent.
	Logger *slog.Logger
}
