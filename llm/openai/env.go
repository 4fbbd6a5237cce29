package openai

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// Environment variables read by FromEnv, as OpenAI's own SDKs name them.
const (
	EnvAPIKey       = "OPENAI_API_KEY"
	EnvBaseURL      = "OPENAI_BASE_URL"
	EnvOrganization = "OPENAI_ORG_ID"
)

// ErrNoAPIKey is returned by FromEnv when the client would call OpenAI's
// own API (no OPENAI_BASE_URL, or DefaultBaseURL) without a key.
var ErrNoAPIKey = errors.New("openai: " + EnvAPIKey + " is not set (set it, or " + EnvBaseURL + " for a server that needs no key)")

// FromEnv builds a client from the environment, then opts (which win):
// OPENAI_API_KEY, OPENAI_BASE_URL (an OpenAI-compatible server: vLLM,
// llama.cpp, LM Studio, Ollama's /v1) and OPENAI_ORG_ID. Unlike New, which
// reads nothing, it checks what it read: a base URL that is not an absolute
// http(s) URL is an error, and so is calling api.openai.com without a key.
func FromEnv(opts ...Option) (*Client, error) {
	var env []Option
	base := strings.TrimSpace(os.Getenv(EnvBaseURL))
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("openai: %s=%q is not an http(s) URL such as http://localhost:8000/v1", EnvBaseURL, base)
		}
		env = append(env, WithBaseURL(base))
	}
	key := strings.TrimSpace(os.Getenv(EnvAPIKey))
	if key != "" {
		env = append(env, WithAPIKey(key))
	}
	if org := strings.TrimSpace(os.Getenv(EnvOrganization)); org != "" {
		env = append(env, WithOrganization(org))
	}
	c := New(append(env, opts...)...)
	if c.cfg.http.BaseURL == strings.TrimRight(DefaultBaseURL, "/") && c.cfg.http.Header.Get("Authorization") == "" {
		return nil, ErrNoAPIKey
	}
	return c, nil
}
