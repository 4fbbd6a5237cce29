// Package ollama is an llm.Model and llm.Embedder for Ollama's native API
// (/api/chat and /api/embed). It uses only net/http. (Ollama also speaks
// the OpenAI protocol at /v1, usable with package llm/openai.)
//
//	c := ollama.New(
//		ollama.WithBaseURL(ollama.HostFromEnv()), // OLLAMA_HOST or http://127.0.0.1:11434
//		ollama.WithModel("qwen2.5-coder:7b"),
//		ollama.WithEmbedding(llm.Embedding{Model: "nomic-embed-text"}),
//	)
//	resp, err := c.Complete(ctx, &llm.Request{Messages: []llm.Message{llm.User("Say hi")}})
//	vecs, err := c.Embed(ctx, []string{"orders", "customers"})
//
// Complete sends stream false; Temperature, MaxTokens and Stop become
// options.temperature, options.num_predict and options.stop, and
// Request.JSONSchema becomes "format" (Ollama's structured outputs). Other
// model options (num_ctx, top_k, ...) go in WithOptions, other top-level
// fields (keep_alive, think) in WithExtraBody.
//
// Embed sends batches (llm.Embedding.BatchSize) of "input" to /api/embed.
// Dimension is the declared llm.Embedding.Dimension, or the length of the first vector
// received.
//
// # Configuration
//
// The client reads no environment variables itself: HostFromEnv is there
// for callers who want OLLAMA_HOST.
//
// How requests travel (HTTP client, per-attempt timeout, retries and
// backoff, response size limit, logger) is one llm.Transport, the same for
// every client in llm/...; its zero value is the default. Local models can
// be slow to load, so a first request may need more than the default 2
// minutes an attempt:
//
//	c := ollama.New(ollama.WithModel("qwen2.5-coder:32b"),
//		ollama.WithTransport(llm.Transport{Timeout: 10 * time.Minute}))
//
// # Errors
//
// Failures match the sentinels of package llm with errors.Is; an unknown
// model is Ollama's 404, so llm.ErrBadRequest with the server's message
// ("model ... not found, try pulling it first") in the *llm.APIError.
package ollama
