package anthropic

import (
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

// DefaultBaseURL is Anthropic's API root; "/v1/messages" is appended.
const DefaultBaseURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header the client sends.
const APIVersion = "2023-06-01"

// DefaultMaxTokens is sent as max_tokens (which the Messages API requires)
// when neither the Request nor WithMaxTokens sets one.
const DefaultMaxTokens = 2048

// Option configures a Client; pass any number to New.
type Option func(*config)

type config struct {
	http      httpx.Settings
	apiKey    string
	model     string
	maxTokens int
	betas     []string
	extra     map[string]any
}

// WithBaseURL sets the API root (default DefaultBaseURL), without /v1.
func WithBaseURL(url string) Option { return func(c *config) { c.http.SetBaseURL(url) } }

// WithAPIKey sends the x-api-key header.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithModel sets the model, e.g. "claude-sonnet-4-5" (Request.Model
// overrides it per request). The Messages API needs one.
func WithModel(model string) Option { return func(c *config) { c.model = model } }

// WithMaxTokens sets max_tokens for requests whose MaxTokens is 0 (default
// DefaultMaxTokens).
func WithMaxTokens(n int) Option { return func(c *config) { c.maxTokens = n } }

// WithBeta sends the anthropic-beta header with these feature names.
func WithBeta(features ...string) Option {
	return func(c *config) { c.betas = append(c.betas, features...) }
}

// WithExtraBody merges fields into every request body (e.g. {"top_k": 40}
// or {"metadata": {"user_id": "..."}}); they override the client's own.
func WithExtraBody(fields map[string]any) Option {
	return func(c *config) { c.extra = fields }
}

// WithTransport sets how the client sends its requests: the HTTP client,
// the per-attempt timeout, retries and backoff, the response size limit
// and the logger. Zero fields keep their defaults (see llm.Transport); a
// later WithTransport replaces an earlier one whole.
func WithTransport(t llm.Transport) Option {
	return func(c *config) { c.http.SetTransport(t) }
}
