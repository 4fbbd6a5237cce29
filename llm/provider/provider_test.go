package provider

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/anthropic"
	"github.com/nl2sqlgo/nl2sql/llm/ollama"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

func TestFromSpec(t *testing.T) {
	check := func(spec string, ok func(llm.Model) bool) {
		m, err := FromSpec(spec, "http://127.0.0.1:1")
		if err != nil || !ok(m) {
			t.Errorf("%s: %T, %v", spec, m, err)
		}
	}
	check("ollama:qwen2.5-coder:7b", func(m llm.Model) bool { _, ok := m.(*ollama.Client); return ok })
	check("openai:gpt-4.1-mini", func(m llm.Model) bool { _, ok := m.(*openai.Client); return ok })
	check("anthropic:claude-x", func(m llm.Model) bool { _, ok := m.(*anthropic.Client); return ok })
	for _, spec := range []string{"", "none"} {
		if m, err := FromSpec(spec, ""); m != nil || err != nil {
			t.Errorf("%q: %v %v", spec, m, err)
		}
	}
	for _, spec := range []string{"ollama", "openai:", "bogus:model"} {
		if _, err := FromSpec(spec, ""); !errors.Is(err, ErrSpec) {
			t.Errorf("%q: %v", spec, err)
		}
	}
}

// TestFromSpecUsesURLAndKey: the model talks to the given base URL with the
// key from the environment.
func TestFromSpecUsesURLAndKey(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"hi"}}]}`))
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-test")
	m, err := FromSpec("openai:m", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Complete(context.Background(), &llm.Request{Messages: []llm.Message{llm.User("hello")}})
	if err != nil || resp.Content != "hi" || auth != "Bearer sk-test" {
		t.Errorf("resp %+v err %v auth %q", resp, err, auth)
	}
}
