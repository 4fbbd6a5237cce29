package httpx

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nl2sqlgo/nl2sql/llm"
)

// The defaults of llm.Transport's zero fields.
const (
	DefaultTimeout          = 2 * time.Minute
	DefaultMaxAttempts      = 3
	DefaultBaseDelay        = 500 * time.Millisecond
	DefaultMaxDelay         = 30 * time.Second
	DefaultMaxResponseBytes = 32 << 20
	maxErrorBody            = 64 << 10
)

// Settings is what a provider client sends with: where, with which
// headers, and over which transport. Providers keep one in their config;
// their WithBaseURL and WithTransport options call SetBaseURL and
// SetTransport.
type Settings struct {
	Provider string
	BaseURL  string      // without trailing slash
	Header   http.Header // sent with every request (auth, versions)

	// Transport is resolved: SetTransport has filled in every default, so
	// HTTPClient, Sleep and Logger are non-nil and the numbers are the ones
	// in force. A Timeout <= 0 means no per-attempt bound.
	llm.Transport

	Now func() time.Time // for Retry-After HTTP dates and deadline checks
}

// New returns Settings with the default transport.
func New(provider, baseURL string) Settings {
	s := Settings{Provider: provider, Header: http.Header{}, Now: time.Now}
	s.SetBaseURL(baseURL)
	s.SetTransport(llm.Transport{})
	return s
}

// SetBaseURL sets the root every request path is appended to.
func (s *Settings) SetBaseURL(url string) { s.BaseURL = strings.TrimRight(url, "/") }

// Endpoint is BaseURL with path appended to its path: a base with a
// query (Azure's "?api-version=...") keeps it after the joined path,
// where appending the text put the path inside the query.
func (s *Settings) Endpoint(path string) string {
	u, err := neturl.Parse(s.BaseURL)
	if err != nil || (u.RawQuery == "" && !u.ForceQuery && u.Fragment == "") {
		return s.BaseURL + path
	}
	u.Path, u.RawPath, u.Fragment, u.RawFragment = strings.TrimRight(u.Path, "/")+path, "", "", ""
	u.ForceQuery = false
	return u.String()
}

// SetTransport replaces the transport with t, its zero fields replaced by
// the defaults llm.Transport documents.
func (s *Settings) SetTransport(t llm.Transport) {
	t.HTTPClient = cmp.Or(t.HTTPClient, http.DefaultClient)
	if t.Timeout == 0 {
		t.Timeout = DefaultTimeout
	}
	if t.MaxAttempts <= 0 {
		t.MaxAttempts = DefaultMaxAttempts
	}
	if t.BaseDelay == 0 {
		t.BaseDelay = DefaultBaseDelay
	}
	t.BaseDelay = max(t.BaseDelay, 0)
	if t.MaxDelay <= 0 {
		t.MaxDelay = DefaultMaxDelay
	}
	if t.MaxResponseBytes <= 0 {
		t.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if t.Sleep == nil {
		t.Sleep = SleepContext
	}
	t.Logger = cmp.Or(t.Logger, slog.New(slog.DiscardHandler))
	s.Transport = t
}

// SleepContext waits d or until ctx is done, whichever comes first.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// transient marks a failure worth retrying that is not an *llm.APIError
// (network errors, bodies cut off mid-transfer, per-attempt timeouts).
type transient struct{ err error }

func (e *transient) Error() string { return e.err.Error() }
func (e *transient) Unwrap() error { return e.err }

// Post sends body (already JSON) to BaseURL+path and returns the 2xx response
// body. It sends it up to MaxAttempts times while the failure is
// retryable, waiting Retry-After when the server gives one (capped at
// MaxDelay) and an exponential backoff with jitter otherwise. It never waits past ctx's
// deadline: when the next wait would cross it, the last error is returned.
func (s *Settings) Post(ctx context.Context, path string, body []byte) ([]byte, error) {
	url := s.Endpoint(path)
	for attempt := 0; ; attempt++ {
		data, err := s.once(ctx, url, body)
		if err == nil {
			return data, nil
		}
		var t *transient
		isTransient := errors.As(err, &t)
		if isTransient {
			err = t.err
		}
		if ctx.Err() != nil {
			return nil, s.contextError(ctx, err)
		}
		var api *llm.APIError
		isAPI := errors.As(err, &api)
		if (!isTransient && !(isAPI && api.Retryable())) || attempt+1 >= s.MaxAttempts {
			return nil, err
		}
		wait := s.backoff(attempt)
		if isAPI && api.RetryAfter > 0 {
			wait = min(api.RetryAfter, s.MaxDelay)
		}
		if deadline, ok := ctx.Deadline(); ok && s.Now().Add(wait).After(deadline) {
			return nil, err
		}
		s.Logger.LogAttrs(ctx, slog.LevelDebug, "llm: retrying",
			slog.String("provider", s.Provider), slog.Int("attempt", attempt+1),
			slog.Duration("wait", wait), slog.String("error", err.Error()))
		if serr := s.Sleep(ctx, wait); serr != nil {
			return nil, s.contextError(ctx, err)
		}
	}
}

// unreachable reports whether a transport error happened before the request
// reached the server: no such host, connection refused, no route, a failed
// TLS handshake. Errors after that (a reset mid-response) are not.
func unreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	return errors.As(err, &cert) || errors.As(err, &rec)
}

