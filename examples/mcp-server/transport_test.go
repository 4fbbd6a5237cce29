package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/throttle"
)

// buildBinary builds the server into the test's temp dir.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcp-server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// rawServer is the built binary driven line by line, as a host would.
type rawServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	errLog string
}

func startRaw(t *testing.T, bin string, args ...string) *rawServer {
	t.Helper()
	s := &rawServer{t: t, cmd: exec.Command(bin, args...), lines: make(chan []byte, 16)}
	s.errLog = filepath.Join(t.TempDir(), "stderr")
	errFile, err := os.Create(s.errLog)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { errFile.Close() })
	s.cmd.Stderr = errFile
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
			_ = s.cmd.Wait()
		}
	})
	go func() {
		defer close(s.lines)
		br := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

func (s *rawServer) stderr() string { b, _ := os.ReadFile(s.errLog); return string(b) }

// url is the address an --http server logged it serves on ("http://host:port/").
func (s *rawServer) url() string {
	s.t.Helper()
	re := regexp.MustCompile(`url=(http://\S+/)`)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := re.FindStringSubmatch(s.stderr()); m != nil {
			return m[1]
		}
	}
	s.t.Fatalf("no URL logged:\n%s", s.stderr())
	return ""
}

func (s *rawServer) send(frame string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, frame+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v\nstderr:\n%s", err, s.stderr())
	}
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// recv returns the next response (server notifications are skipped).
func (s *rawServer) recv() rpcReply {
	s.t.Helper()
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the server closed stdout (exit %v)\nstderr:\n%s", s.cmd.ProcessState, s.stderr())
			}
			var r rpcReply
			if err := json.Unmarshal(line, &r); err != nil {
				s.t.Fatalf("server wrote %q: %v", line, err)
			}
			if r.Method != "" && len(r.ID) == 0 {
				continue // a notification
			}
			return r
		case <-time.After(30 * time.Second):
			s.t.Fatalf("no response within 30s\nstderr:\n%s", s.stderr())
		}
	}
}

