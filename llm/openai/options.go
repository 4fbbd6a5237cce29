package openai

import (
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

// DefaultBaseURL is OpenAI's API root. Point WithBaseURL at any
// OpenAI-compatible server instead: vLLM and llama.cpp
// ("http://host:8000/v1"), LM Studio ("http://localhost:1234/v1"), Ollama
// ("http://localhost:11434/v1").
const DefaultBaseURL = "https://api.openai.com/v1"

// Option configures a Client; pass any number to New.
type Option func(*config)

type config struct {
	http           httpx.Settings
	apiKey         string
	organization   string
	model          string
	embed          httpx.EmbedConfig
	maxTokensField string
	looseSchema    bool
	extra          map[string]any
}

// WithBaseURL sets the API root (default DefaultBaseURL); paths such as
// "/chat/completions" are appended to it.
func WithBaseURL(url string) Option { return func(c *config) { c.http.SetBaseURL(url) } }

// WithAPIKey sends "Authorization: Bearer key". Local servers usually need none.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithOrganization sends the OpenAI-Organization header.
func WithOrganization(org string) Option { return func(c *config) { c.organization = org } }

// WithModel sets the chat model (Request.Model overrides it per request).
func WithModel(model string) Option { return func(c *config) { c.model = model } }

// WithMaxTokensField names the JSON field Request.MaxTokens is sent as:
// "max_tokens" (default; what most compatible servers read) or
// "max_completion_tokens" (required by OpenAI's reasoning models).
func WithMaxTokensField(name string) Option {
	return func(c *config) { c.maxTokensField = name }
}

// WithStrictSchema sets json_schema.strict (default true). OpenAI's strict
// mode guarantees the schema but only accepts a subset of JSON Schema
// (every property required, additionalProperties false); turn it off for
// other schemas or servers that reject the flag.
func WithStrictSchema(strict bool) Option {
	return func(c *config) { c.looseSchema = !strict }
}

// WithExtraBody merges fields into every chat completion request body
// (e.g. {"top_p": 0.9, "seed": 1} or vLLM's {"guided_decoding_backend": ...}).
// They override fields the client sets itself.
func WithExtraBody(fields map[string]any) Option {
	return func(c *config) { c.extra = fields }
}

// WithEmbedding sets how Embed works: the model, the declared dimension,
// the batch size and extra body fields (see llm.Embedding).
func WithEmbedding(e llm.Embedding) Option { return func(c *config) { c.embed = e } }

// WithTransport sets how the client sends its requests: the HTTP client,
// the per-attempt timeout, retries and backoff, the response size limit
// and the logger. Zero fields keep their defaults (see llm.Transport); a
// later WithTransport replaces an earlier one whole.
func WithTransport(t llm.Transport) Option {
	return func(c *config) { c.http.SetTransport(t) }
}
