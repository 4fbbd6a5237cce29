package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// cli runs the command line in-process and returns exit code, stdout, stderr.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return m
}

func TestCheckCommand(t *testing.T) {
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	code, out, _ := cli(t, "check", "SELECT pg_sleep(1)")
	m := decode(t, out)
	if code != 1 || m["ok"] != false || !reflect.DeepEqual(keys(m), []string{"issues", "ok", "sql"}) {
		t.Fatalf("exit %d: %s", code, out)
	}
	is := m["issues"].([]any)[0].(map[string]any)
	if is["code"] != "V010" || is["severity"] != "error" || !reflect.DeepEqual(keys(is), []string{"code", "message", "position", "severity"}) {
		t.Errorf("issue = %v", is)
	}

	dsn := erptest.Single(t)
	code, out, _ = cli(t, "check", "--dsn", dsn, "SELECT count(*) FROM employees")
	if m := decode(t, out); code != 0 || m["ok"] != true || !strings.Contains(m["sql"].(string), "employees") {
		t.Errorf("valid: exit %d %s", code, out)
	}
	code, out, _ = cli(t, "check", "--dsn", dsn, "SELECT frobnicate FROM employees")
	if !strings.Contains(out, `"42703"`) || code != 1 {
		t.Errorf("explain error: exit %d %s", code, out)
	}

	in := filepath.Join(t.TempDir(), "in.jsonl")
	os.WriteFile(in, []byte(`{"id":"a","sql":"SELECT 1"}`+"\n"+`{"id":7,"sql":"DELETE FROM employees"}`+"\n"+`{"id":"c","sql":"SELECT count(*) FROM employees","scope":"public"}`+"\n"), 0o644)
	code, out, _ = cli(t, "check", "--dsn", dsn, "--jsonl", in)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || code != 0 {
		t.Fatalf("batch: exit %d\n%s", code, out)
	}
	for i, want := range []any{"a", float64(7), "c"} {
		if m := decode(t, lines[i]); m["id"] != want {
			t.Errorf("line %d id = %v, want %v", i, m["id"], want)
		}
	}
	if decode(t, lines[1])["ok"] != false {
		t.Errorf("DELETE accepted: %s", lines[1])
	}
}

func TestRetrieveCommand(t *testing.T) {
	dsn := erptest.Single(t)
	code, out, errs := cli(t, "retrieve", "--dsn", dsn, "--json", "Which sales rep has won the most deals?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m := decode(t, out)
	if !reflect.DeepEqual(keys(m), []string{"columns", "joins", "known", "match", "prompt_chars", "tables"}) || m["match"] != "strong" {
		t.Fatalf("keys = %v", keys(m))
	}
	tables := m["tables"].([]any)
	first := tables[0].(map[string]any)
	if !reflect.DeepEqual(keys(first), []string{"name", "reasons", "score"}) || len(tables) == 0 {
		t.Errorf("table = %v", first)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.(map[string]any)["name"].(string))
	}
	if !strings.Contains(strings.Join(names, ","), "public.opportunities") || m["prompt_chars"].(float64) < 100 {
		t.Errorf("tables %v", names)
	}
	if j := m["joins"].([]any); len(j) > 0 && !reflect.DeepEqual(keys(j[0].(map[string]any)), []string{"from", "to"}) {
		t.Errorf("join = %v", j[0])
	}
	// Nothing matches: the JSON says so, no tables, exit 1.
	code, out, errs = cli(t, "retrieve", "--dsn", dsn, "--json", "xyzzy plugh")
	if m := decode(t, out); code != 1 || m["match"] != "none" || len(m["tables"].([]any)) != 0 || !strings.Contains(errs, "no table") {
		t.Errorf("nonsense: exit %d %s %q", code, out, errs)
	}
	// A scope that names no schema is an error at start, not an answer from
	// public alone.
	if code, _, errs := cli(t, "retrieve", "--dsn", dsn, "--scope", "div_3", "How many employees?"); code != 2 || !strings.Contains(errs, `unknown scope "div_3"`) {
		t.Errorf("unknown scope: exit %d %q", code, errs)
	}
	if code, _, errs := cli(t, "retrieve", "--dsn", dsn); code != 2 || !strings.Contains(errs, "QUESTION") {
		t.Errorf("no question: exit %d %q", code, errs)
	}
}

