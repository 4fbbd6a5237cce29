package nl2sql_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// agreementRecorder is the DefaultScorer, remembering the agreement of each
// candidate it was given.
type agreementRecorder struct {
	mu        sync.Mutex
	agreement []float64
}

func (r *agreementRecorder) Score(ctx context.Context, in *nl2sql.ScoreInput) []float64 {
	r.mu.Lock()
	r.agreement = nil
	for _, c := range in.Candidates {
		r.agreement = append(r.agreement, c.Agreement)
	}
	r.mu.Unlock()
	return nl2sql.DefaultScorer{}.Score(ctx, in)
}

// TestAgreementIgnoresTruncatedResults: execution-result agreement reads at
// most 200 rows of each candidate; when a result is cut there, the rows it
// got are whichever the server sent first (a parallel or synchronized scan
// sends others on the next run), so a cut result is not compared. Before,
// the first 200 rows of two unordered 1,000-row results counted as the
// same answer.
func TestAgreementIgnoresTruncatedResults(t *testing.T) {
	rec := &agreementRecorder{}
	pool := pgtest.Pool(t, erptest.Single(t))
	eng, err := nl2sql.New(pool, nl2sql.WithScorer(rec), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Pick(context.Background(), "List the employees", []string{
		"SELECT emp_id FROM employees",            // 1,000 rows: cut at 200
		"SELECT emp_id FROM employees WHERE true", // the same, cut at 200
		"SELECT dept_id FROM departments",         // 14 rows
		"SELECT d.dept_id FROM departments d",     // the same 14 rows
	})
	if err != nil || res.Chosen < 0 {
		t.Fatalf("Pick = %+v, %v", res, err)
	}
	if want := []float64{-1, -1, 1, 1}; !slices.Equal(rec.agreement, want) {
		t.Errorf("agreement = %v, want %v", rec.agreement, want)
	}
}
