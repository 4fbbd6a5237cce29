package nl2sql_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/workload"
)

// TestWithWorkload: a join no key declares and no name suggests
// (orders.buyer -> clients.id) is planned once a workload made it.
func TestWithWorkload(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE clients (id int PRIMARY KEY, name text);
CREATE TABLE orders (id int PRIMARY KEY, buyer int, total numeric, placed date);
INSERT INTO clients VALUES (1, 'Acme'), (2, 'Globex');
INSERT INTO orders VALUES (1, 1, 10, '2024-01-02'), (2, 2, 20, '2024-02-03');`)
	pool := pgtest.Pool(t, dsn)
	want := plan.JoinEdge{From: "public.clients.id", To: "public.orders.buyer"}
	for _, learned := range []bool{false, true} {
		var opts []nl2sql.Option
		if learned {
			eng, err := nl2sql.New(pool)
			if err != nil {
				t.Fatal(err)
			}
			cat, err := eng.Catalog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			k := workload.Learn(cat, []workload.Statement{{SQL: "SELECT c.name, sum(o.total) FROM orders o JOIN clients c ON c.id = o.buyer GROUP BY 1", Calls: 30}})
			opts = append(opts, nl2sql.WithWorkload(k))
		}
		eng, err := nl2sql.New(pool, opts...)
		if err != nil {
			t.Fatal(err)
		}
		c, err := eng.SchemaContext(ctx, "What is the order total of each client name?")
		if err != nil {
			t.Fatal(err)
		}
		has := slices.ContainsFunc(c.Joins, func(e plan.JoinEdge) bool {
			return e == want || (e.From == want.To && e.To == want.From)
		})
		if has != learned {
			t.Errorf("learned %v: joins %v, skeleton %q", learned, c.Joins, c.Skeleton)
		}
	}
}