// withStdin makes os.Stdin read text until the test ends.
func withStdin(t *testing.T, text string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = in
	t.Cleanup(func() { os.Stdin = old; in.Close() })
}

func TestAskCommand(t *testing.T) {
	dsn := erptest.Single(t)
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM employees WHERE status = 'Active'\n```"}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	code, out, errs := cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--json", "How many active employees are there?")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	m := decode(t, out)
	for _, k := range []string{"sql", "columns", "rows", "truncated", "confidence", "attempts", "tables", "candidates", "timings"} {
		if _, ok := m[k]; !ok {
			t.Errorf("Result JSON lacks %q", k)
		}
	}
	if _, ok := m["error"]; ok {
		t.Errorf("error present on success: %v", m["error"])
	}
	code, out, _ = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "How many active employees are there?")
	if code != 0 || !strings.Contains(out, "SELECT count(*)") || !strings.Contains(out, "(1 row, confidence 0.") {
		t.Errorf("text output: exit %d\n%s", code, out)
	}
	// "-" reads the question from stdin.
	withStdin(t, "How many employees are on leave?\n")
	code, out, errs = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "-")
	reqs := srv.Requests()
	if code != 0 || len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1].Last(), "How many employees are on leave?") || strings.Contains(reqs[len(reqs)-1].Last(), "\n-\n") {
		t.Errorf("ask -: exit %d, the model was not asked the question on stdin: %s\n%s", code, errs, out)
	}
	withStdin(t, strings.Repeat("how many employees ", 1000))
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "-"); code != 1 ||
		!strings.Contains(errs, "the question is too long (at least 4750 characters; the limit is 4000 characters)") {
		t.Errorf("ask - with 19,000 characters: exit %d %q", code, errs)
	}
	withStdin(t, " \n")
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "-"); code != 2 || !strings.Contains(errs, "needs a QUESTION") {
		t.Errorf("ask - with nothing on stdin: exit %d %q", code, errs)
	}
	// Rows cut by the row cap say so, and which cap.
	many := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT emp_id FROM employees ORDER BY emp_id\n```"}
	})
	code, out, _ = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", many.BaseURL(), "--max-rows", "3", "List the employee ids")
	if code != 0 || !strings.Contains(out, "(3 rows, truncated at the row cap of 3,") {
		t.Errorf("row cap: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", many.BaseURL(), "--max-rows", "3", "--json", "List the employee ids")
	if m := decode(t, out); code != 0 || m["truncated_by"] != "row_cap" || len(m["notes"].([]any)) != 1 {
		t.Errorf("row cap JSON: exit %d truncated_by %v notes %v", code, m["truncated_by"], m["notes"])
	}
	code, out, _ = cli(t, "ask", "--dsn", dsn, "--dry-run", "How many active employees are there?")
	if code != 0 || !strings.Contains(out, "How many active employees are there?") || !strings.Contains(out, "-- user prompt") {
		t.Errorf("dry run: exit %d\n%s", code, out)
	}
	t.Setenv("NL2SQL_LLM", "")
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "How many?"); code != 2 || !strings.Contains(errs, "no LLM configured") {
		t.Errorf("no LLM: exit %d %q", code, errs)
	}
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "--llm", "bogus", "How many?"); code != 2 || !strings.Contains(errs, "--llm") {
		t.Errorf("bad spec: exit %d %q", code, errs)
	}
	// A failing answer: exit 1 with the class in the JSON error.
	bad := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT pg_sleep(5)\n```"}
	})
	code, out, _ = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", bad.BaseURL(), "--json", "How many customers are there?")
	if m := decode(t, out); code != 1 || m["error"].(map[string]any)["class"] != "rejected_unsafe" {
		t.Errorf("unsafe: exit %d %s", code, out)
	}
}

func TestUsage(t *testing.T) {
	if code, _, errs := cli(t); code != 2 || !strings.Contains(errs, "usage") {
		t.Errorf("no args: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown: %d %q", code, errs)
	}
	if code, _, _ := cli(t, "ask", "-h"); code != 0 {
		t.Errorf("-h exit %d", code)
	}
	if code, _, errs := cli(t, "schema", "--dsn", "postgres://nobody@127.0.0.1:1/x?connect_timeout=2"); code != 2 || strings.Count(errs, "\n") != 1 {
		t.Errorf("connection error: %d %q", code, errs)
	}
}

func TestIndexCommand(t *testing.T) {
	dsn := erptest.Single(t)
	file := filepath.Join(t.TempDir(), "erp.idx")
	code, out, errs := cli(t, "index", "--dsn", dsn, "--out", file, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m := decode(t, out)
	if m["tables"].(float64) < 80 || m["bytes"].(float64) < 1000 {
		t.Errorf("index = %v", m)
	}
	code, out, errs = cli(t, "retrieve", "--dsn", dsn, "--index", file, "--json", "Which sales rep has won the most deals?")
	if code != 0 || !strings.Contains(out, "public.opportunities") {
		t.Errorf("retrieve with --index: exit %d %s %s", code, errs, out)
	}
	os.WriteFile(file, []byte("garbage"), 0o644)
	if code, _, errs := cli(t, "retrieve", "--dsn", dsn, "--index", file, "x"); code != 2 || !strings.Contains(errs, "not an index") {
		t.Errorf("bad index: exit %d %q", code, errs)
	}
	if code, _, _ := cli(t, "index", "--dsn", dsn); code != 2 {
		t.Errorf("no --out: exit %d", code)
	}
	// A folder that does not exist is the path's fault: a usage error.
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", filepath.Join(t.TempDir(), "missing", "erp.idx")); code != 2 {
		t.Errorf("--out in a missing folder: exit %d %q", code, errs)
	}
}

func TestRepairAndPickCommands(t *testing.T) {
	dsn := erptest.Single(t)
	code, out, errs := cli(t, "repair", "--dsn", dsn, "SELECT `first_name` FROM employees WHERE statuss = 'Active' LIMIT 2, 3")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errs, out)
	}
	m := decode(t, out)
	if m["changed"] != true || m["executes"] != true || strings.Contains(m["sql_out"].(string), "`") || !strings.Contains(m["sql_out"].(string), "OFFSET") {
		t.Errorf("repair = %v", m)
	}
	// Only the fixes: the engine's row cap never leaks into the SQL shown.
	code, out, errs = cli(t, "repair", "--dsn", dsn, "SELECT IFNULL(first_name, 'x') FROM employees")
	if m := decode(t, out); code != 0 || m["sql_out"] != "SELECT COALESCE(first_name, 'x') FROM employees" {
		t.Errorf("repair without LIMIT: exit %d %s %v", code, errs, m)
	}
	// The confident wrong fix: nme is the table's own name column,
	// never a neighbour's.
	code, out, errs = cli(t, "repair", "--dsn", dsn, "SELECT nme FROM customers")
	if m := decode(t, out); code != 0 || m["sql_out"] != "SELECT customer_name FROM customers" {
		t.Errorf("repair nme: exit %d %s %v", code, errs, m)
	}
	// More than one plausible target: no guess, the alternatives reported.
	code, out, _ = cli(t, "repair", "--dsn", dsn, "SELECT invoice_no, date FROM invoices WHERE status = 'Overdue'")
	if m := decode(t, out); code != 1 || m["executes"] != false || !reflect.DeepEqual(m["candidates"], []any{"invoice_date", "due_date"}) {
		t.Errorf("ambiguous repair: exit %d %v", code, m)
	}
	code, out, _ = cli(t, "repair", "--dsn", dsn, "SELECT frobnicate FROM employees WHERE zzz = 1")
	m = decode(t, out)
	if code != 1 || m["executes"] != false || m["error"].(map[string]any)["sqlstate"] != "42703" {
		t.Errorf("unfixable: exit %d %v", code, m)
	}

	in := filepath.Join(t.TempDir(), "pick.jsonl")
	os.WriteFile(in, []byte(`{"id":1,"question":"How many employees are there?","candidates":["SELECT first_name FROM employees","SELECT count(*) FROM employees","SELECT nope FROM employees"]}`+"\n"), 0o644)
	code, out, errs = cli(t, "pick", "--dsn", dsn, "--jsonl", in)
	if code != 0 {
		t.Fatalf("pick exit %d: %s %s", code, errs, out)
	}
	m = decode(t, strings.TrimSpace(out))
	scores := m["scores"].([]any)
	if m["chosen"].(float64) != 1 || len(scores) != 3 || scores[2] != nil || m["sql"] != "SELECT count(*) FROM employees" {
		t.Errorf("pick = %v", m)
	}
	// Two candidates that disagree: the other answer is shown, with the
	// question that tells them apart.
	if !reflect.DeepEqual(keys(m), with(pickKeys, "id", "alternatives", "clarify")) {
		t.Errorf("pick keys = %v", keys(m))
	}
	if alts, _ := m["alternatives"].([]any); len(alts) != 1 || alts[0].(map[string]any)["sql"] != "SELECT first_name FROM employees" || m["status"] == "answered" {
		t.Errorf("pick alternatives %v, status %v", m["alternatives"], m["status"])
	}
	t.Logf("pick: %v", m)
}

