// Package openai is an llm.Model and llm.Embedder for OpenAI's API and the
// many servers that speak it: vLLM, llama.cpp's server, LM Studio, Ollama's
// /v1 endpoint. It uses only net/http.
//
//	c := openai.New(
//		openai.WithAPIKey(os.Getenv("OPENAI_API_KEY")),
//		openai.WithModel("gpt-4o-mini"),
//		openai.WithEmbedding(llm.Embedding{Model: "text-embedding-3-small"}),
//	)
//	resp, err := c.Complete(ctx, &llm.Request{Messages: []llm.Message{llm.User("Say hi")}})
//	vecs, err := c.Embed(ctx, []string{"orders", "customers"})
//
// For a local server, point the client at its /v1 root; no key is needed:
//
//	c := openai.New(openai.WithBaseURL("http://localhost:8000/v1"), openai.WithModel("Qwen/Qwen2.5-Coder-7B-Instruct"))
//
// Complete sends POST {base}/chat/completions with stream false.
// Request.JSONSchema becomes response_format {"type":"json_schema",
// "json_schema":{"name","schema","strict":true}} (strict mode wants
// "additionalProperties": false and every property required). MaxTokens is
// sent as max_tokens, or as max_completion_tokens with
// WithMaxTokensField("max_completion_tokens") for reasoning models.
// Anything else the server understands (seed, top_p, vLLM's guided
// decoding, ...) goes in WithExtraBody.
//
// Embed sends POST {base}/embeddings in batches (llm.Embedding.BatchSize)
// and orders the vectors by the "index" the server returns. Dimension is
// the declared llm.Embedding.Dimension, or the length of the first vector received.
//
// # Configuration
//
// New reads nothing from the environment: callers pass keys and URLs.
// FromEnv reads OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_ORG_ID the way
// OpenAI's own SDKs do, and checks them.
//
// How requests travel (HTTP client, per-attempt timeout, retries and
// backoff, response size limit, logger) is one llm.Transport, the same for
// every client in llm/...; its zero value is the default:
//
//	c := openai.New(openai.WithModel("gpt-4o-mini"), openai.WithAPIKey(key),
//		openai.WithTransport(llm.Transport{Timeout: 20 * time.Second, MaxAttempts: 1}))
//
// # Errors
//
// Failures match the sentinels of package llm with errors.Is
// (llm.ErrRateLimited, llm.ErrAuth, llm.ErrMalformedResponse, ...); a
// refusal or a content-filter stop is llm.ErrRefused.
package openai
