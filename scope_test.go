package nl2sql_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/internal/scopetest"
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

// TestScopeCatalogShowsOnlyTheScope: an engine scoped to div_01 that was
// loaded from an index of the whole database (both tenants, their
// knowledge) lists through ScopeCatalog and ScopeKnowledge nothing of
// div_02: no table, schema, enum type or label, view definition, comment,
// doc, term or example naming it in any spelling (quoted, upper case,
// nested in a sublink or a CTE). Scope("div_02") still sees its own.
func TestScopeCatalogShowsOnlyTheScope(t *testing.T) {
	ctx := context.Background()
	eng, dsn := scopetest.Engine(t)
	cat, err := eng.ScopeCatalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if whole, _ := eng.Catalog(ctx); len(cat.Tables) >= len(whole.Tables) || cat.Lookup("div_01", "employees") == nil || cat.Lookup("public", "currencies") == nil {
		t.Fatalf("scoped catalog: %d of %d tables, div_01.employees and public.currencies expected", len(cat.Tables), len(whole.Tables))
	}
	b, _ := json.Marshal(cat)
	if leak := scopetest.Leak(string(b)); leak != "" {
		t.Errorf("div_01's catalog: %s", leak)
	}
	ks, err := eng.ScopeKnowledge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(ks)
	if leak := scopetest.Leak(string(b)); len(ks) != 2 || leak != "" {
		t.Errorf("div_01's knowledge (%d items, want its doc and example): %s", len(ks), leak)
	}
	// An unscoped engine asked for div_02 sees div_02's, not div_01's.
	full, err := nl2sql.New(pgtest.Pool(t, dsn), nl2sql.WithLLM(nil))
	if err != nil {
		t.Fatal(err)
	}
	other, err := full.ScopeCatalog(ctx, nl2sql.Scope("div_02"))
	if err != nil || other.Lookup("div_02", "secret_plans") == nil || other.Enums["div_02.tenant_secret"] == nil || other.Lookup("div_01", "employees") != nil {
		t.Errorf("div_02's catalog: %v", err)
	}
	if _, err := eng.ScopeCatalog(ctx, nl2sql.Scope("div_3")); !errors.Is(err, nl2sql.ErrConfig) {
		t.Errorf("unknown scope: %v", err)
	}
}
