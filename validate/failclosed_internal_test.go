package validate

import (
	"errors"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// TestValidateFailsClosed: a check that panics on a query (a bug) makes
// Validate refuse it with CodeRewrite, on both the one-parse path (LIMIT
// appended) and the deparse path (LIMIT lowered), and the next query is
// checked as usual.
func TestValidateFailsClosed(t *testing.T) {
	v := New(WithMaxRows(100))
	checkFault = func(tree *pg.ParseResult) {
		if strings.Contains(tree.String(), "boom") {
			var s []int
			_ = s[len(tree.Stmts)] // an index out of range, as a check's bug would
		}
	}
	defer func() { checkFault = nil }()
	for _, sql := range []string{"SELECT 'boom'", "SELECT 'boom' LIMIT 5000"} {
		res, err := v.Validate(sql)
		var ve *Error
		if res != nil || !errors.Is(err, ErrRejected) || !errors.As(err, &ve) || len(ve.Issues) == 0 || ve.Issues[len(ve.Issues)-1].Code != CodeRewrite {
			t.Fatalf("%s: %v, %v: want a rejection with %s", sql, res, err, CodeRewrite)
		}
		if !strings.Contains(err.Error(), "the validator failed on this query") {
			t.Errorf("%s: %v", sql, err)
		}
	}
	if res, err := v.Validate("SELECT 'fine'"); err != nil || res == nil {
		t.Fatalf("the next query: %v", err)
	}
}
