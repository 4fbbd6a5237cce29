package main

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/identity"
	"github.com/nl2sqlgo/nl2sql/throttle"
)

// HTTPConfig is how the streamable HTTP endpoint guards itself.
type HTTPConfig struct {
	// SessionIdle closes a session that has had no request for this long
	// (the SDK's StreamableHTTPOptions.SessionTimeout); 0: never.
	SessionIdle time.Duration
	// MaxSessions caps the live (initialized) sessions; a request that
	// could open one more is refused with 503. 0: no cap.
	MaxSessions int
	// Token, when set, is the bearer token every request but /healthz
	// must carry.
	Token string
	// Callers, when set, authenticates every request but /healthz instead
	// of Token: its caller's identity is the one every read of the request
	// runs as (--identity).
	Callers *identity.Map
	// MaxBody caps a request body (413 above it); 0: defaultMaxFrame.
	MaxBody int64
	// MaxSessionsPerClient caps the live sessions (and the requests that
	// may open one) of one client address (throttle.ClientKey), so that
	// one client cannot hold every session of MaxSessions. 0: no cap.
	// Behind a proxy every client has the proxy's address: raise it.
	MaxSessionsPerClient int
	// MaxCalls and MaxCallsPerSession bound the requests in flight, in
	// all and of one session (see callGuard); 0: defaultMaxCalls,
	// defaultMaxCallsPerSession.
	MaxCalls, MaxCallsPerSession int
	// BodyTimeout is how long a request body may take to arrive once its
	// headers have (a client that stops sending it is cut off instead of
	// holding a connection, and a session slot, for ever); 0:
	// defaultBodyTimeout.
	BodyTimeout time.Duration
	// Stateless serves every request on a session of its own (the SDK's
	// StreamableHTTPOptions.Stateless): no Mcp-Session-Id, so replicas
	// behind a load balancer need no sticky sessions. The server makes no
	// request of the client, so nothing is lost but the GET stream (405).
	// MaxCallsPerSession then bounds the calls of one client address.
	Stateless bool
}

// defaultBodyTimeout bounds the arrival of a request body.
const defaultBodyTimeout = 30 * time.Second

// newHTTPServer is the http.Server --http listens with: bounded headers
// (time and size) and idle keep-alive connections. No ReadTimeout or
// WriteTimeout: SSE responses (and the standalone GET stream) live as
// long as their session; bodies are bounded by bodyDeadline instead.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}

// bodyDeadline gives a request's body d to arrive: the connection's read
// deadline is set when the headers are in and cleared once the body has
// been read to its end, so a response that streams for long (SSE) is not
// cut off.
func bodyDeadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(d)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, clear: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			}
		}
		next.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	clear func()
	done  bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.clear()
	}
	return n, err
}

// httpHandler serves srv's streamable HTTP transport at "/" and a health
// check at /healthz; every session shares the one server (and engine).
//
// The SDK provides the idle expiry (SessionTimeout), the body limit
// (MaxRequestBodyBytes, 413) and the DNS-rebinding check (requests to a
// localhost address with a foreign Host header get 403; left on). It has
// no session cap and no authentication: those are middleware here.
func httpHandler(srv *mcp.Server, cfg HTTPConfig) http.Handler {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = defaultMaxFrame
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = defaultBodyTimeout
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: cfg.SessionIdle, MaxRequestBodyBytes: cfg.MaxBody, Stateless: cfg.Stateless})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	if cfg.MaxCalls <= 0 {
		cfg.MaxCalls = defaultMaxCalls
	}
	if cfg.MaxCallsPerSession <= 0 {
		cfg.MaxCallsPerSession = defaultMaxCallsPerSession
	}
	var h http.Handler = &callGuard{next: mcpHandler, maxBody: cfg.MaxBody, total: cfg.MaxCalls, perSession: cfg.MaxCallsPerSession,
		byClient: cfg.Stateless}
	if cfg.MaxSessions > 0 || cfg.MaxSessionsPerClient > 0 {
		h = &sessionCap{next: h, srv: srv, max: cfg.MaxSessions, perClient: cfg.MaxSessionsPerClient}
	}
	switch {
	case cfg.Callers != nil:
		h = callerAuth(cfg.Callers, h)
	case cfg.Token != "":
		h = bearerAuth(cfg.Token, h)
	}
	mux.Handle("/", h)
	return bodyDeadline(cfg.BodyTimeout, mux)
}

