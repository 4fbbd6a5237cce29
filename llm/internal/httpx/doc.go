// Package httpx is the HTTP machinery the llm clients share, so that each
// of llm/openai, llm/ollama and llm/anthropic holds only what its wire
// format needs.
//
// A client keeps one Settings: its provider name, base URL, headers and the
// llm.Transport its WithTransport option gave, resolved so every default
// is filled in:
//
//	s := httpx.New("openai", openai.DefaultBaseURL)
//	s.SetTransport(t)                      // WithTransport
//	s.Header.Set("Authorization", "Bearer "+key)
//	raw, err := s.Call(ctx, "/chat/completions", body, extra, &resp)
//
// Call marshals the request (merging the caller's extra body fields), and
// Post sends it: it retries rate limits, server errors, answers cut off on
// the wire and network faults with exponential backoff (honouring
// Retry-After, never sleeping past the context's deadline), caps the answer
// at MaxResponseBytes, and turns every failure into an llm sentinel or an
// *llm.APIError. DecodeJSON then tells a body cut mid-document
// (llm.ErrTruncated) from one that is not the promised JSON
// (llm.ErrMalformedResponse).
//
// The remaining helpers keep the clients' Complete and Embed short and
// alike: CheckRequest and Messages prepare a request, Reply finishes a
// reply, and Embeddings batches embedding calls and enforces one vector
// dimension.
package httpx
