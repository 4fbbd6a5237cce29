package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
)

// TestHTTPStalledBody: a client that sends a request's headers and then
// stops sending its body (slowloris) must not hold a session slot (nor a
// connection) for ever: with --max-sessions 1, one such request kept every
// initialize at 503. The body has BodyTimeout to arrive.
func TestHTTPStalledBody(t *testing.T) {
	srv, hs := httpTestServer(t, HTTPConfig{MaxSessions: 1, BodyTimeout: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		strings.TrimPrefix(hs.URL, "http://"), len(initializeBody)+10, initializeBody[:20])
	// The stalled request is answered (or its connection closed) once its
	// time is up; until then it may hold the slot.
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("stalled body answered %d", resp.StatusCode)
		}
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the stalled request was still open after 10s")
	}
	waitFor(t, func() bool {
		code, _, _ := post(t, hs.URL, strings.NewReader(initializeBody), nil)
		return code == http.StatusOK
	})
	if n := sessionCount(srv); n != 1 {
		t.Errorf("%d sessions, want 1", n)
	}
}

// TestHTTPServerTimeouts: the listening server bounds headers, idle
// keep-alive connections and header size (long-lived SSE responses rule
// out a write timeout).
func TestHTTPServerTimeouts(t *testing.T) {
	hs := newHTTPServer(http.NotFoundHandler())
	if hs.ReadHeaderTimeout <= 0 || hs.IdleTimeout <= 0 || hs.MaxHeaderBytes <= 0 || hs.MaxHeaderBytes > 1<<20 {
		t.Errorf("ReadHeaderTimeout %v, IdleTimeout %v, MaxHeaderBytes %d", hs.ReadHeaderTimeout, hs.IdleTimeout, hs.MaxHeaderBytes)
	}
}

// TestHTTPExposedWarning: serving HTTP beyond loopback without a token
// says so (anyone who can reach the port can query the database), as the
// console does; on loopback or with a token it does not.
func TestHTTPExposedWarning(t *testing.T) {
	dsn := erptest.Single(t)
	bin := buildBinary(t)
	for _, c := range []struct {
		addr, token string
		warn        bool
	}{{"127.0.0.1:0", "", false}, {":0", "", true}, {"0.0.0.0:0", "", true}, {":0", "tok", false}} {
		cmd := exec.Command(bin, "--dsn", dsn, "--llm", "none", "--http", c.addr)
		cmd.Env = append(os.Environ(), "NL2SQL_MCP_TOKEN="+c.token)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		pr, pw := io.Pipe()
		cmd.Stderr = io.MultiWriter(&stderr, pw)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(pr)
		for sc.Scan() && !strings.Contains(sc.Text(), "serving MCP over streamable HTTP") {
		}
		go io.Copy(io.Discard, pr)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		pw.Close()
		got := strings.Contains(stderr.String(), "without --auth-token")
		if got != c.warn {
			t.Errorf("--http %s token %q: warning %v, want %v\n%s", c.addr, c.token, got, c.warn, stderr.String())
		}
	}
}

// TestDSNPasswordNeverShown: the password of a DSN the server cannot
// use appears in no response and no log line (the start warning in the
// instructions, tool errors, stderr), for a database that is down and
// for a DSN that does not parse.
func TestDSNPasswordNeverShown(t *testing.T) {
	bin := buildBinary(t)
	const pw = "Sup3rS3cretPw"
	for _, dsn := range []string{
		"postgres://reader:" + pw + "@127.0.0.1:1/erp?connect_timeout=2",
		"host=127.0.0.1 port=1 user=reader password=" + pw + " dbname=erp connect_timeout=2",
	} {
		s := startRaw(t, bin, "--dsn", dsn, "--llm", "none")
		var seen strings.Builder
		s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		r := s.recv()
		seen.Write(r.Result)
		s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for i, call := range []string{
			`{"name":"run_sql","arguments":{"sql":"SELECT 1"}}`,
			`{"name":"describe_schema","arguments":{"tables":["employees"]}}`,
		} {
			s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+2, call))
			r := s.recv()
			seen.Write(r.Result)
			if r.Error != nil {
				seen.WriteString(r.Error.Message)
			}
		}
		s.send(`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"nl2sql://tables"}}`)
		if r := s.recv(); r.Error != nil {
			seen.WriteString(r.Error.Message)
		}
		s.stdin.Close()
		s.wait()
		if !strings.Contains(seen.String(), "could not be reached") {
			t.Errorf("%s: no 'could not be reached' in the responses:\n%s", dsn, seen.String())
		}
		if strings.Contains(seen.String(), pw) || strings.Contains(s.stderr(), pw) {
			t.Errorf("the password shows:\nresponses: %s\nstderr: %s", seen.String(), s.stderr())
		}
	}
	// A DSN that does not parse: refused at start, without the password.
	out, _ := exec.Command(bin, "--dsn", "postgres://reader:"+pw+"@127.0.0.1:notaport/erp", "--llm", "none").CombinedOutput()
	if strings.Contains(string(out), pw) || len(out) == 0 {
		t.Errorf("bad DSN: %s", out)
	}
}

// TestHTTPDeepJSON: a body nested far deeper than any MCP message is
// refused (400) and the server keeps serving.
func TestHTTPDeepJSON(t *testing.T) {
	_, hs := httpTestServer(t, HTTPConfig{})
	deep := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `}}`
	if code, _, body := post(t, hs.URL, strings.NewReader(deep), nil); code != http.StatusBadRequest {
		t.Errorf("deep body: %d %.200s", code, body)
	}
	if code, _, body := post(t, hs.URL, strings.NewReader(initializeBody), map[string]string{"Content-Type": "text/plain"}); code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain body: %d %.200s", code, body)
	}
	if code, _, body := post(t, hs.URL, strings.NewReader(initializeBody), nil); code != http.StatusOK {
		t.Errorf("afterwards: %d %s", code, body)
	}
}
