package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// The learnt example of these tests: its alias is in no schema, so a
// prompt holding it holds the example.
const (
	learntQ   = "How many active employees are there?"
	learntSQL = "SELECT count(*) AS active_headcount FROM employees WHERE status = 'Active'"
)

// promptHas starts a fake model answering with sql and returns it and a
// function reporting whether any prompt it saw held s.
func promptHas(t *testing.T, sql string) (*llmfake.Server, func(s string) bool) {
	t.Helper()
	srv := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\n" + sql + "\n```"}
	})
	return srv, func(s string) bool {
		for _, r := range srv.Requests() {
			for _, m := range r.Messages {
				if strings.Contains(m.Content, s) {
					return true
				}
			}
		}
		return false
	}
}

func TestLearnIntoIndex(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("NL2SQL_STORE_DSN", "")
	t.Setenv("OPENAI_API_KEY", "test")
	idx := filepath.Join(t.TempDir(), "erp.idx")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx); code != 0 {
		t.Fatalf("index: exit %d %s", code, errs)
	}

	// Nowhere to keep it: a usage error naming both places.
	if code, _, errs := cli(t, "learn", "--dsn", dsn, learntQ, learntSQL); code != 2 || !strings.Contains(errs, "--index FILE") || !strings.Contains(errs, "--store DSN") {
		t.Errorf("no home: exit %d %q", code, errs)
	}
	if code, _, errs := cli(t, "learn", "--dsn", dsn, "--index", idx, learntQ); code != 2 || !strings.Contains(errs, "QUESTION and SQL") {
		t.Errorf("one argument: exit %d %q", code, errs)
	}
	// A rejected pair: exit 1 with the reason; the file is untouched.
	before, _ := os.ReadFile(idx)
	code, _, errs := cli(t, "learn", "--dsn", dsn, "--index", idx, "How many projects?", "SELECT count(*) FROM projcts")
	if code != 1 || !strings.Contains(errs, "does not validate") || !strings.Contains(errs, "projcts") || strings.Count(errs, "\n") != 1 {
		t.Errorf("rejected: exit %d %q", code, errs)
	}
	if after, _ := os.ReadFile(idx); !bytes.Equal(before, after) {
		t.Error("a rejected pair rewrote the index")
	}

	code, out, errs := cli(t, "learn", "--dsn", dsn, "--index", idx, "--json", "--note", "status is 'Active' or 'Terminated'", learntQ, learntSQL)
	if code != 0 {
		t.Fatalf("learn: exit %d %s", code, errs)
	}
	k := sameKeys(t, "learn", out, knowledgeExampleKeys)
	id, _ := k["id"].(string)
	if !strings.HasPrefix(id, "knowledge:example:") || k["note"] != "status is 'Active' or 'Terminated'" {
		t.Fatalf("learnt %v", k)
	}
	// The same again: the same ID, stored once.
	if code, out, _ := cli(t, "learn", "--dsn", dsn, "--index", idx, learntQ, learntSQL); code != 0 || out != "learned example "+id+"\n" {
		t.Errorf("again: exit %d %q", code, out)
	}

	// ask --index uses it: the example is in the prompt, and the text
	// output reads the SQL before printing it.
	srv, seen := promptHas(t, learntSQL)
	code, out, errs = cli(t, "ask", "--dsn", dsn, "--index", idx, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "How many employees are active?")
	if code != 0 || !seen("active_headcount") {
		t.Errorf("ask --index: exit %d, example in prompt %v\n%s%s", code, seen("active_headcount"), out, errs)
	}
	if lines := strings.Split(out, "\n"); !strings.HasPrefix(lines[0], "-- ") || !strings.Contains(lines[0], "'Active'") || !strings.HasPrefix(lines[1], "SELECT") {
		t.Errorf("ask text: no description line before the SQL:\n%s", out)
	}
	// Without the index it is not known.
	srv2, seen2 := promptHas(t, learntSQL)
	cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv2.BaseURL(), "How many employees are active?")
	if seen2("active_headcount") {
		t.Error("the example is in a prompt without --index")
	}

	// list, text and JSON.
	code, out, _ = cli(t, "knowledge", "--dsn", dsn, "--index", idx, "list")
	if code != 0 || !strings.Contains(out, "KIND") || !strings.Contains(out, id) || !strings.Contains(out, learntQ) {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, "knowledge", "--dsn", dsn, "--index", idx, "list", "--json")
	if code != 0 || !strings.HasPrefix(out, "[") || strings.Count(out, `"id"`) != 1 {
		t.Errorf("list --json: exit %d\n%s", code, out)
	}

	// forget: an unknown ID changes nothing; a known one is gone from the file.
	code, _, errs = cli(t, "knowledge", "--dsn", dsn, "--index", idx, "forget", id, "knowledge:example:nope")
	if code != 1 || !strings.Contains(errs, `no knowledge has the ID "knowledge:example:nope"`) {
		t.Errorf("forget unknown: exit %d %q", code, errs)
	}
	if code, out, _ := cli(t, "knowledge", "--dsn", dsn, "--index", idx, "forget", id); code != 0 || out != "forgot "+id+"\n" {
		t.Errorf("forget: exit %d %q", code, out)
	}
	if code, out, _ := cli(t, "knowledge", "--dsn", dsn, "--index", idx, "list"); code != 0 || strings.Contains(out, id) || !strings.Contains(out, "no knowledge") {
		t.Errorf("after forget: exit %d\n%s", code, out)
	}
	if code, _, errs := cli(t, "knowledge", "--dsn", dsn, "--index", idx, "frobnicate"); code != 2 || !strings.Contains(errs, "list, export, forget") {
		t.Errorf("bad action: exit %d %q", code, errs)
	}
}

var knowledgeExampleKeys = []string{"id", "kind", "note", "question", "sql"}

func TestLearnBatch(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("NL2SQL_STORE_DSN", "")
	dir := t.TempDir()
	idx := filepath.Join(dir, "erp.idx")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx); code != 0 {
		t.Fatalf("index: exit %d %s", code, errs)
	}
	in := writeFile(t, "k.jsonl", strings.Join([]string{
		`{"question":"` + learntQ + `","sql":"` + learntSQL + `"}`,
		`{"kind":"doc","table":"employees","column":"status","text":"Active, On Leave or Terminated"}`,
		`{"kind":"term","term":"headcount","targets":["employees"]}`,
		`{"question":"How many projects?","sql":"SELECT count(*) FROM projcts"}`,
		`{"kind":"term","term":"burn","targets":["nope.nothing"]}`,
		`not json`,
	}, "\n")+"\n")
	code, out, errs := cli(t, "learn", "--dsn", dsn, "--index", idx, "--jsonl", in)
	lines := batchLines(t, out)
	if code != 1 || len(lines) != 6 || !strings.Contains(errs, "3 of 6 lines failed") {
		t.Fatalf("batch: exit %d %q\n%s", code, errs, out)
	}
	sameKeys(t, "learn batch example", lines[0], []string{"id", "kind", "question", "sql"})
	sameKeys(t, "learn batch doc", lines[1], []string{"column", "id", "kind", "table", "text"})
	sameKeys(t, "learn batch term", lines[2], []string{"id", "kind", "targets", "term"})
	for i, prefix := range []string{"knowledge:example:", "knowledge:doc:", "knowledge:term:"} {
		if id, _ := decode(t, lines[i])["id"].(string); !strings.HasPrefix(id, prefix) {
			t.Errorf("line %d id %q", i, id)
		}
	}
	if m := decode(t, lines[1]); m["table"] != "public.employees" {
		t.Errorf("doc table not qualified: %v", m)
	}
	for i, want := range []string{"projcts", "nope.nothing", "line 6"} {
		m := sameKeys(t, "learn batch failing", lines[3+i], []string{"error", "id"})
		if e := m["error"].(map[string]any); !strings.Contains(e["message"].(string), want) {
			t.Errorf("line %d: error %v, want %q", 4+i, e, want)
		}
	}

	// export is what learn --jsonl reads: a fresh index learns the same.
	code, exported, _ := cli(t, "knowledge", "--dsn", dsn, "--index", idx, "export")
	if code != 0 || len(batchLines(t, exported)) != 3 {
		t.Fatalf("export: exit %d\n%s", code, exported)
	}
	idx2 := filepath.Join(dir, "erp2.idx")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx2); code != 0 {
		t.Fatalf("index: exit %d %s", code, errs)
	}
	if code, out, errs := cli(t, "learn", "--dsn", dsn, "--index", idx2, "--jsonl", writeFile(t, "export.jsonl", exported)); code != 0 || len(batchLines(t, out)) != 3 {
		t.Fatalf("re-import: exit %d %s\n%s", code, errs, out)
	}
	if _, again, _ := cli(t, "knowledge", "--dsn", dsn, "--index", idx2, "export"); again != exported {
		t.Errorf("re-imported knowledge differs:\n%s\nvs\n%s", again, exported)
	}

	// --csv: header question,sql[,note] in any order, a line per row.
	csvIn := writeFile(t, "k.csv", "sql,question,note\n\"SELECT count(*) FROM customers\",How many customers?,\"all of them, active or not\"\nSELECT 1 FROM projcts,How many projects?,\n")
	code, out, _ = cli(t, "learn", "--dsn", dsn, "--index", idx2, "--csv", csvIn)
	if lines := batchLines(t, out); code != 1 || len(lines) != 2 {
		t.Fatalf("csv: exit %d\n%s", code, out)
	} else if m := sameKeys(t, "learn csv", lines[0], knowledgeExampleKeys); m["note"] != "all of them, active or not" {
		t.Errorf("csv line 1: %v", m)
	}
	if code, _, errs := cli(t, "learn", "--dsn", dsn, "--index", idx2, "--csv", writeFile(t, "bad.csv", "q,s\n")); code != 2 || !strings.Contains(errs, "question and sql") {
		t.Errorf("csv header: exit %d %q", code, errs)
	}
	if _, out, _ := cli(t, "knowledge", "--dsn", dsn, "--index", idx2, "list"); !strings.Contains(out, "How many customers?") {
		t.Errorf("csv example not kept:\n%s", out)
	}
}

// TestLearnIntoStore: with --store (or $NL2SQL_STORE_DSN) knowledge lives
// in a pgvector database, for the next command on the same store.
func TestLearnIntoStore(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	for _, srv := range pgtest.PGVectorServers(t) {
		t.Run(srv.Name, func(t *testing.T) {
			vpool := pgtest.Pool(t, srv.DSN)
			schemaName := "nl2sql_cli_" + srv.Name
			t.Cleanup(func() { vpool.Exec(context.Background(), `DROP SCHEMA IF EXISTS "`+schemaName+`" CASCADE`) })
			t.Setenv("NL2SQL_STORE_DSN", "")
			store := []string{"--dsn", dsn, "--store", srv.DSN, "--store-schema", schemaName}
			code, out, errs := cli(t, append([]string{"learn", "--json"}, append(store, learntQ, learntSQL)...)...)
			if code != 0 {
				t.Fatalf("learn --store: exit %d %s", code, errs)
			}
			id := decode(t, out)["id"].(string)
			model, seen := promptHas(t, learntSQL)
			code, _, errs = cli(t, append([]string{"ask", "--llm", "openai:fake", "--llm-url", model.BaseURL()}, append(store, "How many employees are active?")...)...)
			if code != 0 || !seen("active_headcount") {
				t.Errorf("ask --store: exit %d %s, example in prompt %v", code, errs, seen("active_headcount"))
			}
			// The environment names the store as well.
			t.Setenv("NL2SQL_STORE_DSN", srv.DSN)
			env := []string{"--dsn", dsn, "--store-schema", schemaName}
			if code, out, _ := cli(t, append([]string{"knowledge", "export"}, env...)...); code != 0 || !strings.Contains(out, id) {
				t.Errorf("export from $NL2SQL_STORE_DSN: exit %d\n%s", code, out)
			}
			if code, _, errs := cli(t, append([]string{"knowledge", "--index", "x.idx", "list"}, env...)...); code != 2 || !strings.Contains(errs, "pass one") {
				t.Errorf("--index and --store: exit %d %q", code, errs)
			}
			if code, out, _ := cli(t, append([]string{"knowledge", "forget", "--json", id}, env...)...); code != 0 || !reflect.DeepEqual(decode(t, out)["forgotten"], []any{id}) {
				t.Errorf("forget: exit %d %s", code, out)
			}
			if code, out, _ := cli(t, append([]string{"knowledge", "list", "--json"}, env...)...); code != 0 || strings.TrimSpace(out) != "[]" {
				t.Errorf("after forget: exit %d %s", code, out)
			}
		})
	}
}

func TestLearnWorkload(t *testing.T) {
	dsn := erptest.Single(t)
	dir := t.TempDir()
	stmts := writeFile(t, "w.sql", strings.Join([]string{
		"SELECT e.first_name, d.dept_name FROM employees e JOIN departments d ON d.dept_id = e.dept_id",
		`{"query":"SELECT count(*) FROM employees e JOIN departments d ON e.dept_id = d.dept_id WHERE d.dept_name = $1","calls":41}`,
		"DELETE FROM employees",
		"SELECT * FROM nowhere",
	}, "\n")+"\n")
	saved := filepath.Join(dir, "w.json")
	code, out, errs := cli(t, "learn", "--dsn", dsn, "--workload", stmts, "--out", saved)
	if code != 0 {
		t.Fatalf("learn --workload: exit %d %s", code, errs)
	}
	for _, want := range []string{"4 read, 2 kept, 2 rejected (42 calls kept)", "public.departments.dept_id = public.employees.dept_id  (42)", "public.employees  (42)", "saved to " + saved} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if m := decode(t, string(must(os.ReadFile(saved)))); m["kept"] != float64(2) || len(m["edges"].([]any)) != 1 {
		t.Errorf("saved: %v", m)
	}
	// ask, retrieve and exam take it.
	if code, out, errs := cli(t, "retrieve", "--dsn", dsn, "--workload", saved, "--json", "How many employees per department?"); code != 0 || !strings.Contains(out, "public.departments") {
		t.Errorf("retrieve --workload: exit %d %s %s", code, errs, out)
	}
	if code, _, errs := cli(t, "retrieve", "--dsn", dsn, "--workload", stmts, "x"); code != 2 || !strings.Contains(errs, "not a workload") {
		t.Errorf("bad --workload: exit %d %q", code, errs)
	}
	for _, cmd := range []string{"ask", "exam"} {
		if code, _, errs := cli(t, cmd, "-h"); code != 0 || !strings.Contains(errs, "-workload") {
			t.Errorf("%s has no --workload: exit %d", cmd, code)
		}
	}
	// Nothing usable: exit 1, saying so.
	if code, _, errs := cli(t, "learn", "--dsn", dsn, "--workload", writeFile(t, "none.sql", "DELETE FROM employees\n")); code != 1 || !strings.Contains(errs, "no statement of the 1 read was kept") {
		t.Errorf("nothing kept: exit %d %q", code, errs)
	}
	// No file: pg_stat_statements, which this database does not have.
	pool := pgtest.Pool(t, dsn)
	var installed bool
	pool.QueryRow(context.Background(), "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')").Scan(&installed)
	if !installed {
		if code, _, errs := cli(t, "learn", "--dsn", dsn, "--workload"); code != 2 || !strings.Contains(errs, "pg_stat_statements is not available") || !strings.Contains(errs, "FILE") {
			t.Errorf("no pg_stat_statements: exit %d %q", code, errs)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestAskPrevious(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	srv, seen := promptHas(t, "SELECT count(*) FROM employees WHERE status = 'Active'")
	ask := []string{"ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL()}
	if code, _, errs := cli(t, append(ask, "--previous-question", "How many employees are there?", "and the active ones?")...); code != 2 || !strings.Contains(errs, "in pairs") {
		t.Errorf("unpaired: exit %d %q", code, errs)
	}
	code, _, errs := cli(t, append(ask, "--previous-question", "How many employees are there?", "--previous-sql", "SELECT count(*) AS zz_total FROM employees", "and only the active ones?")...)
	if code != 0 || !seen("zz_total") {
		t.Errorf("follow-up: exit %d %s; previous SQL in prompt %v", code, errs, seen("zz_total"))
	}
	qs := writeFile(t, "f.jsonl", `{"id":1,"question":"and only the active ones?","previous":[{"question":"How many employees are there?","sql":"SELECT count(*) AS yy_total FROM employees"}]}`+"\n")
	code, out, _ := cli(t, append(ask, "--jsonl", qs)...)
	if code != 0 || !seen("yy_total") {
		t.Errorf("batch follow-up: exit %d %s; previous SQL in prompt %v", code, out, seen("yy_total"))
	}
}
