package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/llm"
)

// Sleeper records the waits it is asked for and returns at once (or with
// ctx's error when ctx is done). OnSleep, if set, runs before returning.
type Sleeper struct {
	mu      sync.Mutex
	waits   []time.Duration
	OnSleep func()
}

// Sleep implements the transport's sleep hook.
func (s *Sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	if s.OnSleep != nil {
		s.OnSleep()
	}
	return ctx.Err()
}

// Waits returns the recorded waits.
func (s *Sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// Target is what a provider's test client is pointed at.
type Target struct {
	URL        string
	HTTPClient *http.Client
	Sleep      func(context.Context, time.Duration) error
	MaxBytes   int64 // response size limit
}

// Transport is the llm.Transport RunFaults expects the client in
// Faults.Call to use: t's server, sleeper and size limit, MaxRetries
// retries, backoff from BaseDelay.
func (t Target) Transport() llm.Transport {
	return llm.Transport{
		HTTPClient:       t.HTTPClient,
		Sleep:            t.Sleep,
		MaxAttempts:      MaxRetries + 1,
		BaseDelay:        BaseDelay,
		MaxDelay:         100 * BaseDelay,
		MaxResponseBytes: t.MaxBytes,
	}
}

// Faults describes a provider endpoint for RunFaults.
type Faults struct {
	Path string // request path the client must POST to, e.g. "/chat/completions"
	// OK is a real 2xx body of the endpoint (at least 64 bytes).
	OK string
	// Empty is a 2xx body that parses but lacks the payload (no choices,
	// no embeddings): the client must report ErrMalformedResponse.
	Empty string
	// ErrorBody renders the provider's error JSON.
	ErrorBody func(status int, typ, message string) string
	// Call makes one request with a client whose transport is
	// t.Transport() and returns its error.
	Call func(ctx context.Context, t Target) error
}

// Settings RunFaults expects the client in Call to use.
const (
	MaxRetries = 2
	BaseDelay  = 100 * time.Millisecond
)

// RunFaults runs the shared fault scenarios as subtests.
func RunFaults(t *testing.T, f Faults) {
	type scenario struct {
		name    string
		handler func(n int, w http.ResponseWriter, r *http.Request) // n counts from 1
		// sleeper setup; ctx setup
		maxBytes int64
		timeout  time.Duration
		wantIs   []error
		wantReqs int
		check    func(t *testing.T, err error, waits []time.Duration)
	}
	writeError := func(w http.ResponseWriter, status int, typ, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, f.ErrorBody(status, typ, msg))
	}
	ok := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, f.OK)
	}
	hijack := func(w http.ResponseWriter, raw string) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		buf.WriteString(raw)
		buf.Flush()
		conn.Close()
	}
	half := f.OK[:len(f.OK)/2]
	scenarios := []scenario{
		{
			name: "429 Retry-After then success",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					w.Header().Set("Retry-After", "7")
					writeError(w, http.StatusTooManyRequests, "rate_limit_error", "slow down")
					return
				}
				ok(w)
			},
			wantReqs: 2,
			check: func(t *testing.T, err error, waits []time.Duration) {
				if err != nil {
					t.Fatalf("err = %v, want success after retry", err)
				}
				if len(waits) != 1 || waits[0] != 7*time.Second {
					t.Fatalf("waits = %v, want [7s] from Retry-After", waits)
				}
			},
		},
		{
			name: "429 Retry-After beyond deadline returns at once",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "20")
				writeError(w, http.StatusTooManyRequests, "rate_limit_error", "slow down")
			},
			timeout:  5 * time.Second,
			wantIs:   []error{llm.ErrRateLimited},
			wantReqs: 1,
			check: func(t *testing.T, err error, waits []time.Duration) {
				var api *llm.APIError
				if !errors.As(err, &api) || api.RetryAfter != 20*time.Second || api.StatusCode != 429 {
					t.Fatalf("err = %#v, want *APIError 429 RetryAfter 20s", err)
				}
				if len(waits) != 0 {
					t.Fatalf("waits = %v, want none (wait would pass the deadline)", waits)
				}
			},
		},
		{
			name: "500 then success",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					writeError(w, http.StatusInternalServerError, "server_error", "boom")
					return
				}
				ok(w)
			},
			wantReqs: 2,
			check: func(t *testing.T, err error, waits []time.Duration) {
				if err != nil {
					t.Fatalf("err = %v, want success after retry", err)
				}
				if len(waits) != 1 || waits[0] < BaseDelay/2 || waits[0] > BaseDelay {
					t.Fatalf("waits = %v, want one backoff in [%v, %v]", waits, BaseDelay/2, BaseDelay)
				}
			},
		},
		{
			name: "503 every time exhausts retries",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusServiceUnavailable, "overloaded", "try later")
			},
			wantIs:   []error{llm.ErrServer},
			wantReqs: MaxRetries + 1,
			check: func(t *testing.T, err error, waits []time.Duration) {
				if len(waits) != MaxRetries {
					t.Fatalf("waits = %v, want %d", waits, MaxRetries)
				}
				// Exponential with jitter: attempt k waits in [b*2^k/2, b*2^k].
				for k, w := range waits {
					hi := BaseDelay << k
					if w < hi/2 || w > hi {
						t.Errorf("wait %d = %v, want in [%v, %v]", k, w, hi/2, hi)
					}
				}
			},
		},
		{
			name: "400 is not retried",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusBadRequest, "invalid_request_error", "model xyz does not exist")
			},
			wantIs:   []error{llm.ErrBadRequest},
			wantReqs: 1,
			check: func(t *testing.T, err error, waits []time.Duration) {
				var api *llm.APIError
				if !errors.As(err, &api) {
					t.Fatalf("err = %v, want *APIError", err)
				}
				if api.StatusCode != 400 || api.Message != "model xyz does not exist" {
					t.Fatalf("APIError = %+v, want status 400 and the server's message", api)
				}
				if len(waits) != 0 {
					t.Fatalf("waits = %v, want none", waits)
				}
			},
		},
		{
			name: "401 is ErrAuth",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key")
			},
			wantIs:   []error{llm.ErrAuth},
			wantReqs: 1,
		},
		{
			name: "garbage JSON",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, "<html><body>502 Bad Gateway</body></html>")
			},
			wantIs:   []error{llm.ErrMalformedResponse},
			wantReqs: 1,
		},
		{
			name: "well-formed JSON without payload",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, f.Empty)
			},
			wantIs:   []error{llm.ErrMalformedResponse},
			wantReqs: 1,
		},
		{
			name: "Content-Length longer than body",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "+
					strconv.Itoa(len(f.OK))+"\r\n\r\n"+half)
			},
			wantIs:   []error{llm.ErrTruncated},
			wantReqs: MaxRetries + 1, // a network fault: retried
		},
		{
			name: "connection closed mid-JSON",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"+half)
			},
			wantIs:   []error{llm.ErrTruncated},
			wantReqs: 1,
		},
		{
			name: "chunked body cut off",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"+
					strconv.FormatInt(int64(len(f.OK)), 16)+"\r\n"+half)
			},
			wantIs:   []error{llm.ErrTruncated},
			wantReqs: MaxRetries + 1,
		},
		{
			name: "oversize body with Content-Length",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				ok(w)
			},
			maxBytes: int64(len(f.OK) - 1),
			wantIs:   []error{llm.ErrResponseTooLarge},
			wantReqs: 1,
		},
		{
			name: "oversize chunked body",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, f.OK[:10])
				w.(http.Flusher).Flush() // forces chunked encoding: no Content-Length
				fmt.Fprint(w, f.OK[10:])
			},
			maxBytes: int64(len(f.OK) - 1),
			wantIs:   []error{llm.ErrResponseTooLarge},
			wantReqs: 1,
		},
		{
			name: "exact size limit is fine",
			handler: func(n int, w http.ResponseWriter, r *http.Request) {
				ok(w)
			},
			maxBytes: int64(len(f.OK)),
			wantReqs: 1,
			check: func(t *testing.T, err error, waits []time.Duration) {
				if err != nil {
					t.Fatalf("err = %v, want success", err)
				}
			},
		},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			var reqs atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(reqs.Add(1))
				if r.Method != http.MethodPost || r.URL.Path != f.Path {
					http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
					return
				}
				sc.handler(n, w, r)
			}))
			defer srv.Close()
			ctx := context.Background()
			if sc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, sc.timeout)
				defer cancel()
			}
			sl := &Sleeper{}
			maxBytes := sc.maxBytes
			if maxBytes == 0 {
				maxBytes = 1 << 20
			}
			err := f.Call(ctx, Target{URL: srv.URL, HTTPClient: srv.Client(), Sleep: sl.Sleep, MaxBytes: maxBytes})
			for _, want := range sc.wantIs {
				if !errors.Is(err, want) {
					t.Errorf("err = %v, want errors.Is %v", err, want)
				}
			}
			if got := int(reqs.Load()); got != sc.wantReqs {
				t.Errorf("server saw %d requests, want %d", got, sc.wantReqs)
			}
			if sc.check != nil {
				sc.check(t, err, sl.Waits())
			}
		})
	}

	t.Run("hung server honours the context deadline", func(t *testing.T) {
		released := make(chan struct{}, 8)
		stop := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Reading the body lets the server notice the client hanging up.
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done(): // hangs until the client gives up
				released <- struct{}{}
			case <-stop:
			}
		}))
		defer srv.Close()
		defer close(stop)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		sl := &Sleeper{}
		err := f.Call(ctx, Target{URL: srv.URL, HTTPClient: srv.Client(), Sleep: sl.Sleep, MaxBytes: 1 << 20})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}
		if n := strings.Count(err.Error(), "llm: "); n != 1 {
			t.Errorf("error %q has %d \"llm: \" prefixes, want 1", err, n)
		}
		select {
		case <-released: // the request was really aborted, not left running
		case <-time.After(10 * time.Second):
			t.Fatal("server handler never saw the request cancelled")
		}
		if w := sl.Waits(); len(w) != 0 {
			t.Fatalf("waits = %v, want no retry after the deadline", w)
		}
	})

	t.Run("closed port is unreachable after retries", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + ln.Addr().String()
		ln.Close() // nothing listens there now: connection refused
		sl := &Sleeper{}
		err = f.Call(context.Background(), Target{URL: url, HTTPClient: &http.Client{}, Sleep: sl.Sleep, MaxBytes: 1 << 20})
		if !errors.Is(err, llm.ErrUnreachable) {
			t.Fatalf("err = %v, want llm.ErrUnreachable", err)
		}
		for _, other := range []error{llm.ErrServer, llm.ErrBadRequest, llm.ErrMalformedResponse, llm.ErrTruncated} {
			if errors.Is(err, other) {
				t.Errorf("err %v also matches %v", err, other)
			}
		}
		if w := sl.Waits(); len(w) != MaxRetries {
			t.Errorf("waits = %v, want %d retries (a refused connection may be a server restarting)", w, MaxRetries)
		}
	})

	t.Run("cancel during backoff stops retrying", func(t *testing.T) {
		var reqs atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reqs.Add(1)
			writeError(w, http.StatusBadGateway, "", "bad gateway")
		}))
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sl := &Sleeper{OnSleep: cancel}
		err := f.Call(ctx, Target{URL: srv.URL, HTTPClient: srv.Client(), Sleep: sl.Sleep, MaxBytes: 1 << 20})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if n := reqs.Load(); n != 1 {
			t.Fatalf("server saw %d requests, want 1", n)
		}
	})
}

