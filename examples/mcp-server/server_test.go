package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/llm/openai"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// connect serves srv over in-memory transports and returns a connected
// client session; both ends are closed when the test ends.
func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool; it fails the test on a protocol error (tool errors
// come back as IsError results).
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// decode reads a successful result's structured content into T.
func decode[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	var out T
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return out
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// employeeCount is the ground truth, read straight from the database.
func employeeCount(t *testing.T, dsn string) int64 {
	t.Helper()
	var n int64
	if err := pgtest.Pool(t, dsn).QueryRow(t.Context(), "SELECT count(*) FROM employees").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestInProcess(t *testing.T) {
	dsn := erptest.Single(t)
	want := employeeCount(t, dsn)
	const countSQL = "SELECT count(*) AS n FROM employees"
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + countSQL + "\n```"}
	})
	model := openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithAPIKey("test"))
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(model), nl2sql.WithMaxRows(50))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewServer(eng, Config{HasLLM: true, MaxRows: 50}))
	ctx := t.Context()

	t.Run("tools/list", func(t *testing.T) {
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		required := map[string]string{"nl_query": "question", "describe_schema": "", "run_sql": "sql", "learn": ""}
		props := map[string][]string{
			"nl_query":        {"evidence", "max_rows", "previous", "question", "scope"},
			"describe_schema": {"question", "scope", "tables"},
			"run_sql":         {"max_rows", "scope", "sql"},
			"learn":           {"column", "id", "kind", "note", "parameters", "question", "sql", "table", "targets", "term", "text"},
		}
		if len(lt.Tools) != len(required) {
			t.Fatalf("got %d tools, want %d", len(lt.Tools), len(required))
		}
		for _, tool := range lt.Tools {
			field, ok := required[tool.Name]
			if !ok {
				t.Errorf("unexpected tool %q", tool.Name)
				continue
			}
			b, _ := json.Marshal(tool.InputSchema)
			var in struct {
				Type       string         `json:"type"`
				Properties map[string]any `json:"properties"`
				Required   []string       `json:"required"`
			}
			if err := json.Unmarshal(b, &in); err != nil || in.Type != "object" || len(in.Properties) == 0 {
				t.Errorf("%s: input schema %s", tool.Name, b)
			}
			if got := slices.Sorted(maps.Keys(in.Properties)); !slices.Equal(got, props[tool.Name]) {
				t.Errorf("%s: properties %v, want %v", tool.Name, got, props[tool.Name])
			}
			if field != "" && !slices.Contains(in.Required, field) {
				t.Errorf("%s: %q not required in %s", tool.Name, field, b)
			}
			if tool.OutputSchema == nil {
				t.Errorf("%s: no output schema", tool.Name)
			}
		}
	})

	t.Run("describe_schema tables", func(t *testing.T) {
		res := call(t, cs, "describe_schema", map[string]any{"tables": []string{"public.employees", "departments"}})
		out := decode[DescribeSchemaOutput](t, res)
		if !slices.Equal(out.Tables, []string{"public.employees", "public.departments"}) {
			t.Errorf("tables %v", out.Tables)
		}
		for _, name := range out.Tables {
			if !strings.Contains(out.MSchema, "# Table: "+name) {
				t.Errorf("M-Schema lacks %s:\n%s", name, out.MSchema)
			}
		}
		if !strings.Contains(text(res), "# Table: public.employees") {
			t.Errorf("text content lacks the M-Schema: %s", text(res))
		}
	})

	t.Run("describe_schema question", func(t *testing.T) {
		out := decode[DescribeSchemaOutput](t, call(t, cs, "describe_schema", map[string]any{"question": "how many employees are there?"}))
		if !slices.Contains(out.Tables, "public.employees") || out.Match != "strong" {
			t.Errorf("tables %v lack public.employees, or match %q is not strong", out.Tables, out.Match)
		}
		for _, name := range out.Tables {
			if !strings.Contains(out.MSchema, ": "+name) { // "# Table: name" or "# View: name"
				t.Errorf("M-Schema lacks %s", name)
			}
		}
	})

	t.Run("describe_schema nonsense", func(t *testing.T) {
		out := decode[DescribeSchemaOutput](t, call(t, cs, "describe_schema", map[string]any{"question": "xyzzy plugh"}))
		if out.Match != "none" || len(out.Tables) != 0 {
			t.Errorf("match %q, tables %v: want none and no tables", out.Match, out.Tables)
		}
	})

	t.Run("describe_schema unknown", func(t *testing.T) {
		res := call(t, cs, "describe_schema", map[string]any{"tables": []string{"public.nope"}})
		if !res.IsError || !strings.Contains(text(res), "public.nope") {
			t.Errorf("want a tool error naming public.nope, got %v %s", res.IsError, text(res))
		}
	})

	t.Run("run_sql", func(t *testing.T) {
		res := call(t, cs, "run_sql", map[string]any{"sql": countSQL})
		out := decode[RunSQLOutput](t, res)
		if len(out.Columns) != 1 || out.Columns[0].Name != "n" || len(out.Rows) != 1 || out.Truncated {
			t.Fatalf("result %+v", out)
		}
		if got, ok := out.Rows[0][0].(float64); !ok || int64(got) != want {
			t.Errorf("count %v, want %d", out.Rows[0][0], want)
		}
		if out.Description != "Counts employees." || !strings.Contains(text(res), "\nThe query: Counts employees.") {
			t.Errorf("description %q, text %q", out.Description, text(res))
		}
	})

	t.Run("run_sql max_rows", func(t *testing.T) {
		out := decode[RunSQLOutput](t, call(t, cs, "run_sql", map[string]any{"sql": "SELECT emp_id FROM employees ORDER BY emp_id", "max_rows": 3}))
		// The cap is reported beside the query, never written into it.
		if len(out.Rows) != 3 || !out.Truncated || out.RowCap != 3 || out.SQL != "SELECT emp_id FROM employees ORDER BY emp_id" {
			t.Errorf("want 3 rows, truncated, row_cap 3, the SQL as sent; got %d rows, truncated %v, row_cap %d, sql %q", len(out.Rows), out.Truncated, out.RowCap, out.SQL)
		}
	})

	t.Run("run_sql big numbers", func(t *testing.T) {
		// Integers beyond ±2^53 and numerics a float64 cannot hold arrive as
		// exact strings (a JavaScript client would read 9007199254740993 as
		// ...992); small integers and floats stay numbers.
		res := call(t, cs, "run_sql", map[string]any{"sql": "SELECT 9007199254740993::bigint AS big, -9007199254740993::bigint AS neg, " +
			"12345678901234567890::numeric AS num, 0.1::numeric AS tenth, 1.5::float8 AS f, 42::bigint AS small"})
		out := decode[RunSQLOutput](t, res)
		want := []any{"9007199254740993", "-9007199254740993", "12345678901234567890", 0.1, 1.5, float64(42)}
		if len(out.Rows) != 1 || !reflect.DeepEqual(out.Rows[0], want) {
			t.Fatalf("row %#v, want %#v", out.Rows, want)
		}
		if txt := text(res); !strings.Contains(txt, `["9007199254740993","-9007199254740993","12345678901234567890",0.1,1.5,42]`) {
			t.Errorf("text content %s", txt)
		}
	})

	t.Run("input limits", func(t *testing.T) {
		long := strings.Repeat("employees ", 500_000) // 5 MB
		for tool, args := range map[string]map[string]any{
			"nl_query":        {"question": long},
			"describe_schema": {"question": long},
			"run_sql":         {"sql": "SELECT 1 -- " + long},
		} {
			res := call(t, cs, tool, args)
			if !res.IsError || !strings.Contains(text(res), "the limit is") {
				t.Errorf("%s: want a tool error naming the limit, got %v: %.300s", tool, res.IsError, text(res))
			}
		}
	})

	t.Run("run_sql repairs a misspelt name", func(t *testing.T) {
		// A misspelt column or table has one name it can stand for: the
		// repaired query runs and a note says so.
		for _, sql := range []string{
			"SELECT count(*) AS n FROM employees WHERE first_nme IS NOT NULL",
			"SELECT count(*) AS n FROM employes",
		} {
			res := call(t, cs, "run_sql", map[string]any{"sql": sql})
			out := decode[RunSQLOutput](t, res)
			if len(out.Rows) != 1 || out.Rows[0][0] != float64(want) || strings.Contains(out.SQL, "first_nme") || strings.Contains(out.SQL, "employes") ||
				!slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, "deterministic repair that keeps its meaning") }) {
				t.Errorf("%s: %+v", sql, out)
			}
		}
		// Not applied: a name with two candidates, and a repair that adds a
		// join (it changes what the query reads).
		for sql, msg := range map[string]string{
			"SELECT emp_nam FROM employees":               `column "emp_nam" does not exist`,
			"SELECT first_name, dept_name FROM employees": `column "dept_name" does not exist`,
		} {
			if res := call(t, cs, "run_sql", map[string]any{"sql": sql}); !res.IsError || !strings.Contains(text(res), msg) {
				t.Errorf("%s: %v %s, want the error %q", sql, res.IsError, text(res), msg)
			}
		}
	})

	t.Run("run_sql rejected", func(t *testing.T) {
		// The tool error carries the validator's message.
		for sql, msg := range map[string]string{
			"SELECT pg_sleep(1)":    "function pg_sleep is not allowed",
			"DELETE FROM employees": "rejected_unsafe",
			// Issue 12: functional notation, catalog-lookup types, value
			// functions, row types of catalogs.
			"SELECT ('25 seconds'::interval).pg_sleep_for":                                                      "V010",
			"SELECT t.pg_sleep FROM abs(2.0::float8) AS t":                                                      "V010",
			"SELECT ('pg_hba.conf'::text).pg_stat_file":                                                         "V010",
			"SELECT e.emp_id::text::regclass FROM employees e":                                                  "V013",
			"SELECT '{1}'::pg_catalog._regrole":                                                                 "V013",
			"SELECT current_catalog, session_user":                                                              "V011",
			"SELECT (NULL::pg_catalog.pg_authid).*":                                                             "V013",
			"SELECT e.upper FROM employees e":                                                                   "V014",
			"SELECT format('%900000000s', 'x')":                                                                 "V022",
			"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE true) SELECT count(*) FROM r": "V020",
		} {
			res := call(t, cs, "run_sql", map[string]any{"sql": sql})
			if !res.IsError || !strings.Contains(text(res), msg) {
				t.Errorf("%s: want a tool error saying %q, got %v %s", sql, msg, res.IsError, text(res))
			}
		}
		if n := employeeCount(t, dsn); n != want {
			t.Errorf("employees changed: %d, want %d", n, want)
		}
	})

	t.Run("nl_query", func(t *testing.T) {
		before := len(fake.Requests())
		res := call(t, cs, "nl_query", map[string]any{"question": "How many employees are there?"})
		out := decode[NLQueryOutput](t, res)
		if len(fake.Requests()) == before {
			t.Error("the model was not called")
		}
		if !strings.Contains(out.SQL, "count(*)") || !slices.Contains(out.Tables, "public.employees") {
			t.Errorf("sql %q tables %v", out.SQL, out.Tables)
		}
		if len(out.Rows) != 1 || len(out.Rows[0]) != 1 {
			t.Fatalf("rows %v", out.Rows)
		}
		if got, ok := out.Rows[0][0].(float64); !ok || int64(got) != want {
			t.Errorf("count %v, want %d", out.Rows[0][0], want)
		}
		if out.Confidence <= 0 || out.Confidence > 1 {
			t.Errorf("confidence %v", out.Confidence)
		}
		if !strings.Contains(out.Explanation, "public.employees") || !strings.Contains(out.Explanation, "1 row") ||
			!strings.HasPrefix(text(res), out.Explanation) {
			t.Errorf("explanation %q, text %q", out.Explanation, text(res))
		}
		if out.Description != "Counts employees." || !strings.Contains(text(res), "\nThe query: Counts employees.") {
			t.Errorf("description %q, text %q", out.Description, text(res))
		}
		if !strings.HasPrefix(out.ID, "ans_") || !strings.Contains(text(res), "Answer id: "+out.ID) {
			t.Errorf("id %q, text %q", out.ID, text(res))
		}
	})

	// A follow-up: the previous turn goes to the model in the prompt.
	t.Run("nl_query previous", func(t *testing.T) {
		res := call(t, cs, "nl_query", map[string]any{"question": "And what about 2019?",
			"previous": []map[string]any{{"question": "How many employees are there?", "sql": countSQL}}})
		out := decode[NLQueryOutput](t, res)
		reqs := fake.Requests()
		last := reqs[len(reqs)-1].Last()
		if !strings.Contains(last, "Conversation so far") || !strings.Contains(last, "Q1: How many employees are there?\nSQL: "+countSQL) {
			t.Errorf("the model's prompt lacks the previous turn:\n%s", last)
		}
		if !slices.Contains(out.Tables, "public.employees") {
			t.Errorf("tables %v", out.Tables)
		}
		// Without it the follow-up names nothing of the schema.
		if res := call(t, cs, "nl_query", map[string]any{"question": "And what about 2019?"}); !res.IsError {
			t.Errorf("a follow-up without previous was answered: %s", text(res))
		}
	})

	t.Run("resources", func(t *testing.T) {
		lr, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(lr.Resources) != 2 || lr.Resources[0].URI != knowledgeURI || lr.Resources[1].URI != tablesURI {
			t.Errorf("resources %+v", lr.Resources)
		}
		lt, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(lt.ResourceTemplates) != 1 || lt.ResourceTemplates[0].URITemplate != "nl2sql://table/{schema}.{name}" {
			t.Errorf("templates %+v", lt.ResourceTemplates)
		}

		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tablesURI})
		if err != nil {
			t.Fatal(err)
		}
		var list []TableInfo
		if err := json.Unmarshal([]byte(rr.Contents[0].Text), &list); err != nil {
			t.Fatal(err)
		}
		cat, err := eng.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != len(cat.Tables) {
			t.Errorf("%d tables listed, catalog has %d", len(list), len(cat.Tables))
		}
		i := slices.IndexFunc(list, func(ti TableInfo) bool { return ti.Name == "public.employees" })
		if i < 0 || list[i].Comment != cat.Table("public.employees").Comment {
			t.Errorf("public.employees missing or without its comment: %+v", list)
		}

		rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "nl2sql://table/public.employees"})
		if err != nil {
			t.Fatal(err)
		}
		if got := rr.Contents[0].Text; !strings.Contains(got, "# Table: public.employees") || strings.Contains(got, "# Table: public.departments") {
			t.Errorf("table resource:\n%s", got)
		}
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "nl2sql://table/public.nope"}); err == nil {
			t.Error("reading an unknown table succeeded")
		}
	})
}

