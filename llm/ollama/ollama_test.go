package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/llmtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// chatBody renders a non-streamed /api/chat reply as Ollama sends it.
func chatBody(content, doneReason string) string {
	return fmt.Sprintf(`{"model":"qwen2.5-coder:7b","created_at":"2024-11-21T14:13:43.416799Z",`+
		`"message":{"role":"assistant","content":%q},"done_reason":%q,"done":true,`+
		`"total_duration":5191566416,"load_duration":2154458,"prompt_eval_count":26,`+
		`"prompt_eval_duration":383809000,"eval_count":12,"eval_duration":4799921000}`, content, doneReason)
}

// errorBody renders Ollama's error object (status and type are not in it).
func errorBody(status int, typ, msg string) string {
	return fmt.Sprintf(`{"error":%q}`, msg)
}

func embedBody(inputs []string, dim int) string {
	vecs := make([][]float32, len(inputs))
	for i, in := range inputs {
		vecs[i] = make([]float32, dim)
		vecs[i][0] = float32(len(in))
	}
	e, _ := json.Marshal(vecs)
	return `{"model":"nomic-embed-text","embeddings":` + string(e) +
		`,"total_duration":14143917,"load_duration":1019500,"prompt_eval_count":8}`
}

func TestCompleteRequestAndResponse(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) {
		return 200, chatBody("SELECT 1", "stop")
	})
	c := New(WithBaseURL(srv.URL+"/"), WithTransport(llm.Transport{HTTPClient: srv.Client()}), WithModel("qwen2.5-coder:7b"),
		WithOptions(map[string]any{"num_ctx": 8192, "num_predict": 99}),
		WithExtraBody(map[string]any{"keep_alive": "30m"}))
	schema := `{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`
	resp, err := c.Complete(context.Background(), &llm.Request{
		Messages:    []llm.Message{llm.System("sys"), llm.User("q")},
		Temperature: llm.Temperature(0),
		MaxTokens:   200,
		Stop:        []string{"```"},
		JSONSchema:  json.RawMessage(schema),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "SELECT 1" || resp.FinishReason != llm.FinishStop || resp.Model != "qwen2.5-coder:7b" ||
		resp.Usage != (llm.Usage{PromptTokens: 26, CompletionTokens: 12}) {
		t.Fatalf("response = %+v", resp)
	}
	req := srv.Only(t)
	if req.Path != "/api/chat" {
		t.Errorf("path %s, want /api/chat", req.Path)
	}
	// WithOptions overrides what the client derives (num_predict).
	llmtest.AssertJSON(t, req.Body, `{"model":"qwen2.5-coder:7b","stream":false,
		"messages":[{"role":"system","content":"sys"},{"role":"user","content":"q"}],
		"format":`+schema+`,
		"options":{"temperature":0,"num_predict":99,"stop":["`+"```"+`"],"num_ctx":8192},
		"keep_alive":"30m"}`)
}

func TestCompleteMinimalRequest(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, chatBody("hi", "stop") })
	c := New(WithBaseURL(srv.URL), WithTransport(llm.Transport{HTTPClient: srv.Client()}))
	if _, err := c.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("q")}}); !errors.Is(err, llm.ErrBadRequest) {
		t.Fatalf("no model: err = %v, want ErrBadRequest", err)
	}
	if _, err := c.Complete(context.Background(), &llm.Request{Model: "m", Messages: []llm.Message{llm.User("q")}}); err != nil {
		t.Fatal(err)
	}
	llmtest.AssertJSON(t, srv.Only(t).Body, `{"model":"m","stream":false,"messages":[{"role":"user","content":"q"}]}`)
}

func TestCompleteReplyOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		wantErr  error
		wantResp bool
	}{
		{"length with content", chatBody("SELECT a", "length"), nil, true},
		{"length without content", chatBody("", "length"), llm.ErrTruncated, true},
		{"no message", `{"model":"m","created_at":"2024-11-21T14:13:43Z","done":true,"done_reason":"stop"}`, llm.ErrMalformedResponse, false},
		{"streamed chunk (done false)", strings.Replace(chatBody("x", ""), `"done":true`, `"done":false`, 1), llm.ErrMalformedResponse, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, tt.body })
			c := New(WithBaseURL(srv.URL), WithTransport(llm.Transport{HTTPClient: srv.Client()}), WithModel("m"))
			resp, err := c.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("q")}})
			llmtest.CheckReply(t, resp, err, tt.wantErr, tt.wantResp, llm.FinishLength)
		})
	}
}

