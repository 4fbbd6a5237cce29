package semantic_test

import (
	"fmt"
	"testing"

	"github.com/nl2sqlgo/nl2sql/semantic"
)

// erpModel is the demo ERP's shipped model, checked against its catalog.
func erpModel(t *testing.T) *semantic.Model {
	t.Helper()
	c := erpCatalog(t)
	m, err := semantic.Load("../examples/erp/semantic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(c, nil); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDeviationsOnMeaning: a query follows a measure's definition however
// it is spelt (aliases, qualification, quoting, case, unicode escapes,
// dollar quotes, pg_catalog, commuted terms, FILTER, CASE, WHERE, JOIN ON,
// CTEs and subqueries that narrow the table), and departs from it when it
// drops the filter, changes the aggregation or the expression, or reads
// another table, wherever the aggregate hides (a CTE, a sublink, a UNION
// branch, LATERAL).
func TestDeviationsOnMeaning(t *testing.T) {
	m := erpModel(t)
	c := erpCatalog(t)
	path := []string{"public"}
	follows := []string{
		`SELECT sum(total_amount) FROM sales_orders WHERE status <> 'Cancelled'`,
		`SELECT SUM(o.total_amount) AS revenue FROM public.sales_orders AS o WHERE o.status != 'Cancelled'`,
		`select sum("total_amount") from "public"."sales_orders" so where 'Cancelled' <> so."status"`,
		`SELECT pg_catalog.sum(U&"total_amount") FROM sales_orders WHERE status <> $$Cancelled$$`,
		`SELECT sum(total_amount) FROM sales_orders WHERE status <> 'Cancelled'::text`,
		`SELECT sum(total_amount) FROM sales_orders WHERE NOT (status = 'Cancelled')`,
		`SELECT sum(total_amount) FROM sales_orders WHERE status NOT IN ('Cancelled')`,
		`SELECT sum(total_amount) FILTER (WHERE status <> 'Cancelled') FROM sales_orders`,
		`SELECT sum(CASE WHEN status <> 'Cancelled' THEN total_amount ELSE 0 END) FROM sales_orders`,
		`SELECT c.segment, sum(o.total_amount) FROM customers c JOIN sales_orders o ON o.customer_id = c.customer_id AND o.status <> 'Cancelled' GROUP BY 1`,
		`SELECT sum(o.total_amount) FROM sales_orders o WHERE extract(year FROM o.order_date) = 2024 AND o.status <> 'Cancelled'`,
		`WITH valid AS (SELECT * FROM sales_orders WHERE status <> 'Cancelled') SELECT sum(v.total_amount) FROM valid v`,
		`WITH sales_orders AS (SELECT * FROM sales_orders WHERE status <> 'Cancelled') SELECT sum(total_amount) FROM sales_orders`,
		`WITH RECURSIVE sales_orders AS (SELECT * FROM public.sales_orders WHERE status <> 'Cancelled') SELECT sum(total_amount) FROM sales_orders`,
		`WITH a AS (SELECT * FROM sales_orders WHERE status <> 'Cancelled'), b AS (SELECT * FROM a) SELECT sum(total_amount) FROM b`,
		`WITH r AS (SELECT customer_id, sum(total_amount) AS rev FROM sales_orders WHERE status <> 'Cancelled' GROUP BY 1) SELECT max(rev) FROM r`,
		`SELECT round(sum(o.total_amount / r.rate), 2) FROM sales_orders o JOIN exchange_rates r ON r.rate_date = o.order_date WHERE o.status <> 'Cancelled'`,
		`SELECT sum(x.total_amount) FROM (SELECT total_amount, status FROM sales_orders WHERE status <> 'Cancelled') x`,
		`SELECT name FROM customers c WHERE 1000 < (SELECT sum(total_amount) FROM sales_orders o WHERE o.customer_id = c.customer_id AND o.status <> 'Cancelled')`,
		`SELECT c.customer_name, r.rev FROM customers c CROSS JOIN LATERAL (SELECT sum(o.total_amount) AS rev FROM sales_orders o WHERE o.customer_id = c.customer_id AND o.status <> 'Cancelled') r`,
	}
	departs := map[string]semantic.DeviationKind{
		`WITH RECURSIVE r AS (SELECT * FROM sales_orders WHERE status <> 'Cancelled' UNION ALL SELECT * FROM r) SELECT sum(total_amount) FROM r`: semantic.DeviationAggregate,
		`WITH v AS (SELECT * FROM sales_orders WHERE status <> 'Cancelled') SELECT sum(total_amount) FROM sales_orders`:                          semantic.DeviationFilter,
		`SELECT sum(total_amount) FROM sales_orders`: semantic.DeviationFilter,
		`SELECT sum(o.total_amount) FROM sales_orders o JOIN customers c USING (customer_id) WHERE c.status <> 'Cancelled'`:                               semantic.DeviationFilter,
		`SELECT sum(total_amount) FROM sales_orders WHERE status = 'Cancelled'`:                                                                           semantic.DeviationFilter,
		`SELECT sum(total_amount) FROM sales_orders WHERE status <> 'Cancelled' OR total_amount > 0`:                                                      semantic.DeviationFilter,
		`SELECT sum(total_amount) FILTER (WHERE status <> 'Draft') FROM sales_orders`:                                                                     semantic.DeviationFilter,
		`WITH t AS (SELECT sum(total_amount) AS s FROM sales_orders) SELECT s FROM t`:                                                                     semantic.DeviationFilter,
		`SELECT 1 UNION ALL SELECT sum(total_amount) FROM sales_orders`:                                                                                   semantic.DeviationFilter,
		`WITH v AS (SELECT total_amount AS status, status AS total_amount FROM sales_orders WHERE status <> 'Cancelled') SELECT sum(total_amount) FROM v`: semantic.DeviationAggregate,
		`SELECT avg(total_amount) FROM sales_orders WHERE status <> 'Cancelled'`:                                                                          semantic.DeviationAggregate,
		`SELECT sum(qty * unit_price) FROM sales_order_lines`:                                                                                             semantic.DeviationAggregate,
		`SELECT sum(total_amount) FROM invoices WHERE status <> 'Cancelled'`:                                                                              semantic.DeviationAggregate,
		`SELECT sum(total_amount) OVER () FROM sales_orders WHERE status <> 'Cancelled' LIMIT 1`:                                                          semantic.DeviationAggregate,
		`SELECT count(*) FROM sales_orders WHERE status <> 'Cancelled'`:                                                                                   semantic.DeviationAggregate,
		`SELECT sum(DISTINCT total_amount) FROM sales_orders WHERE status <> 'Cancelled'`:                                                                 semantic.DeviationAggregate,
		`SELECT sum(so_id) FROM sales_orders WHERE status <> 'Cancelled'`:                                                                                 semantic.DeviationAggregate,
	}
	for _, sql := range follows {
		if d := m.Deviations(sql, []string{"revenue"}, c, path); len(d) != 0 {
			t.Errorf("%s\n  follows the definition; got %v", sql, d)
		}
	}
	for sql, kind := range departs {
		d := m.Deviations(sql, []string{"revenue"}, c, path)
		if len(d) != 1 || d[0].Kind != kind || d[0].Measure != "revenue" {
			t.Errorf("%s\n  departs (%s); got %v", sql, kind, d)
		}
	}
	// A query that aggregates nothing lists rows: it is not judged.
	if d := m.Deviations(`SELECT order_id, total_amount FROM sales_orders`, []string{"revenue"}, c, path); len(d) != 0 {
		t.Errorf("a list of rows: got %v", d)
	}
	d := m.Deviations(`SELECT sum(total_amount) FROM sales_orders`, []string{"revenue"}, c, path)
	if want := "the query computes revenue without its filter status <> 'Cancelled'"; len(d) != 1 || d[0].String() != want {
		t.Errorf("reason %v, want %q", d, want)
	}
}

// TestDeviationsCountsAndNames: a counted measure is count(*), count(1) or
// count of the primary key or of a NOT NULL column; names that are no measure are skipped; the
// deviations come in the order of the names.
func TestDeviationsCountsAndNames(t *testing.T) {
	m := erpModel(t)
	c := erpCatalog(t)
	path := []string{"public"}
	for _, sql := range []string{
		`SELECT count(*) FROM sales_orders WHERE status <> 'Cancelled'`,
		`SELECT count(1) FROM sales_orders WHERE status <> 'Cancelled'`,
		`SELECT count(so_id) FROM sales_orders WHERE status <> 'Cancelled'`,
		`SELECT count(customer_id) FROM sales_orders WHERE status <> 'Cancelled'`, // NOT NULL
		`SELECT count(CASE WHEN status <> 'Cancelled' THEN 1 END) FROM sales_orders`,
		`SELECT count(*) FILTER (WHERE status <> 'Cancelled') FROM sales_orders`,
	} {
		if d := m.Deviations(sql, []string{"order_count", "active_customer", "nothing"}, c, path); len(d) != 0 {
			t.Errorf("%s: got %v", sql, d)
		}
	}
	for _, sql := range []string{
		`SELECT count(quote_id) FROM sales_orders WHERE status <> 'Cancelled'`, // nullable: not every row
		`SELECT count(DISTINCT so_id) FROM sales_orders WHERE status <> 'Cancelled'`,
	} {
		if d := m.Deviations(sql, []string{"order_count"}, c, path); len(d) != 1 || d[0].Kind != semantic.DeviationAggregate {
			t.Errorf("%s: got %v", sql, d)
		}
	}
	sql := `SELECT count(*), sum(total_amount) FROM sales_orders`
	d := m.Deviations(sql, []string{"revenue", "order_count"}, c, path)
	if got := fmt.Sprint(d); len(d) != 2 || d[0].Measure != "revenue" || d[1].Measure != "order_count" {
		t.Errorf("order of names: %s", got)
	}
	if d := m.Deviations("SELECT sum(", []string{"revenue"}, c, path); d != nil {
		t.Errorf("unparsable: %v", d)
	}
}

// TestVocabulary: the model's words mean what its definitions read.
func TestVocabulary(t *testing.T) {
	m := erpModel(t)
	v := m.Vocabulary()
	for term, want := range map[string]string{
		"revenue":         "[public.sales_orders.total_amount]",
		"turnover":        "[public.sales_orders.total_amount]",
		"order count":     "[public.sales_orders]",
		"active customer": "[public.customers.status]",
		"clients":         "[public.customers]",
		"payment method":  "[public.customer_payments.method]",
		"win rate":        "[public.opportunities]",
		"line revenue":    "[public.sales_order_lines.discount_pct public.sales_order_lines.qty public.sales_order_lines.unit_price]",
	} {
		if got := fmt.Sprint(v[term]); got != want {
			t.Errorf("%q: %s, want %s", term, got, want)
		}
	}
	if _, ok := v["status"]; ok {
		t.Error("a dimension named as its column is no new word")
	}
	if (&semantic.Model{Entities: []*semantic.Entity{{Name: "x"}}}).Vocabulary() != nil {
		t.Error("an unchecked model has no vocabulary")
	}
}
