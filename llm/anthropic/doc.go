// Package anthropic is an llm.Model for Anthropic's Messages API. It uses
// only net/http.
//
//	c := anthropic.New(
//		anthropic.WithAPIKey(os.Getenv("ANTHROPIC_API_KEY")),
//		anthropic.WithModel("claude-sonnet-4-5"),
//	)
//	resp, err := c.Complete(ctx, &llm.Request{Messages: []llm.Message{llm.System(rules), llm.User(question)}})
//
// Complete sends POST {base}/v1/messages with x-api-key and
// anthropic-version 2023-06-01. System messages become the top-level
// "system" field; max_tokens, which the API requires, is Request.MaxTokens
// or the client default (WithMaxTokens, 2048). The reply's text blocks are
// joined into Response.Content (thinking blocks are skipped).
//
// Request.JSONSchema is implemented with a forced tool call: one tool whose
// input_schema is the schema and tool_choice {"type":"tool"}; the tool's
// input becomes Response.Content as JSON. This needs no beta header and
// works on every current model.
//
// # Configuration
//
// The client reads no environment variables; callers pass the key. How
// requests travel (HTTP client, per-attempt timeout, retries and backoff,
// response size limit, logger) is one llm.Transport, the same for every
// client in llm/...; its zero value is the default:
//
//	c := anthropic.New(anthropic.WithAPIKey(key), anthropic.WithModel("claude-sonnet-4-5"),
//		anthropic.WithTransport(llm.Transport{MaxAttempts: 5, Logger: logger}))
//
// # Errors
//
// Overloaded (529) answers are retried like 5xx and end as
// llm.ErrServer; a "refusal" stop reason is llm.ErrRefused; other failures
// match the sentinels of package llm with errors.Is.
//
// Anthropic has no embeddings API; use llm/openai or llm/ollama for that.
package anthropic
