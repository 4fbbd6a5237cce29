// Package llmtest holds the test helpers the llm clients share, so each
// client's tests say only what its wire format adds.
//
// RunFaults runs one fault suite (rate limits with and without
// Retry-After, 5xx, 4xx, garbage and truncated bodies, oversize answers,
// a hung server, a closed port, cancellation during backoff) against an
// httptest server speaking the client's format. A client's test describes
// its endpoint and how to build the client from a Target:
//
//	llmtest.RunFaults(t, llmtest.Faults{
//		Path:      "/chat/completions",
//		OK:        chatBody("SELECT 1", "stop"),
//		Empty:     `{"choices":[]}`,
//		ErrorBody: errorBody,
//		Call: llmtest.CompleteCall(func(t llmtest.Target) llm.Model {
//			return openai.New(openai.WithBaseURL(t.URL), openai.WithTransport(t.Transport()), openai.WithModel("m"))
//		}, "SELECT 1"),
//	})
//
// Sleeper records backoff waits instead of sleeping; Recorder is a server
// that records what the client sent, checked with AssertJSON and
// AssertHeader; CheckReply checks a Complete result.
package llmtest