// Recorded is one request a Recorder received.
type Recorded struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Recorder is an httptest server that records requests and answers each
// with respond (n counts from 1). It is closed at test cleanup.
type Recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []Recorded
}

// NewRecorder starts a Recorder.
func NewRecorder(t testing.TB, respond func(n int, req Recorded) (status int, body string)) *Recorder {
	rec := &Recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req := Recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, req)
		n := len(rec.reqs)
		rec.mu.Unlock()
		status, resp := respond(n, req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, resp)
	}))
	t.Cleanup(rec.Close)
	return rec
}

// Requests returns what the server received so far.
func (r *Recorder) Requests() []Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Recorded(nil), r.reqs...)
}

// Only returns the single request the server received, failing otherwise.
func (r *Recorder) Only(t testing.TB) Recorded {
	t.Helper()
	reqs := r.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server received %d requests, want 1", len(reqs))
	}
	return reqs[0]
}

// AssertJSON fails unless got and want are equal JSON documents (key order
// and spacing aside).
func AssertJSON(t testing.TB, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expected JSON: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("request body\n got: %s\nwant: %s", got, want)
	}
}

// AssertHeader fails unless h[name] is exactly want.
func AssertHeader(t testing.TB, h http.Header, name, want string) {
	t.Helper()
	if got := h.Get(name); got != want {
		t.Errorf("header %s = %q, want %q", name, got, want)
	}
}

