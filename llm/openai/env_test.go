package openai_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

func TestFromEnv(t *testing.T) {
	srv := fakeOpenAI()
	defer srv.Close()
	ctx := context.Background()

	// A local server: no key needed, the base URL comes from the env.
	t.Setenv(openai.EnvAPIKey, "")
	t.Setenv(openai.EnvBaseURL, srv.URL+"/v1")
	c, err := openai.FromEnv(openai.WithModel("qwen2.5-coder"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Complete(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil || !strings.Contains(res.Content, "SELECT") {
		t.Fatalf("complete: %v %+v", err, res)
	}

	// OpenAI's own API without a key: refused at construction.
	t.Setenv(openai.EnvBaseURL, "")
	if _, err := openai.FromEnv(); !errors.Is(err, openai.ErrNoAPIKey) {
		t.Errorf("no key: %v", err)
	}
	// ... and an option can still point it elsewhere.
	if _, err := openai.FromEnv(openai.WithBaseURL(srv.URL + "/v1")); err != nil {
		t.Errorf("option base URL: %v", err)
	}
	t.Setenv(openai.EnvAPIKey, "sk-test")
	if _, err := openai.FromEnv(); err != nil {
		t.Errorf("key: %v", err)
	}

	// A malformed base URL fails now, not at the first call.
	for _, bad := range []string{"localhost:8000", "ftp://host/v1", "http://", "::nope"} {
		t.Setenv(openai.EnvBaseURL, bad)
		if _, err := openai.FromEnv(); err == nil || !strings.Contains(err.Error(), openai.EnvBaseURL) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