// contextError reports a cancelled call: the context's error (so errors.Is
// with context.Canceled / DeadlineExceeded works) plus what was going on.
func (s *Settings) contextError(ctx context.Context, last error) error {
	cause := context.Cause(ctx)
	if errors.Is(last, cause) {
		return last // already "llm: provider: Post ...: context deadline exceeded"
	}
	return fmt.Errorf("llm: %s: %w (last error: %v)", s.Provider, cause, last)
}

func (s *Settings) backoff(attempt int) time.Duration {
	d := s.BaseDelay
	for i := 0; i < attempt && d < s.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, s.MaxDelay)
	if d <= 1 {
		return d
	}
	// "Equal jitter": half fixed, half random, so concurrent clients spread
	// out but never retry immediately.
	return d/2 + rand.N(d/2+1)
}

func (s *Settings) once(ctx context.Context, url string, body []byte) ([]byte, error) {
	timeout := s.Timeout
	if d := llm.CallTimeout(ctx); d > 0 && (timeout <= 0 || d < timeout) {
		timeout = d // the caller's per-call bound (llm.WithCallTimeout)
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", llm.ErrBadRequest, s.Provider, err)
	}
	req.Header = s.Header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := s.HTTPClient.Do(req)
	if err != nil {
		if ctx.Err() == nil && unreachable(err) {
			return nil, &transient{fmt.Errorf("%w: %s: %w", llm.ErrUnreachable, s.Provider, err)}
		}
		return nil, &transient{fmt.Errorf("llm: %s: %w", s.Provider, err)}
	}
	defer resp.Body.Close()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		typ, msg := errorBody(data)
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		return nil, &llm.APIError{
			Provider:   s.Provider,
			StatusCode: resp.StatusCode,
			Type:       typ,
			Message:    msg,
			RetryAfter: RetryAfter(resp.Header, s.Now()),
		}
	}
	if resp.ContentLength > s.MaxResponseBytes {
		return nil, s.tooLarge()
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, s.MaxResponseBytes+1))
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, &transient{fmt.Errorf("llm: %s: reading response: %w", s.Provider, err)}
		}
		// The connection ended before the body did (Content-Length not
		// reached, chunked stream cut, reset): a network fault, retryable.
		return nil, &transient{fmt.Errorf("%w: %s: body cut off after %d bytes: %v",
			llm.ErrTruncated, s.Provider, len(data), err)}
	}
	if int64(len(data)) > s.MaxResponseBytes {
		return nil, s.tooLarge()
	}
	return data, nil
}

