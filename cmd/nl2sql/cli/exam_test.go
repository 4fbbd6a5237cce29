package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

const smallExam = "testdata/exam/small.csv"

var examLineKeys = []string{"confidence", "difficulty", "error", "ex_match", "ex_match_strict", "executed",
	"failure_class", "gold_tables", "latency_ms", "qid", "question", "sql", "table_recall", "tables", "tags"}

var examScoreKeys = []string{"all_tables_rate", "ex", "ex_rate", "ex_strict", "ex_strict_rate", "executed",
	"mean_table_recall", "total"}

// examLines reads the --out JSONL by qid, checking the shape of every line.
func examLines(t *testing.T, path string) (map[string]map[string]any, []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	byQID := map[string]map[string]any{}
	var order []string
	for _, s := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := decode(t, s)
		// A line whose question got a query has its verdict and signals,
		// and reasons when something is in doubt.
		want := examLineKeys
		if m["signals"] != nil {
			want = with(examLineKeys, "signals", "status")
			if _, ok := m["reasons"]; ok {
				want = with(want, "reasons")
			}
		}
		if !reflect.DeepEqual(keys(m), want) {
			t.Fatalf("line keys = %v", keys(m))
		}
		r := m["table_recall"].(float64)
		if r < 0 || r > 1 {
			t.Errorf("%s: table_recall %v", m["qid"], r)
		}
		if lat := m["latency_ms"].(map[string]any); len(lat) != 0 { // timings go to --timings
			t.Errorf("%s: latency_ms = %v", m["qid"], lat)
		}
		qid := m["qid"].(string)
		byQID[qid] = m
		order = append(order, qid)
	}
	return byQID, order
}

