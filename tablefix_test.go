package nl2sql_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// A misspelt table is corrected before the table policy's refusal is final,
// only to a table of the request's scope, and the refusal stays when
// nothing fits or the name is another schema's table.
func TestTableNamesBeforePolicy(t *testing.T) {
	ctx := context.Background()
	single, err := nl2sql.New(pgtest.Pool(t, erptest.Single(t)))
	if err != nil {
		t.Fatal(err)
	}
	divs, err := nl2sql.New(pgtest.Pool(t, erptest.Divisions(t, 2)), nl2sql.WithScope("div_02"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		eng    *nl2sql.Engine
		sql    string
		want   string // sql_out; "" when it must stay refused
		tables []string
	}{
		{"edit distance", single, "SELECT count(*) FROM custmers", "SELECT count(*) FROM customers", nil},
		{"missing letter", single, "SELECT count(*) FROM employes", "SELECT count(*) FROM employees", nil},
		{"singular", single, "SELECT count(*) FROM employee", "SELECT count(*) FROM employees", nil},
		{"quoted", single, `SELECT count(*) FROM "custmers"`, "SELECT count(*) FROM customers", nil},
		{"alias kept", single, "SELECT c.customer_id FROM custmers c WHERE c.customer_id < 3", "SELECT c.customer_id FROM customers c WHERE c.customer_id < 3", nil},
		{"nothing close", single, "SELECT count(*) FROM xyzzy_plugh", "", nil},
		{"scoped", divs, "SELECT count(*) FROM custmers", "SELECT count(*) FROM customers", []string{"div_02.customers"}},
		{"scoped, own schema named", divs, "SELECT count(*) FROM div_02.custmers", "SELECT count(*) FROM customers", []string{"div_02.customers"}},
		{"another tenant's misspelt table", divs, "SELECT count(*) FROM div_01.custmers", "", nil},
		{"another tenant's table", divs, "SELECT count(*) FROM div_01.customers", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.eng.Repair(ctx, c.sql)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if r.Executes || r.SQLState != "V012" {
					t.Errorf("%s: executes %v, code %q, sql_out %q; want V012", c.sql, r.Executes, r.SQLState, r.SQLOut)
				}
				return
			}
			if !r.Executes || r.SQLOut != c.want || !slices.Contains(r.Rules, "42P01.fuzzy_table") {
				t.Errorf("%s: executes %v, sql_out %q, rules %v, %s %s; want %q", c.sql, r.Executes, r.SQLOut, r.Rules, r.SQLState, r.Message, c.want)
			}
			if c.tables != nil {
				res, err := c.eng.Run(ctx, r.SQLOut)
				if err != nil || !slices.Equal(res.Tables, c.tables) {
					t.Errorf("run %s: tables %v, %v; want %v", r.SQLOut, res.Tables, err, c.tables)
				}
			}
		})
	}
}

// A filter on a column that does not exist whose value names the request's
// own scope is dropped (the scope already applies); the same filter naming
// another schema, or in an unscoped request, is not.
func TestScopeFilterThroughEngine(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t, erptest.Divisions(t, 2))
	scoped, err := nl2sql.New(pool, nl2sql.WithScope("div_02"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scoped.Repair(ctx, "SELECT count(*) FROM employees e WHERE e.division = 'div_02'")
	if err != nil || !r.Executes || !slices.Contains(r.Rules, "42703.scope_filter") {
		t.Errorf("scoped: %+v %v", r, err)
	}
	r, err = scoped.Repair(ctx, "SELECT count(*) FROM employees e WHERE e.division = 'div_01'")
	if err != nil || r.Executes {
		t.Errorf("another division's name dropped: %+v %v", r, err)
	}
}
