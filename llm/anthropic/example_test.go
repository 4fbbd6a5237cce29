package anthropic_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/anthropic"
)

func Example() {
	// Stands in for api.anthropic.com.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != "sk-ant-example" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
			return
		}
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
			"content":[{"type":"text","text":"SELECT name FROM customers LIMIT 5;"}],
			"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":40,"output_tokens":11}}`)
	}))
	defer srv.Close()

	ctx := context.Background()
	req := &llm.Request{Messages: []llm.Message{
		llm.System("Reply with one PostgreSQL query."),
		llm.User("Five customer names, please."),
	}}
	c := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithAPIKey("sk-ant-example"),
		anthropic.WithModel("claude-sonnet-4-5"))
	resp, err := c.Complete(ctx, req)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(resp.Content, resp.FinishReason)

	bad := anthropic.New(anthropic.WithBaseURL(srv.URL), anthropic.WithAPIKey("wrong"), anthropic.WithModel("claude-sonnet-4-5"))
	_, err = bad.Complete(ctx, req)
	fmt.Println(errors.Is(err, llm.ErrAuth), err)
	// Output:
	// SELECT name FROM customers LIMIT 5; stop
	// true llm: anthropic: HTTP 401 authentication_error: invalid x-api-key
}