// examTimings reads the --timings JSONL: latency per stage by qid, in the
// order of the --out lines, each with a positive total.
func examTimings(t *testing.T, path string, order []string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	var got []string
	for _, s := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := decode(t, s)
		if !reflect.DeepEqual(keys(m), []string{"latency_ms", "qid"}) {
			t.Fatalf("timings keys = %v", keys(m))
		}
		lat := m["latency_ms"].(map[string]any)
		if tot, ok := lat["total"].(float64); !ok || tot <= 0 {
			t.Errorf("%s: latency_ms = %v", m["qid"], lat)
		}
		out[m["qid"].(string)] = lat
		got = append(got, m["qid"].(string))
	}
	if !reflect.DeepEqual(got, order) {
		t.Errorf("timings qids = %v, want %v", got, order)
	}
	return out
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestExamRetrieval(t *testing.T) {
	dsn := erptest.Single(t)
	out, timings := filepath.Join(t.TempDir(), "out.jsonl"), filepath.Join(t.TempDir(), "timings.jsonl")
	code, stdout, errs := cli(t, "exam", "--dsn", dsn, "--llm", "none", "--exam", smallExam, "--out", out, "--timings", timings)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines, order := examLines(t, out)
	if want := []string{"hr-01", "hr-02", "hr-03", "hr-05", "hr-06", "hr-07", "hr-08"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("qids = %v, want %v", order, want)
	}
	for qid, lat := range examTimings(t, timings, order) {
		if _, ok := lat["retrieve"]; !ok {
			t.Errorf("%s: no retrieve latency: %v", qid, lat)
		}
	}
	var recallSum float64
	all := 0
	for qid, l := range lines {
		if l["sql"] != "" || l["executed"] != false || l["ex_match"] != false || l["failure_class"] != "" || l["error"] != "" {
			t.Errorf("%s: retrieval mode line %v", qid, l)
		}
		if len(l["tables"].([]any)) == 0 {
			t.Errorf("%s: nothing retrieved", qid)
		}
		recallSum += l["table_recall"].(float64)
		if l["table_recall"].(float64) == 1 {
			all++
		}
	}
	// Gold tables come from expected_tables when given (bare names
	// qualified), else from the gold SQL's parse tree.
	if g := strs(lines["hr-02"]["gold_tables"]); !reflect.DeepEqual(g, []string{"public.departments", "public.employees"}) {
		t.Errorf("hr-02 gold_tables = %v", g)
	}
	if g := strs(lines["hr-06"]["gold_tables"]); !reflect.DeepEqual(g, []string{"public.employees", "public.job_titles", "public.salary_history"}) {
		t.Errorf("hr-06 gold_tables = %v", g)
	}
	if tags := strs(lines["hr-05"]["tags"]); !reflect.DeepEqual(tags, []string{"hr", "medium"}) {
		t.Errorf("tags = %v", tags)
	}

	sum := decode(t, stdout)
	if !reflect.DeepEqual(keys(sum), []string{"all_tables_rate", "by_difficulty", "ex", "ex_rate", "ex_strict", "ex_strict_rate", "executed", "failures", "mean_table_recall", "mode", "note", "total"}) {
		t.Errorf("summary keys = %v", keys(sum))
	}
	if sum["mode"] != "retrieval" || sum["total"] != 7.0 || sum["executed"] != 0.0 || sum["ex"] != 0.0 {
		t.Errorf("summary = %v", sum)
	}
	// Executed 0 and ex 0 say that execution was not run, not that it
	// failed: in the summary's note and stderr's last line.
	if note, _ := sum["note"].(string); !strings.Contains(note, "no query was generated or run") ||
		!strings.Contains(errs, fmt.Sprintf("every gold table retrieved for %d of 7 questions", all)) || !strings.Contains(errs, "execution not run") {
		t.Errorf("retrieval mode: note %q, stderr %q", note, errs)
	}
	if got, want := sum["mean_table_recall"].(float64), recallSum/7; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("mean_table_recall = %v, lines say %v", got, want)
	}
	if got := sum["all_tables_rate"].(float64); got != float64(all)/7 {
		t.Errorf("all_tables_rate = %v, lines say %d/7", got, all)
	}
	byDiff := sum["by_difficulty"].(map[string]any)
	if len(byDiff) != 2 || byDiff["easy"].(map[string]any)["total"] != 3.0 || byDiff["medium"].(map[string]any)["total"] != 4.0 {
		t.Errorf("by_difficulty = %v", byDiff)
	}
	if !reflect.DeepEqual(keys(byDiff["easy"].(map[string]any)), examScoreKeys) {
		t.Errorf("by_difficulty keys = %v", keys(byDiff["easy"].(map[string]any)))
	}

	// --limit, and no --out: only the summary.
	code, stdout, errs = cli(t, "exam", "--dsn", dsn, "--exam", smallExam, "--limit", "2", "--llm", "none")
	if sum := decode(t, stdout); code != 0 || sum["total"] != 2.0 {
		t.Errorf("--limit 2: exit %d %s %s", code, errs, stdout)
	}
}

