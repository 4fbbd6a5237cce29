package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/llmfake"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/spider"
)

// pickLine is a line pick writes.
type pickLine struct {
	ID           any      `json:"id"`
	SQL          string   `json:"sql"`
	Confidence   *float64 `json:"confidence"`
	Status       string   `json:"status"`
	Reasons      []string `json:"reasons"`
	Alternatives []struct {
		SQL     string  `json:"sql"`
		Support float64 `json:"support"`
	} `json:"alternatives"`
	Clarify string `json:"clarify"`
	Error   any    `json:"error"`
}

// pickLines runs pick on lines ({"id","question","candidates"}) and reads
// what it writes.
func pickLines(t *testing.T, dsn string, lines []map[string]any) []pickLine {
	t.Helper()
	var in strings.Builder
	for _, l := range lines {
		b, _ := json.Marshal(l)
		in.Write(append(b, '\n'))
	}
	file := filepath.Join(t.TempDir(), "pick.jsonl")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli(t, "pick", "--dsn", dsn, "--jsonl", file)
	if code != 0 {
		t.Fatalf("pick: exit %d %s", code, errs)
	}
	var got []pickLine
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var p pickLine
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("pick line %q: %v", sc.Text(), err)
		}
		got = append(got, p)
	}
	if len(got) != len(lines) {
		t.Fatalf("pick wrote %d lines for %d", len(got), len(lines))
	}
	return got
}

// checkVerdict fails t when a pick's status does not follow from its
// confidence: answered at or above the uncertain threshold, uncertain
// below (pick has no minimum: it never abstains).
func checkVerdict(t *testing.T, p pickLine) {
	t.Helper()
	if p.Confidence == nil || *p.Confidence < 0 || *p.Confidence > 1 {
		t.Errorf("%v: confidence %v", p.ID, p.Confidence)
		return
	}
	want := "answered"
	if *p.Confidence < nl2sql.DefaultUncertainBelow {
		want = "uncertain"
	}
	if p.Status != want {
		t.Errorf("%v: status %q with confidence %.3f, want %q", p.ID, p.Status, *p.Confidence, want)
	}
}

// TestPickVerdicts: pick scores SQL written by other systems with the
// same calibrated confidence, status and reasons as an answer: the
// issue's employee count for the top customers and SELECT 1 for a
// question about two tables are uncertain and say why; the right query
// for the top customers is more likely right than the employee count.
func TestPickVerdicts(t *testing.T) {
	dsn := erptest.Single(t)
	right := "SELECT c.customer_name, sum(o.total_amount) AS revenue FROM customers c JOIN sales_orders o ON o.customer_id = c.customer_id " +
		"WHERE o.order_date >= DATE '2024-01-01' AND o.order_date < DATE '2025-01-01' GROUP BY c.customer_name ORDER BY revenue DESC LIMIT 5"
	got := pickLines(t, dsn, []map[string]any{
		{"id": "count", "question": "Top 5 customers by revenue in 2024", "candidates": []string{"SELECT count(*) FROM employees"}},
		{"id": "right", "question": "Top 5 customers by revenue in 2024", "candidates": []string{right}},
		{"id": "one", "question": "How many employees are in each department?", "candidates": []string{"SELECT 1"}},
	})
	for _, p := range got {
		checkVerdict(t, p)
		t.Logf("%v: confidence %.3f %s %q", p.ID, *p.Confidence, p.Status, p.Reasons)
	}
	count, rightPick, one := got[0], got[1], got[2]
	if count.Status != "uncertain" || !hasReason(count.Reasons, "the query reads employees", "customers") || !hasReason(count.Reasons, "5 rows", "one count") {
		t.Errorf("employee count: status %q, reasons %q", count.Status, count.Reasons)
	}
	if one.Status != "uncertain" || !hasReason(one.Reasons, "reads no table") {
		t.Errorf("SELECT 1: status %q, reasons %q", one.Status, one.Reasons)
	}
	if *rightPick.Confidence <= *count.Confidence {
		t.Errorf("the right query's confidence %.3f is not above the employee count's %.3f", *rightPick.Confidence, *count.Confidence)
	}
}

func hasReason(reasons []string, words ...string) bool {
	for _, r := range reasons {
		all := true
		for _, w := range words {
			all = all && strings.Contains(r, w)
		}
		if all {
			return true
		}
	}
	return false
}

