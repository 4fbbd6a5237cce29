package validate_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestExplainUsesSearchPath: the planner resolves unqualified names along
// the validator's search path, as the validator did (a division schema
// first, then public).
func TestExplainUsesSearchPath(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE SCHEMA "Div 1"; CREATE TABLE "Div 1".orders (id int); CREATE TABLE public.rates (id int)`)
	pool := pgtest.Pool(t, dsn)
	v := validate.New(validate.WithSearchPath("Div 1", "public"))
	res := v.Explain(context.Background(), pool, []string{"SELECT o.id FROM orders o JOIN rates r ON r.id = o.id"})
	if res[0].Err != nil {
		t.Fatalf("explain along the search path: %v", res[0].Err)
	}
	if v := res[0].Validation; v == nil || len(v.Tables) != 2 || v.Tables[0] != "Div 1.orders" {
		t.Errorf("Explain's validation result = %+v", v)
	}
	if rej := v.Explain(context.Background(), pool, []string{"SELECT pg_sleep(1)"}); rej[0].Validation != nil || rej[0].Err == nil {
		t.Errorf("rejected candidate: %+v", rej[0])
	}
	res = validate.New().Explain(context.Background(), pool, []string{"SELECT id FROM orders"})
	if res[0].SQLState != "42P01" {
		t.Errorf("public-only path should not see Div 1.orders: %+v", res[0])
	}
}