func (s *Settings) tooLarge() error {
	return fmt.Errorf("%w: %s: more than %d bytes", llm.ErrResponseTooLarge, s.Provider, s.MaxResponseBytes)
}

// RetryAfter reads how long the server asks to wait: OpenAI's
// retry-after-ms, or Retry-After in seconds or as an HTTP date. Zero when
// absent, unparsable or in the past.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs > 0 {
			return time.Duration(secs * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// errorBody extracts type and message from the error bodies providers send:
// {"error":{"type","message","code"}} (OpenAI, llama.cpp, Anthropic inside
// {"type":"error",...}), {"error":"text"} (Ollama), {"message","type"}
// (older vLLM). Anything else yields the start of the body as message.
func errorBody(data []byte) (typ, msg string) {
	var top struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
	}
	if json.Unmarshal(data, &top) == nil {
		if len(top.Error) > 0 {
			var text string
			if json.Unmarshal(top.Error, &text) == nil {
				return "", text
			}
			var inner struct {
				Type    string          `json:"type"`
				Message string          `json:"message"`
				Code    json.RawMessage `json:"code"`
			}
			if json.Unmarshal(top.Error, &inner) == nil {
				typ = inner.Type
				if typ == "" {
					var code string
					if json.Unmarshal(inner.Code, &code) == nil {
						typ = code
					}
				}
				return typ, inner.Message
			}
		}
		if top.Message != "" {
			return top.Type, top.Message
		}
	}
	text := strings.TrimSpace(string(data))
	if len(text) > 200 {
		text = text[:200] + "..."
	}
	return "", text
}

// DecodeJSON unmarshals a 2xx body into v. A body that ends mid-document is
// ErrTruncated; anything else that is not the expected JSON is
// ErrMalformedResponse.
func DecodeJSON(provider string, data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return fmt.Errorf("%w: %s: empty body", llm.ErrMalformedResponse, provider)
	}
	// The stream decoder, unlike Unmarshal, says io.ErrUnexpectedEOF when
	// the input stops mid-document.
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	err := dec.Decode(v)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: %s: body ends mid-JSON after %d bytes", llm.ErrTruncated, provider, len(data))
	case err != nil:
		return fmt.Errorf("%w: %s: %v", llm.ErrMalformedResponse, provider, err)
	case dec.InputOffset() != int64(len(trimmed)):
		return fmt.Errorf("%w: %s: data after the JSON document", llm.ErrMalformedResponse, provider)
	}
	return nil
}

// Malformed reports a decoded body that lacks what the provider promises.
func Malformed(provider, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", llm.ErrMalformedResponse, provider, fmt.Sprintf(format, args...))
}

