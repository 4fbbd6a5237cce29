package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

// fakeModel is an engine model that answers every request with sql,
// after delay.
func fakeModel(t *testing.T, sql string, delay time.Duration) nl2sql.LLM {
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + sql + "\n```", Delay: delay}
	})
	return openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithAPIKey("test"))
}

// TestToolSchemas checks what tools/list tells a client: no nullable
// types (our arrays are never null), a description on every property of
// every input and output, max_rows bounded below and defaulting to the
// server's cap (with no maximum: an over-cap call is capped, not refused),
// and a title and honest hints on every tool.
func TestToolSchemas(t *testing.T) {
	dsn := erptest.Single(t)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(fakeModel(t, "SELECT 1", 0)), nl2sql.WithMaxRows(7))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewServer(eng, Config{HasLLM: true, MaxRows: 7}))
	lt, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) != 4 {
		t.Fatalf("%d tools", len(lt.Tools))
	}
	for _, tool := range lt.Tools {
		for kind, sch := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			b, _ := json.Marshal(sch)
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			checkSchema(t, tool.Name+" "+kind, m, false)
			if kind != "input" {
				continue
			}
			props, _ := m["properties"].(map[string]any)
			mr, ok := props["max_rows"].(map[string]any)
			if tool.Name == "describe_schema" || tool.Name == "learn" {
				if ok {
					t.Errorf("%s has max_rows", tool.Name)
				}
				continue
			}
			if !ok {
				t.Errorf("%s: no max_rows in %s", tool.Name, b)
				continue
			}
			if mr["minimum"] != 1.0 || mr["default"] != 7.0 || mr["maximum"] != nil ||
				!strings.Contains(fmt.Sprint(mr["description"]), "cap is 7") {
				t.Errorf("%s max_rows: want minimum 1, default 7, no maximum, the cap in the description; got %v", tool.Name, mr)
			}
		}
		a := tool.Annotations
		if tool.Title == "" || a == nil || a.Title != tool.Title {
			t.Errorf("%s: title %q, annotations %+v", tool.Name, tool.Title, a)
			continue
		}
		// Only learn writes (knowledge); learning twice stores once.
		if a.ReadOnlyHint != (tool.Name != "learn") || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil {
			t.Errorf("%s: hints %+v", tool.Name, a)
			continue
		}
		// Only nl_query reaches beyond the database (to the model).
		if want := tool.Name == "nl_query"; *a.OpenWorldHint != want {
			t.Errorf("%s: openWorldHint %v, want %v", tool.Name, *a.OpenWorldHint, want)
		}
	}
}

// checkSchema fails on a "null" type anywhere in s and on a property
// without a description.
func checkSchema(t *testing.T, where string, s map[string]any, isProperty bool) {
	t.Helper()
	switch typ := s["type"].(type) {
	case string:
		if typ == "null" {
			t.Errorf("%s: type null", where)
		}
	case []any:
		t.Errorf("%s: type %v, want one type", where, typ)
	}
	if isProperty && strings.TrimSpace(fmt.Sprint(s["description"])) == "" || isProperty && s["description"] == nil {
		t.Errorf("%s: no description", where)
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		checkSchema(t, where+"."+name, p.(map[string]any), true)
	}
	if items, ok := s["items"].(map[string]any); ok {
		checkSchema(t, where+"[]", items, false)
	}
}

