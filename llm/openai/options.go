package openai

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

// DefaultBaseURL is OpenAI's API root. Point WithBaseURL at any
// OpenAI-compatible server instead: vLLM and llama.cpp
// ("http://host:8000/v1"), LM Studio ("http://localhost:1234/v1"), Ollama
// ("http://localhost:11434/v1").
const DefaultBaseURL = "https://api.openai.com/v1"

// Option configures a Client.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	http           httpx.Settings
	apiKey         string
	organization   string
	model          string
	embeddingModel string
	dimension      int
	batchSize      int
	maxTokensField string
	looseSchema    bool
	extra          map[string]any
	embedExtra     map[string]any
}

func transport(f func(*httpx.Settings)) Option {
	return optionFunc(func(c *config) { f(&c.http) })
}

// WithBaseURL sets the API root (default DefaultBaseURL); paths such as
// "/chat/completions" are appended to it.
func WithBaseURL(url string) Option {
	return transport(httpx.BaseURL(url))
}

// WithAPIKey sends "Authorization: Bearer key". Local servers usually need none.
func WithAPIKey(key string) Option { return optionFunc(func(c *config) { c.apiKey = key }) }

// WithOrganization sends the OpenAI-Organization header.
func WithOrganization(org string) Option { return optionFunc(func(c *config) { c.organization = org }) }

// WithModel sets the chat model (Request.Model overrides it per request).
func WithModel(model string) Option { return optionFunc(func(c *config) { c.model = model }) }

// WithEmbeddingModel sets the embedding model (e.g. "text-embedding-3-small").
func WithEmbeddingModel(model string) Option {
	return optionFunc(func(c *config) { c.embeddingModel = model })
}

// WithDimension declares the embedding dimension. Responses with another
// dimension are rejected. Without it the client learns the dimension from
// its first embedding response, and Dimension returns 0 until then.
func WithDimension(n int) Option { return optionFunc(func(c *config) { c.dimension = n }) }

// WithEmbeddingBatchSize sets how many texts go into one embeddings request
// (default 256); Embed splits larger inputs into several requests.
func WithEmbeddingBatchSize(n int) Option { return optionFunc(func(c *config) { c.batchSize = n }) }

// WithMaxTokensField names the JSON field Request.MaxTokens is sent as:
// "max_tokens" (default; what most compatible servers read) or
// "max_completion_tokens" (required by OpenAI's reasoning models).
func WithMaxTokensField(name string) Option {
	return optionFunc(func(c *config) { c.maxTokensField = name })
}

// WithStrictSchema sets json_schema.strict (default true). OpenAI's strict
// mode guarantees the schema but only accepts a subset of JSON Schema
// (every property required, additionalProperties false); turn it off for
// other schemas or servers that reject the flag.
func WithStrictSchema(strict bool) Option {
	return optionFunc(func(c *config) { c.looseSchema = !strict })
}

// WithExtraBody merges fields into every chat completion request body
// (e.g. {"top_p": 0.9, "seed": 1} or vLLM's {"guided_decoding_backend": ...}).
// They override fields the client sets itself.
func WithExtraBody(fields map[string]any) Option {
	return optionFunc(func(c *config) { c.extra = fields })
}

// WithEmbeddingExtraBody merges fields into every embeddings request body,
// e.g. {"dimensions": 256} for text-embedding-3 models.
func WithEmbeddingExtraBody(fields map[string]any) Option {
	return optionFunc(func(c *config) { c.embedExtra = fields })
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