func TestEmbedBatches(t *testing.T) {
	srv := llmtest.NewRecorder(t, func(n int, r llmtest.Recorded) (int, string) {
		var req struct{ Input []string }
		if err := json.Unmarshal(r.Body, &req); err != nil {
			return 400, errorBody(400, "", err.Error())
		}
		return 200, embedBody(req.Input, 3)
	})
	c := New(WithBaseURL(srv.URL), WithTransport(llm.Transport{HTTPClient: srv.Client()}),
		WithEmbedding(llm.Embedding{Model: "nomic-embed-text", BatchSize: 2, Dimension: 3, Extra: map[string]any{"truncate": false}}))
	texts := []string{"a", "bb", "ccc"}
	vecs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		if len(v) != 3 || v[0] != float32(len(texts[i])) {
			t.Errorf("vector %d = %v", i, v)
		}
	}
	if c.Dimension() != 3 {
		t.Errorf("Dimension = %d", c.Dimension())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/api/embed" {
		t.Fatalf("requests = %+v, want 2 to /api/embed", reqs)
	}
	llmtest.AssertJSON(t, reqs[0].Body, `{"model":"nomic-embed-text","input":["a","bb"],"truncate":false}`)
	llmtest.AssertJSON(t, reqs[1].Body, `{"model":"nomic-embed-text","input":["ccc"],"truncate":false}`)
}

func TestEmbedRejectsBadResponses(t *testing.T) {
	tests := []struct{ name, body string }{
		{"fewer vectors", embedBody([]string{"a"}, 3)},
		{"no embeddings field", `{"model":"m"}`},
		{"wrong dimension", embedBody([]string{"a", "b"}, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewRecorder(t, func(int, llmtest.Recorded) (int, string) { return 200, tt.body })
			c := New(WithBaseURL(srv.URL), WithTransport(llm.Transport{HTTPClient: srv.Client()}), WithEmbedding(llm.Embedding{Model: "e", Dimension: 3}))
			if _, err := c.Embed(context.Background(), []string{"a", "b"}); !errors.Is(err, llm.ErrMalformedResponse) {
				t.Fatalf("err = %v, want ErrMalformedResponse", err)
			}
		})
	}
	c := New(WithBaseURL("http://127.0.0.1:1"))
	if _, err := c.Embed(context.Background(), []string{"a"}); !errors.Is(err, llm.ErrBadRequest) {
		t.Fatalf("no embedding model: err = %v, want ErrBadRequest", err)
	}
}

func TestHostFromEnv(t *testing.T) {
	tests := []struct{ env, want string }{
		{"", "http://127.0.0.1:11434"},
		{"0.0.0.0", "http://0.0.0.0:11434"},
		{":8080", "http://127.0.0.1:8080"},
		{"example.com:1234", "http://example.com:1234"},
		{"http://example.com", "http://example.com:80"},
		{"https://example.com/ollama/", "https://example.com:443/ollama"},
		{`"http://[::1]:11434"`, "http://[::1]:11434"},
		{"::1", "http://[::1]:11434"},
	}
	for _, tt := range tests {
		t.Setenv("OLLAMA_HOST", tt.env)
		if got := HostFromEnv(); got != tt.want {
			t.Errorf("OLLAMA_HOST=%q: HostFromEnv() = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func faultClient(t llmtest.Target) *Client {
	return New(WithBaseURL(t.URL), WithTransport(t.Transport()), WithModel("m"), WithEmbedding(llm.Embedding{Model: "e"}))
}

func TestChatFaults(t *testing.T) {
	llmtest.RunFaults(t, llmtest.Faults{
		Path:      "/api/chat",
		OK:        chatBody("SELECT 1", "stop"),
		Empty:     `{"model":"m","created_at":"2024-11-21T14:13:43Z","done":true,"done_reason":"load"}`,
		ErrorBody: errorBody,
		Call:      llmtest.CompleteCall(func(t llmtest.Target) llm.Model { return faultClient(t) }, "SELECT 1"),
	})
}

func TestEmbeddingFaults(t *testing.T) {
	llmtest.RunFaults(t, llmtest.Faults{
		Path:      "/api/embed",
		OK:        embedBody([]string{"one", "three"}, 8),
		Empty:     `{"model":"e","embeddings":[],"total_duration":1,"load_duration":1,"prompt_eval_count":0}`,
		ErrorBody: errorBody,
		Call:      llmtest.EmbedCall(func(t llmtest.Target) llm.Embedder { return faultClient(t) }, "one", "three"),
	})
}
