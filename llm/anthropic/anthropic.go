package anthropic

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

const provider = "anthropic"

// Client talks to Anthropic's Messages API. It is an llm.Model, safe for
// concurrent use. (Anthropic has no embeddings endpoint.)
type Client struct {
	cfg config
}

var _ llm.Model = (*Client)(nil)

// New returns a Client. Set at least WithAPIKey and WithModel.
func New(opts ...Option) *Client {
	cfg := config{http: httpx.New(provider, DefaultBaseURL), maxTokens: DefaultMaxTokens}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.http.Header.Set("anthropic-version", APIVersion)
	if cfg.apiKey != "" {
		cfg.http.Header.Set("x-api-key", cfg.apiKey)
	}
	if len(cfg.betas) > 0 {
		cfg.http.Header.Set("anthropic-beta", strings.Join(cfg.betas, ","))
	}
	if cfg.maxTokens <= 0 {
		cfg.maxTokens = DefaultMaxTokens
	}
	return &Client{cfg: cfg}
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type toolChoice struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

type messagesRequest struct {
	Model         string          `json:"model"`
	MaxTokens     int             `json:"max_tokens"`
	System        string          `json:"system,omitempty"`
	Messages      []httpx.Message `json:"messages"`
	Temperature   *float64        `json:"temperature,omitempty"`
	StopSequences []string        `json:"stop_sequences,omitempty"`
	Tools         []tool          `json:"tools,omitempty"`
	ToolChoice    *toolChoice     `json:"tool_choice,omitempty"`
}

type messagesResponse struct {
	Type    string `json:"type"`
	Model   string `json:"model"`
	Content []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// Complete implements llm.Model with POST /v1/messages. System messages go
// to the top-level "system" field (joined by blank lines); text blocks of
// the reply are joined. max_tokens is Request.MaxTokens or the client's
// default.
//
// Request.JSONSchema is sent as a single tool whose input_schema is the
// schema, with tool_choice forcing it; Response.Content is then the tool
// input as JSON. This works on every Claude model without beta headers.
//
// stop_reason end_turn, stop_sequence and tool_use map to llm.FinishStop,
// max_tokens to llm.FinishLength (llm.ErrTruncated when there is no
// content), refusal to llm.ErrRefused.
func (c *Client) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	model, err := httpx.CheckRequest(provider, req, c.cfg.model, true)
	if err != nil {
		return nil, err
	}
	body := messagesRequest{
		Model:         model,
		MaxTokens:     cmp.Or(req.MaxTokens, c.cfg.maxTokens),
		Temperature:   req.Temperature,
		StopSequences: req.Stop,
	}
	body.Messages, body.System = httpx.Messages(req.Messages, true)
	if len(body.Messages) == 0 {
		return nil, httpx.BadRequest(provider, "request has only system messages")
	}
	schemaTool := ""
	if len(req.JSONSchema) > 0 {
		schemaTool = req.SchemaNameOrDefault()
		body.Tools = []tool{{Name: schemaTool, Description: "Reply by calling this tool with the answer.", InputSchema: req.JSONSchema}}
		body.ToolChoice = &toolChoice{Type: "tool", Name: schemaTool}
	}
	var resp messagesResponse
	raw, err := c.cfg.http.Call(ctx, "/v1/messages", body, c.cfg.extra, &resp)
	if err != nil {
		return nil, err
	}
	if resp.Type != "message" || resp.Content == nil {
		return nil, httpx.Malformed(provider, "not a message with content (type %q)", resp.Type)
	}
	out := &llm.Response{
		FinishReason: finishReason(resp.StopReason),
		Model:        resp.Model,
		Raw:          raw,
		Usage:        llm.Usage{PromptTokens: resp.Usage.InputTokens, CompletionTokens: resp.Usage.OutputTokens},
	}
	var text strings.Builder
	for _, b := range resp.Content {
		switch {
		case b.Type == "text":
			text.WriteString(b.Text)
		case b.Type == "tool_use" && schemaTool != "" && b.Name == schemaTool && out.Content == "":
			out.Content = string(b.Input)
		}
	}
	if schemaTool == "" {
		out.Content = text.String()
	}
	switch {
	case resp.StopReason == "refusal":
		return out, fmt.Errorf("%w: %s: stop_reason refusal", llm.ErrRefused, provider)
	case out.Content == "" && schemaTool != "" && out.FinishReason != llm.FinishLength:
		return nil, httpx.Malformed(provider, "no %q tool_use block in the reply", schemaTool)
	}
	return httpx.Reply(provider, out)
}

func finishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence", "tool_use":
		return llm.FinishStop
	case "max_tokens", "model_context_window_exceeded":
		return llm.FinishLength
	}
	return stop
}
