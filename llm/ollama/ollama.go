package ollama

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

const provider = "ollama"

// Client talks to Ollama's native API. It is an llm.Model and an
// llm.Embedder, safe for concurrent use.
type Client struct {
	cfg        config
	embeddings *httpx.Embeddings
}

var (
	_ llm.Model    = (*Client)(nil)
	_ llm.Embedder = (*Client)(nil)
)

// New returns a Client for the server at DefaultBaseURL unless WithBaseURL
// says otherwise.
func New(opts ...Option) *Client {
	cfg := config{http: httpx.New(provider, DefaultBaseURL)}
	for _, o := range opts {
		o(&cfg)
	}
	return &Client{cfg: cfg, embeddings: httpx.NewEmbeddings(cfg.http, "/api/embed", cfg.embed, 64)}
}

type chatRequest struct {
	Model    string          `json:"model"`
	Messages []httpx.Message `json:"messages"`
	Stream   bool            `json:"stream"`
	Format   json.RawMessage `json:"format,omitempty"`
	Options  map[string]any  `json:"options,omitempty"`
}

type chatResponse struct {
	Model   string `json:"model"`
	Message *struct {
		Content string `json:"content"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
}

// Complete implements llm.Model with POST /api/chat (stream false).
// Temperature, MaxTokens and Stop become options.temperature,
// options.num_predict and options.stop; JSONSchema becomes "format".
//
// A reply cut at the token limit with no content fails with
// llm.ErrTruncated (the Response is returned too); with content it is
// returned with FinishReason llm.FinishLength.
func (c *Client) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	model, err := httpx.CheckRequest(provider, req, c.cfg.model, true)
	if err != nil {
		return nil, err
	}
	body := chatRequest{Model: model, Format: req.JSONSchema, Options: map[string]any{}}
	body.Messages, _ = httpx.Messages(req.Messages, false)
	if req.Temperature != nil {
		body.Options["temperature"] = *req.Temperature
	}
	if req.MaxTokens > 0 {
		body.Options["num_predict"] = req.MaxTokens
	}
	if len(req.Stop) > 0 {
		body.Options["stop"] = req.Stop
	}
	maps.Copy(body.Options, c.cfg.options)
	var resp chatResponse
	raw, err := c.cfg.http.Call(ctx, "/api/chat", body, c.cfg.extra, &resp)
	if err != nil {
		return nil, err
	}
	if resp.Message == nil || !resp.Done {
		return nil, httpx.Malformed(provider, "no message or done=false in /api/chat response")
	}
	return httpx.Reply(provider, &llm.Response{
		Content:      resp.Message.Content,
		FinishReason: resp.DoneReason,
		Model:        resp.Model,
		Raw:          raw,
		Usage:        llm.Usage{PromptTokens: resp.PromptEvalCount, CompletionTokens: resp.EvalCount},
	})
}

type embedResponse struct {
	Embeddings [][]float32 `json:"embeddings"`
}

// Embed implements llm.Embedder with POST /api/embed, sending up to the
// batch size texts per request.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) > 0 && c.cfg.embed.Model == "" {
		return nil, httpx.BadRequest(provider, "no embedding model (use WithEmbedding)")
	}
	return httpx.Embed(ctx, c.embeddings, texts, func(resp *embedResponse, _ int) ([][]float32, error) {
		return resp.Embeddings, nil
	})
}

// Dimension implements llm.Embedder: the declared dimension (WithEmbedding)
// or the one learnt from the first embedding response; 0 before either.
func (c *Client) Dimension() int { return c.embeddings.Dimension() }
