package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/rlstest"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// TestAskVerifiedWithoutModel: with --semantic and --llm none, a question
// a verified question of the demo ERP's model fits is answered, its JSON
// saying origin verified with the bindings; another is refused as without
// the model; a model that does not fit the catalog names its file and
// line. learn --parameters auto prints the template it learns, and the
// next ask with another value is answered from it.
func TestAskVerifiedWithoutModel(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Single(t)
	model := filepath.Join("..", "..", "..", "examples", "erp", "semantic.yaml")
	code, out, errs := cli(t, "ask", "--dsn", dsn, "--llm", "none", "--semantic", model, "--json", "Sales order count by sales region for 2025")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	m := decode(t, out)
	v, _ := m["verified"].(map[string]any)
	if m["origin"] != "verified" || v == nil || fmt.Sprint(v["bindings"]) != "[map[kind:year name:year value:2025]]" || len(m["rows"].([]any)) == 0 {
		t.Errorf("JSON: %s", out)
	}
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "--llm", "none", "--semantic", model, "Which warehouse ships the most?"); code == 0 || !strings.Contains(errs, "no model") {
		t.Errorf("a question no template fits: exit %d %s", code, errs)
	}
	bad := writeFile(t, "bad.yaml", "version: 1\nentities:\n  - name: sales_orders\n    measures:\n      - {name: broken, agg: sum, expr: no_such_column}\n")
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "--llm", "none", "--semantic", bad, "x"); code != 2 || !strings.Contains(errs, "bad.yaml:5") {
		t.Errorf("a model that does not fit: exit %d %s", code, errs)
	}
	idx := filepath.Join(t.TempDir(), "idx.json")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs = cli(t, "learn", "--dsn", dsn, "--index", idx, "--parameters", "auto", "How many employees were hired in 2021?",
		"SELECT count(*) FROM employees WHERE hire_date >= make_date(2021, 1, 1) AND hire_date < make_date(2021 + 1, 1, 1)")
	if code != 0 || !strings.Contains(out, "-- template: How many employees were hired in {year}?") || !strings.Contains(out, "make_date({year}, 1, 1)") {
		t.Fatalf("learn --parameters auto: exit %d %s\n%s", code, errs, out)
	}
	code, out, errs = cli(t, "ask", "--dsn", dsn, "--index", idx, "--llm", "none", "How many employees were hired in 2023?")
	if code != 0 || !strings.Contains(out, "-- verified") || !strings.Contains(out, "year=2023") {
		t.Errorf("ask after learn --parameters auto: exit %d %s\n%s", code, errs, out)
	}
	// knowledge export, then learn --jsonl elsewhere: the template with it.
	code, export, errs := cli(t, "knowledge", "export", "--dsn", dsn, "--index", idx)
	if code != 0 || !strings.Contains(export, `"parameters":[{"name":"year","kind":"year","examples":["2021"]}]`) {
		t.Fatalf("export: exit %d %s\n%s", code, errs, export)
	}
	idx2 := filepath.Join(t.TempDir(), "idx2.json")
	if code, _, errs := cli(t, "index", "--dsn", dsn, "--out", idx2); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := cli(t, "learn", "--dsn", dsn, "--index", idx2, "--jsonl", writeFile(t, "export.jsonl", export)); code != 0 {
		t.Fatalf("learn --jsonl of the export: exit %d %s", code, errs)
	}
	code, out, errs = cli(t, "ask", "--dsn", dsn, "--index", idx2, "--llm", "none", "How many employees were hired in 2020?")
	if code != 0 || !strings.Contains(out, "year=2020") {
		t.Errorf("ask after re-importing the template: exit %d %s\n%s", code, errs, out)
	}
}