// TestCaps checks that a result says which cap cut it and that an
// over-cap max_rows is capped, not refused, and says so.
func TestCaps(t *testing.T) {
	dsn := erptest.Single(t)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithMaxRows(5))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewServer(eng, Config{MaxRows: 5}))

	t.Run("over the cap", func(t *testing.T) {
		res := call(t, cs, "run_sql", map[string]any{"sql": "SELECT emp_id FROM employees ORDER BY emp_id", "max_rows": 100})
		out := decode[RunSQLOutput](t, res)
		if len(out.Rows) != 5 || out.RowCap != 5 || !out.Truncated || out.TruncatedBy != "row_cap" {
			t.Errorf("want 5 rows, row_cap 5, truncated by row_cap; got %d rows, row_cap %d, truncated %v by %q",
				len(out.Rows), out.RowCap, out.Truncated, out.TruncatedBy)
		}
		if len(out.Notes) == 0 || !strings.Contains(out.Notes[0], "100 rows were asked for") {
			t.Errorf("notes %q lack the capped max_rows", out.Notes)
		}
		txt := text(res)
		if !strings.Contains(txt, "truncated at the row cap of 5") || !strings.Contains(txt, "100 rows were asked for") {
			t.Errorf("text %q does not say the cap cut the rows and max_rows was capped", txt)
		}
	})

	t.Run("default is the cap", func(t *testing.T) {
		out := decode[RunSQLOutput](t, call(t, cs, "run_sql", map[string]any{"sql": "SELECT emp_id FROM employees ORDER BY emp_id"}))
		if len(out.Rows) != 5 || out.RowCap != 5 || len(out.Notes) != 1 || !strings.HasPrefix(out.Notes[0], "truncated") {
			t.Errorf("got %d rows, row_cap %d, notes %q", len(out.Rows), out.RowCap, out.Notes)
		}
	})

	t.Run("not truncated", func(t *testing.T) {
		res := call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1 AS one"})
		out := decode[RunSQLOutput](t, res)
		var raw map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &raw)
		if out.Truncated || out.TruncatedBy != "" || raw["truncated_by"] != nil || out.Notes == nil || len(out.Notes) != 0 {
			t.Errorf("result %s: want not truncated, no truncated_by, notes []", b)
		}
	})

	t.Run("zero max_rows refused by the schema", func(t *testing.T) {
		res := call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1", "max_rows": 0})
		if !res.IsError || !strings.Contains(text(res), "minimum") {
			t.Errorf("want a validation error, got %v %s", res.IsError, text(res))
		}
	})

	t.Run("byte cap", func(t *testing.T) {
		// 100 values of 96 kB (built from the data, so the plan does not
		// hold them): past the executor's 4 MiB byte cap long
		// before the row cap (and within a reply budget of 16 MiB).
		big := connect(t, NewServer(mustEngine(t, dsn, nl2sql.WithMaxRows(1000)), Config{MaxRows: 1000, MaxReply: 16 << 20}))
		res := call(t, big, "run_sql", map[string]any{"sql": "SELECT g, repeat(md5(g::text), 3000) AS pad FROM generate_series(1, 100) AS g"})
		out := decode[RunSQLOutput](t, res)
		if !out.Truncated || out.TruncatedBy != "byte_cap" || len(out.Rows) == 0 || len(out.Rows) >= 100 || out.RowCap != 1000 {
			t.Fatalf("want a result cut by the byte cap; got %d rows, truncated %v by %q, row_cap %d",
				len(out.Rows), out.Truncated, out.TruncatedBy, out.RowCap)
		}
		summary, _, _ := strings.Cut(text(res), "\n")
		want := fmt.Sprintf("%d rows (truncated at the byte cap: only %d fit", len(out.Rows), len(out.Rows))
		if !strings.Contains(summary, want) || strings.Contains(summary, "at the row cap") {
			t.Errorf("summary %q, want it to say %q and not blame the row cap", summary, want)
		}
		if !strings.Contains(strings.Join(out.Notes, "|"), "byte cap") {
			t.Errorf("notes %q", out.Notes)
		}
	})
}

func mustEngine(t *testing.T, dsn string, opts ...nl2sql.Option) *nl2sql.Engine {
	t.Helper()
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestProgress checks that an nl_query carrying a progress token gets
// notifications/progress with that token while the model thinks, before
// the result, and that progress and total never go backwards.
func TestProgress(t *testing.T) {
	dsn := erptest.Single(t)
	eng := mustEngine(t, dsn, nl2sql.WithLLM(fakeModel(t, "SELECT count(*) AS n FROM employees", 200*time.Millisecond)))
	srv := NewServer(eng, Config{HasLLM: true})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var (
		mu   sync.Mutex
		got  []*mcp.ProgressNotificationParams
		done atomic.Bool
		late atomic.Int32
	)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if done.Load() {
				late.Add(1)
			}
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		}})
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "nl_query", Arguments: map[string]any{"question": "How many employees are there?"}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(t.Context(), params)
	done.Store(true)
	if err != nil {
		t.Fatal(err)
	}
	decode[NLQueryOutput](t, res)
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notification")
	}
	var last, lastTotal float64
	sawWait := false
	for i, p := range got {
		if p.ProgressToken != "tok-1" {
			t.Errorf("notification %d: token %v", i, p.ProgressToken)
		}
		if p.Progress < last || p.Total < lastTotal || (p.Total > 0 && p.Progress > p.Total) {
			t.Errorf("notification %d went backwards or past its total: %v/%v after %v/%v", i, p.Progress, p.Total, last, lastTotal)
		}
		last, lastTotal = p.Progress, p.Total
		sawWait = sawWait || strings.HasPrefix(p.Message, "waiting for the model (")
	}
	for _, p := range got {
		t.Logf("%v/%v %s", p.Progress, p.Total, p.Message)
	}
	if !sawWait {
		t.Errorf("no \"waiting for the model\" message in %d notifications", len(got))
	}
	if late.Load() > 0 {
		t.Errorf("%d progress notifications arrived after the result", late.Load())
	}

	// Without a token, no notification.
	n := len(got)
	mu.Unlock()
	call(t, cs, "nl_query", map[string]any{"question": "How many employees are there?"})
	mu.Lock()
	if len(got) != n {
		t.Errorf("%d notifications for a call without a progress token", len(got)-n)
	}
}

