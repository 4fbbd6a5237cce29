package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// fakeOpenAI answers like an OpenAI-compatible server would.
func fakeOpenAI() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/chat/completions":
			io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1731000000,"model":"qwen2.5-coder",
				"choices":[{"index":0,"message":{"role":"assistant","content":"SELECT count(*) FROM orders;"},"finish_reason":"stop"}],
				"usage":{"prompt_tokens":21,"completion_tokens":8,"total_tokens":29}}`)
		case "/v1/embeddings":
			io.WriteString(w, `{"object":"list","model":"nomic-embed-text","data":[
				{"object":"embedding","index":1,"embedding":[0,1,0]},
				{"object":"embedding","index":0,"embedding":[1,0,0]}]}`)
		default:
			http.NotFound(w, r)
		}
	}))
}

func Example() {
	srv := fakeOpenAI() // stands in for e.g. a vLLM server at http://gpu-box:8000
	defer srv.Close()

	c := openai.New(
		openai.WithBaseURL(srv.URL+"/v1"),
		openai.WithModel("qwen2.5-coder"),
		openai.WithEmbedding(llm.Embedding{Model: "nomic-embed-text"}),
	)
	ctx := context.Background()
	resp, err := c.Complete(ctx, &llm.Request{
		Messages:    []llm.Message{llm.System("Reply with one PostgreSQL query."), llm.User("How many orders are there?")},
		Temperature: llm.Temperature(0),
	})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(resp.Content, resp.FinishReason, resp.Usage.CompletionTokens)

	vecs, err := c.Embed(ctx, []string{"orders", "customers"})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(vecs, c.Dimension())
	// Output:
	// SELECT count(*) FROM orders; stop 8
	// [[1 0 0] [0 1 0]] 3
}
