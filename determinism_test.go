package nl2sql_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestAgreementIgnoresTruncatedResults: execution-result agreement reads at
// most 2,000 rows of each candidate; when a result is cut there, the rows
// it got are whichever the server sent first (a parallel or synchronized
// scan sends others on the next run), so a cut result is not compared.
// Before, the first rows of two unordered results cut at the cap counted
// as the same answer.
func TestAgreementIgnoresTruncatedResults(t *testing.T) {
	rec := &inputRecorder{}
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithScorer(rec), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Pick(context.Background(), "List the employees", []string{
		"SELECT e.emp_id, d.dept_id FROM employees e, departments d",            // 14,000 rows: cut at 2,000
		"SELECT e.emp_id, d.dept_id FROM employees e, departments d WHERE true", // the same, cut at 2,000
		"SELECT dept_id FROM departments",                                       // 14 rows
		"SELECT d.dept_id FROM departments d",                                   // the same 14 rows
	})
	if err != nil || res.Chosen < 0 {
		t.Fatalf("Pick = %+v, %v", res, err)
	}
	var agreement []float64
	for _, c := range rec.in.Candidates {
		agreement = append(agreement, c.Agreement)
	}
	if want := []float64{-1, -1, 1, 1}; !slices.Equal(agreement, want) {
		t.Errorf("agreement = %v, want %v", agreement, want)
	}
}

// contexts returns, per exam question, what a fresh Engine shows the
// model: the tables with their scores and reasons, the links, the join
// plan and the prompt, as JSON.
func contexts(t *testing.T, pool nl2sql.DB, qs []erp.Question) []string {
	t.Helper()
	eng, err := nl2sql.New(pool, nl2sql.WithModules(erp.Modules()))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, q := range qs {
		cx, err := eng.SchemaContext(context.Background(), q.Question, nl2sql.Evidence(q.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		cx.Timings = nil
		b, err := json.Marshal(cx)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestContextSameBeforeAndAfterAnalyze: the context of every exam question
// is the same from two Engines, the first built before ANALYZE (as right
// after a load, before autovacuum runs) and the second after it. Before,
// the value index took values from pg_stats in another order than from its
// own queries, which changed the example values in every prompt, and the
// retrieved tables of some questions.
func TestContextSameBeforeAndAfterAnalyze(t *testing.T) {
	qs, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	dsn := erptest.Single(t)
	pool := pgtest.Pool(t, dsn)
	// The template may have been analyzed by autovacuum: start without statistics.
	pgtest.Exec(t, dsn, "DELETE FROM pg_catalog.pg_statistic")
	before := contexts(t, pool, qs)
	pgtest.Exec(t, dsn, "ANALYZE")
	after := contexts(t, pool, qs)
	again := contexts(t, pool, qs)
	diff := 0
	for i, q := range qs {
		if before[i] != after[i] {
			diff++
			if diff <= 3 {
				t.Errorf("%s: the context changed with ANALYZE:\nbefore %s\nafter  %s", q.QID, before[i], after[i])
			}
		}
		if after[i] != again[i] {
			t.Errorf("%s: two Engines on the same database disagree:\n%s\n%s", q.QID, after[i], again[i])
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d contexts changed with ANALYZE", diff, len(qs))
	}
}

// TestPickDeterministic: two Engines score and repair the same candidates
// alike, to the digit: the chosen one, every score, the repairs applied.
func TestPickDeterministic(t *testing.T) {
	qs, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	pool := pgtest.Pool(t, erptest.Single(t))
	run := func() []string {
		eng, err := nl2sql.New(pool, nl2sql.WithModules(erp.Modules()))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, q := range qs[:20] {
			res, err := eng.Pick(context.Background(), q.Question, []string{
				q.GoldSQL,
				"SELECT `status`, count(*) FROM employees GROUP BY 1 LIMIT 0,5", // MySQL dialect
				"SELECT emp_nam FROM employees",                                 // misspelt column: repaired
				"SELECT * FROM employees",
				"SELECT count(*) FROM departments",
			}, nl2sql.Evidence(q.Evidence))
			b, _ := json.Marshal(res)
			out = append(out, string(b)+" "+errString(err))
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("%s: two Engines picked differently:\n%s\n%s", qs[i].QID, a[i], b[i])
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