// CompleteCall is a Faults.Call that sends one user message to the model
// newModel builds and expects want as the reply.
func CompleteCall(newModel func(Target) llm.Model, want string) func(context.Context, Target) error {
	return func(ctx context.Context, t Target) error {
		resp, err := newModel(t).Complete(ctx, &llm.Request{Messages: []llm.Message{llm.User("q")}})
		if err == nil && resp.Content != want {
			return fmt.Errorf("content %q, want %q", resp.Content, want)
		}
		return err
	}
}

// EmbedCall is a Faults.Call that embeds texts with the embedder newEmb
// builds and expects one vector per text whose first element is the text's
// length (how the providers' fake bodies encode them).
func EmbedCall(newEmb func(Target) llm.Embedder, texts ...string) func(context.Context, Target) error {
	return func(ctx context.Context, t Target) error {
		vecs, err := newEmb(t).Embed(ctx, texts)
		if err != nil {
			return err
		}
		if len(vecs) != len(texts) {
			return fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
		}
		for i, v := range vecs {
			if v[0] != float32(len(texts[i])) {
				return fmt.Errorf("vector %d = %v, not the one for %q", i, v, texts[i])
			}
		}
		return nil
	}
}

// CheckReply fails unless err matches wantErr (nil: no error), a Response
// came back exactly when wantResp, and its FinishReason is wantFinish.
func CheckReply(t testing.TB, resp *llm.Response, err, wantErr error, wantResp bool, wantFinish string) {
	t.Helper()
	if wantErr == nil && err != nil || wantErr != nil && !errors.Is(err, wantErr) {
		t.Fatalf("err = %v, want %v", err, wantErr)
	}
	if (resp != nil) != wantResp {
		t.Fatalf("response = %+v, want response: %v", resp, wantResp)
	}
	if resp != nil && resp.FinishReason != wantFinish {
		t.Errorf("FinishReason = %q, want %q", resp.FinishReason, wantFinish)
	}
}