func TestNoLLM(t *testing.T) {
	dsn := erptest.Single(t)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewServer(eng, Config{}))
	res := call(t, cs, "nl_query", map[string]any{"question": "How many employees are there?"})
	if !res.IsError || !strings.Contains(text(res), "--llm") {
		t.Errorf("want a tool error pointing at --llm, got %v %s", res.IsError, text(res))
	}
}

func TestScopePinned(t *testing.T) {
	dsn := erptest.Single(t)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithScope("public"))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewServer(eng, Config{Scope: "public"}))
	res := call(t, cs, "run_sql", map[string]any{"sql": "SELECT 1", "scope": "other"})
	if !res.IsError || !strings.Contains(text(res), "limited to scope") {
		t.Errorf("want a scope error, got %v %s", res.IsError, text(res))
	}
}

// TestStreamableHTTP talks to the server the way --http serves it.
func TestStreamableHTTP(t *testing.T) {
	dsn := erptest.Single(t)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(httpHandler(NewServer(eng, Config{}), HTTPConfig{}))
	defer hs.Close()
	tr := &mcp.StreamableClientTransport{Endpoint: hs.URL + "/", DisableStandaloneSSE: true}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	out := decode[DescribeSchemaOutput](t, call(t, cs, "describe_schema", map[string]any{"tables": []string{"public.employees"}}))
	if !strings.Contains(out.MSchema, "# Table: public.employees") {
		t.Errorf("M-Schema:\n%s", out.MSchema)
	}
}

