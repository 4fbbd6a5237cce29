package openai_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/llmtest"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// chatBody renders a chat.completion object as OpenAI sends it.
func chatBody(content, finish string) string {
	c := "null"
	if content != "" {
		c = fmt.Sprintf("%q", content)
	}
	return `{"id":"chatcmpl-AbC123","object":"chat.completion","created":1731000000,` +
		`"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant",` +
		`"content":` + c + `,"refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"` + finish + `"}],` +
		`"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,` +
		`"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},` +
		`"completion_tokens_details":{"reasoning_tokens":0}},"service_tier":"default","system_fingerprint":"fp_0ba0d124f1"}`
}

// errorBody renders OpenAI's error object.
func errorBody(status int, typ, msg string) string {
	return fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":null,"code":null}}`, msg, typ)
}

func TestCompleteRequestAndResponse(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) {
		return 200, chatBody("SELECT count(*) FROM orders", "stop")
	})
	c := openai.New(
		openai.WithBaseURL(srv.URL+"/v1/"),
		openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}),
		openai.WithAPIKey("sk-test"),
		openai.WithOrganization("org-42"),
		openai.WithModel("gpt-4o-mini"),
		openai.WithExtraBody(map[string]any{"seed": 7, "top_p": 0.5, "temperature": 0.25}),
	)
	resp, err := c.Complete(context.Background(), &llm.Request{
		Messages:    []llm.Message{llm.System("You write SQL."), llm.User("How many orders?"), llm.Assistant("SELECT"), llm.User("go on")},
		Temperature: llm.Temperature(0),
		MaxTokens:   300,
		Stop:        []string{";"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Response{Content: "SELECT count(*) FROM orders", FinishReason: "stop", Model: "gpt-4o-mini-2024-07-18",
		Usage: llm.Usage{PromptTokens: 19, CompletionTokens: 10}}
	if resp.Content != want.Content || resp.FinishReason != want.FinishReason || resp.Model != want.Model || resp.Usage != want.Usage {
		t.Fatalf("response = %+v, want %+v", resp, want)
	}
	if string(resp.Raw) != chatBody("SELECT count(*) FROM orders", "stop") {
		t.Errorf("Raw is not the response body: %s", resp.Raw)
	}
	req := srv.Only(t)
	if req.Method != http.MethodPost || req.Path != "/v1/chat/completions" {
		t.Errorf("request %s %s, want POST /v1/chat/completions", req.Method, req.Path)
	}
	llmtest.AssertHeader(t, req.Header, "Authorization", "Bearer sk-test")
	llmtest.AssertHeader(t, req.Header, "OpenAI-Organization", "org-42")
	llmtest.AssertHeader(t, req.Header, "Content-Type", "application/json")
	// Extra fields are merged and override the client's own (temperature).
	llmtest.AssertJSON(t, req.Body, `{
		"model":"gpt-4o-mini",
		"messages":[{"role":"system","content":"You write SQL."},{"role":"user","content":"How many orders?"},
			{"role":"assistant","content":"SELECT"},{"role":"user","content":"go on"}],
		"temperature":0.25,"max_tokens":300,"stop":[";"],"seed":7,"top_p":0.5}`)
}

func TestCompleteMinimalRequest(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, chatBody("ok", "stop") })
	c := openai.New(openai.WithBaseURL(srv.URL), openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}), openai.WithModel("m"))
	if _, err := c.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("hi")}, Model: "override"}); err != nil {
		t.Fatal(err)
	}
	req := srv.Only(t)
	// No key: no Authorization header; unset knobs are left out; temperature 0 is not "unset".
	if h := req.Header.Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q, want none", h)
	}
	llmtest.AssertJSON(t, req.Body, `{"model":"override","messages":[{"role":"user","content":"hi"}]}`)
}

