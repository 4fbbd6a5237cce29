// Package llmfake is an OpenAI-compatible chat server for tests: it speaks
// the real /chat/completions wire format over HTTP (httptest), and answers
// each request with a scripted reply chosen from the request itself.
package llmfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Request is the part of a chat completion request a script looks at.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature"`
	MaxTokens   int       `json:"max_tokens"`
}

// Message is a chat message on the wire.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Last returns the content of the last message.
func (r *Request) Last() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Content
}

// Reply is what the server answers: Content with status 200, or Status with
// a body (an error), optionally after Delay.
type Reply struct {
	Content string
	Status  int
	Body    string
	Delay   time.Duration
}

// Script chooses the reply to a request; n counts requests from 0.
type Script func(n int, req *Request) Reply

// Server is a running fake.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []Request
	count    atomic.Int64
}

// New starts a fake answering with script; it is closed when the test ends.
func New(t testing.TB, script Script) *Server {
	t.Helper()
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
			return
		}
		var req Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		n := int(s.count.Add(1) - 1)
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		rep := script(n, &req)
		if rep.Delay > 0 {
			select {
			case <-time.After(rep.Delay):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if rep.Status != 0 && rep.Status != http.StatusOK {
			w.WriteHeader(rep.Status)
			fmt.Fprint(w, rep.Body)
			return
		}
		if rep.Body != "" {
			fmt.Fprint(w, rep.Body)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1700000000, "model": req.Model,
			"choices": []any{map[string]any{
				"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": rep.Content},
			}},
			"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the OpenAI-style base URL (".../v1").
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}