// TestPickSpiderPools: the pick lines of one spider-pools database (the
// eight systems' SQL for each question) carry a confidence in 0..1 and the
// status it implies, uncertain ones their reasons; and the same
// candidates given to another question of the database (all systems
// agree, on the wrong question) are less likely right by the engine's own
// account. Skipped without the dataset.
func TestPickSpiderPools(t *testing.T) {
	if _, ok := spider.Dir(); !ok {
		t.Skip("spider-pools dataset not found (set " + spider.EnvDir + ")")
	}
	all, err := spider.Pools()
	if err != nil {
		t.Fatal(err)
	}
	const db = "sp_concert_singer"
	var pools []spider.Pool
	for _, p := range all {
		if p.Database() == db {
			pools = append(pools, p)
		}
	}
	dsn := pgtest.FromTemplate(t, "spider-"+db+"-v2", func(ctx context.Context, conn *pgx.Conn) error {
		return spider.LoadDatabase(ctx, conn, db)
	})
	var lines []map[string]any
	for i, p := range pools {
		lines = append(lines, map[string]any{"id": p.ID, "question": p.Question, "candidates": p.Candidates})
		// Another question's candidates, half the pools away.
		other := pools[(i+len(pools)/2)%len(pools)]
		lines = append(lines, map[string]any{"id": "shuffled " + p.ID, "question": p.Question, "candidates": other.Candidates})
	}
	got := pickLines(t, dsn, lines)
	var own, shuffled []float64
	silent := 0
	for i, p := range got {
		if p.Error != nil {
			continue // no candidate ran: nothing was picked
		}
		checkVerdict(t, p)
		if p.Status == "uncertain" && len(p.Reasons) == 0 {
			silent++
		}
		if i%2 == 0 {
			own = append(own, *p.Confidence)
		} else {
			shuffled = append(shuffled, *p.Confidence)
		}
	}
	mOwn, mShuffled := mean(own), mean(shuffled)
	t.Logf("%s: %d questions; mean confidence %.3f (own candidates, %d picked), %.3f (another question's, %d picked); %d uncertain without a reason",
		db, len(pools), mOwn, len(own), mShuffled, len(shuffled), silent)
	if len(own) < len(pools)*3/4 {
		t.Errorf("only %d of %d questions picked", len(own), len(pools))
	}
	if mShuffled >= mOwn {
		t.Errorf("another question's candidates get a mean confidence of %.3f, not below the own candidates' %.3f", mShuffled, mOwn)
	}
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TestAskAlternatives: when the samples split, ask prints the clarifying
// question and the other answer under the chosen one; an abstention
// prints them too, after the query it did not run.
func TestAskAlternatives(t *testing.T) {
	dsn := erptest.Single(t)
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("NL2SQL_LLM", "")
	const byOrder, byShip = "SELECT so_id FROM sales_orders ORDER BY order_date DESC LIMIT 3", "SELECT so_id FROM sales_orders ORDER BY requested_ship_date DESC NULLS LAST LIMIT 3"
	srv := llmfake.New(t, func(_ int, r *llmfake.Request) llmfake.Reply {
		if r.Temperature != nil && *r.Temperature > 0 {
			return llmfake.Reply{Content: "```sql\n" + byShip + "\n```"}
		}
		return llmfake.Reply{Content: "```sql\n" + byOrder + "\n```"}
	})
	q := "Top 3 sales orders by date in 2024, the latest first"
	ask := func(args ...string) (int, string, string) {
		return cli(t, append([]string{"ask", "--dsn", dsn, "--llm", "openai:fake", "--llm-url", srv.BaseURL(), "--uncertain-below", "1.01"}, append(args, q)...)...)
	}
	code, out, errs := ask()
	t.Logf("uncertain:\n%s", out)
	if code != 0 || !strings.HasPrefix(out, "-- UNCERTAIN (confidence ") || !strings.Contains(out, "-- alternative 1 (") ||
		!strings.Contains(out, "-- By ") || strings.Count(out, byOrder)+strings.Count(out, byShip) != 2 {
		t.Errorf("uncertain: exit %d %s\n%s", code, errs, out)
	}
	code, out, errs = ask("--min-confidence", "0.99")
	t.Logf("abstained:\n%s", out)
	notRun := strings.Index(out, "-- not run:\n")
	alt := strings.Index(out, "-- alternative 1 (")
	if code != exitAbstained || !strings.HasPrefix(out, "-- ABSTAINED (confidence ") || notRun < 0 || alt < notRun || strings.Contains(out, "rows, confidence") {
		t.Errorf("abstained: exit %d %s\n%s", code, errs, out)
	}
	code, out, _ = ask("--min-confidence", "0.99", "--json")
	var m struct {
		Status       string `json:"status"`
		Alternatives []any  `json:"alternatives"`
		Clarify      string `json:"clarify"`
		Rows         any    `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &m); code != exitAbstained || err != nil || m.Status != "abstained" || len(m.Alternatives) != 1 || m.Clarify == "" || m.Rows != nil {
		t.Errorf("abstained JSON: exit %d %v %s", code, err, fmt.Sprint(m))
	}
}