func TestSchemaCommand(t *testing.T) {
	dsn := erptest.Divisions(t, 2)
	code, out, errs := cli(t, "schema", "--dsn", dsn, "--scope", "div_02", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m := decode(t, out)
	if !reflect.DeepEqual(keys(m), []string{"enums", "fingerprint", "schemas", "tables"}) {
		t.Errorf("keys = %v", keys(m))
	}
	for _, tb := range m["tables"].([]any) {
		if s := tb.(map[string]any)["schema"]; s != "div_02" && s != "public" {
			t.Errorf("scope leak: %v", s)
		}
	}
	code, out, _ = cli(t, "schema", "--dsn", dsn, "--scope", "div_02", "div_02.employees", "departments")
	if code != 0 || !strings.Contains(out, "# Table: employees") || !strings.Contains(out, "【Foreign keys】") {
		t.Errorf("M-Schema: exit %d\n%s", code, out)
	}
	if code, _, errs := cli(t, "schema", "--dsn", dsn, "no_such.table"); code != 2 || !strings.Contains(errs, "unknown table") {
		t.Errorf("unknown table: exit %d %q", code, errs)
	}
}

// The key sets of docs/cli.md's "JSON shapes", sorted. Optional keys (present
// only when set) are listed apart, per shape.
var (
	contextKeys = []string{"columns", "joins", "known", "match", "prompt_chars", "tables"}
	resultKeys  = []string{"attempts", "candidates", "columns", "confidence", "context", "question", "row_cap", "rows", "sql", "tables", "timings", "truncated"}
	checkKeys   = []string{"issues", "ok", "sql"}
	repairKeys  = []string{"changed", "executes", "rules", "sql_in", "sql_out"}
	pickKeys    = []string{"chosen", "confidence", "scores", "sql", "status"}
	indexKeys   = []string{"bytes", "file", "fingerprint", "tables"}
	schemaKeys  = []string{"enums", "fingerprint", "schemas", "tables"}
	roleKeys    = []string{"applied", "database", "password", "role", "schemas", "statements"}
	summaryKeys = []string{"all_tables_rate", "by_difficulty", "ex", "ex_rate", "ex_strict", "ex_strict_rate", "executed", "failures", "mean_table_recall", "mode", "total"}
	// answerKeys are the keys a Result gains when a query was chosen
	// (reasons too, when something is in doubt).
	answerKeys    = []string{"signals", "status"}
	errorKeys     = []string{"class", "code", "message"}
	repairErrKeys = []string{"class", "code", "message", "sqlstate"}
)

// with is keys plus extra, sorted.
func with(keys []string, extra ...string) []string {
	out := append(append([]string{}, keys...), extra...)
	sort.Strings(out)
	return out
}

// sameKeys checks the key set of a JSON object, and of its "error" object
// (every error object has code, class and message).
func sameKeys(t *testing.T, what, out string, want []string) map[string]any {
	t.Helper()
	m := decode(t, out)
	if got := keys(m); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: keys %v, want %v\n%s", what, got, want, out)
	}
	if e, ok := m["error"].(map[string]any); ok {
		w := errorKeys
		if _, ok := e["sqlstate"]; ok {
			w = repairErrKeys
		}
		if got := keys(e); !reflect.DeepEqual(got, w) {
			t.Errorf("%s: error keys %v, want %v", what, got, w)
		}
	}
	return m
}

