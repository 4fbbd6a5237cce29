package nl2sql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestUnknownScope: a scope that names no schema of the database is an
// error (ErrConfig naming it) on every path, not an answer from the shared
// schemas alone; a real one still works.
func TestUnknownScope(t *testing.T) {
	ctx := context.Background()
	dsn := erptest.Divisions(t, 2)
	eng, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(nil))
	if err != nil {
		t.Fatal(err)
	}
	bad := nl2sql.Scope("div_3")
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, nl2sql.ErrConfig) || !strings.Contains(err.Error(), `"div_3"`) {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, err = eng.SchemaContext(ctx, "How many employees are there?", bad)
	check("Context", err)
	_, err = eng.Ask(ctx, "How many employees are there?", bad)
	check("Ask", err)
	_, err = eng.Check(ctx, "SELECT count(*) FROM employees", bad)
	check("Check", err)
	_, err = eng.Repair(ctx, "SELECT count(*) FROM employes", bad)
	check("Repair", err)
	_, err = eng.Run(ctx, "SELECT count(*) FROM employees", bad)
	check("Run", err)

	if res, err := eng.Run(ctx, "SELECT count(*) FROM employees", nl2sql.Scope("div_02")); err != nil || len(res.Rows) != 1 {
		t.Errorf("div_02: %v", err)
	}

	// The engine's own scope is checked when it prepares.
	eng2, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithScope("div_3"))
	if err != nil {
		t.Fatal(err)
	}
	err = eng2.Prepare(ctx)
	check("WithScope at Prepare", err)
}