func TestCompleteJSONSchema(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, chatBody(`{"sql":"SELECT 1"}`, "stop") })
	c := openai.New(openai.WithBaseURL(srv.URL), openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}), openai.WithModel("m"),
		openai.WithMaxTokensField("max_completion_tokens"), openai.WithStrictSchema(false))
	schema := `{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"],"additionalProperties":false}`
	resp, err := c.Complete(context.Background(), &llm.Request{
		Messages:   []llm.Message{llm.User("q")},
		JSONSchema: []byte(schema),
		SchemaName: "sql_answer",
		MaxTokens:  50,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != `{"sql":"SELECT 1"}` {
		t.Fatalf("content = %q", resp.Content)
	}
	llmtest.AssertJSON(t, srv.Only(t).Body, `{"model":"m","messages":[{"role":"user","content":"q"}],
		"max_completion_tokens":50,
		"response_format":{"type":"json_schema","json_schema":{"name":"sql_answer","schema":`+schema+`,"strict":false}}}`)
}

func TestCompleteReplyOutcomes(t *testing.T) {
	refusal := strings.Replace(chatBody("", "stop"), `"refusal":null`, `"refusal":"I can't help with that."`, 1)
	tests := []struct {
		name       string
		body       string
		wantErr    error
		wantResp   bool
		wantFinish string
	}{
		{"length with content is reported, not an error", chatBody("SELECT a, b", "length"), nil, true, llm.FinishLength},
		{"length with no content is ErrTruncated", chatBody("", "length"), llm.ErrTruncated, true, llm.FinishLength},
		{"refusal", refusal, llm.ErrRefused, true, "stop"},
		{"content filter", chatBody("", "content_filter"), llm.ErrRefused, true, "content_filter"},
		{"null content without reason", chatBody("", "tool_calls"), llm.ErrMalformedResponse, false, ""},
		{"empty choices", `{"id":"x","object":"chat.completion","model":"m","choices":[],"usage":{}}`, llm.ErrMalformedResponse, false, ""},
		{"JSON array instead of object", `[1,2,3]`, llm.ErrMalformedResponse, false, ""},
		{"wrong field type", `{"choices":"nope"}`, llm.ErrMalformedResponse, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, tt.body })
			c := openai.New(openai.WithBaseURL(srv.URL), openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}))
			resp, err := c.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("q")}})
			llmtest.CheckReply(t, resp, err, tt.wantErr, tt.wantResp, tt.wantFinish)
		})
	}
}