func batchLines(t *testing.T, out string) []string {
	t.Helper()
	return strings.Split(strings.TrimSpace(out), "\n")
}

func writeFile(t *testing.T, name, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJSONShapes decodes each command's --json (and --jsonl) output and
// compares its keys with docs/cli.md's "JSON shapes".
func TestJSONShapes(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_LLM", "")
	good := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) AS n FROM employees\n```"}
	})
	bad := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT pg_sleep(5)\n```"}
	})
	ask := func(url string, args ...string) (int, string) {
		code, out, _ := cli(t, append([]string{"ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", url}, args...)...)
		return code, out
	}

	// ask
	_, out := ask(good.BaseURL(), "--json", "How many employees are there?")
	sameKeys(t, "ask", out, with(resultKeys, append(answerKeys, "description")...))
	_, out = ask(bad.BaseURL(), "--json", "How many employees are there?")
	sameKeys(t, "ask failing", out, with(resultKeys, "error"))
	qs := writeFile(t, "q.jsonl", `{"id":1,"question":"How many employees are there?"}`+"\n"+`{"question":"How many customers are there?"}`+"\n"+"not json\n")
	code, out := ask(good.BaseURL(), "--jsonl", qs)
	lines := batchLines(t, out)
	if code != 1 || len(lines) != 3 {
		t.Fatalf("ask batch: exit %d\n%s", code, out)
	}
	sameKeys(t, "ask batch", lines[0], with(resultKeys, append(answerKeys, "description", "id")...))
	// The employee count for a question about customers: uncertain, with
	// its reasons.
	m := sameKeys(t, "ask batch line 2", lines[1], with(resultKeys, append(answerKeys, "description", "id", "reasons")...))
	if m["status"] != "uncertain" {
		t.Errorf("employee count for customers: status %v", m["status"])
	}
	sameKeys(t, "batch bad line", lines[2], []string{"error", "id"})
	_, out = ask(bad.BaseURL(), "--jsonl", qs)
	sameKeys(t, "ask batch failing", batchLines(t, out)[0], with(resultKeys, "error", "id"))
	_, out = ask(good.BaseURL(), "--dry-run", "--json", "How many employees are there?")
	sameKeys(t, "ask --dry-run", out, contextKeys)
	_, out = ask(good.BaseURL(), "--dry-run", "--jsonl", qs)
	sameKeys(t, "ask --dry-run batch", batchLines(t, out)[0], with(contextKeys, "id"))

	// retrieve
	_, out, _ = cli(t, "retrieve", "--dsn", dsn, "--json", "How many employees are there?")
	sameKeys(t, "retrieve", out, contextKeys)
	_, out, _ = cli(t, "retrieve", "--dsn", dsn, "--jsonl", qs)
	sameKeys(t, "retrieve batch", batchLines(t, out)[0], with(contextKeys, "id"))
	long := writeFile(t, "long.jsonl", `{"id":"x","question":"`+strings.Repeat("y", 300<<10)+`"}`+"\n")
	_, out, _ = cli(t, "retrieve", "--dsn", dsn, "--jsonl", long)
	sameKeys(t, "retrieve batch refused", out, []string{"error", "id"})

	// check, without and with a database
	_, out, _ = cli(t, "check", "--dsn", "", "SELECT 1")
	sameKeys(t, "check offline", out, checkKeys)
	_, out, _ = cli(t, "check", "--dsn", dsn, "SELECT nope FROM employees")
	sameKeys(t, "check", out, checkKeys)
	sqls := writeFile(t, "s.jsonl", `{"id":"a","sql":"SELECT 1"}`+"\n"+`{"id":"b","sql":"SELECT nope FROM employees"}`+"\n")
	_, out, _ = cli(t, "check", "--dsn", dsn, "--jsonl", sqls)
	for _, l := range batchLines(t, out) {
		sameKeys(t, "check batch", l, with(checkKeys, "id"))
	}

	// repair
	_, out, _ = cli(t, "repair", "--dsn", dsn, "SELECT 1")
	sameKeys(t, "repair", out, repairKeys)
	_, out, _ = cli(t, "repair", "--dsn", dsn, "SELECT frobnicate FROM employees")
	sameKeys(t, "repair failing", out, with(repairKeys, "error"))
	_, out, _ = cli(t, "repair", "--dsn", dsn, "SELECT invoice_no, date FROM invoices WHERE status = 'Overdue'")
	sameKeys(t, "repair candidates", out, with(repairKeys, "candidates", "error"))
	code, out, _ = cli(t, "repair", "--dsn", dsn, "--jsonl", sqls)
	if lines := batchLines(t, out); code != 1 || len(lines) != 2 {
		t.Errorf("repair batch: exit %d\n%s", code, out)
	} else {
		sameKeys(t, "repair batch", lines[0], with(repairKeys, "id"))
		sameKeys(t, "repair batch failing", lines[1], with(repairKeys, "error", "id"))
	}

	// pick
	picks := writeFile(t, "p.jsonl", `{"id":1,"question":"How many employees?","candidates":["SELECT count(*) FROM employees"]}`+"\n"+`{"id":2,"question":"How many?"}`+"\n")
	code, out, _ = cli(t, "pick", "--dsn", dsn, "--jsonl", picks)
	if lines := batchLines(t, out); code != 1 || len(lines) != 2 {
		t.Errorf("pick batch: exit %d\n%s", code, out)
	} else {
		sameKeys(t, "pick", lines[0], with(pickKeys, "id"))
		sameKeys(t, "pick failing", lines[1], []string{"error", "id"})
	}

	// index, schema, role
	_, out, _ = cli(t, "index", "--dsn", dsn, "--json", "--out", filepath.Join(t.TempDir(), "erp.idx"))
	sameKeys(t, "index", out, indexKeys)
	_, out, _ = cli(t, "schema", "--dsn", dsn, "--json", "employees")
	sameKeys(t, "schema", out, schemaKeys)
	_, out, _ = cli(t, "role", "--dsn", dsn, "--json")
	sameKeys(t, "role", out, roleKeys)

	// exam summary (its --out lines: TestExamRetrieval)
	exam := writeFile(t, "exam.csv", "qid,question,gold_sql\nq1,How many employees are there?,SELECT count(*) FROM employees\n")
	_, out, _ = cli(t, "exam", "--dsn", dsn, "--llm", "none", "--exam", exam)
	sameKeys(t, "exam summary", out, with(summaryKeys, "note")) // note: retrieval mode only
}
