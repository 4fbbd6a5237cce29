package ollama

import (
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/httpx"
)

// DefaultBaseURL is where a local Ollama listens. HostFromEnv reads
// OLLAMA_HOST the way the ollama CLI does; the client never reads the
// environment by itself.
const DefaultBaseURL = "http://127.0.0.1:11434"

// Option configures a Client; pass any number to New.
type Option func(*config)

type config struct {
	http    httpx.Settings
	model   string
	embed   httpx.EmbedConfig
	options map[string]any
	extra   map[string]any
}

// WithBaseURL sets the server root (default DefaultBaseURL), without /api.
func WithBaseURL(url string) Option { return func(c *config) { c.http.SetBaseURL(url) } }

// HostFromEnv returns the server root OLLAMA_HOST names, completed like the
// ollama CLI does ("0.0.0.0" -> "http://0.0.0.0:11434", ":8080" ->
// "http://127.0.0.1:8080", "https://h" -> "https://h:443"), or
// DefaultBaseURL when it is unset. Use it as WithBaseURL(HostFromEnv()).
func HostFromEnv() string { return hostURL(os.Getenv("OLLAMA_HOST")) }

func hostURL(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "\"'")
	port := "11434"
	scheme, hostport, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host := hostport
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host = h
		if p != "" {
			port = p
		}
	}
	host = strings.Trim(host, "[]")
	if host == "" {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)}
	if path != "" {
		u.Path = "/" + strings.TrimRight(path, "/")
	}
	return u.String()
}

// WithModel sets the chat model, e.g. "qwen2.5-coder:7b" (Request.Model
// overrides it per request). Ollama needs one.
func WithModel(model string) Option { return func(c *config) { c.model = model } }

// WithOptions merges model options into every chat request's "options"
// (e.g. {"num_ctx": 8192, "top_k": 20}); they override the ones the client
// derives from the Request (temperature, num_predict, stop).
func WithOptions(opts map[string]any) Option { return func(c *config) { c.options = opts } }

// WithExtraBody merges top-level fields into every chat request body
// (e.g. {"keep_alive": "30m", "think": false}); they override the client's.
func WithExtraBody(fields map[string]any) Option {
	return func(c *config) { c.extra = fields }
}

// WithEmbedding sets how Embed works: the model, the declared dimension,
// the batch size and extra body fields (see llm.Embedding).
func WithEmbedding(e llm.Embedding) Option { return func(c *config) { c.embed = e } }

// WithTransport sets how the client sends its requests: the HTTP client,
// the per-attempt timeout, retries and backoff, the response size limit
// and the logger. Zero fields keep their defaults (see llm.Transport); a
// later WithTransport replaces an earlier one whole.
func WithTransport(t llm.Transport) Option {
	return func(c *config) { c.http.SetTransport(t) }
}