// TestDatabaseGoesAway: the database is reachable while the engine
// prepares, then every new connection is refused. The tools must say the
// database could not be reached, not that the model failed.
func TestDatabaseGoesAway(t *testing.T) {
	dsn := erptest.Single(t)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var down atomic.Bool
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if down.Load() {
			return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
		}
		return dialer.DialContext(ctx, network, addr)
	}
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	eng, err := nl2sql.New(pool, nl2sql.WithLLM(fakeModel(t, "SELECT count(*) AS n FROM employees", 0)))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewServer(eng, Config{HasLLM: true}))
	// It works while the database is up.
	decode[RunSQLOutput](t, call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1"}))

	down.Store(true)
	pool.Reset() // the open connections go; new ones are refused
	for tool, args := range map[string]map[string]any{
		"run_sql":  {"sql": "SELECT count(*) FROM employees"},
		"nl_query": {"question": "How many employees are there?"},
	} {
		res := call(t, cs, tool, args)
		txt := text(res)
		if !res.IsError || !strings.Contains(txt, "the database could not be reached") ||
			!strings.Contains(txt, "connection refused") || !strings.Contains(txt, "is the server running?") ||
			strings.Contains(txt, "no candidate query") {
			t.Errorf("%s: want a tool error saying the database could not be reached, got %v: %s", tool, res.IsError, txt)
		}
	}

	// And it recovers when the database is back.
	down.Store(false)
	decode[RunSQLOutput](t, call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1"}))
}

// TestDatabaseDownAtStart runs the binary against a closed port: the
// client gets a session whose instructions and tool errors give the
// reason, instead of "connection closed".
func TestDatabaseDownAtStart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dsn := fmt.Sprintf("postgres://nobody@127.0.0.1:%d/nowhere?sslmode=disable&connect_timeout=5", port)

	cmd := exec.Command(buildBinary(t), "--dsn", dsn, "--llm", "none")
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd.Stderr = errFile
	stderr := func() string { b, _ := os.ReadFile(errFile.Name()); return string(b) }
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr())
	}
	defer cs.Close()
	const reason = "connection refused"
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "the database could not be reached") || !strings.Contains(ins, reason) {
		t.Errorf("instructions do not give the reason: %q", ins)
	}
	for tool, args := range map[string]map[string]any{
		"run_sql":         {"sql": "SELECT 1"},
		"describe_schema": {"tables": []string{"employees"}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v\nstderr:\n%s", tool, err, stderr())
		}
		if txt := text(res); !res.IsError || !strings.Contains(txt, "the database could not be reached") || !strings.Contains(txt, reason) {
			t.Errorf("%s: want a tool error giving the reason, got %v: %s", tool, res.IsError, txt)
		}
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tablesURI}); err == nil ||
		!strings.Contains(err.Error(), "could not be reached") {
		t.Errorf("reading %s: %v", tablesURI, err)
	}
	if err := cs.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Errorf("close: %v", err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d\nstderr:\n%s", code, stderr())
	}
}

// TestDatabaseDownClassification: which error chains read as "the database
// could not be reached". A model server that cannot be reached is an HTTP
// failure, not the database's.
func TestDatabaseDownClassification(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, c := range []struct {
		name string
		err  error
		down bool
	}{
		{"connect error", fmt.Errorf("no candidate query validated and planned: %w", &pgconn.ConnectError{Config: &pgconn.Config{}}), true},
		{"conn closed", fmt.Errorf("explain: %w", pgconn.ErrConnClosed), true},
		{"admin shutdown", fmt.Errorf("query: %w", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}), true},
		{"connection failure class 08", &pgconn.PgError{Code: "08006"}, true},
		{"refused dial", fmt.Errorf("acquire: %w", refused), true},
		{"model unreachable", fmt.Errorf("generate: %w", &url.Error{Op: "Post", URL: "http://model/v1", Err: refused}), false},
		{"syntax error", &pgconn.PgError{Code: "42601"}, false},
		{"validator", errors.New("function pg_sleep is not allowed"), false},
	} {
		if got := databaseDown(c.err) != nil; got != c.down {
			t.Errorf("%s: down %v, want %v (%v)", c.name, got, c.down, c.err)
		}
	}
}
