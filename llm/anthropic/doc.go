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
// Overloaded (529) answers are retried like 5xx. Retries, timeouts, the
// response size limit and errors are described in package llm. Anthropic
// has no embeddings API; use llm/openai or llm/ollama for that.
package anthropic
