package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// roundRobin is a load balancer without stickiness: request n goes to
// backend n mod len(backends), whatever its session.
type roundRobin struct {
	backends []*httputil.ReverseProxy
	mu       sync.Mutex
	next     int
	last     int // the backend of the latest request
	served   []int
	sessions int // responses that named a session (Mcp-Session-Id)
}

func newRoundRobin(urls ...string) *roundRobin {
	p := &roundRobin{served: make([]int, len(urls))}
	for _, u := range urls {
		target, _ := url.Parse(u)
		p.backends = append(p.backends, &httputil.ReverseProxy{
			Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(target) },
			FlushInterval: -1, // SSE replies go through as they are written
			ModifyResponse: func(resp *http.Response) error {
				if resp.Header.Get("Mcp-Session-Id") != "" {
					p.mu.Lock()
					p.sessions++
					p.mu.Unlock()
				}
				return nil
			},
		})
	}
	return p
}

func (p *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	i := p.next
	p.next = (p.next + 1) % len(p.backends)
	p.last = i
	p.served[i]++
	p.mu.Unlock()
	p.backends[i].ServeHTTP(w, r)
}

// TestReplicasBehindRoundRobin: two server processes with --stateless and
// one --store, behind a balancer that alternates every request, driven by
// the official client as one connection: every call is answered whichever
// replica gets it (no session to lose), an example learnt through one
// replica reaches the other's prompts, and a column a migration adds
// reaches both replicas' schema, within --refresh-every.
func TestReplicasBehindRoundRobin(t *testing.T) {
	storeDSN, ok := pgtest.ClusterPGVector(t)
	if !ok {
		t.Skip("pgvector is not installed on the test cluster (scripts/pg install-pgvector)")
	}
	dsn := erptest.Single(t)
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM projects\n```"}
	})
	bin := buildBinary(t)
	var urls []string
	for range 2 {
		s := startRaw(t, bin, "--dsn", dsn, "--llm", "openai:fake", "--llm-url", fake.BaseURL(), "--http", "127.0.0.1:0",
			"--stateless", "--store", storeDSN, "--refresh-every", "200ms")
		urls = append(urls, s.url())
	}
	lb := newRoundRobin(urls...)
	proxy := httptest.NewServer(lb)
	defer proxy.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: proxy.URL + "/", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	// call calls a tool and returns its reply as JSON, the replica that
	// served it and the prompts the model was sent meanwhile.
	call := func(name string, args map[string]any) (string, int, []string) {
		t.Helper()
		before := len(fake.Requests())
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lb.mu.Lock()
		served := lb.last
		lb.mu.Unlock()
		var prompts []string
		for _, r := range fake.Requests()[before:] {
			prompts = append(prompts, r.Last())
		}
		b, _ := json.Marshal(res)
		if res.IsError {
			t.Fatalf("%s %v on replica %d: %s", name, args, served, b)
		}
		return string(b), served, prompts
	}
	// onBoth calls until each replica's latest reply satisfied ok.
	onBoth := func(what string, name string, args map[string]any, ok func(reply string, prompts []string) bool) {
		t.Helper()
		done := make([]bool, len(urls))
		deadline := time.Now().Add(time.Minute)
		for !done[0] || !done[1] {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not on both replicas within a minute (done: %v)", what, done)
			}
			reply, served, prompts := call(name, args)
			done[served] = ok(reply, prompts)
			time.Sleep(50 * time.Millisecond)
		}
	}

	const shown = "SQL: SELECT project_id FROM projects WHERE status = 'On Hold' ORDER BY project_id"
	showsExample := func(_ string, prompts []string) bool {
		return len(prompts) > 0 && strings.Contains(prompts[0], shown)
	}
	q := map[string]any{"question": "Which projects are on hold?"}
	for range 2 {
		if reply, served, prompts := call("nl_query", q); showsExample(reply, prompts) {
			t.Fatalf("replica %d shows the example before it was learnt:\n%s", served, prompts[0])
		}
	}
	_, learntOn, _ := call("learn", map[string]any{"question": "Which projects are paused?",
		"sql": "SELECT project_id FROM projects WHERE status = 'On Hold' ORDER BY project_id"})
	t.Logf("learnt on replica %d", learntOn)
	onBoth("the example learnt through one replica in both replicas' prompts", "nl_query", q, showsExample)

	pgtest.Exec(t, dsn, "ALTER TABLE projects ADD COLUMN risk_rating int")
	onBoth("the migration's column in both replicas' schema", "describe_schema", map[string]any{"tables": []string{"projects"}},
		func(reply string, _ []string) bool { return strings.Contains(reply, "risk_rating") })

	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.sessions != 0 {
		t.Errorf("%d responses named a session: --stateless should keep none", lb.sessions)
	}
	if lb.served[0] == 0 || lb.served[1] == 0 {
		t.Errorf("requests per replica %v: both should have served", lb.served)
	}
}

// TestReplicaFlags: --refresh-every defaults to a minute and may be 0
// (never); a negative one, and --index with --store (two places for the
// index), are refused at start; --stateless reaches the HTTP config.
func TestReplicaFlags(t *testing.T) {
	f, err := parseFlags([]string{"--dsn", "postgres://x/y"}, io.Discard)
	if err != nil || f.refreshEvery != time.Minute || f.httpCfg.Stateless {
		t.Fatalf("defaults: %+v, %v", f, err)
	}
	f, err = parseFlags([]string{"--dsn", "postgres://x/y", "--refresh-every", "0", "--stateless", "--store", "postgres://s/t"}, io.Discard)
	if err != nil || f.refreshEvery != 0 || !f.httpCfg.Stateless || f.store.Resolve() != "postgres://s/t" {
		t.Fatalf("--refresh-every 0 --stateless --store: %+v, %v", f, err)
	}
	for _, bad := range [][]string{{"--refresh-every", "-1s"}, {"--index", "x.idx", "--store", "postgres://s/t"}} {
		if _, err := parseFlags(append([]string{"--dsn", "postgres://x/y"}, bad...), io.Discard); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
