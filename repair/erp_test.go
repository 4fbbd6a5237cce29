package repair

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// A few repairs against the demo ERP database (examples/erp): its real
// abbreviations and foreign keys, not the small fixture's.
func TestERP(t *testing.T) {
	pool := pgtest.Pool(t, erptest.Single(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cat, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	r := New(cat)
	cases := []repairCase{
		{name: "customer name lives on customers", sql: "SELECT so.order_no, so.customer_name FROM sales_orders so WHERE so.so_id < 20",
			want:  "SELECT so.order_no, c.customer_name FROM sales_orders so JOIN customers c ON c.customer_id = so.customer_id WHERE so.so_id < 20",
			state: "42703", rules: []string{RuleJoinNeighbor}},
		// Not countries.name or industries.name (two parents with a name):
		// customers has its own.
		{name: "name of the table itself", sql: "SELECT nme FROM customers WHERE customer_id < 5",
			want: "SELECT customer_name FROM customers WHERE customer_id < 5", state: "42703", rules: []string{RuleFuzzyColumn}},
		{name: "generic name of the table itself", sql: "SELECT name, city FROM customers WHERE customer_id < 5",
			want: "SELECT customer_name, city FROM customers WHERE customer_id < 5", state: "42703", rules: []string{RuleFuzzyColumn}},
		{name: "abbreviated column twice", sql: "SELECT cust_name, COUNT(*) FROM customers GROUP BY cust_name",
			want: "SELECT customer_name, count(*) FROM customers GROUP BY customer_name", state: "42703", rules: []string{RuleFuzzyColumn}},
		{name: "department name", sql: "SELECT e.first_name, e.dept_name FROM employees e WHERE e.emp_id < 10",
			want:  "SELECT e.first_name, d.dept_name FROM employees e JOIN departments d ON d.dept_id = e.dept_id WHERE e.emp_id < 10",
			state: "42703", rules: []string{RuleJoinNeighbor}},
		{name: "mysql product list", sql: "SELECT `product_name`, ROUND(list_price, 1) FROM products WHERE is_active = 1 ORDER BY product_id LIMIT 0, 5",
			want:  "SELECT product_name, round(list_price, 1) FROM products WHERE is_active ORDER BY product_id LIMIT 5",
			state: "42601", rules: []string{RuleBacktick, RuleLimitComma, RuleQuoteLiteral}, ordered: true},
		{name: "grouped by FK", sql: "SELECT c.customer_name, SUM(so.total_amount) FROM customers c JOIN sales_orders so ON so.customer_id = c.customer_id GROUP BY so.customer_id",
			want:  "SELECT c.customer_name, sum(so.total_amount) FROM customers c JOIN sales_orders so ON so.customer_id = c.customer_id GROUP BY c.customer_id",
			state: "42803", rules: []string{RuleGroupBy}},
		{name: "orders per year", sql: "SELECT YEAR(order_date) AS yr, COUNT(*) FROM sales_orders GROUP BY YEAR(order_date) ORDER BY yr",
			want:  "SELECT EXTRACT(year FROM order_date) AS yr, count(*) FROM sales_orders GROUP BY 1 ORDER BY 1",
			state: "42883", rules: []string{RuleExtract}, ordered: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkCase(t, r, pool, c) })
	}
	// And what it must not repair there.
	for _, c := range []struct {
		sql  string
		tied bool
		alts []string
	}{
		// Dropping the table's name from invoice_date leaves "date", which
		// due_date has as well (not a foreign key: the invoice's own).
		{"SELECT invoice_no, date FROM invoices WHERE status = 'Overdue'", true, []string{"invoice_date", "due_date"}},
		// A generic name only neighbours have: whose?
		{"SELECT so.order_no, so.name FROM sales_orders so", false,
			[]string{"currencies.name", "customers.customer_name", "employees.first_name", "employees.last_name"}},
	} {
		_, err := r.Fix(c.sql, serverFailure(t, pool, c.sql))
		var amb *AmbiguousError
		if !errors.As(err, &amb) || amb.Tied != c.tied || !reflect.DeepEqual(amb.Alternatives, c.alts) {
			t.Errorf("Fix(%s) = %v; want alternatives %v (tied %t)", c.sql, err, c.alts, c.tied)
		}
	}
}
