package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

const provider = "openai"

// Client talks to an OpenAI-compatible server. It is an llm.Model and an
// llm.Embedder, safe for concurrent use.
type Client struct {
	cfg        config
	embeddings *httpx.Embeddings // batching and the embedding dimension
}

var (
	_ llm.Model    = (*Client)(nil)
	_ llm.Embedder = (*Client)(nil)
)

// New returns a Client. Without options it talks to api.openai.com with no
// API key and no model: set at least WithAPIKey and WithModel there.
func New(opts ...Option) *Client {
	cfg := config{
		http:           httpx.New(provider, DefaultBaseURL),
		maxTokensField: "max_tokens",
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.apiKey != "" {
		cfg.http.Header.Set("Authorization", "Bearer "+cfg.apiKey)
	}
	if cfg.organization != "" {
		cfg.http.Header.Set("OpenAI-Organization", cfg.organization)
	}
	return &Client{cfg: cfg, embeddings: httpx.NewEmbeddings(cfg.http, "/embeddings", cfg.embed, 256)}
}

type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []httpx.Message `json:"messages"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Stop           []string        `json:"stop,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// Complete implements llm.Model with POST /chat/completions (stream false).
// Request.JSONSchema becomes response_format {type: json_schema} (strict
// unless WithStrictSchema(false)).
//
// A reply cut at the token limit with no content at all fails with
// llm.ErrTruncated; the Response is returned alongside the error so usage
// can still be counted. A reply cut with some content is returned with
// FinishReason llm.FinishLength and no error.
func (c *Client) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	model, err := httpx.CheckRequest(provider, req, c.cfg.model, false)
	if err != nil {
		return nil, err
	}
	body := chatRequest{Model: model, Temperature: req.Temperature, Stop: req.Stop}
	body.Messages, _ = httpx.Messages(req.Messages, false)
	if len(req.JSONSchema) > 0 {
		body.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{
			Name: req.SchemaNameOrDefault(), Schema: req.JSONSchema, Strict: !c.cfg.looseSchema,
		}}
	}
	extra := map[string]any{}
	if req.MaxTokens > 0 {
		extra[c.cfg.maxTokensField] = req.MaxTokens
	}
	maps.Copy(extra, c.cfg.extra) // WithExtraBody wins, as documented
	var resp chatResponse
	raw, err := c.cfg.http.Call(ctx, "/chat/completions", body, extra, &resp)
	if err != nil {
		return nil, err
	}
	if len(resp.Choices) == 0 {
		return nil, httpx.Malformed(provider, "no choices in response")
	}
	ch := resp.Choices[0]
	out := &llm.Response{
		FinishReason: ch.FinishReason,
		Model:        resp.Model,
		Raw:          raw,
		Usage:        llm.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens},
	}
	if ch.Message.Content != nil {
		out.Content = *ch.Message.Content
	}
	if out.Content != "" {
		return out, nil
	}
	switch {
	case ch.Message.Refusal != nil && *ch.Message.Refusal != "":
		return out, fmt.Errorf("%w: %s: %s", llm.ErrRefused, provider, *ch.Message.Refusal)
	case ch.FinishReason == "content_filter":
		return out, fmt.Errorf("%w: %s: content filter", llm.ErrRefused, provider)
	case ch.Message.Content == nil && ch.FinishReason != llm.FinishLength:
		return nil, httpx.Malformed(provider, "choice has no message content (finish_reason %q)", ch.FinishReason)
	}
	return httpx.Reply(provider, out)
}

type embedResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed implements llm.Embedder with POST /embeddings, sending up to the
// batch size texts per request and placing vectors by their "index".
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return httpx.Embed(ctx, c.embeddings, texts, byIndex)
}

// byIndex orders an answer's vectors by their "index".
func byIndex(resp *embedResponse, n int) ([][]float32, error) {
	if len(resp.Data) != n {
		return nil, httpx.Malformed(provider, "%d embeddings for %d inputs", len(resp.Data), n)
	}
	vecs := make([][]float32, n)
	for i, d := range resp.Data {
		idx := i // servers that omit index return input order
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx >= len(vecs) || vecs[idx] != nil {
			return nil, httpx.Malformed(provider, "embedding index %d out of range or repeated", idx)
		}
		vecs[idx] = d.Embedding
	}
	return vecs, nil
}

// Dimension implements llm.Embedder: the declared dimension (WithEmbedding)
// or the one learnt from the first embedding response; 0 before either.
func (c *Client) Dimension() int { return c.embeddings.Dimension() }