func TestExamFull(t *testing.T) {
	dsn := erptest.Single(t)
	qs, err := readExam(smallExam, "scope")
	if err != nil {
		t.Fatal(err)
	}
	question := map[string]string{}
	for _, q := range qs {
		question[q.qid] = q.question
	}
	// One more question whose gold SQL is broken.
	csvText, _ := os.ReadFile(smallExam)
	exam := filepath.Join(t.TempDir(), "exam.csv")
	question["bad-gold"] = "How many employees are on file in total?"
	csvText = append(csvText, "bad-gold,hard,How many employees are on file in total?,,SELECT no_such_column FROM employees,public,,\n"...)
	if err := os.WriteFile(exam, csvText, 0o644); err != nil {
		t.Fatal(err)
	}
	goldOf := map[string]string{}
	for _, q := range qs {
		goldOf[q.qid] = q.goldSQL
	}
	answers := map[string]string{
		"hr-01": goldOf["hr-01"],                                                       // right
		"hr-02": "SELECT count(*) AS employees FROM employees WHERE status = 'Active'", // valid, wrong (no department filter)
		"hr-03": "SELECT dept_cd, dept_name FROM departments ORDER BY dept_cd DESC",    // right rows, wrong order
		"hr-05": goldOf["hr-05"],
		// An extra leading column: only the loose match holds.
		"hr-06": `SELECT count(*) AS n, j.job_family, round(avg(s.base_salary), 2) AS avg_base_salary
FROM salary_history s JOIN employees e ON e.emp_id = s.emp_id JOIN job_titles j ON j.job_title_id = e.job_title_id
WHERE s.effective_date >= DATE '2025-01-01' AND s.effective_date < DATE '2026-01-01'
GROUP BY j.job_family ORDER BY avg_base_salary DESC`,
		"hr-07": "", // garbage
		// float8 instead of numeric: equal after normalisation.
		"hr-08":    strings.Replace(goldOf["hr-08"], "sum(pl.net_amt)", "sum(pl.net_amt)::float8", 1),
		"bad-gold": "SELECT count(*) FROM employees",
	}
	srv := llmfake.New(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		for qid, q := range question {
			if strings.Contains(req.Last(), q) && answers[qid] != "" {
				return llmfake.Reply{Content: "```sql\n" + answers[qid] + "\n```"}
			}
		}
		return llmfake.Reply{Content: "I am not sure what you mean."}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	out, timings := filepath.Join(t.TempDir(), "out.jsonl"), filepath.Join(t.TempDir(), "timings.jsonl")
	code, stdout, errs := cli(t, "exam", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--exam", exam,
		"--out", out, "--timings", timings)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines, order := examLines(t, out)
	if len(order) != 8 || order[7] != "bad-gold" {
		t.Fatalf("qids = %v", order)
	}
	lat := examTimings(t, timings, order)
	type want struct {
		executed, strict, loose bool
		class                   string
	}
	for qid, w := range map[string]want{
		"hr-01":    {true, true, true, ""},
		"hr-02":    {true, false, false, "wrong_result"},
		"hr-03":    {true, false, false, "wrong_result"},
		"hr-05":    {true, true, true, ""},
		"hr-06":    {true, false, true, ""},
		"hr-07":    {false, false, false, "?"},
		"hr-08":    {true, true, true, ""},
		"bad-gold": {true, false, false, "gold_error"},
	} {
		l := lines[qid]
		got := want{l["executed"].(bool), l["ex_match_strict"].(bool), l["ex_match"].(bool), l["failure_class"].(string)}
		if w.class == "?" { // the engine's own class for a model answering no SQL
			if got.class == "" || got.class == "wrong_result" || l["error"] == "" {
				t.Errorf("%s: failure_class %q error %q", qid, got.class, l["error"])
			}
			w.class = got.class
		}
		if got != w {
			t.Errorf("%s: got %+v, want %+v (sql %q, error %q)", qid, got, w, l["sql"], l["error"])
		}
		if w.executed && (l["sql"] == "" || l["confidence"].(float64) <= 0) {
			t.Errorf("%s: executed without sql/confidence: %v", qid, l)
		}
		if _, ok := lat[qid]["generate"]; !ok {
			t.Errorf("%s: no generate latency: %v", qid, lat[qid])
		}
	}
	if e := lines["bad-gold"]["error"].(string); !strings.Contains(e, "gold_sql") || !strings.Contains(e, "no_such_column") {
		t.Errorf("gold error = %q", e)
	}
	if e := lines["hr-01"]["error"]; e != "" {
		t.Errorf("hr-01 error = %q", e)
	}

	sum := decode(t, stdout)
	for k, v := range map[string]float64{"total": 8, "executed": 7, "ex_strict": 3, "ex": 4, "ex_strict_rate": 3.0 / 8, "ex_rate": 4.0 / 8} {
		if sum[k] != v {
			t.Errorf("summary %s = %v, want %v", k, sum[k], v)
		}
	}
	if _, note := sum["note"]; sum["mode"] != "full" || note {
		t.Errorf("mode = %v, note %v: a full exam has no retrieval note", sum["mode"], sum["note"])
	}
	fails := sum["failures"].(map[string]any)
	if fails["wrong_result"] != 2.0 || fails["gold_error"] != 1.0 || fails[lines["hr-07"]["failure_class"].(string)] != 1.0 || len(fails) != 3 {
		t.Errorf("failures = %v", fails)
	}
	easy := sum["by_difficulty"].(map[string]any)["easy"].(map[string]any)
	if easy["total"] != 3.0 || easy["ex"] != 1.0 || easy["executed"] != 3.0 {
		t.Errorf("easy = %v", easy)
	}
}

func TestExamUsage(t *testing.T) {
	t.Setenv("NL2SQL_DSN", "")
	t.Setenv("DATABASE_URL", "")
	t.Setenv("NL2SQL_LLM", "")
	dir := t.TempDir()
	noGold := filepath.Join(dir, "nogold.csv")
	os.WriteFile(noGold, []byte("qid,question,difficulty\nq1,How many?,easy\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"exam"}, "--exam"},
		{[]string{"exam", "--exam", noGold}, `missing column "gold_sql"`},
		{[]string{"exam", "--exam", smallExam, "--scope-column", "division"}, `missing column "division"`},
		{[]string{"exam", "--exam", filepath.Join(dir, "absent.csv")}, "absent.csv"},
		{[]string{"exam", "--exam", smallExam, "extra"}, "no arguments"},
		{[]string{"exam", "--exam", smallExam}, "no database"},
		{[]string{"exam", "--exam", smallExam, "--llm", "bogus"}, "--llm"},
	} {
		var out, errb bytes.Buffer
		code := run(t.Context(), tc.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) || strings.Count(errb.String(), "\n") != 1 || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", tc.args, code, errb.String(), out.String())
		}
	}
}

// TestExamDemoGold answers every question of the demo exam with its own gold
// SQL: every gold query must pass the executor and match itself.
func TestExamDemoGold(t *testing.T) {
	dsn := erptest.Single(t)
	const exam = "../../../examples/erp/exam.csv"
	qs, err := readExam(exam, "scope")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmfake.New(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		var best *examQuestion // the longest question in the prompt
		for i, q := range qs {
			if strings.Contains(req.Last(), q.question) && (best == nil || len(q.question) > len(best.question)) {
				best = &qs[i]
			}
		}
		if best == nil {
			return llmfake.Reply{Content: "no idea"}
		}
		return llmfake.Reply{Content: "```sql\n" + best.goldSQL + "\n```"}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	code, stdout, errs := cli(t, "exam", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--exam", exam)
	sum := decode(t, stdout)
	n := float64(len(qs))
	if code != 0 || sum["total"] != n || sum["executed"] != n || sum["ex_strict"] != n || sum["ex"] != n || len(sum["failures"].(map[string]any)) != 0 {
		t.Errorf("exit %d %s\n%s", code, errs, stdout)
	}
}

// TestExamInterrupted cancels the context while the third question is asked:
// the run stops there, prints the summary of the two questions done and
// exits 1.
func TestExamInterrupted(t *testing.T) {
	dsn := erptest.Single(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	srv := llmfake.New(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		if strings.Contains(req.Last(), "List all departments") {
			cancel()
			return llmfake.Reply{Content: "```sql\nSELECT 1\n```", Delay: 200 * time.Millisecond}
		}
		return llmfake.Reply{Content: "```sql\nSELECT count(*) FROM employees\n```"}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	out := filepath.Join(t.TempDir(), "out.jsonl")
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"exam", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--exam", smallExam, "--out", out}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "interrupted after 2 of 7") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if sum := decode(t, stdout.String()); sum["total"] != 2.0 {
		t.Errorf("summary = %v", sum)
	}
	if _, order := examLines(t, out); !reflect.DeepEqual(order, []string{"hr-01", "hr-02"}) {
		t.Errorf("lines = %v", order)
	}
}