// TestExamVerified: the demo ERP's verified questions all run with every
// declared example, and the baseline written then matches; after a
// migration renames a column one verified query reads, its runs fail
// (exit 1, the question and the server's code named) and the model's
// check names the line; after rows change, a run is reported changed
// against the baseline.
func TestExamVerified(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := erptest.Single(t)
	model := filepath.Join("..", "..", "..", "examples", "erp", "semantic.yaml")
	base := filepath.Join(t.TempDir(), "baseline.json")
	exam := func(extra ...string) (int, map[string]any, string) {
		code, out, errs := cli(t, append([]string{"exam", "--dsn", dsn, "--semantic", model, "--verified"}, extra...)...)
		return code, decode(t, out), errs
	}
	code, rep, errs := exam("--write-baseline", base)
	if code != 0 || rep["failed"] != 0.0 || rep["changed"] != 0.0 || rep["total"].(float64) < 30 || rep["ok"] != rep["total"] {
		t.Fatalf("a fresh ERP: exit %d %s\n%v", code, errs, rep)
	}
	if code, rep, errs := exam("--baseline", base); code != 0 || rep["ok"] != rep["total"] {
		t.Fatalf("against its own baseline: exit %d %s\n%v", code, errs, rep)
	}
	statuses := func(rep map[string]any) map[string]string {
		out := map[string]string{}
		for _, r := range rep["results"].([]any) {
			c := r.(map[string]any)
			if c["status"] != "ok" {
				out[fmt.Sprint(c["question"], " ", c["bindings"])] = strings.TrimSuffix(fmt.Sprint(c["status"], " ", c["code"]), " <nil>")
			}
		}
		return out
	}
	pgtest.Exec(t, dsn, "DELETE FROM customer_payments WHERE method = 'Wire' AND paid_on >= DATE '2024-06-01' AND paid_on < DATE '2025-01-01'")
	code, rep, _ = exam("--baseline", base)
	if got := fmt.Sprint(statuses(rep)); code != 1 || got != "map[What is the total cash collected by {method} in {year}? map[method:Wire year:2024]:changed Which payment methods bring in the most cash? <nil>:changed]" {
		t.Errorf("after deleting payments: exit %d, not ok: %s", code, got)
	}
	pgtest.Exec(t, dsn, "ALTER TABLE employees RENAME COLUMN hire_date TO hired_on")
	code, rep, errs = exam()
	got := statuses(rep)
	if code != 1 || len(got) != 2 || got["How many employees were hired in {year}? map[year:2022]"] != "failed 42703" || !strings.Contains(errs, "2 failed") {
		t.Errorf("after renaming hire_date: exit %d %s, not ok: %v", code, errs, got)
	}
	defs := fmt.Sprint(rep["definitions"])
	if !strings.Contains(defs, "hire_date") {
		t.Errorf("definitions: %s", defs)
	}
}

// TestExamVerifiedIdentity: exam --verified with --role and --set runs the
// model's verified questions as that identity (a real row-level security
// policy: each tenant's row count), and runs the learnt templates that
// identity is offered: its own, not another tenant's (whose question and
// value stay out of the report).
func TestExamVerifiedIdentity(t *testing.T) {
	db := rlstest.New(t)
	ctx := context.Background()
	model := writeFile(t, "notes.yaml", "version: 1\nverified_questions:\n  - question: What do the notes say?\n    sql: "+rlstest.SQL+"\n")
	idx := filepath.Join(t.TempDir(), "idx.json")
	if code, _, errs := cli(t, "index", "--dsn", db.DSN, "--out", idx); code != 0 {
		t.Fatal(errs)
	}
	iopts, err := nl2sql.LoadIndexFile(ctx, idx)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nl2sql.New(pgtest.Pool(t, db.DSN), append(iopts, nl2sql.WithSettings(rlstest.Setting))...)
	if err != nil {
		t.Fatal(err)
	}
	secret := rlstest.Rows["2"][0]
	k := nl2sql.Example("which {n} notes are flagged?", "SELECT body FROM notes WHERE body = '"+secret+"' ORDER BY body LIMIT {n}")
	k.Parameters = []semantic.Parameter{{Name: "n", Kind: semantic.ParamTopN, Examples: []string{"3"}}}
	if _, err := eng.Learn(ctx, k, nl2sql.AsRole(db.Reader), nl2sql.Setting(rlstest.Setting, "2")); err != nil {
		t.Fatalf("tenant 2 learns its template: %v", err)
	}
	for tenant, want := range map[string][]float64{"1": {2}, "2": {1, 1}} {
		code, out, errs := cli(t, "exam", "--dsn", db.DSN, "--index", idx, "--semantic", model, "--verified",
			"--role", db.Reader, "--set", rlstest.Setting+"="+tenant)
		if code != 0 {
			t.Fatalf("tenant %s: exit %d %s\n%s", tenant, code, errs, out)
		}
		var rows []float64
		for _, r := range decode(t, out)["results"].([]any) {
			rows = append(rows, r.(map[string]any)["rows"].(float64))
		}
		if fmt.Sprint(rows) != fmt.Sprint(want) {
			t.Errorf("tenant %s: rows per case %v, want %v: %s", tenant, rows, want, out)
		}
		if tenant == "1" && (strings.Contains(out, "flagged") || strings.Contains(out+errs, secret)) {
			t.Errorf("tenant 1's exam shows tenant 2's template: %s", out)
		}
	}
}
