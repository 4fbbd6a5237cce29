// Package llm is the vocabulary shared by the language-model and embedding
// providers (llm/openai, llm/ollama, llm/anthropic) and by the pipeline
// stages that call them.
//
// A chat model is anything with one method:
//
//	type Model interface {
//		Complete(ctx context.Context, req *Request) (*Response, error)
//	}
//
// and an embedder turns texts into vectors:
//
//	type Embedder interface {
//		Embed(ctx context.Context, texts []string) ([][]float32, error)
//		Dimension() int
//	}
//
// A request is a list of messages plus optional knobs; nil/zero knobs leave
// the choice to the provider:
//
//	resp, err := model.Complete(ctx, &llm.Request{
//		Messages:    []llm.Message{llm.System(rules), llm.User(question)},
//		Temperature: llm.Temperature(0),
//		MaxTokens:   1024,
//		JSONSchema:  json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`),
//	})
//
// # Errors
//
// Providers retry rate limits (429), server errors (5xx, Anthropic's 529)
// and network faults themselves, with exponential backoff that honours
// Retry-After and never sleeps past the context's deadline. What reaches the
// caller matches one sentinel with errors.Is:
//
//   - ErrRateLimited, ErrServer: still failing after the retries;
//   - ErrAuth, ErrBadRequest: rejected, retrying will not help;
//   - ErrMalformedResponse: a 2xx body that is not what the API promises;
//   - ErrTruncated: the body was cut off on the wire, or the model hit its
//     token limit before writing anything;
//   - ErrResponseTooLarge: the body exceeded the client's size limit;
//   - ErrRefused: the model declined to answer;
//
// or is the context's error (errors.Is(err, context.DeadlineExceeded)).
// HTTP failures are *APIError values carrying the status, the provider's
// error type and message, and Retry-After; get one with errors.As.
//
// A reply that hit the token limit after writing something is not an
// error: Response.FinishReason is FinishLength and callers decide.
package llm
