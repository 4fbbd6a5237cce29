package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// A client completes a request against a server speaking OpenAI's wire
// format, then meets a rate limit that outlasts its retries.
func Example() {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		if strings.Contains(string(body), "And now?") { // this one meets a rate limit
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
			return
		}
		io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1731000000,"model":"gpt-4o-mini",
			"choices":[{"index":0,"message":{"role":"assistant","content":"SELECT count(*) FROM orders"},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":21,"completion_tokens":7,"total_tokens":28}}`)
	}))
	defer srv.Close()

	model := openai.New(
		openai.WithBaseURL(srv.URL+"/v1"),
		openai.WithModel("gpt-4o-mini"),
		openai.WithTransport(llm.Transport{
			MaxAttempts: 2,  // one retry
			BaseDelay:   -1, // retry at once (the default waits 250-500ms)
		}),
	)
	ctx := context.Background()

	resp, err := model.Complete(ctx, &llm.Request{Messages: []llm.Message{llm.User("How many orders?")}})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(resp.Content, "|", resp.FinishReason, resp.Usage.PromptTokens, resp.Usage.CompletionTokens)

	requests.Store(0)
	_, err = model.Complete(ctx, &llm.Request{Messages: []llm.Message{llm.User("And now?")}})
	var api *llm.APIError
	if errors.As(err, &api) {
		fmt.Println(errors.Is(err, llm.ErrRateLimited), api.StatusCode, api.Type, "after", requests.Load(), "requests")
	}
	fmt.Println(err)
	// Output:
	// SELECT count(*) FROM orders | stop 21 7
	// true 429 requests after 2 requests
	// llm: openai: HTTP 429 requests: Rate limit reached
}