// TestStdioBinary runs the built server as a client would: a child
// process speaking MCP on its stdin/stdout.
func TestStdioBinary(t *testing.T) {
	dsn := erptest.Single(t)
	want := employeeCount(t, dsn)
	bin := filepath.Join(t.TempDir(), "mcp-server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--dsn", dsn, "--llm", "none")
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
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	}()
	if got := cs.InitializeResult().ServerInfo.Name; got != "nl2sql" {
		t.Errorf("server name %q", got)
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"describe_schema", "learn", "nl_query", "run_sql"}) {
		t.Errorf("tools %v", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_sql", Arguments: map[string]any{"sql": "SELECT count(*) AS n FROM employees"}})
	if err != nil {
		t.Fatal(err)
	}
	out := decode[RunSQLOutput](t, res)
	if len(out.Rows) != 1 || out.Rows[0][0] != float64(want) {
		t.Errorf("rows %v, want [[%d]]", out.Rows, want)
	}
	// A 10 MB frame (over the 4 MB default) is answered with its request's
	// id: the client matches the error to the call instead of waiting for
	// its context to end.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_sql", Arguments: map[string]any{"sql": "SELECT 1 -- " + strings.Repeat("x", 10<<20)}})
	if err == nil || !strings.Contains(err.Error(), "message larger than") {
		t.Errorf("10 MB call: %v, want the oversize error matched to the call", err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nl_query", Arguments: map[string]any{"question": "How many employees?"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Errorf("nl_query without a model succeeded: %s", text(res))
	}

	// Closing the session closes the child's stdin: the server must exit
	// by itself (Close waits for it, then would send SIGTERM).
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Exited() {
		t.Fatalf("server still running after close (state %v)\nstderr:\n%s", cmd.ProcessState, stderr())
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d\nstderr:\n%s", code, stderr())
	}
	// It stopped for stdin's end, not for the signal Close sends after
	// waiting for it.
	if logs := stderr(); !strings.Contains(logs, "serving MCP on stdio") || !strings.Contains(logs, "stopping: the client closed stdin") ||
		strings.Contains(logs, "signal received") {
		t.Errorf("logs did not reach stderr, or the server did not stop for stdin's end:\n%s", logs)
	}
}

// TestFailedQuestionLogged: a failed nl_query is logged at INFO with the
// question's length and hash and the error's class, never its text (nor
// the error's, which can quote it); DEBUG has the question.
func TestFailedQuestionLogged(t *testing.T) {
	const question = "How much did Jane Roe of 12 Elm Street earn?"
	fake := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply { return llmfake.Reply{Content: "no idea"} })
	model := openai.New(openai.WithBaseURL(fake.BaseURL()), openai.WithModel("fake"), openai.WithAPIKey("test"))
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithLLM(model))
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cs := connect(t, NewServer(eng, Config{HasLLM: true, Logger: logger}))
	if res := call(t, cs, "nl_query", map[string]any{"question": question}); !res.IsError {
		t.Fatalf("the question was answered: %s", text(res))
	}
	want := fmt.Sprintf("question_chars=%d question_sha256=%s class=", len(question), questionHash(question))
	var info, debug bool
	for _, line := range strings.Split(logs.String(), "\n") {
		switch {
		case strings.Contains(line, "level=INFO") && strings.Contains(line, "nl_query failed"):
			info = strings.Contains(line, want)
			if strings.Contains(line, "Jane") {
				t.Errorf("INFO has the question: %s", line)
			}
		case strings.Contains(line, "level=DEBUG") && strings.Contains(line, "nl_query failed"):
			debug = strings.Contains(line, "Jane Roe")
		}
	}
	if !info || !debug {
		t.Errorf("want INFO with %q and DEBUG with the question:\n%s", want, logs.String())
	}
}
