package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

const demoExam = "../../../examples/erp/exam.csv"

// examRun runs the exam and returns its --out file and its stdout.
func examRun(t *testing.T, args ...string) (out []byte, stdout string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.jsonl")
	code, stdout, errs := cli(t, append(append([]string{"exam"}, args...), "--out", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, stdout
}

// sameRuns fails when a run's --out file or summary differs from the first's.
func sameRuns(t *testing.T, outs [][]byte, stdouts []string, names []string) {
	t.Helper()
	for i := 1; i < len(outs); i++ {
		if !bytes.Equal(outs[i], outs[0]) {
			a, b := strings.Split(string(outs[0]), "\n"), strings.Split(string(outs[i]), "\n")
			for j := range min(len(a), len(b)) {
				if a[j] != b[j] {
					t.Errorf("%s: --out differs from %s's, first at line %d:\n%s\n%s", names[i], names[0], j+1, a[j], b[j])
					break
				}
			}
			if len(a) != len(b) {
				t.Errorf("%s: %d lines, %s: %d", names[i], len(b), names[0], len(a))
			}
		}
		if stdouts[i] != stdouts[0] {
			t.Errorf("%s: summary differs from %s's:\n%s\n%s", names[i], names[0], stdouts[i], stdouts[0])
		}
	}
}

// TestExamDeterministic: the retrieval-only exam of the demo ERP writes the
// same --out file, byte for byte, on every run: before ANALYZE (as right
// after a load) and after it, and with one or several threads. Before,
// latency_ms put timings in every line, and the value index read pg_stats
// once autovacuum had run, with other values (and other tables retrieved)
// than its own queries had found.
func TestExamDeterministic(t *testing.T) {
	dsn := erptest.Single(t)
	// The template may have been analyzed by autovacuum: start without statistics.
	pgtest.Exec(t, dsn, "DELETE FROM pg_catalog.pg_statistic")
	args := []string{"--dsn", dsn, "--llm", "none", "--exam", demoExam}
	var outs [][]byte
	var stdouts []string
	run := func() {
		o, s := examRun(t, args...)
		outs, stdouts = append(outs, o), append(stdouts, s)
	}
	run()
	pgtest.Exec(t, dsn, "ANALYZE")
	run()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	run()
	sameRuns(t, outs, stdouts, []string{"before ANALYZE", "after ANALYZE", "GOMAXPROCS=1"})
	if n := bytes.Count(outs[0], []byte("\n")); n != 82 {
		t.Errorf("%d lines", n)
	}
}

// TestExamFullDeterministic: with a model that answers the same prompt the
// same way (here a script: the gold query, the gold query with a misspelt
// column, a wrong query, no query, by temperature), the full exam writes
// the same --out file on every run: the same candidates get the same
// repairs, scores and pick, so the same sql, confidence and verdicts. Two
// questions hit the row cap: a gold result that is cut is not compared
// (gold_error), an answer that is cut does not match.
func TestExamFullDeterministic(t *testing.T) {
	dsn := erptest.Single(t)
	pgtest.Exec(t, dsn, "ANALYZE")
	qs, err := readExam(demoExam, "scope")
	if err != nil {
		t.Fatal(err)
	}
	csvText, err := os.ReadFile(demoExam)
	if err != nil {
		t.Fatal(err)
	}
	const (
		bigGold   = "SELECT e.emp_id, d.dept_id FROM employees e CROSS JOIN departments d"
		bigAnswer = "SELECT e.emp_id FROM employees e CROSS JOIN departments d"
	)
	csvText = append(csvText, "big-gold,easy,hr,List every pair of an employee and a department.,,\""+bigGold+"\",public\n"+
		"big-answer,easy,hr,Count the employees and departments pairs.,,SELECT count(*) FROM employees CROSS JOIN departments,public\n"...)
	exam := filepath.Join(t.TempDir(), "exam.csv")
	if err := os.WriteFile(exam, csvText, 0o644); err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{"List every pair of an employee and a department.": bigGold,
		"Count the employees and departments pairs.": bigAnswer}
	for _, q := range qs {
		gold[q.question] = q.goldSQL
	}
	srv := llmfake.New(t, func(_ int, req *llmfake.Request) llmfake.Reply {
		var sql, question string // the longest question in the prompt
		for q, g := range gold {
			if strings.Contains(req.Last(), q) && len(q) > len(question) {
				sql, question = g, q
			}
		}
		switch {
		case question == "":
			return llmfake.Reply{Content: "no idea"}
		case *req.Temperature == 0.3:
			sql = strings.Replace(sql, "_id", "_idd", 1) // 42703, repaired
		case *req.Temperature == 0.5:
			sql = "SELECT count(*) FROM employees"
		case *req.Temperature == 0.9:
			return llmfake.Reply{Content: "I am not sure."}
		}
		return llmfake.Reply{Content: "```sql\n" + sql + "\n```"}
	})
	t.Setenv("OPENAI_API_KEY", "test")
	args := []string{"--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--exam", exam}
	var outs [][]byte
	var stdouts []string
	for range 2 {
		o, s := examRun(t, args...)
		outs, stdouts = append(outs, o), append(stdouts, s)
	}
	sameRuns(t, outs, stdouts, []string{"run 1", "run 2"})

	path := filepath.Join(t.TempDir(), "out.jsonl")
	if err := os.WriteFile(path, outs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	lines, order := examLines(t, path)
	if len(order) != 84 {
		t.Fatalf("%d lines", len(order))
	}
	right := 0
	for _, l := range lines {
		if l["failure_class"] == "" && l["ex_match"] == true {
			right++
		}
	}
	if right < 70 {
		t.Errorf("only %d questions answered right", right)
	}
	if l := lines["big-gold"]; l["failure_class"] != "gold_error" || !strings.Contains(l["error"].(string), "row cap") || l["ex_match"] != false {
		t.Errorf("big-gold: %v", l)
	}
	if l := lines["big-answer"]; l["failure_class"] != "wrong_result" || l["executed"] != true || l["ex_match"] != false || l["error"] != "" {
		t.Errorf("big-answer: %v", l)
	}
}
