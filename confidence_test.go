package nl2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
)

// TestConfidenceConstantQuery: a model that answers a question about two
// tables with SELECT 1 is not answered with confidence.
func TestConfidenceConstantQuery(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT 1") })
	res, err := eng.Ask(context.Background(), "How many employees are in each department?")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SELECT 1: confidence %.3f, %s, reasons %q", res.Confidence, res.Verdict, res.Reasons)
	if res.Verdict != nl2sql.VerdictUncertain && res.Verdict != nl2sql.VerdictAbstained {
		t.Errorf("SELECT 1: verdict %q, confidence %.2f, want uncertain or abstained", res.Verdict, res.Confidence)
	}
	if !hasReason(res.Reasons, "reads no table") {
		t.Errorf("SELECT 1: reasons %q, want one saying it reads no table", res.Reasons)
	}
	// With a minimum above its confidence, Ask abstains: ErrLowConfidence
	// (an ErrNoAnswer), the query not run, the reasons kept.
	res, err = eng.Ask(context.Background(), "How many employees are in each department?", nl2sql.MinConfidence(res.Confidence+0.01))
	if !errors.Is(err, nl2sql.ErrLowConfidence) || !errors.Is(err, nl2sql.ErrNoAnswer) {
		t.Fatalf("abstain: err %v, want ErrLowConfidence and ErrNoAnswer", err)
	}
	var ne *nl2sql.Error
	if !errors.As(err, &ne) || ne.Code != "low_confidence" || res.Verdict != nl2sql.VerdictAbstained || res.Rows != nil || len(res.Reasons) == 0 || res.Error == nil {
		t.Errorf("abstain: code %v, verdict %q, rows %v, reasons %q, error %+v", ne, res.Verdict, res.Rows, res.Reasons, res.Error)
	}
}

// TestConfidenceWrongQuestion: "Top 5 customers by revenue in 2024"
// answered with an employee count is uncertain, and the reasons name the
// mismatch: what the query reads, and the shape asked for.
func TestConfidenceWrongQuestion(t *testing.T) {
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced("SELECT count(*) FROM employees") })
	res, err := eng.Ask(context.Background(), "Top 5 customers by revenue in 2024")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("employee count: confidence %.3f, %s, reasons %q", res.Confidence, res.Verdict, res.Reasons)
	if res.Verdict != nl2sql.VerdictUncertain || res.Confidence >= nl2sql.DefaultUncertainBelow {
		t.Errorf("employee count: verdict %q, confidence %.2f, want uncertain", res.Verdict, res.Confidence)
	}
	for _, want := range []string{"employees", "customers", "5 rows", "one count", "2024"} {
		if !hasReason(res.Reasons, want) {
			t.Errorf("employee count: reasons %q, want one naming %q", res.Reasons, want)
		}
	}
	// The right query for the question is answered with more confidence.
	right := `SELECT c.customer_name, sum(o.total_amount) AS revenue FROM customers c
		JOIN sales_orders o ON o.customer_id = c.customer_id
		WHERE o.order_date >= DATE '2024-01-01' AND o.order_date < DATE '2025-01-01'
		GROUP BY c.customer_name ORDER BY revenue DESC LIMIT 5`
	eng2, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply { return fenced(right) })
	res2, err := eng2.Ask(context.Background(), "Top 5 customers by revenue in 2024")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("right query: confidence %.3f, %s, reasons %q", res2.Confidence, res2.Verdict, res2.Reasons)
	if res2.Confidence <= res.Confidence {
		t.Errorf("right query: confidence %.2f (reasons %q), not above the employee count's %.2f", res2.Confidence, res2.Reasons, res.Confidence)
	}
}

// TestConfidenceAlternatives: when the samples split between two
// readings, an uncertain answer lists the other one with a question that
// tells them apart.
func TestConfidenceAlternatives(t *testing.T) {
	script := func(n int, r *llmfake.Request) llmfake.Reply {
		if *r.Temperature == 0 {
			return fenced("SELECT so_id FROM sales_orders ORDER BY order_date DESC LIMIT 3")
		}
		return fenced("SELECT so_id FROM sales_orders ORDER BY requested_ship_date DESC NULLS LAST LIMIT 3")
	}
	eng, _ := engine(t, script, nl2sql.WithK(2, 2, 2), nl2sql.WithUncertainBelow(1.01))
	res, err := eng.Ask(context.Background(), "Which are the three latest orders?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != nl2sql.VerdictUncertain || len(res.Alternatives) != 1 {
		t.Fatalf("verdict %q, alternatives %+v, want uncertain with one alternative", res.Verdict, res.Alternatives)
	}
	t.Logf("alternatives: confidence %.3f, clarify %q, reasons %q", res.Confidence, res.Clarify, res.Reasons)
	alt := res.Alternatives[0]
	if alt.SQL == res.SQL || alt.Support <= 0 || alt.Description == "" || len(alt.Rows) == 0 {
		t.Errorf("alternative %+v", alt)
	}
	if !strings.Contains(res.Clarify, "order date") || !strings.Contains(res.Clarify, "requested ship date") || !strings.HasSuffix(res.Clarify, "?") {
		t.Errorf("clarify %q, want a question naming order date and ship date", res.Clarify)
	}
}

func hasReason(reasons []string, word string) bool {
	for _, r := range reasons {
		if strings.Contains(r, word) {
			return true
		}
	}
	return false
}

// TestConfidenceLoneRun: an answer that is the only candidate (one
// sample, Pick of one query) is run before it is judged, so that no rows,
// or rows that come back twice, count in its confidence and its reasons,
// as they do for candidates compared with others.
func TestConfidenceLoneRun(t *testing.T) {
	ctx := context.Background()
	eng, _ := engine(t, func(int, *llmfake.Request) llmfake.Reply {
		return fenced("SELECT first_name, last_name FROM employees WHERE hire_date < '1901-01-01'")
	})
	res, err := eng.Ask(ctx, "Which employees were hired before 1901?")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 0 || !hasReason(res.Reasons, "returns no rows") || res.Signals == nil || !res.Signals.Empty {
		t.Errorf("no rows: %d rows, reasons %q, signals %+v; want the empty result among the reasons", len(res.Rows), res.Reasons, res.Signals)
	}
	pr, err := eng.Pick(ctx, "List the departments of the employees", []string{"SELECT dept_id FROM employees"})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Signals == nil || !pr.Signals.Duplicates || pr.Signals.Empty || !hasReason(pr.Reasons, "more than once") {
		t.Errorf("repeated rows: signals %+v, reasons %q; want the repeats among the reasons", pr.Signals, pr.Reasons)
	}
	pr, err = eng.Pick(ctx, "List the departments of the employees", []string{"SELECT DISTINCT dept_id FROM employees"})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Signals == nil || pr.Signals.Duplicates || pr.Signals.Empty || pr.Signals.Compared {
		t.Errorf("distinct rows: signals %+v; want neither empty nor repeated, and nothing compared", pr.Signals)
	}
}
