package nl2sql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestCapsAreReported: a MaxRows over the engine's cap is capped and the
// result says so; a cut result says which cap cut it.
func TestCapsAreReported(t *testing.T) {
	eng, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)), nl2sql.WithMaxRows(4))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := eng.Run(ctx, "SELECT emp_id FROM employees ORDER BY emp_id", nl2sql.MaxRows(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || res.RowCap != 4 || !res.Truncated || res.TruncatedBy != execute.CapRows {
		t.Fatalf("rows %d cap %d truncated %v by %q", len(res.Rows), res.RowCap, res.Truncated, res.TruncatedBy)
	}
	if len(res.Notes) != 2 || !strings.Contains(res.Notes[0], "100 rows were asked for; the engine's row cap is 4") ||
		!strings.Contains(res.Notes[1], "row cap reached") {
		t.Errorf("notes %q", res.Notes)
	}
	// Under the cap: no note about it, and an untruncated result has none.
	res, err = eng.Run(ctx, "SELECT emp_id FROM employees ORDER BY emp_id LIMIT 2", nl2sql.MaxRows(3))
	if err != nil || res.Truncated || res.TruncatedBy != "" || len(res.Notes) != 0 || res.RowCap != 3 {
		t.Errorf("small result: %v truncated %v by %q notes %q cap %d", err, res.Truncated, res.TruncatedBy, res.Notes, res.RowCap)
	}
}
