package anthropic

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

// DefaultBaseURL is Anthropic's API root; "/v1/messages" is appended.
const DefaultBaseURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header the client sends.
const APIVersion = "2023-06-01"

// DefaultMaxTokens is sent as max_tokens (which the Messages API requires)
// when neither the Request nor WithMaxTokens sets one.
const DefaultMaxTokens = 2048

// Option configures a Client.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	http      httpx.Settings
	apiKey    string
	model     string
	maxTokens int
	betas     []string
	extra     map[string]any
}

func transport(f func(*httpx.Settings)) Option {
	return optionFunc(func(c *config) { f(&c.http) })
}

// WithBaseURL sets the API root (default DefaultBaseURL), without /v1.
func WithBaseURL(url string) Option {
	return transport(httpx.BaseURL(url))
}

// WithAPIKey sends the x-api-key header.
func WithAPIKey(key string) Option { return optionFunc(func(c *config) { c.apiKey = key }) }

// WithModel sets the model, e.g. "claude-sonnet-4-5" (Request.Model
// overrides it per request). The Messages API needs one.
func WithModel(model string) Option { return optionFunc(func(c *config) { c.model = model }) }

// WithMaxTokens sets max_tokens for requests whose MaxTokens is 0 (default
// DefaultMaxTokens).
func WithMaxTokens(n int) Option { return optionFunc(func(c *config) { c.maxTokens = n }) }

// WithBeta sends the anthropic-beta header with these feature names.
func WithBeta(features ...string) Option {
	return optionFunc(func(c *config) { c.betas = append(c.betas, features...) })
}

// WithExtraBody merges fields into every request body (e.g. {"top_k": 40}
// or {"metadata": {"user_id": "..."}}); they override the client's own.
func WithExtraBody(fields map[string]any) Option {
	return optionFunc(func(c *config) { c.extra = fields })
}

// Transport options; see package llm for what retries and limits do.

// WithHTTPClient sets the HTTP client (default http.DefaultClient).
func WithHTTPClient(hc *http.Client) Option { return transport(httpx.HTTPClient(hc)) }

// WithTimeout bounds each HTTP attempt (default 2 minutes; <= 0 for none).
// Bound the whole call, retries included, with the context.
func WithTimeout(d time.Duration) Option { return transport(httpx.Timeout(d)) }

// WithMaxRetries sets how often a rate-limited, failed (5xx) or
// network-broken request is retried (default 2; 0 disables retries).
func WithMaxRetries(n int) Option { return transport(httpx.MaxRetries(n)) }

// WithBackoff sets the first retry delay (doubled per retry, with jitter)
// and the cap for any wait, Retry-After included (defaults 500ms and 30s).
func WithBackoff(base, maxDelay time.Duration) Option {
	return transport(httpx.Backoff(base, maxDelay))
}

// WithSleeper replaces how the client waits between retries; sleep must
// return ctx's error when ctx is done first. Tests use it to avoid real
// waiting and to observe the backoff.
func WithSleeper(sleep func(ctx context.Context, d time.Duration) error) Option {
	return transport(httpx.Sleeper(sleep))
}

// WithMaxResponseBytes caps a response body (default 32 MiB); larger bodies
// fail with llm.ErrResponseTooLarge.
func WithMaxResponseBytes(n int64) Option { return transport(httpx.MaxResponseBytes(n)) }

// WithLogger logs retries at debug level (default: silent).
func WithLogger(l *slog.Logger) Option { return transport(httpx.Logger(l)) }
