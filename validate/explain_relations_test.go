package validate_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestExplainRelations: the explain result names the relations the
// server's plan scans, each once and in plan order, in their own schemas;
// a view is its base tables (whatever the spelling that names it); a plan
// that scans none has an empty list, a candidate without a plan none.
func TestExplainRelations(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.FromTemplate(t, "validate-relations-v1", func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `CREATE SCHEMA "Sales";
CREATE TABLE "Sales".orders (id int PRIMARY KEY, customer_id int, amount numeric);
CREATE TABLE public.customers (id int PRIMARY KEY, name text);
CREATE VIEW public.big_orders AS SELECT o.id, c.name FROM "Sales".orders o JOIN public.customers c ON c.id = o.customer_id WHERE o.amount > 100;`)
		return err
	}))
	v := validate.New(validate.WithSearchPath("public", "Sales"))
	type rel = validate.PlanRelation
	orders, customers := rel{Schema: "Sales", Name: "orders"}, rel{Schema: "public", Name: "customers"}
	for _, c := range []struct {
		sql  string
		want []rel // nil: no plan
	}{
		{"SELECT o.amount FROM orders o JOIN customers c ON c.id = o.customer_id JOIN customers c2 ON c2.id = o.id",
			[]rel{orders, customers}},
		{"SELECT c.name FROM customers c WHERE EXISTS (SELECT FROM big_orders b WHERE b.name = c.name)", []rel{orders, customers}},
		{`SELECT * FROM "Sales"."orders"`, []rel{orders}},
		{`SELECT * FROM U&"big\005forders"`, []rel{orders, customers}},
		{"WITH b AS (SELECT * FROM public.big_orders) SELECT (SELECT count(*) FROM b) FROM (VALUES (1)) v(x)", []rel{orders, customers}},
		{"SELECT c.name, n.count FROM customers c, LATERAL (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) n", []rel{orders, customers}},
		{"SELECT 1", []rel{}},
		{"SELECT pg_sleep(10)", nil},
	} {
		r := v.Explain(context.Background(), pool, []string{c.sql})[0]
		got := slices.Clone(r.Relations)
		slices.SortFunc(got, cmpRelation)
		slices.SortFunc(c.want, cmpRelation)
		if (c.want == nil) != (r.Relations == nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: relations %v (nil %v), want %v (err %v)", c.sql, r.Relations, r.Relations == nil, c.want, r.Err)
		}
		if c.want == nil {
			continue
		}
		if r.Plan == nil {
			t.Errorf("%s: no plan: %v", c.sql, r.Err)
		} else if walked := walkRelations(t, r.Plan); !slices.Equal(r.Relations, walked) {
			t.Errorf("%s: relations %v, the plan walked in order %v", c.sql, r.Relations, walked)
		}
	}
}

func cmpRelation(a, b validate.PlanRelation) int {
	return strings.Compare(a.Schema+"."+a.Name, b.Schema+"."+b.Name)
}

// walkRelations reads a JSON plan's relations the plain way: every node
// under "Plan" and "Plans", a node before its children, each relation once.
func walkRelations(t *testing.T, plan []byte) []validate.PlanRelation {
	var root any
	if err := json.Unmarshal(plan, &root); err != nil {
		t.Fatal(err)
	}
	out := []validate.PlanRelation{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, c := range x {
				walk(c)
			}
		case map[string]any:
			if rel, _ := x["Relation Name"].(string); rel != "" {
				sch, _ := x["Schema"].(string)
				if r := (validate.PlanRelation{Schema: sch, Name: rel}); !slices.Contains(out, r) {
					out = append(out, r)
				}
			}
			walk(x["Plan"])
			walk(x["Plans"])
		}
	}
	walk(root)
	return out
}
