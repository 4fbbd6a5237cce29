package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestCallGuard: requests in flight are bounded per session and in all
// (429 with Retry-After beyond, at once), notifications and responses
// pass even then, and a batch is refused whatever its padding.
func TestCallGuard(t *testing.T) {
	entered, release := make(chan string, 16), make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Block") != "" {
			entered <- r.Header.Get("Mcp-Session-Id")
			<-release
		}
		w.WriteHeader(http.StatusOK)
	})
	g := &callGuard{next: next, maxBody: 1 << 20, total: 6, perSession: 4}
	send := func(session, body string, block bool) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		if block {
			r.Header.Set("X-Block", "1")
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		return w
	}
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_sql"}}`, id)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { send("a", call(i), true) })
	}
	for range 4 {
		<-entered
	}
	if w := send("a", call(9), false); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Errorf("a fifth call of session a: %d", w.Code)
	}
	for _, msg := range []string{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, `{"jsonrpc":"2.0","id":7,"result":{}}`} {
		if w := send("a", msg, false); w.Code != http.StatusOK {
			t.Errorf("%s at the limit: %d", msg, w.Code)
		}
	}
	for i := range 2 {
		wg.Go(func() { send("b", call(i), true) })
	}
	<-entered
	<-entered
	if w := send("c", call(1), false); w.Code != http.StatusTooManyRequests {
		t.Errorf("a seventh call in all: %d", w.Code)
	}
	close(release)
	wg.Wait()
	if w := send("a", call(10), false); w.Code != http.StatusOK {
		t.Errorf("after the calls ended: %d", w.Code)
	}
	for _, b := range []string{"[" + call(1) + "]", " \r\n\t[" + call(1) + "," + call(2) + "]", "[]"} {
		if w := send("a", b, false); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "batches are not supported") {
			t.Errorf("batch %.30q: %d %s", b, w.Code, w.Body)
		}
	}
	if g.inFlight != 0 || len(g.bySession) != 0 {
		t.Errorf("left in flight: %d %v", g.inFlight, g.bySession)
	}
}

// TestHTTPSessionsPerClient: one client address may hold at most
// MaxSessionsPerClient sessions (429 beyond), so it cannot take every
// session of the server's cap; another address still opens its own.
func TestHTTPSessionsPerClient(t *testing.T) {
	srv, _ := httpTestServer(t, HTTPConfig{})
	h := httpHandler(srv, HTTPConfig{MaxSessions: 10, MaxSessionsPerClient: 2})
	open := func(addr string) int {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(initializeBody))
		r.RemoteAddr = addr
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	for i := range 2 {
		if code := open("10.0.0.1:1000"); code != http.StatusOK {
			t.Fatalf("session %d of 10.0.0.1: %d", i, code)
		}
	}
	if code := open("10.0.0.1:1001"); code != http.StatusTooManyRequests {
		t.Errorf("a third session of 10.0.0.1: %d", code)
	}
	if code := open("10.0.0.2:1000"); code != http.StatusOK {
		t.Errorf("10.0.0.2's first session: %d", code)
	}
	if n := sessionCount(srv); n != 3 {
		t.Errorf("%d sessions, want 3", n)
	}
}

// TestCallGuardStateless: with --stateless no request names a session, so
// the per-session bound holds per client address: one address gets 429
// beyond it while another is served.
func TestCallGuardStateless(t *testing.T) {
	entered, release := make(chan struct{}, 4), make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Block") != "" {
			entered <- struct{}{}
			<-release
		}
		w.WriteHeader(http.StatusOK)
	})
	g := &callGuard{next: next, maxBody: 1 << 20, total: 6, perSession: 2, byClient: true}
	send := func(addr string, block bool) int {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_sql"}}`))
		r.RemoteAddr = addr
		if block {
			r.Header.Set("X-Block", "1")
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		return w.Code
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { send("10.0.0.1:1000", true) })
	}
	<-entered
	<-entered
	if code := send("10.0.0.1:1001", false); code != http.StatusTooManyRequests {
		t.Errorf("a third call of 10.0.0.1: %d", code)
	}
	if code := send("10.0.0.2:1000", false); code != http.StatusOK {
		t.Errorf("10.0.0.2's call while 10.0.0.1 is at its bound: %d", code)
	}
	close(release)
	wg.Wait()
	if g.inFlight != 0 || len(g.bySession) != 0 {
		t.Errorf("left in flight: %d %v", g.inFlight, g.bySession)
	}
}
