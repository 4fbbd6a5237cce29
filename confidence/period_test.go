package confidence

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// TestOpenPeriod: a year the question names as a period is bounded on
// both sides, in any spelling; one side only is an open period, unless
// the question asks for that side.
func TestOpenPeriod(t *testing.T) {
	for _, c := range []struct {
		q, sql string
		open   string
	}{
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE order_date >= '2024-01-01'::date", "order_date"},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE order_date >= '2024-01-01' AND order_date < '2025-01-01'", ""},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE '2025-01-01' > o.order_date AND o.order_date >= DATE '2024-01-01'", ""},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE order_date BETWEEN '2024-01-01' AND '2024-12-31'", ""},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE extract(year FROM order_date) = 2024", ""},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE date_trunc('year', order_date) >= '2024-01-01'", ""},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE '2024-01-01' <= order_date", "order_date"},
		{"How many sales orders were placed in 2024?", "SELECT count(*) FROM sales_orders WHERE order_date < '2025-01-01'", "order_date"},
		{"How many sales orders were placed in 2024?", "WITH o AS (SELECT * FROM sales_orders WHERE order_date >= '2024-01-01') SELECT count(*) FROM o", "order_date"},
		{"What is the total 2025 budget per cost center?", "SELECT cc, sum(amt) FROM budgets WHERE fiscal_year >= 2025 GROUP BY cc", "fiscal_year"},
		{"What is the total 2025 budget per cost center?", "SELECT cc, sum(amt) FROM budgets WHERE fiscal_year = 2025 GROUP BY cc", ""},
		{"How many orders since 2024?", "SELECT count(*) FROM orders WHERE order_date >= '2024-01-01'", ""},
		{"How many cars were made before 1980?", "SELECT count(*) FROM cars WHERE year < 1980", ""},
		{"Show the stadiums with concerts in year 2014 or after.", "SELECT name FROM concert WHERE year >= 2014", ""},
		{"How many orders from 2020 onwards?", "SELECT count(*) FROM orders WHERE year >= 2020", ""},
		{"How many orders between 2020 and 2023?", "SELECT count(*) FROM orders WHERE year >= 2020 AND year <= 2023", ""},
		{"How many orders have an amount over 2024?", "SELECT count(*) FROM orders WHERE amount > 2024", ""},
		{"Which cars weigh more than 2000?", "SELECT id FROM cars WHERE weight > 2000", ""},
		{"How many orders in 2024?", "SELECT count(*) FROM orders WHERE order_date >= '20245'", ""},
		{"How many orders are there?", "SELECT count(*) FROM orders WHERE order_date >= '2024-01-01'", ""},
	} {
		got := openPeriod(parseTree(c.sql), periodYears(gloss.Analyze(c.q)))
		if got != c.open {
			t.Errorf("%q / %q: open %q, want %q", c.q, c.sql, got, c.open)
		}
	}
}
