package main

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// The key sets of README's "JSON shapes", sorted. Optional keys (present
// only when set) are listed apart, per shape.
var (
	contextKeys   = []string{"columns", "joins", "known", "match", "prompt_chars", "tables"}
	resultKeys    = []string{"attempts", "candidates", "columns", "confidence", "context", "question", "row_cap", "rows", "sql", "tables", "timings", "truncated"}
	checkKeys     = []string{"issues", "ok", "sql"}
	repairKeys    = []string{"changed", "executes", "rules", "sql_in", "sql_out"}
	pickKeys      = []string{"chosen", "scores", "sql"}
	indexKeys     = []string{"bytes", "file", "fingerprint", "tables"}
	schemaKeys    = []string{"enums", "fingerprint", "schemas", "tables"}
	roleKeys      = []string{"applied", "database", "password", "role", "schemas", "statements"}
	summaryKeys   = []string{"all_tables_rate", "by_difficulty", "ex", "ex_rate", "ex_strict", "ex_strict_rate", "executed", "failures", "mean_table_recall", "mode", "total"}
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
// compares its keys with README's "JSON shapes".
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
	sameKeys(t, "ask", out, resultKeys)
	_, out = ask(bad.BaseURL(), "--json", "How many employees are there?")
	sameKeys(t, "ask failing", out, with(resultKeys, "error"))
	qs := writeFile(t, "q.jsonl", `{"id":1,"question":"How many employees are there?"}`+"\n"+`{"question":"How many customers are there?"}`+"\n"+"not json\n")
	code, out := ask(good.BaseURL(), "--jsonl", qs)
	lines := batchLines(t, out)
	if code != 1 || len(lines) != 3 {
		t.Fatalf("ask batch: exit %d\n%s", code, out)
	}
	sameKeys(t, "ask batch", lines[0], with(resultKeys, "id"))
	sameKeys(t, "ask batch line 2", lines[1], with(resultKeys, "id"))
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
	sameKeys(t, "exam summary", out, summaryKeys)
}