func (s *rawServer) initialize() {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := s.recv(); r.Error != nil || string(r.ID) != "1" {
		s.t.Fatalf("initialize: %+v", r)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// wait waits for the process to exit and returns its exit code.
func (s *rawServer) wait() int {
	s.t.Helper()
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
		return s.cmd.ProcessState.ExitCode()
	case <-time.After(10 * time.Second):
		s.t.Fatalf("the server did not exit within 10s\nstderr:\n%s", s.stderr())
		return -1
	}
}

// TestStdioMalformedFrames sends the built binary every kind of bad line
// a buggy host might write; each gets a JSON-RPC error response and the
// session goes on (the next tools/call works).
func TestStdioMalformedFrames(t *testing.T) {
	dsn := erptest.Single(t)
	want := employeeCount(t, dsn)
	s := startRaw(t, buildBinary(t), "--dsn", dsn, "--llm", "none", "--max-frame", "65536")
	s.initialize()

	nest := func(open, middle, close string, n int) string {
		return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
	}
	cases := []struct {
		name, frame string
		code        int
		id          string
	}{
		{"not JSON", "this is not json", -32700, "null"},
		{"truncated object", `{"jsonrpc":"2.0","id":5,"method":`, -32700, "null"},
		{"trailing garbage", `{"jsonrpc":"2.0","id":5,"method":"ping"} x`, -32700, "null"},
		{"bare array", `[1,2,3]`, -32600, "null"},
		{"batch of requests", `[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, -32600, "null"},
		{"empty array", `[]`, -32600, "null"},
		{"bare string", `"hello"`, -32600, "null"},
		{"bare number", `42`, -32600, "null"},
		{"null", `null`, -32600, "null"},
		{"arrays nested 10000 deep", nest("[", "", "]", 10000), -32600, "null"},
		{"objects nested 10000 deep", nest(`{"a":`, "1", "}", 10000), -32600, "null"},
		{"unclosed nesting 10000 deep", strings.Repeat("[", 10000), -32600, "null"},
		// Refused for nesting or size, the id at the frame's start is
		// answered, so that the client can match the error.
		{"nesting in params", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":` + nest("[", "", "]", 100) + `}}`, -32600, "8"},
		{"over-long frame", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"` + strings.Repeat("x", 100_000) + `"}}`, -32600, "9"},
		{"10 MB tools/call", `{"jsonrpc":"2.0","id":"call-10mb","method":"tools/call","params":{"name":"run_sql","arguments":{"sql":"SELECT 1 -- ` +
			strings.Repeat("x", 10<<20) + `"}}}`, -32600, `"call-10mb"`},
		{"over-long, id after the params", `{"jsonrpc":"2.0","method":"ping","params":{"pad":"` + strings.Repeat("x", 100_000) + `"},"id":10}`, -32600, "null"},
		{"over-long non-JSON", strings.Repeat("z", 300_000), -32600, "null"},
		{"object that is no message", `{"hello":"world"}`, -32600, "null"},
		{"wrong version, with id", `{"jsonrpc":"1.0","id":"abc","method":"ping"}`, -32600, `"abc"`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.t = t
			s.send(c.frame)
			r := s.recv()
			if r.Error == nil || r.Error.Code != c.code || string(r.ID) != c.id {
				t.Fatalf("got %+v (error %+v), want error %d with id %s", r, r.Error, c.code, c.id)
			}
			id := 100 + i
			s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_sql","arguments":{"sql":"SELECT count(*) AS n FROM employees"}}}`, id))
			r = s.recv()
			if string(r.ID) != fmt.Sprint(id) || r.Error != nil {
				t.Fatalf("tools/call after the bad frame: %+v %+v", r, r.Error)
			}
			var res struct {
				IsError           bool         `json:"isError"`
				StructuredContent RunSQLOutput `json:"structuredContent"`
			}
			if err := json.Unmarshal(r.Result, &res); err != nil || res.IsError ||
				len(res.StructuredContent.Rows) != 1 || res.StructuredContent.Rows[0][0] != float64(want) {
				t.Fatalf("tools/call result %s (%v), want %d employees", r.Result, err, want)
			}
		})
	}
	s.t = t
	// A frame of exactly --max-frame bytes (CRLF-terminated) is accepted.
	pad := 65536 - len(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":""}}}`)
	s.send(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("y", pad) + `"}}}` + "\r")
	if r := s.recv(); r.Error != nil || string(r.ID) != "7" {
		t.Errorf("a frame of exactly --max-frame bytes: %+v %+v", r, r.Error)
	}
	s.stdin.Close()
	if code := s.wait(); code != 0 {
		t.Errorf("exit %d after stdin closed\nstderr:\n%s", code, s.stderr())
	}
	if logs := s.stderr(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("ERROR in the logs:\n%s", logs)
	}
}

// TestHeadID: the id of a refused frame is read from its start only when
// it is a top-level "id" with a string or number, before anything cut off.
func TestHeadID(t *testing.T) {
	pad := strings.Repeat("p", headSize)
	for frame, want := range map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`:                           "7",
		`{"id":"a\"b","params":{"x":"` + pad:                                 `"a\"b"`,
		`{"jsonrpc":"2.0","method":"m","params":{"id":3,"x":[[{}]]},"id":4}`: "4",
		`{"params":{"id":3,"x":"` + pad + `"},"id":4}`:                       "",
		`{"id":{"nested":1}}`:                                                "",
		`{"id":null}`:                                                        "",
		`{"id":true}`:                                                        "",
		`[{"id":1}]`:                                                         "",
		`{"a":` + strings.Repeat("[", 10000):                                 "",
		`{"jsonrpc":"2.0","id":-1.5e3,"x":`:                                  "-1.5e3",
		`not json "id":5`:                                                    "",
		``:                                                                   "",
	} {
		if got := string(headID([]byte(frame))); got != want {
			t.Errorf("headID(%.60q) = %q, want %q", frame, got, want)
		}
	}
}

func TestNestingDepth(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{`1`, 0}, {`{}`, 1}, {`[[{}]]`, 3}, {`{"a":"[[[[{{{"}`, 1}, {`{"a":"\"[[["}`, 1}, {`[[],[[]]]`, 3},
	} {
		if got := nestingDepth([]byte(c.in), 64); got != c.want {
			t.Errorf("nestingDepth(%s) = %d, want %d", c.in, got, c.want)
		}
	}
	if got := nestingDepth([]byte(strings.Repeat("[", 1_000_000)), 64); got != 65 {
		t.Errorf("deep input: %d, want to stop at 65", got)
	}
}

// TestShutdown: a signal or the end of stdin stops the server with
// status 0 and no ERROR log line, on stdio and on HTTP.
func TestShutdown(t *testing.T) {
	dsn := erptest.Single(t)
	bin := buildBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run("stdio "+sig.String(), func(t *testing.T) {
			s := startRaw(t, bin, "--dsn", dsn, "--llm", "none")
			s.initialize()
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := s.wait(); code != 0 {
				t.Errorf("exit %d\nstderr:\n%s", code, s.stderr())
			}
			if logs := s.stderr(); strings.Contains(logs, "level=ERROR") || !strings.Contains(logs, "stopping") {
				t.Errorf("logs:\n%s", logs)
			}
		})
	}
	t.Run("stdio EOF right after start", func(t *testing.T) {
		// The background Prepare is still running: cancelling it is no error.
		s := startRaw(t, bin, "--dsn", dsn, "--llm", "none")
		s.stdin.Close()
		if code := s.wait(); code != 0 {
			t.Errorf("exit %d\nstderr:\n%s", code, s.stderr())
		}
		if logs := s.stderr(); strings.Contains(logs, "level=ERROR") {
			t.Errorf("logs:\n%s", logs)
		}
	})
	t.Run("http SIGTERM", func(t *testing.T) {
		s := startRaw(t, bin, "--dsn", dsn, "--llm", "none", "--http", "127.0.0.1:0")
		url := s.url()
		// An open session (with its SSE stream) must not delay the stop.
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
			Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		resp, err := http.Get(url + "healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := s.wait(); code != 0 {
			t.Errorf("exit %d\nstderr:\n%s", code, s.stderr())
		}
		// Not delayed: the server did not wait out its grace period.
		if logs := s.stderr(); strings.Contains(logs, "level=ERROR") || strings.Contains(logs, "were cut off") {
			t.Errorf("logs:\n%s", logs)
		}
	})
}

// httpTestServer serves a fresh server the way --http does, with cfg.
func httpTestServer(t *testing.T, cfg HTTPConfig) (*mcp.Server, *httptest.Server) {
	t.Helper()
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)))
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(eng, Config{})
	hs := httptest.NewServer(httpHandler(srv, cfg))
	t.Cleanup(hs.Close)
	return srv, hs
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// httpConnect connects a client. With legacy set it opens a session the
// pre-2026 way (initialize, Mcp-Session-Id); otherwise the SDK client uses
// the sessionless 2026-07-28 protocol when the server offers it.
func httpConnect(t *testing.T, url, token string, legacy bool) (*mcp.ClientSession, error) {
	t.Helper()
	var opts *mcp.ClientSessionOptions
	if legacy {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/", DisableStandaloneSSE: true}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), tr, opts)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends one raw MCP POST and returns the status, headers and body.
func post(t *testing.T, url string, body io.Reader, header map[string]string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(mcpPost(t.Context(), url, body, header))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, resp.Header, string(b)
}

// mcpPost is a raw MCP POST of body to url with header.
func mcpPost(ctx context.Context, url string, body io.Reader, header map[string]string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/", body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return req
}

// sessionCount counts the initialized (lasting) sessions.
func sessionCount(srv *mcp.Server) int {
	n := 0
	for ss := range srv.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	return n
}

func TestHTTPAuthAndHealth(t *testing.T) {
	const token = "s3cret-token"
	_, hs := httpTestServer(t, HTTPConfig{Token: token})

	resp, err := http.Get(hs.URL + "/healthz") // no token: health is exempt
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != "ok" {
		t.Errorf("/healthz: %d %q", resp.StatusCode, body)
	}

	for _, c := range []struct{ name, auth string }{
		{"no token", ""}, {"wrong token", "Bearer s3cret-tokem"}, {"other scheme", "Basic " + token}, {"empty bearer", "Bearer "},
	} {
		code, h, body := post(t, hs.URL, strings.NewReader(initializeBody), map[string]string{"Authorization": c.auth})
		if code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") ||
			h.Get("Content-Type") != "application/json" || !strings.Contains(body, `"error"`) {
			t.Errorf("%s: %d %v %s", c.name, code, h, body)
		}
	}
	for _, legacy := range []bool{false, true} {
		if _, err := httpConnect(t, hs.URL, "wrong", legacy); err == nil {
			t.Error("a client with a wrong token connected")
		}
		cs, err := httpConnect(t, hs.URL, token, legacy)
		if err != nil {
			t.Fatal(err)
		}
		out := decode[RunSQLOutput](t, call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1 AS one"}))
		if len(out.Rows) != 1 {
			t.Errorf("rows %v", out.Rows)
		}
	}
}

func TestHTTPSessionCap(t *testing.T) {
	srv, hs := httpTestServer(t, HTTPConfig{MaxSessions: 2})
	// Sessionless (2026-07-28) clients hold no session between requests:
	// however many come and go, they do not use up the cap.
	for range 4 {
		cs, err := httpConnect(t, hs.URL, "", false)
		if err != nil {
			t.Fatal(err)
		}
		call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1"})
		_ = cs.Close()
	}
	cs1, err := httpConnect(t, hs.URL, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := httpConnect(t, hs.URL, "", true); err != nil {
		t.Fatal(err)
	}
	if _, err := httpConnect(t, hs.URL, "", true); err == nil {
		t.Fatal("a third session opened with --max-sessions 2")
	}
	code, h, body := post(t, hs.URL, strings.NewReader(initializeBody), nil)
	var e struct{ Error string }
	if code != http.StatusServiceUnavailable || h.Get("Content-Type") != "application/json" ||
		json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, "session limit") {
		t.Errorf("over the cap: %d %s %q", code, h.Get("Content-Type"), body)
	}
	// Existing sessions keep working.
	call(t, cs1, "run_sql", map[string]any{"sql": "SELECT 1"})
	// Closing one (DELETE) frees its place.
	if err := cs1.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return sessionCount(srv) == 1 })
	if _, err := httpConnect(t, hs.URL, "", true); err != nil {
		var ids []string
		for ss := range srv.Sessions() {
			ids = append(ids, ss.ID())
		}
		t.Errorf("after closing a session: %v (sessions %q, cs1 %q)", err, ids, cs1.ID())
	}
}

// TestHTTPSessionCapConcurrent: initializes racing each other cannot
// overshoot the cap.
func TestHTTPSessionCapConcurrent(t *testing.T) {
	srv, hs := httpTestServer(t, HTTPConfig{MaxSessions: 2})
	codes := make(chan int, 12)
	var wg sync.WaitGroup
	for range cap(codes) {
		wg.Go(func() {
			code, _, _ := post(t, hs.URL, strings.NewReader(initializeBody), nil)
			codes <- code
		})
	}
	wg.Wait()
	close(codes)
	ok := 0
	for code := range codes {
		switch code {
		case http.StatusOK:
			ok++
		case http.StatusServiceUnavailable:
		default:
			t.Errorf("status %d", code)
		}
	}
	if ok < 1 || ok > 2 || sessionCount(srv) > 2 {
		t.Errorf("%d initializes succeeded, %d sessions; want 1 or 2", ok, sessionCount(srv))
	}
}

func TestHTTPSessionIdle(t *testing.T) {
	srv, hs := httpTestServer(t, HTTPConfig{SessionIdle: 300 * time.Millisecond})
	cs, err := httpConnect(t, hs.URL, "", true)
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1"})
	if cs.ID() == "" {
		t.Fatal("no session id")
	}
	if n := sessionCount(srv); n != 1 {
		t.Fatalf("%d sessions, want 1", n)
	}
	waitFor(t, func() bool { return sessionCount(srv) == 0 })
	code, _, body := post(t, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`),
		map[string]string{"Mcp-Session-Id": cs.ID(), "Mcp-Protocol-Version": "2025-11-25"})
	if code != http.StatusNotFound {
		t.Errorf("request on an expired session: %d %s", code, body)
	}
}

func TestHTTPBodyLimit(t *testing.T) {
	_, hs := httpTestServer(t, HTTPConfig{})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", defaultMaxFrame) + `"}}`
	if code, _, body := post(t, hs.URL, bytes.NewReader([]byte(big)), nil); code != http.StatusRequestEntityTooLarge {
		t.Errorf("%d-byte body: %d %s", len(big), code, body)
	}
	// Chunked (no Content-Length) too.
	if code, _, body := post(t, hs.URL, io.MultiReader(strings.NewReader(big)), nil); code != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked %d-byte body: %d %s", len(big), code, body)
	}
	if code, _, body := post(t, hs.URL, strings.NewReader(initializeBody), nil); code != http.StatusOK {
		t.Errorf("small body: %d %s", code, body)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 10s")
}

// TestHTTPTokenThrottle: after throttle.MaxFailures wrong bearer tokens
// from one address, every token from it, the right one too, gets 429 with
// Retry-After until the window ends; /healthz still answers.
func TestHTTPTokenThrottle(t *testing.T) {
	const token = "s3cret-token"
	_, hs := httpTestServer(t, HTTPConfig{Token: token})
	auth := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	for i := range throttle.MaxFailures {
		if code, _, _ := post(t, hs.URL, strings.NewReader(initializeBody), auth(fmt.Sprintf("guess-%d", i))); code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d, want 401", i, code)
		}
	}
	for _, tok := range []string{"guess-again", token} {
		code, h, body := post(t, hs.URL, strings.NewReader(initializeBody), auth(tok))
		if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(body, "too many wrong tokens") {
			t.Errorf("token %q after %d wrong ones: %d %v %s", tok, throttle.MaxFailures, code, h, body)
		}
	}
	resp, err := http.Get(hs.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz while the address is blocked: %d", resp.StatusCode)
	}
}
