package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestAskVerdicts: an uncertain answer is printed with a visible caveat
// and its reasons (exit 0); below --min-confidence ask abstains with exit
// status 3 and does not run the query; a confident answer has no caveat.
func TestAskVerdicts(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_LLM", "")
	count := llmfake.New(t, func(int, *llmfake.Request) llmfake.Reply {
		return llmfake.Reply{Content: "```sql\nSELECT count(*) FROM employees\n```"}
	})
	ask := func(args ...string) (int, string, string) {
		return cli(t, append([]string{"ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", count.BaseURL()}, args...)...)
	}
	code, out, errs := ask("Top 5 customers by revenue in 2024")
	if code != 0 || !strings.HasPrefix(out, "-- UNCERTAIN (confidence ") || !strings.Contains(out, "--   the query reads employees; the question asks about customers") ||
		!strings.Contains(out, ", UNCERTAIN)") {
		t.Errorf("uncertain: exit %d %s\n%s", code, errs, out)
	}
	code, out, errs = ask("--min-confidence", "0.5", "Top 5 customers by revenue in 2024")
	if code != exitAbstained || !strings.HasPrefix(out, "-- ABSTAINED (confidence ") || !strings.Contains(out, "-- not run:\nSELECT count(*) FROM employees") ||
		strings.Contains(out, "(1 rows") || !strings.Contains(errs, "below the minimum") {
		t.Errorf("abstained: exit %d %s\n%s", code, errs, out)
	}
	code, out, _ = ask("--min-confidence", "0.5", "--json", "Top 5 customers by revenue in 2024")
	if m := decode(t, out); code != exitAbstained || m["status"] != "abstained" || m["error"].(map[string]any)["code"] != "low_confidence" || m["rows"] != nil {
		t.Errorf("abstained JSON: exit %d %v", code, m)
	}
	code, out, _ = ask("How many employees are there?")
	if code != 0 || strings.Contains(out, "UNCERTAIN") || strings.Contains(out, "ABSTAINED") {
		t.Errorf("answered: exit %d\n%s", code, out)
	}
}

// TestCalibrateCommand: an exam's answers refit the calibrator, which
// --calibrator loads; a file that is no calibrator is a usage error.
func TestCalibrateCommand(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_LLM", "")
	// Right for employees, wrong (an employee count) for the rest.
	srv := llmfake.New(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		if strings.Contains(r.Messages[len(r.Messages)-1].Content, "How many departments") {
			return llmfake.Reply{Content: "```sql\nSELECT count(*) FROM departments\n```"}
		}
		return llmfake.Reply{Content: "```sql\nSELECT count(*) FROM employees\n```"}
	})
	exam := writeFile(t, "exam.csv", "qid,question,gold_sql\n"+
		"q1,How many employees are there?,SELECT count(*) FROM employees\n"+
		"q2,How many departments are there?,SELECT count(*) FROM departments\n"+
		"q3,How many customers are there?,SELECT count(*) FROM customers\n"+
		"q4,How many suppliers are there?,SELECT count(*) FROM suppliers\n")
	answers := filepath.Join(t.TempDir(), "answers.jsonl")
	code, out, errs := cli(t, "exam", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--exam", exam, "--out", answers)
	if code != 0 {
		t.Fatalf("exam: exit %d %s", code, errs)
	}
	sum := decode(t, out)
	cal, _ := sum["calibration"].(map[string]any)
	if cal == nil || cal["answers"] != 4.0 || cal["right"] != 2.0 || cal["auroc"] == nil || cal["ece"] == nil || len(cal["thresholds"].([]any)) != 5 || len(cal["reliability"].([]any)) == 0 {
		t.Fatalf("exam calibration = %v", sum["calibration"])
	}
	calibrator := filepath.Join(t.TempDir(), "calibrator.json")
	code, out, errs = cli(t, "calibrate", "--answers", answers, "--out", calibrator)
	if code != 0 {
		t.Fatalf("calibrate: exit %d %s", code, errs)
	}
	var c struct {
		Source  string             `json:"source"`
		Weights map[string]float64 `json:"weights"`
	}
	b, err := os.ReadFile(calibrator)
	if err != nil || json.Unmarshal(b, &c) != nil || !strings.Contains(c.Source, "4 answers") || len(c.Weights) == 0 {
		t.Fatalf("calibrator file: %v %s", err, b)
	}
	if m := decode(t, out); m["examples"] != 4.0 || m["after"].(map[string]any)["auroc"].(float64) < 0.99 {
		t.Errorf("calibrate summary = %v", m)
	}
	code, out, errs = cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--calibrator", calibrator, "--json", "How many customers are there?")
	if m := decode(t, out); code != 0 || m["confidence"].(float64) >= 0.5 {
		t.Errorf("ask --calibrator: exit %d %s %v", code, errs, m["confidence"])
	}
	if code, _, errs := cli(t, "ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--calibrator", exam, "How many?"); code != 2 || !strings.Contains(errs, "--calibrator") {
		t.Errorf("bad calibrator: exit %d %s", code, errs)
	}
	if code, _, errs := cli(t, "calibrate", "--answers", answers); code != 2 || !strings.Contains(errs, "--out") {
		t.Errorf("calibrate without --out: exit %d %s", code, errs)
	}
}
