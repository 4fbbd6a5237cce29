package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/nl2sqlgo/nl2sql/throttle"
)

// Defaults of the calls in flight (HTTPConfig.MaxCalls,
// MaxCallsPerSession).
const (
	defaultMaxCalls           = 16
	defaultMaxCallsPerSession = 4
)

// callGuard reads each POST body (within the body cap) before the SDK
// does, and
//
//   - refuses a JSON-RPC batch (a JSON array) with 400: the current MCP
//     specification has no batches over streamable HTTP, and one POST of
//     500 calls once ran them all at once;
//   - bounds the requests in flight (a message with a method and an id:
//     tool calls, reads): at most perSession of one session and total in
//     all; one more is refused with 429 and Retry-After at once, instead
//     of each holding its result in memory (30 byte-capped calls took the
//     server to 3.2 GB). Notifications and responses (a cancellation, an
//     answer to the server) always pass.
type callGuard struct {
	next       http.Handler
	maxBody    int64
	total      int
	perSession int
	// byClient bounds a request without a session (all of them with
	// --stateless) by its client address (throttle.ClientKey) instead, so
	// that one client cannot take every slot of total.
	byClient bool

	mu        sync.Mutex
	inFlight  int
	bySession map[string]int
}

func (g *callGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		g.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBody))
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large (the limit is %d bytes)", g.maxBody))
			return
		}
		httpError(w, http.StatusBadRequest, "the request body could not be read")
		return
	}
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		httpError(w, http.StatusBadRequest, "JSON-RPC batches are not supported: send one message per request")
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method == "" || len(msg.ID) == 0 {
		g.next.ServeHTTP(w, r) // the SDK answers what it cannot read
		return
	}
	session := r.Header.Get("Mcp-Session-Id")
	if session == "" && g.byClient {
		session = "client " + throttle.ClientKey(r)
	}
	if !g.acquire(session) {
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("too many calls in flight (at most %d per session, %d in all): retry when one has ended", g.perSession, g.total))
		return
	}
	defer g.release(session)
	g.next.ServeHTTP(w, r)
}

func (g *callGuard) acquire(session string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if (g.total > 0 && g.inFlight >= g.total) || (session != "" && g.perSession > 0 && g.bySession[session] >= g.perSession) {
		return false
	}
	g.inFlight++
	if session != "" {
		if g.bySession == nil {
			g.bySession = map[string]int{}
		}
		g.bySession[session]++
	}
	return true
}

func (g *callGuard) release(session string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight--
	if session != "" {
		if g.bySession[session]--; g.bySession[session] <= 0 {
			delete(g.bySession, session)
		}
	}
}
