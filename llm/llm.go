package llm

import (
	"context"
	"encoding/json"
)

// Model is a chat model: it completes a conversation with one reply.
// Implementations are safe for concurrent use. When the error is
// ErrTruncated (token limit hit before any content) or ErrRefused, the
// Response is returned too, so usage can still be accounted for.
type Model interface {
	Complete(ctx context.Context, req *Request) (*Response, error)
}

// Embedder turns texts into vectors of Dimension() floats, one per text and
// in the same order. Implementations are safe for concurrent use. The
// schema index (retrieve.WithEmbedder), the few-shot store
// (generate.NewExampleStore) and the Engine (nl2sql.WithEmbedder) all take
// one.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dimension() int
}

// Role says who wrote a Message.
type Role string

// The roles every provider understands. Providers without a system role in
// their message list (Anthropic) move system messages to their own field.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role    Role
	Content string
}

// System, User and Assistant build a Message with that role.
func System(content string) Message    { return Message{Role: RoleSystem, Content: content} }
func User(content string) Message      { return Message{Role: RoleUser, Content: content} }
func Assistant(content string) Message { return Message{Role: RoleAssistant, Content: content} }

// Request is one completion request. Only Messages is required; zero values
// leave the choice to the provider (or to the client's defaults).
type Request struct {
	Messages []Message

	// Model overrides the client's default model for this request.
	Model string

	// Temperature is nil for the provider's default; use Temperature(0) for
	// deterministic-as-possible output.
	Temperature *float64

	// MaxTokens caps the reply length; 0 means the client's default (which
	// for OpenAI and Ollama is "no cap sent", for Anthropic 2048).
	MaxTokens int

	// Stop sequences end the reply early.
	Stop []string

	// JSONSchema, when set, asks for a reply that is a JSON document following
	// this JSON Schema (an object schema). Response.Content is then that JSON.
	JSONSchema json.RawMessage

	// SchemaName names the schema where the provider wants a name (OpenAI's
	// json_schema.name, Anthropic's tool name). Default "response".
	SchemaName string
}

// Temperature returns a pointer to t, for Request.Temperature.
func Temperature(t float64) *float64 { return &t }

// Finish reasons, normalised across providers. Providers' other reasons are
// passed through unchanged (for example "content_filter", "tool_calls").
const (
	FinishStop   = "stop"   // natural end or a stop sequence
	FinishLength = "length" // the reply hit MaxTokens or the context limit
)

// Response is a model's reply.
type Response struct {
	Content      string
	FinishReason string // FinishStop, FinishLength or the provider's own reason
	Usage        Usage
	Model        string          // the model that answered, as the server reports it
	Raw          json.RawMessage // the undecoded response body
}

// Usage counts tokens as the server reports them (zero when it does not).
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// SchemaNameOrDefault returns r.SchemaName, or "response" when it is empty.
func (r *Request) SchemaNameOrDefault() string {
	if r.SchemaName != "" {
		return r.SchemaName
	}
	return "response"
}
