package ollama_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/ollama"
)

func Example() {
	// Stands in for a local `ollama serve`.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/chat":
			io.WriteString(w, `{"model":"qwen2.5-coder:7b","created_at":"2024-11-21T14:13:43Z",
				"message":{"role":"assistant","content":"{\"sql\":\"SELECT 1\"}"},"done":true,"done_reason":"stop",
				"prompt_eval_count":30,"eval_count":9}`)
		case "/api/embed":
			io.WriteString(w, `{"model":"nomic-embed-text","embeddings":[[0.5,0.5],[1,0]]}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"model \"nope\" not found, try pulling it first"}`)
		}
	}))
	defer srv.Close()

	c := ollama.New(ollama.WithBaseURL(srv.URL), ollama.WithModel("qwen2.5-coder:7b"),
		ollama.WithEmbedding(llm.Embedding{Model: "nomic-embed-text"}))
	ctx := context.Background()
	resp, err := c.Complete(ctx, &llm.Request{
		Messages:   []llm.Message{llm.User("Give me a query returning 1.")},
		JSONSchema: []byte(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`),
	})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(resp.Content)

	vecs, _ := c.Embed(ctx, []string{"a", "b"})
	fmt.Println(vecs)

	// A wrong base URL path gives the server's 404 as a typed error.
	_, err = ollama.New(ollama.WithBaseURL(srv.URL+"/wrong"), ollama.WithModel("x")).
		Complete(ctx, &llm.Request{Messages: []llm.Message{llm.User("hi")}})
	var api *llm.APIError
	fmt.Println(errors.As(err, &api), api.StatusCode, errors.Is(err, llm.ErrBadRequest))
	// Output:
	// {"sql":"SELECT 1"}
	// [[0.5 0.5] [1 0]]
	// true 404 true
}
