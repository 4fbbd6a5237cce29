// Package llm is the vocabulary shared by the language-model and embedding
// clients (llm/openai, llm/ollama, llm/anthropic) and by the pipeline
// stages that call them: what a model is, what a request and a reply hold,
// how a client sends them, and what can go wrong.
//
// # Models and embedders
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
// The clients in the sub-packages implement them over HTTP; package
// llm/provider builds one from a spec such as "ollama:qwen2.5-coder:7b".
// Anything else with these methods (a fake in a test, another SDK behind
// an adapter) works wherever a Model or an Embedder is asked for.
//
// # Requests and replies
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
// The reply's Content is the model's text (the JSON document, when the
// request set JSONSchema), FinishReason says why it stopped (FinishStop,
// FinishLength or the provider's own word), and Usage counts tokens.
//
// # Transport
//
// Every client sends its requests the same way, set by one llm.Transport
// given to its WithTransport option. The zero value is the default, and so
// is each zero field, so a Transport names only what it changes:
//
//	c := openai.New(
//		openai.WithBaseURL("http://localhost:8000/v1"),
//		openai.WithModel("qwen2.5-coder"),
//		openai.WithTransport(llm.Transport{
//			Timeout:     30 * time.Second, // per attempt (default 2 minutes)
//			MaxAttempts: 5,                // first try included (default 3)
//			Logger:      slog.Default(),   // one debug record per retry (default: silent)
//		}),
//	)
//
// Clients retry rate limits (429), server errors (5xx, Anthropic's 529),
// answers cut off on the wire and network faults themselves, with an
// exponential backoff that honours Retry-After and never sleeps past the
// context's deadline. The context bounds the whole call, every attempt and
// wait included; WithCallTimeout on the context bounds each attempt, for
// callers that set a budget per model call rather than per client.
//
// # Errors
//
// What reaches the caller matches one sentinel with errors.Is:
//
//   - ErrRateLimited, ErrServer: still failing after the retries;
//   - ErrUnreachable: the request never reached the server (no such
//     host, connection refused), after the retries;
//   - ErrAuth, ErrBadRequest: rejected, retrying will not help;
//   - ErrMalformedResponse: a 2xx body that is not what the API promises;
//   - ErrTruncated: the body was cut off on the wire, or the model hit its
//     token limit before writing anything;
//   - ErrResponseTooLarge: the body exceeded Transport.MaxResponseBytes;
//   - ErrRefused: the model declined to answer;
//
// or is the context's error (errors.Is(err, context.DeadlineExceeded)).
// HTTP failures are *APIError values carrying the status, the provider's
// error type and message, and Retry-After; get one with errors.As:
//
//	resp, err := model.Complete(ctx, req)
//	var api *llm.APIError
//	switch {
//	case errors.As(err, &api) && api.StatusCode == http.StatusPaymentRequired:
//		// out of credit
//	case errors.Is(err, llm.ErrRateLimited), errors.Is(err, llm.ErrServer):
//		// try later, or another model
//	case errors.Is(err, llm.ErrAuth):
//		// fix the key
//	}
//
// A reply that hit the token limit after writing something is not an
// error: Response.FinishReason is FinishLength and callers decide.
package llm