// Marshal encodes body and merges extra top-level fields into it (extra
// wins on conflicts, so callers can override anything the client sends).
func Marshal(body any, extra map[string]any) ([]byte, error) {
	data, err := json.Marshal(body)
	if err != nil || len(extra) == 0 {
		return data, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for k, v := range extra {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("extra body field %q: %w", k, err)
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// TruncatedReply is the error for a reply that hit the token limit before
// the model wrote any content.
func TruncatedReply(provider string) error {
	return fmt.Errorf("%w: %s: reply hit the token limit before any content", llm.ErrTruncated, provider)
}

// EmbedConfig is what a client's WithEmbedding sets.
type EmbedConfig = llm.Embedding

// Embeddings is the embedding half of a client: it posts {"model","input"}
// batches to one path and tracks the vector dimension, declared up front
// or learnt from the first answer, then enforced.
type Embeddings struct {
	http      Settings
	path      string
	cfg       EmbedConfig
	batchSize int
	dim       atomic.Int64
}

// NewEmbeddings returns Embeddings posting to s.BaseURL+path, at most
// cfg.BatchSize texts a request (defaultBatch when that is <= 0).
func NewEmbeddings(s Settings, path string, cfg EmbedConfig, defaultBatch int) *Embeddings {
	e := &Embeddings{http: s, path: path, cfg: cfg, batchSize: cmp.Or(max(cfg.BatchSize, 0), defaultBatch)}
	e.dim.Store(int64(max(cfg.Dimension, 0)))
	return e
}

// Dimension is the declared or learnt dimension, 0 while unknown.
func (e *Embeddings) Dimension() int { return int(e.dim.Load()) }

// Embed sends texts in consecutive batches, decodes each answer into an R
// and takes its vectors with vectors (n is the batch's size), then
// concatenates them, checking each batch gave one vector per text, all of
// the dimension.
func Embed[R any](ctx context.Context, e *Embeddings, texts []string,
	vectors func(resp *R, n int) ([][]float32, error)) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batchSize {
		batch := texts[start:min(start+e.batchSize, len(texts))]
		var resp R
		body := struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}{e.cfg.Model, batch}
		if _, err := e.http.Call(ctx, e.path, body, e.cfg.Extra, &resp); err != nil {
			return nil, err
		}
		vecs, err := vectors(&resp, len(batch))
		if err != nil {
			return nil, err
		}
		if err := e.check(vecs, len(batch)); err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// check enforces one non-empty vector per text, all of the dimension.
func (e *Embeddings) check(vecs [][]float32, n int) error {
	provider := e.http.Provider
	if len(vecs) != n {
		return Malformed(provider, "%d embeddings for %d inputs", len(vecs), n)
	}
	for i, v := range vecs {
		d := int64(len(v))
		if d == 0 {
			return Malformed(provider, "embedding %d is empty", i)
		}
		if !e.dim.CompareAndSwap(0, d) && d != e.dim.Load() {
			return Malformed(provider, "embedding %d has dimension %d, want %d", i, d, e.dim.Load())
		}
	}
	return nil
}

// Message is the {"role","content"} object the chat APIs accept.
type Message struct {
	Role    llm.Role `json:"role"`
	Content string   `json:"content"`
}

// Messages converts req's messages. With splitSystem, system messages are
// left out of the list and returned joined by blank lines instead.
func Messages(msgs []llm.Message, splitSystem bool) (out []Message, system string) {
	var sys []string
	for _, m := range msgs {
		if splitSystem && m.Role == llm.RoleSystem {
			sys = append(sys, m.Content)
			continue
		}
		out = append(out, Message{Role: m.Role, Content: m.Content})
	}
	return out, strings.Join(sys, "\n\n")
}

// BadRequest reports a request the client refuses to send.
func BadRequest(provider, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", llm.ErrBadRequest, provider, fmt.Sprintf(format, args...))
}

// Call marshals body (merging extra), posts it to path and decodes the 2xx
// answer into out. It returns the raw answer for llm.Response.Raw.
func (s *Settings) Call(ctx context.Context, path string, body any, extra map[string]any, out any) ([]byte, error) {
	data, err := Marshal(body, extra)
	if err != nil {
		return nil, BadRequest(s.Provider, "%v", err)
	}
	raw, err := s.Post(ctx, path, data)
	if err != nil {
		return nil, err
	}
	return raw, DecodeJSON(s.Provider, raw, out)
}

// CheckRequest rejects requests without messages and picks the model:
// req.Model, else def. needModel makes a missing model an error.
func CheckRequest(provider string, req *llm.Request, def string, needModel bool) (model string, err error) {
	if req == nil || len(req.Messages) == 0 {
		return "", BadRequest(provider, "request has no messages")
	}
	model = cmp.Or(req.Model, def)
	if needModel && model == "" {
		return "", BadRequest(provider, "no model (use WithModel or Request.Model)")
	}
	return model, nil
}

// Reply finishes a Response: an empty reply cut at the token limit is
// returned with llm.ErrTruncated.
func Reply(provider string, resp *llm.Response) (*llm.Response, error) {
	if resp.Content == "" && resp.FinishReason == llm.FinishLength {
		return resp, TruncatedReply(provider)
	}
	return resp, nil
}