// httpError writes a JSON error body {"error": msg} with status code.
func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// bearerAuth lets through requests whose Authorization header is
// "Bearer TOKEN"; the comparison takes the same time whatever the guess.
// An address that sent throttle.MaxFailures wrong tokens within
// throttle.Window gets 429 with Retry-After for any token until the
// window ends, so a token cannot be guessed at full speed.
func bearerAuth(token string, next http.Handler) http.Handler {
	want := []byte(token)
	fails := throttle.New()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="nl2sql-mcp"`)
			httpError(w, http.StatusUnauthorized, "missing bearer token")
			return
		}
		key := throttle.ClientKey(r)
		if blocked, left := fails.Blocked(key); blocked {
			throttle.RetryAfter(w.Header(), left)
			httpError(w, http.StatusTooManyRequests, "too many wrong tokens from this address: try again later")
			return
		}
		if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			fails.Fail(key)
			w.Header().Set("WWW-Authenticate", `Bearer realm="nl2sql-mcp", error="invalid_token"`)
			httpError(w, http.StatusUnauthorized, "invalid bearer token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sessionCap refuses a request that may open a session (a POST without
// an Mcp-Session-Id header) while max sessions are live (503), or while
// its client address holds perClient of them (429): one global pool let
// one client's idle or slow initializes lock everyone out. Live sessions are
// the server's initialized ones plus such requests in flight (counted
// once: an opening request whose session is already registered is that
// session), so concurrent initializes cannot overshoot.
//
// Only initialize opens a lasting session. The SDK also makes a session
// for every other POST without an id (each request of a 2026-07-28
// "sessionless" client, e.g. server/discover) and closes it when the
// request ends; those are not counted once done, but while the cap is
// reached they are refused too.
type sessionCap struct {
	next      http.Handler
	srv       *mcp.Server
	max       int // 0: no cap in all
	perClient int // 0: no cap per client

	mu      sync.Mutex
	opening map[*openingWriter]bool
	clients map[string]string // session id -> the client that opened it
}

func (s *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		s.next.ServeHTTP(w, r)
		return
	}
	ow := &openingWriter{ResponseWriter: w, mu: &s.mu, client: throttle.ClientKey(r)}
	s.mu.Lock()
	live, mine := s.liveLocked(ow.client)
	if s.max > 0 && live >= s.max {
		s.mu.Unlock()
		w.Header().Set("Retry-After", "60")
		httpError(w, http.StatusServiceUnavailable,
			fmt.Sprintf("session limit reached (%d live sessions); close one or retry later", s.max))
		return
	}
	if s.perClient > 0 && mine >= s.perClient {
		s.mu.Unlock()
		w.Header().Set("Retry-After", "60")
		httpError(w, http.StatusTooManyRequests,
			fmt.Sprintf("this client has %d live sessions, the most one client may have; close one or retry later", mine))
		return
	}
	if s.opening == nil {
		s.opening = map[*openingWriter]bool{}
	}
	s.opening[ow] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.note(ow)
		delete(s.opening, ow)
		s.mu.Unlock()
	}()
	s.next.ServeHTTP(ow, r)
}

// liveLocked counts the live sessions, in all and of client; s.mu is
// held. It forgets the clients of sessions that have ended.
func (s *sessionCap) liveLocked(client string) (live, mine int) {
	for ow := range s.opening {
		s.note(ow)
	}
	ids := map[string]bool{}
	for ss := range s.srv.Sessions() {
		if ss.InitializeParams() != nil {
			ids[ss.ID()] = true
			if s.clients[ss.ID()] == client {
				mine++
			}
		}
	}
	for id := range s.clients {
		if !ids[id] {
			delete(s.clients, id)
		}
	}
	live = len(ids)
	for ow := range s.opening {
		if ow.sessionID == "" || !ids[ow.sessionID] {
			live++
			if ow.client == client {
				mine++
			}
		}
	}
	return live, mine
}

// note records which client opened ow's session, once it has an id; s.mu
// is held.
func (s *sessionCap) note(ow *openingWriter) {
	if ow.sessionID == "" {
		return
	}
	if s.clients == nil {
		s.clients = map[string]string{}
	}
	s.clients[ow.sessionID] = ow.client
}

// openingWriter records the session id the SDK assigns to a request
// (the Mcp-Session-Id response header) when the headers go out.
type openingWriter struct {
	http.ResponseWriter
	client      string // throttle.ClientKey of the request
	mu          *sync.Mutex
	sessionID   string
	wroteHeader bool
}

func (w *openingWriter) capture() {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	id := w.Header().Get("Mcp-Session-Id")
	w.mu.Lock()
	w.sessionID = id
	w.mu.Unlock()
}

func (w *openingWriter) WriteHeader(code int) { w.capture(); w.ResponseWriter.WriteHeader(code) }

func (w *openingWriter) Write(b []byte) (int, error) { w.capture(); return w.ResponseWriter.Write(b) }

func (w *openingWriter) Flush() {
	w.capture()
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *openingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
