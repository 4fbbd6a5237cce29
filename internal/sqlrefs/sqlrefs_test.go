package sqlrefs

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// cols makes columns of the given names.
func cols(names ...string) []schema.Column {
	var out []schema.Column
	for _, n := range names {
		out = append(out, schema.Column{Name: n})
	}
	return out
}

func cat() *schema.Catalog {
	return schema.NewCatalog(nil, []*schema.Table{
		{Schema: "public", Name: "customers", Columns: cols("id", "name", "city")},
		{Schema: "public", Name: "orders", Columns: cols("id", "customer_id", "total", "status")},
		{Schema: "public", Name: "lines", Columns: cols("order_id", "sku", "qty")},
		{Schema: "div_01", Name: "orders", Columns: cols("id", "customer_id", "amount")},
		{Schema: "public", Name: "products", Columns: cols("sku", "name")},
	}, nil)
}

func TestExtract(t *testing.T) {
	cases := []struct {
		sql    string
		path   []string
		tables []string
		cols   []string
		joins  []Edge
	}{
		{
			sql:    "SELECT c.name, sum(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name",
			tables: []string{"public.customers", "public.orders"},
			cols:   []string{"public.customers.id", "public.customers.name", "public.orders.customer_id", "public.orders.total"},
			joins:  []Edge{{"public.customers.id", "public.orders.customer_id"}},
		},
		{ // unqualified columns resolve to the table that has them; WHERE joins count
			sql:    "SELECT name, qty FROM products p, lines l WHERE p.sku = l.sku AND qty > 2",
			tables: []string{"public.lines", "public.products"},
			cols:   []string{"public.lines.qty", "public.lines.sku", "public.products.name", "public.products.sku"},
			joins:  []Edge{{"public.lines.sku", "public.products.sku"}},
		},
		{ // CTE shadows a table; its body's refs count; outer refs to the CTE do not
			sql:    "WITH orders AS (SELECT customer_id, amount FROM orders) SELECT count(*) FROM orders",
			path:   []string{"div_01", "public"},
			tables: []string{"div_01.orders"},
			cols:   []string{"div_01.orders.amount", "div_01.orders.customer_id"},
		},
		{ // USING, subquery in WHERE with correlation, set operation
			sql: `SELECT o.id FROM orders o JOIN lines USING (id) WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id AND c.city = 'Rome')
			      UNION SELECT order_id FROM lines`,
			tables: []string{"public.customers", "public.lines", "public.orders"},
			cols:   []string{"public.customers.city", "public.customers.id", "public.lines.order_id", "public.orders.customer_id", "public.orders.id"},
			joins:  []Edge{{"public.customers.id", "public.orders.customer_id"}},
		},
		{ // derived table: inner refs resolved, alias columns ignored
			sql:    "SELECT t.n FROM (SELECT status, count(*) AS n FROM orders GROUP BY status) t WHERE t.status = 'open'",
			tables: []string{"public.orders"},
			cols:   []string{"public.orders.status"},
		},
		{ // schema-qualified, unknown tables ignored
			sql:    "SELECT a.amount FROM div_01.orders a JOIN nowhere n ON n.x = a.id",
			tables: []string{"div_01.orders"},
			cols:   []string{"div_01.orders.amount", "div_01.orders.id"},
		},
	}
	for _, c := range cases {
		r, err := Extract(c.sql, cat(), c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if !reflect.DeepEqual(r.Tables, c.tables) {
			t.Errorf("%s\ntables %v\n  want %v", c.sql, r.Tables, c.tables)
		}
		if !reflect.DeepEqual(r.Columns, c.cols) {
			t.Errorf("%s\ncolumns %v\n   want %v", c.sql, r.Columns, c.cols)
		}
		if !reflect.DeepEqual(r.Joins, c.joins) {
			t.Errorf("%s\njoins %v\n want %v", c.sql, r.Joins, c.joins)
		}
	}
	if _, err := Extract("SELEC 1", cat(), nil); err == nil {
		t.Error("syntax error not reported")
	}
}

func TestExtractUnresolved(t *testing.T) {
	sql := "SELECT c.nickname, mileage, x.id, s.n FROM customers c JOIN orders ON orders.customer_id = c.id, (SELECT 1 AS n) s WHERE EXISTS (SELECT 1 FROM lines l WHERE l.colour = 'red' AND weight > 1) ORDER BY c.name, n"
	refs, err := Extract(sql, cat(), nil)
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) int { return strings.Index(sql, s) }
	want := []Unresolved{
		{Location: at("c.nickname"), Column: "c.nickname", Tables: []string{"public.customers"}},
		{Location: at("mileage"), Column: "mileage", Tables: []string{"public.customers", "public.orders"}},
		{Location: at("x.id"), Column: "x.id"}, // no FROM item x: no table
		{Location: at("l.colour"), Column: "l.colour", Tables: []string{"public.lines"}},
		// Innermost first, then the outer query's tables.
		{Location: at("weight"), Column: "weight", Tables: []string{"public.lines", "public.customers", "public.orders"}},
		// An output column named in ORDER BY is no column of a table either
		// (s.n, of a subquery, is not listed).
		{Location: strings.LastIndex(sql, "n"), Column: "n", Tables: []string{"public.customers", "public.orders"}},
	}
	if !reflect.DeepEqual(refs.Unresolved, want) {
		t.Errorf("unresolved:\n got %+v\nwant %+v", refs.Unresolved, want)
	}
}
