package provider

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestFromSpecChecksAtStart: what can be checked without calling the model
// fails when the model is built, naming the setting.
func TestFromSpecChecksAtStart(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
	for _, spec := range []string{"ollama:m", "openai:m", "anthropic:m"} {
		for _, bad := range []string{"ht tp://bad", "localhost:8000", "ftp://host/v1", "http://", "::nope"} {
			if spec == "ollama:m" && bad == "localhost:8000" {
				continue // OLLAMA_HOST's own form: host:port means http://host:port
			}
			_, err := FromSpec(spec, bad)
			if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "http(s) URL") {
				t.Errorf("%s with URL %q: %v, want a bad-URL ErrSpec", spec, bad, err)
			}
		}
	}
	// OpenAI's and Anthropic's own APIs need a key; a URL of one's own may not.
	if _, err := FromSpec("openai:m", ""); !errors.Is(err, ErrSpec) || !errors.Is(err, openai.ErrNoAPIKey) {
		t.Errorf("openai without key or URL: %v", err)
	}
	if _, err := FromSpec("anthropic:m", ""); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("anthropic without key or URL: %v", err)
	}
	t.Setenv("OPENAI_BASE_URL", "localhost:8000")
	if _, err := FromSpec("openai:m", ""); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Errorf("bad OPENAI_BASE_URL: %v", err)
	}
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	if m, err := FromSpec("openai:m", ""); err != nil || m == nil {
		t.Errorf("local server without key: %v", err)
	}
}