func TestCompleteRejectsEmptyRequest(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, chatBody("x", "stop") })
	c := openai.New(openai.WithBaseURL(srv.URL), openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}))
	bad := &llm.Request{Messages: []llm.Message{llm.User("q")}, JSONSchema: []byte(`{"type":`)}
	for _, req := range []*llm.Request{nil, {}, bad} {
		if _, err := c.Complete(context.Background(), req); !errors.Is(err, llm.ErrBadRequest) {
			t.Errorf("Complete(%v) err = %v, want ErrBadRequest", req, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent for invalid input", n)
	}
}

// embeddingsBody answers an embeddings request for inputs with vectors
// [i, len(input_i), dim...] in reverse index order, as servers may.
func embeddingsBody(inputs []string, dim int) string {
	var b strings.Builder
	b.WriteString(`{"object":"list","data":[`)
	for i := len(inputs) - 1; i >= 0; i-- {
		vec := make([]string, dim)
		for j := range vec {
			vec[j] = "0"
		}
		vec[0] = fmt.Sprint(len(inputs[i]))
		if i != len(inputs)-1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"object":"embedding","index":%d,"embedding":[%s]}`, i, strings.Join(vec, ","))
	}
	b.WriteString(`],"model":"text-embedding-3-small","usage":{"prompt_tokens":8,"total_tokens":8}}`)
	return b.String()
}

func decodeInputs(t *testing.T, body []byte) []string {
	var req struct {
		Input []string `json:"input"`
	}
	if err := jsonUnmarshal(body, &req); err != nil {
		t.Errorf("bad request body: %v", err)
	}
	return req.Input
}

func TestEmbedOrdersByIndexAndBatches(t *testing.T) {
	var srv *llmtest.Recorder
	srv = llmtest.NewRecorder(t, func(n int, r llmtest.Recorded) (int, string) {
		return 200, embeddingsBody(decodeInputs(t, r.Body), 4)
	})
	c := openai.New(openai.WithBaseURL(srv.URL), openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}), openai.WithAPIKey("k"),
		openai.WithEmbedding(llm.Embedding{Model: "text-embedding-3-small", BatchSize: 2, Extra: map[string]any{"dimensions": 4}}))
	if d := c.Dimension(); d != 0 {
		t.Fatalf("Dimension before any call = %d, want 0", d)
	}
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	vecs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != 4 || v[0] != float32(len(texts[i])) {
			t.Errorf("vector %d = %v, want the one for %q", i, v, texts[i])
		}
	}
	if d := c.Dimension(); d != 4 {
		t.Errorf("Dimension = %d, want 4 (learnt)", d)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 batches of <= 2", len(reqs))
	}
	for _, r := range reqs {
		if r.Path != "/embeddings" {
			t.Errorf("path %s", r.Path)
		}
		llmtest.AssertHeader(t, r.Header, "Authorization", "Bearer k")
	}
	llmtest.AssertJSON(t, reqs[0].Body, `{"model":"text-embedding-3-small","input":["a","bb"],"dimensions":4}`)
	llmtest.AssertJSON(t, reqs[2].Body, `{"model":"text-embedding-3-small","input":["eeeee"],"dimensions":4}`)

	if vecs, err := c.Embed(context.Background(), nil); err != nil || len(vecs) != 0 || len(srv.Requests()) != 3 {
		t.Errorf("Embed(nil) = %v, %v; want no vectors and no request", vecs, err)
	}
}

func TestEmbedRejectsInconsistentResponses(t *testing.T) {
	tests := []struct {
		name string
		dim  int // declared; 0 = learn
		body string
	}{
		{"fewer vectors than inputs", 0, embeddingsBody([]string{"a"}, 3)},
		{"declared dimension differs", 5, embeddingsBody([]string{"a", "b"}, 3)},
		{"mixed dimensions", 0, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,2]},{"object":"embedding","index":1,"embedding":[1,2,3]}]}`},
		{"repeated index", 0, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,2]},{"object":"embedding","index":0,"embedding":[1,2]}]}`},
		{"index out of range", 0, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,2]},{"object":"embedding","index":2,"embedding":[1,2]}]}`},
		{"empty vector", 0, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[]},{"object":"embedding","index":1,"embedding":[]}]}`},
		{"no data", 0, `{"object":"list","model":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, tt.body })
			c := openai.New(openai.WithBaseURL(srv.URL), openai.WithTransport(llm.Transport{HTTPClient: srv.Client()}), openai.WithEmbedding(llm.Embedding{Dimension: tt.dim}))
			if _, err := c.Embed(context.Background(), []string{"a", "b"}); !errors.Is(err, llm.ErrMalformedResponse) {
				t.Fatalf("err = %v, want ErrMalformedResponse", err)
			}
		})
	}
}

func faultClient(t llmtest.Target) *openai.Client {
	return openai.New(openai.WithBaseURL(t.URL), openai.WithTransport(t.Transport()),
		openai.WithModel("m"))
}

func TestChatFaults(t *testing.T) {
	llmtest.RunFaults(t, llmtest.Faults{
		Path:      "/chat/completions",
		OK:        chatBody("SELECT 1", "stop"),
		Empty:     `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[]}`,
		ErrorBody: errorBody,
		Call:      llmtest.CompleteCall(func(t llmtest.Target) llm.Model { return faultClient(t) }, "SELECT 1"),
	})
}

func TestEmbeddingFaults(t *testing.T) {
	llmtest.RunFaults(t, llmtest.Faults{
		Path:      "/embeddings",
		OK:        embeddingsBody([]string{"one", "three"}, 8),
		Empty:     `{"object":"list","data":[],"model":"m","usage":{"prompt_tokens":0,"total_tokens":0}}`,
		ErrorBody: errorBody,
		Call:      llmtest.EmbedCall(func(t llmtest.Target) llm.Embedder { return faultClient(t) }, "one", "three"),
	})
}
