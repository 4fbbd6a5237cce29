package httpx

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/llm/internal/llmtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{map[string]string{"Retry-After": " 1.5 "}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "0"}, 0},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "Sun, 22 Nov 2026 01:00:30 GMT"}, 30 * time.Second},
		{map[string]string{"Retry-After": "Sun, 22 Nov 2026 00:59:00 GMT"}, 0}, // in the past
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "junk", "Retry-After": "9"}, 9 * time.Second},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := RetryAfter(h, now); got != tt.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestErrorBody(t *testing.T) {
	tests := []struct{ body, typ, msg string }{
		{`{"error":{"message":"Incorrect API key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, "invalid_request_error", "Incorrect API key"},
		{`{"error":{"message":"Rate limit","type":"","code":"rate_limit_exceeded"}}`, "rate_limit_exceeded", "Rate limit"},
		{`{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}}`, "exceed_context_size_error", "the request exceeds the available context size"},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "overloaded_error", "Overloaded"},
		{`{"error":"model \"llama9\" not found, try pulling it first"}`, "", `model "llama9" not found, try pulling it first`},
		{`{"object":"error","message":"The model does not exist.","type":"NotFoundError","param":null,"code":404}`, "NotFoundError", "The model does not exist."},
		{"<html>502 Bad Gateway</html>\n", "", "<html>502 Bad Gateway</html>"},
		{"", "", ""},
	}
	for _, tt := range tests {
		typ, msg := errorBody([]byte(tt.body))
		if typ != tt.typ || msg != tt.msg {
			t.Errorf("errorBody(%s) = %q, %q; want %q, %q", tt.body, typ, msg, tt.typ, tt.msg)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	tests := []struct {
		body string
		want error
	}{
		{`{"a":1}`, nil},
		{" {\"a\":1}\n", nil},
		{`{"a":`, llm.ErrTruncated},
		{`{"a":tr`, llm.ErrTruncated},
		{`{"a":"some text`, llm.ErrTruncated},
		{`{"a":1}{"a":2}`, llm.ErrMalformedResponse},
		{`{"a":1}x`, llm.ErrMalformedResponse},
		{`{"a":"x"}`, llm.ErrMalformedResponse}, // wrong type
		{`<html>`, llm.ErrMalformedResponse},
		{``, llm.ErrMalformedResponse},
	}
	for _, tt := range tests {
		var v struct{ A int }
		err := DecodeJSON("p", []byte(tt.body), &v)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("DecodeJSON(%q) = %v, want %v", tt.body, err, tt.want)
		}
	}
}

func TestMarshalMergesExtra(t *testing.T) {
	body := struct {
		Model string `json:"model"`
		N     int    `json:"n"`
	}{"m", 1}
	got, err := Marshal(body, map[string]any{"n": 2, "seed": 3, "nested": map[string]any{"a": true}})
	if err != nil {
		t.Fatal(err)
	}
	llmtest.AssertJSON(t, got, `{"model":"m","n":2,"seed":3,"nested":{"a":true}}`)
	if _, err := Marshal(body, map[string]any{"bad": func() {}}); err == nil {
		t.Fatal("unencodable extra field accepted")
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	s := New("p", "http://x")
	s.SetTransport(llm.Transport{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second})
	for attempt, hi := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		hi *= time.Millisecond
		for range 50 {
			if d := s.backoff(attempt); d < hi/2 || d > hi {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v]", attempt, d, hi/2, hi)
			}
		}
	}
}

func TestRetryAfterIsCappedByMaxDelay(t *testing.T) {
	var reqs atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reqs.Add(1) == 1 {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	sl := &llmtest.Sleeper{}
	s := New("p", srv.URL)
	s.SetTransport(llm.Transport{HTTPClient: srv.Client(), Sleep: sl.Sleep, MaxDelay: 5 * time.Second})
	if _, err := s.Post(context.Background(), "/x", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if w := sl.Waits(); len(w) != 1 || w[0] != 5*time.Second {
		t.Fatalf("waits = %v, want [5s] (Retry-After 1h capped)", w)
	}
}

func TestNetworkErrorsAreRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more: connection refused
	sl := &llmtest.Sleeper{}
	s := New("p", url)
	s.SetTransport(llm.Transport{Sleep: sl.Sleep, MaxAttempts: 4})
	_, err := s.Post(context.Background(), "/x", []byte(`{}`))
	if err == nil || len(sl.Waits()) != 3 {
		t.Fatalf("err = %v after %d waits, want an error after 3 retries", err, len(sl.Waits()))
	}
	var api *llm.APIError
	if errors.As(err, &api) || errors.Is(err, llm.ErrMalformedResponse) {
		t.Fatalf("err = %v, want a plain network error", err)
	}
}

func TestPerAttemptTimeoutRetries(t *testing.T) {
	var reqs atomic.Int32
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if reqs.Add(1) < 3 {
			select { // hang until the attempt times out
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	defer close(stop)
	sl := &llmtest.Sleeper{}
	s := New("p", srv.URL)
	// A generous timeout and spare retries keep a loaded machine from
	// failing the attempt that is meant to succeed.
	s.SetTransport(llm.Transport{HTTPClient: srv.Client(), Sleep: sl.Sleep, Timeout: 100 * time.Millisecond, MaxAttempts: 7})
	body, err := s.Post(context.Background(), "/x", []byte(`{}`))
	if err != nil || string(body) != `{"ok":true}` {
		t.Fatalf("Post = %s, %v; want success after the hung attempts time out", body, err)
	}
	if n := int(reqs.Load()); n < 3 || len(sl.Waits()) != n-1 {
		t.Fatalf("%d requests, waits %v; want >= 3 requests and one wait between each", n, sl.Waits())
	}
}

func TestSleepContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("SleepContext on a cancelled context = %v", err)
	}
	if err := SleepContext(context.Background(), time.Microsecond); err != nil {
		t.Fatal(err)
	}
}

// hangingServer accepts every request and never answers (until the client
// gives up); it counts the requests.
func hangingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var reqs atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		reqs.Add(1)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, &reqs
}

func TestCallTimeoutFromContextShortensAttempts(t *testing.T) {
	srv, reqs := hangingServer(t)
	sl := &llmtest.Sleeper{}
	s := New("p", srv.URL)
	s.SetTransport(llm.Transport{HTTPClient: srv.Client(), Sleep: sl.Sleep, MaxAttempts: 3}) // Timeout stays 2 minutes
	start := time.Now()
	_, err := s.Post(llm.WithCallTimeout(context.Background(), 50*time.Millisecond), "/x", []byte(`{}`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a per-attempt deadline", err)
	}
	if n := reqs.Load(); n != 3 || len(sl.Waits()) != 2 {
		t.Fatalf("%d requests, waits %v; want 3 attempts with a wait between each", n, sl.Waits())
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Fatalf("took %v: the context's call timeout was not applied", took)
	}
}

func TestRetriesStopAtTheContextDeadline(t *testing.T) {
	srv, reqs := hangingServer(t)
	s := New("p", srv.URL)
	// Attempts of 100ms, a 1s backoff each: with a 600ms budget the first
	// retry's wait would cross the deadline, so none starts.
	s.SetTransport(llm.Transport{HTTPClient: srv.Client(), MaxAttempts: 11, BaseDelay: 2 * time.Second, MaxDelay: 2 * time.Second})
	ctx, cancel := context.WithTimeout(llm.WithCallTimeout(context.Background(), 100*time.Millisecond), 600*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Post(ctx, "/x", []byte(`{}`))
	if err == nil {
		t.Fatal("Post succeeded against a server that never answers")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("took %v, want the 600ms budget honoured", took)
	}
	if n := reqs.Load(); n != 1 {
		t.Fatalf("%d requests, want 1: the backoff (>= 1s) does not fit the remaining budget", n)
	}
}

func TestCallTimeout(t *testing.T) {
	if d := llm.CallTimeout(context.Background()); d != 0 {
		t.Fatalf("CallTimeout without one = %v", d)
	}
	if d := llm.CallTimeout(llm.WithCallTimeout(context.Background(), -time.Second)); d != 0 {
		t.Fatalf("CallTimeout(-1s) = %v, want 0", d)
	}
}

func TestSetTransportDefaults(t *testing.T) {
	s := New("p", "http://x/")
	if s.BaseURL != "http://x" || s.HTTPClient != http.DefaultClient || s.Sleep == nil || s.Logger == nil ||
		s.Timeout != DefaultTimeout || s.MaxAttempts != DefaultMaxAttempts || s.BaseDelay != DefaultBaseDelay ||
		s.MaxDelay != DefaultMaxDelay || s.MaxResponseBytes != DefaultMaxResponseBytes {
		t.Fatalf("zero llm.Transport resolved to %+v", s.Transport)
	}
	// Out-of-range numbers: a negative timeout and base delay mean none;
	// the others fall back to their defaults.
	s.SetTransport(llm.Transport{Timeout: -1, MaxAttempts: -1, BaseDelay: -1, MaxDelay: -1, MaxResponseBytes: -1})
	if s.Timeout > 0 || s.MaxAttempts != DefaultMaxAttempts || s.BaseDelay != 0 || s.backoff(3) != 0 ||
		s.MaxDelay != DefaultMaxDelay || s.MaxResponseBytes != DefaultMaxResponseBytes {
		t.Fatalf("negative fields resolved to %+v", s.Transport)
	}
}

func TestRetryIsLogged(t *testing.T) {
	var reqs atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reqs.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	var buf strings.Builder
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s := New("p", srv.URL)
	s.SetTransport(llm.Transport{HTTPClient: srv.Client(), Sleep: (&llmtest.Sleeper{}).Sleep, Logger: logger})
	if _, err := s.Post(context.Background(), "/x", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "llm: retrying") || !strings.Contains(buf.String(), "provider=p") {
		t.Fatalf("log = %q, want one retry record", buf.String())
	}
}

// TestEndpoint: the request path joins the base URL's path, before its
// query; a plain base is the text joined as before.
func TestEndpoint(t *testing.T) {
	for base, want := range map[string]string{
		"http://h:8000/v1":  "http://h:8000/v1/chat/completions",
		"http://h:8000/v1/": "http://h:8000/v1/chat/completions",
		"https://x.openai.azure.com/openai/deployments/d?api-version=2024-06-01":  "https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01",
		"https://x.openai.azure.com/openai/deployments/d/?api-version=2024-06-01": "https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01",
		"http://h/v1?a=1&b=%2F#frag": "http://h/v1/chat/completions?a=1&b=%2F",
		"http://h?":                  "http://h/chat/completions",
	} {
		s := New("test", base)
		if got := s.Endpoint("/chat/completions"); got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
}

// TestPostKeepsTheBaseQuery: a request to a base URL with a query reaches
// the joined path with the query intact (it once went to the base path,
// the request path inside the query).
func TestPostKeepsTheBaseQuery(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path + " " + r.URL.Query().Get("api-version")
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	s := New("test", srv.URL+"/openai/deployments/d?api-version=2024-06-01")
	if _, err := s.Post(context.Background(), "/chat/completions", []byte("{}")); err != nil || got != "/openai/deployments/d/chat/completions 2024-06-01" {
		t.Errorf("request to %q (%v)", got, err)
	}
}
