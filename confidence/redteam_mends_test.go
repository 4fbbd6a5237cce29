package confidence

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/score"
)

// TestRedTeamMends: session 19's mends of false doubts (a number in a
// column's name, a pattern between a value's words, a period's kind, a
// count that names a column, a column of the same name in another table,
// where a sorted list starts) against realistic questions and answers a
// red team wrote to get them to say false things or to fall silent. want:
// every one of these substrings must be in the reasons (an alternative
// list split by "||" needs one of them); not: none of these may be.
// Left as limitations (docs/benchmarks.md): a number written before its
// word ("the 90 day bucket": dpd_90_flag), "the next 5 deliveries", and
// "which city has the highest review count" answered by one business.
func TestRedTeamMends(t *testing.T) {
	type tc struct {
		id, change, q, sql string
		tables, cols       []string // the candidate's
		linked, values     []string // the input's
		want, not          []string
	}
	cust := []string{"public.customers"}
	biz := []string{"public.business"}
	nm := func(v string) string { return `the question names "` + v + `"` }
	const rows = "the question asks for "
	const noTop = "the question asks for no top or extreme"
	const order = "the question asks for the rows in an order"
	const howMany = "the question asks how many"
	const named = "which the question names"
	cases := []tc{
		// ---- 1. numberInName ----
		{"1a", "1", "What is the average PASI score at Day 100?", `SELECT avg("Day100_PASI_Score") FROM trial_results`, []string{"public.trial_results"}, nil, nil, nil, nil, []string{nm("100")}},
		{"1b", "1", "Which customers have address line 2 empty?", "SELECT customer_id FROM customers WHERE address_line_2 IS NULL", cust, nil, nil, nil, nil, []string{nm("2")}},
		{"1c", "1", "Which customers have address line 2 empty?", "SELECT customer_id FROM customers WHERE address_line_1 IS NULL", cust, nil, nil, nil, []string{nm("2")}, nil},
		{"1d", "1", "Which products sold more than 100 units in the last 30 days?", "SELECT name FROM products WHERE units_sold_last_30_days > 100", []string{"public.products"}, nil, nil, nil, nil, []string{nm("30"), nm("100")}},
		{"1e", "1", "Which products sold more than 100 units in the last 30 days?", "SELECT name FROM products WHERE units_sold_last_7_days > 100", []string{"public.products"}, nil, nil, nil, []string{nm("30")}, nil},
		{"1f", "1", "What is the average score at week 12?", "SELECT avg(t.week_12_score) FROM clinical.trial_results t", []string{"clinical.trial_results"}, nil, nil, nil, nil, []string{nm("12")}},
		{"1g", "1", "What is the average score at week 1?", "SELECT avg(week_12_score) FROM trial_results", []string{"public.trial_results"}, nil, nil, nil, []string{nm("1")}, nil},
		{"1h", "1", "How many patients had a PASI score above 75 at week 12?", "SELECT count(*) FROM trial_results WHERE week12_pasi_score > 50", []string{"public.trial_results"}, nil, nil, nil, []string{nm("75")}, []string{nm("12")}},
		{"1i", "1", "What were total sales at store 12?", "SELECT sum(amount) AS store_12_sales FROM sales", []string{"public.sales"}, nil, nil, nil, []string{nm("12")}, nil},
		{"1j", "1", "What was the revenue in week 1 of 2024?", "SELECT sum(amount) AS week_1_revenue FROM sales WHERE extract(week FROM sold_at) = 2 AND extract(year FROM sold_at) = 2024", []string{"public.sales"}, nil, nil, nil, []string{nm("1")}, nil},
		{"1k", "1", "What were total sales in quarter 1 of 2024?", "WITH quarter_1 AS (SELECT sum(amount) AS total FROM sales WHERE extract(year FROM sold_at) = 2024 AND extract(quarter FROM sold_at) = 2) SELECT total FROM quarter_1", []string{"public.sales"}, nil, nil, nil, []string{nm("1")}, nil},
		{"1l", "1", "How many members had more than 3 visits in month 3?", "SELECT count(*) FROM member_activity WHERE month_3_visits > 0", []string{"public.member_activity"}, nil, nil, nil, []string{nm("3")}, nil},
		{"1m", "1", "What are the response rates at days 30 and 60?", "SELECT day_30_rate, day_60_rate FROM campaign_stats", []string{"public.campaign_stats"}, nil, nil, nil, nil, []string{nm("30"), nm("60")}},
		{"1n", "1", "What are address lines 1 and 2 of each customer?", "SELECT address_line_1, address_line_2 FROM customers", cust, nil, nil, nil, nil, []string{nm("1"), nm("2")}},
		{"1p", "1", "What is the average PASI score at day 100?", `SELECT avg(day_1_pasi_score) FROM trial_results`, []string{"public.trial_results"}, nil, nil, nil, []string{nm("100")}, nil},
		// ---- 2. usesValue: wildcards between the value's words ----
		{"2a", "2", `How many papers are in the domain "Computer Science"?`, "SELECT count(*) FROM papers WHERE domain ILIKE '%computer%science%'", []string{"public.papers"}, nil, nil, nil, nil, []string{nm("Computer Science")}},
		{"2b", "2", `How many products are in the category "Health & Beauty"?`, "SELECT count(*) FROM products WHERE category ILIKE '%health%beauty%'", []string{"public.products"}, nil, nil, nil, nil, []string{nm("Health & Beauty")}},
		{"2c", "2", `How many products are in the category "Men's Clothing"?`, "SELECT count(*) FROM products WHERE category ILIKE '%men%s%clothing%'", []string{"public.products"}, nil, nil, nil, nil, []string{nm("Men's Clothing")}},
		{"2d", "2", `How many films are in the genre "Sci-Fi"?`, "SELECT count(*) FROM films WHERE genre ILIKE '%sci%fi%'", []string{"public.films"}, nil, nil, nil, nil, []string{nm("Sci-Fi")}},
		{"2e", "2", `How many stores are in "St. Louis"?`, "SELECT count(*) FROM stores WHERE city ILIKE 'st%louis'", []string{"public.stores"}, nil, nil, nil, nil, []string{nm("St. Louis")}},
		{"2f", "2", `How many papers are in the domain "Computer Science"?`, `SELECT count(*) FROM papers WHERE domain LIKE 'computer\_science'`, []string{"public.papers"}, nil, nil, nil, []string{nm("Computer Science")}, nil},
		{"2g", "2", `How many papers are in the domain "Computer Science"?`, "SELECT count(*) FROM papers WHERE domain LIKE '%computer%science%'", []string{"public.papers"}, nil, nil, nil, []string{nm("Computer Science")}, nil},
		{"2h", "2", `How many customers live in "New York"?`, "SELECT count(*) FROM customers WHERE city ILIKE 'new%york'", cust, nil, nil, nil, nil, []string{nm("New York")}},
		{"2i", "2", `How many customers live in "New York"?`, "SELECT count(*) FROM customers WHERE city ILIKE '%york%new%'", cust, nil, nil, nil, []string{nm("New York")}, nil},
		{"2j", "2", `Which faculty are in the "Computer and Information Science" department?`, "SELECT name FROM faculty WHERE dept ILIKE '%computer%information%science%'", []string{"public.faculty"}, nil, nil, nil, nil, []string{nm("Computer and Information Science")}},
		{"2k", "2", `How many products are in the category "Health & Beauty"?`, "SELECT count(*) FROM products WHERE category ILIKE '%health%beauty%'", []string{"public.products"}, nil, nil, []string{"Health & Beauty"}, nil, []string{nm("Health & Beauty")}},
		// ---- 3. topN: a period kind between number and unit ----
		{"3a", "3", "How many orders were placed in the last 12 calendar months?", "SELECT count(*) FROM orders WHERE placed_at >= date_trunc('month', now()) - interval '12 months'", []string{"public.orders"}, nil, nil, nil, nil, []string{rows + "12 rows"}},
		{"3b", "3", "What was the average closing price over the last 30 trading days?", "SELECT avg(close) FROM prices WHERE trade_date >= current_date - 42", []string{"public.prices"}, nil, nil, nil, nil, []string{rows + "30 rows"}},
		{"3c", "3", "How many orders were placed in the first 3 business days of each month?", "SELECT date_trunc('month', placed_at), count(*) FROM orders WHERE extract(day FROM placed_at) <= 5 AND extract(isodow FROM placed_at) < 6 GROUP BY 1", []string{"public.orders"}, nil, nil, nil, nil, []string{rows + "3 rows"}},
		{"3d", "3", "Who are the top 5 business customers by revenue?", "SELECT name FROM customers WHERE segment = 'business' ORDER BY revenue DESC", cust, nil, nil, nil, []string{rows + "5 rows"}, nil},
		{"3e", "3", "Who are the top 5 business customers by revenue?", "SELECT name FROM customers WHERE segment = 'business' ORDER BY revenue DESC LIMIT 5", cust, nil, nil, nil, nil, []string{noTop, rows + "5 rows"}},
		{"3f", "3", "What are the top 10 trading partners by export value?", "SELECT partner_country, sum(export_value) FROM trade GROUP BY 1 ORDER BY 2 DESC", []string{"public.trade"}, nil, nil, nil, []string{rows + "10 rows"}, nil},
		{"3g", "3", "List the first 20 full-time employees hired.", "SELECT name FROM employees WHERE employment_type = 'full-time' ORDER BY hire_date", []string{"public.employees"}, nil, nil, nil, []string{rows + "20 rows"}, nil},
		{"3h", "3", "List the first 20 full-time employees hired.", "SELECT name FROM employees WHERE employment_type = 'full-time' ORDER BY hire_date LIMIT 20", []string{"public.employees"}, nil, nil, nil, nil, []string{noTop, rows + "20 rows"}},
		{"3i", "3", "Show the last 10 orders.", "SELECT id FROM orders", []string{"public.orders"}, nil, nil, nil, []string{rows + "10 rows"}, nil},
		{"3j", "3", "Show total sales for each of the last 5 business days.", "SELECT sold_on, sum(amount) FROM sales GROUP BY sold_on ORDER BY sold_on DESC LIMIT 5", []string{"public.sales"}, nil, nil, nil, nil, []string{noTop, rows + "5 rows"}},
		{"3k", "3", "How many students enrolled in the last 2 academic years?", "SELECT count(*) FROM enrollments WHERE enrolled_on >= current_date - interval '2 years'", []string{"public.enrollments"}, nil, nil, nil, nil, []string{rows + "2 rows"}},
		{"3l", "3", "How many orders were placed in the last 24 hours?", "SELECT count(*) FROM orders WHERE placed_at >= now() - interval '24 hours'", []string{"public.orders"}, nil, nil, nil, nil, []string{rows + "24 rows"}},
		{"3n", "3", "Which were the last three complete orders?", "SELECT id FROM orders WHERE status = 'complete' ORDER BY placed_at DESC", []string{"public.orders"}, nil, nil, nil, []string{rows + "3 rows"}, nil},
		// ---- 4. countAsked: "review count" names a column ----
		{"4a", "4", "What are the top 3 businesses in terms of review count?", "SELECT name FROM business ORDER BY review_count DESC LIMIT 3", biz, []string{"public.business.name", "public.business.review_count"}, nil, nil, nil, []string{howMany}},
		{"4b", "4", "What is the total review count of businesses in Phoenix?", "SELECT review_count FROM business WHERE city = 'Phoenix'", biz, []string{"public.business.review_count", "public.business.city"}, nil, nil, []string{howMany + "||asks for a total"}, nil},
		{"4c", "4", "What is the total review count of businesses in Phoenix?", "SELECT sum(review_count) FROM business WHERE city = 'Phoenix'", biz, []string{"public.business.review_count", "public.business.city"}, nil, nil, nil, []string{howMany, "asks for a total"}},
		{"4d", "4", "How many businesses have a review count above 500?", "SELECT name FROM business WHERE review_count > 500", biz, []string{"public.business.name", "public.business.review_count"}, nil, nil, []string{howMany}, nil},
		{"4e", "4", "What are the top 5 products by order count?", "SELECT name FROM products ORDER BY orders_count DESC LIMIT 5", []string{"public.products"}, []string{"public.products.name", "public.products.orders_count"}, nil, nil, nil, []string{howMany}},
		{"4f", "4", `What are the top 3 businesses in terms of review count?`, `SELECT name FROM business ORDER BY "ReviewCount" DESC LIMIT 3`, biz, []string{"public.business.name", "public.business.ReviewCount"}, nil, nil, nil, []string{howMany}},
		{"4g", "4", "What is the review count of each business?", "SELECT b.name, count(r.id) FROM business b JOIN review r ON r.business_id = b.id GROUP BY b.name", []string{"public.business", "public.review"}, []string{"public.business.name", "public.review.id", "public.review.business_id", "public.business.id"}, nil, nil, nil, []string{howMany}},
		// ---- 5. missedColumns: a same-named column of another table ----
		{"5a", "5", "What are the names of the products bought by customers in Berlin?", "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id JOIN products p ON p.id = o.product_id WHERE c.city = 'Berlin'",
			[]string{"public.customers", "public.orders", "public.products"}, []string{"public.customers.name", "public.customers.city", "public.customers.id", "public.orders.customer_id", "public.orders.product_id", "public.products.id"},
			[]string{"public.products.name", "public.customers.city"}, nil, []string{named}, nil},
		{"5b", "5", "What is the total amount of cancelled orders per customer?", "SELECT c.name, sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.status = 'cancelled' GROUP BY c.name",
			[]string{"public.orders", "public.customers"}, []string{"public.customers.name", "public.customers.status", "public.customers.id", "public.orders.amount", "public.orders.customer_id"},
			[]string{"public.orders.status", "public.orders.amount"}, nil, []string{named}, nil},
		{"5c", "5", "How many customers signed up in 2024?", "SELECT count(DISTINCT c.id) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.created_at >= '2024-01-01' AND o.created_at < '2025-01-01'",
			[]string{"public.customers", "public.orders"}, []string{"public.customers.id", "public.orders.customer_id", "public.orders.created_at"},
			[]string{"public.customers.created_at"}, nil, []string{named}, nil},
		{"5d", "5", "How much is outstanding on unpaid invoices?", "SELECT sum(i.amount) FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.status = 'unpaid'",
			[]string{"public.invoices", "public.customers"}, []string{"public.invoices.amount", "public.invoices.status", "public.invoices.customer_id", "public.customers.id"},
			[]string{"public.invoices.status", "public.customers.status"}, nil, nil, []string{named}},
		{"5e", "5", "What is the total price of the items in order 1001?", "SELECT sum(oi.quantity * p.price) FROM order_items oi JOIN products p ON p.id = oi.product_id WHERE oi.order_id = 1001",
			[]string{"public.order_items", "public.products"}, []string{"public.order_items.quantity", "public.products.price", "public.order_items.product_id", "public.products.id", "public.order_items.order_id"},
			[]string{"public.order_items.price"}, nil, nil, nil},
		// ---- 6. cueOrderAsked: where a sorted list starts ----
		{"6a", "6", "List all support tickets, starting from the oldest.", "SELECT id, subject FROM tickets ORDER BY created_at", []string{"public.tickets"}, nil, nil, nil, nil, []string{order}},
		{"6b", "6", "List all support tickets, starting from the oldest.", "SELECT id, subject FROM tickets", []string{"public.tickets"}, nil, nil, nil, []string{order}, nil},
		{"6c", "6", "How many tickets were opened starting from the latest release?", "SELECT count(*) FROM tickets WHERE opened_at >= (SELECT max(released_at) FROM releases)", []string{"public.tickets", "public.releases"}, nil, nil, nil, nil, []string{order}},
		{"6d", "6", "What is the total revenue starting from the most recent price change?", "SELECT sum(s.amount) FROM sales s WHERE s.sold_at >= (SELECT max(changed_at) FROM price_changes)", []string{"public.sales", "public.price_changes"}, nil, nil, nil, nil, []string{order}},
		{"6e", "6", "Show all invoices starting with the most expensive.", "SELECT id, total FROM invoices", []string{"public.invoices"}, nil, nil, nil, []string{order + "||the question asks for the most"}, nil},
		{"6f", "6", "List all shipments from earliest to latest.", "SELECT id, shipped_at FROM shipments", []string{"public.shipments"}, nil, nil, nil, []string{order + "||asks for the earliest||asks for the latest"}, nil},
		{"6g", "6", "How many employees are in each pay grade, starting from the lowest?", "SELECT grade, count(*) FROM employees GROUP BY grade ORDER BY grade", []string{"public.employees"}, nil, nil, nil, nil, []string{order, "asks for the lowest"}},
		{"6h", "6", "Which customers have a last name starting with the letter M?", "SELECT first_name, last_name FROM customers WHERE last_name LIKE 'M%'", cust, nil, nil, nil, nil, []string{order}},
		{"6i", "6", "List the product names starting with the highest priced.", "SELECT name FROM products ORDER BY price DESC", []string{"public.products"}, nil, nil, nil, nil, []string{order, "asks for the highest"}},
		// ---- more ----
		{"1s", "1", "What were total sales at store 12?", "SELECT sum(amount) AS store_12_sales FROM sales ORDER BY store_12_sales", []string{"public.sales"}, nil, nil, nil, []string{nm("12")}, nil},
		{"1t", "1", "What were total sales at store 12?", "WITH s AS (SELECT sum(amount) AS store_12_sales FROM sales) SELECT store_12_sales FROM s", []string{"public.sales"}, nil, nil, nil, []string{nm("12")}, nil},
		{"1q", "1", "How many tickets are in queue 3?", "SELECT count(*) AS queue_3_tickets FROM tickets", []string{"public.tickets"}, nil, nil, nil, []string{nm("3")}, nil},
		{"1r", "1", "Which customers have an empty Line 2 in their address?", `SELECT "CustomerID" FROM "Customers" WHERE "LINE_2" IS NULL`, []string{"public.Customers"}, nil, nil, nil, nil, []string{nm("2")}},
		{"3o", "3", "Which were the top 3 fiscal quarters by revenue?", "SELECT fiscal_quarter, sum(revenue) FROM sales GROUP BY 1 ORDER BY 2 DESC", []string{"public.sales"}, nil, nil, nil, []string{rows + "3 rows"}, nil},
		{"3p", "3", "What were the top 5 trading days by volume?", "SELECT trade_date, sum(volume) FROM trades GROUP BY 1 ORDER BY 2 DESC", []string{"public.trades"}, nil, nil, nil, []string{rows + "5 rows"}, nil},
		{"3q", "3", "What were the top 5 days by sales?", "SELECT sold_on, sum(amount) FROM sales GROUP BY 1 ORDER BY 2 DESC", []string{"public.sales"}, nil, nil, nil, []string{rows + "5 rows"}, nil},
		{"3r", "3", "How much did we spend in the last 6 full months?", "SELECT sum(amount) FROM expenses WHERE spent_on >= date_trunc('month', now()) - interval '6 months' AND spent_on < date_trunc('month', now())", []string{"public.expenses"}, nil, nil, nil, nil, []string{rows + "6 rows"}},
		{"4h", "4", "Which 5 businesses have the highest review counts?", "SELECT name FROM business ORDER BY review_count DESC LIMIT 5", biz, []string{"public.business.name", "public.business.review_count"}, nil, nil, nil, []string{howMany}},
		{"4j", "4", "Which city has the highest review count?", "SELECT city FROM business GROUP BY city ORDER BY sum(review_count) DESC LIMIT 1", biz, []string{"public.business.city", "public.business.review_count"}, nil, nil, nil, []string{howMany}},
		{"5f", "5", "How many open tickets does each agent have?", "SELECT a.name, count(*) FROM tickets t JOIN agents a ON a.id = t.agent_id WHERE t.status = 'open' GROUP BY a.name",
			[]string{"public.tickets", "public.agents"}, []string{"public.agents.name", "public.agents.id", "public.tickets.agent_id", "public.tickets.status"},
			[]string{"public.tickets.status", "public.agents.status"}, nil, nil, []string{named}},
		{"6j", "6", "How many subscriptions renewed starting from the latest price increase?", "SELECT count(*) FROM renewals WHERE renewed_at >= (SELECT max(effective_on) FROM price_increases)", []string{"public.renewals", "public.price_increases"}, nil, nil, nil, nil, []string{order}},
	}
	for _, c := range cases {
		in := &score.Input{Question: c.q, Values: c.values, Columns: c.linked,
			Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: c.tables, Columns: c.cols, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		s := Of(in, []float64{1}, 0)
		r := strings.Join(s.Reasons(), " | ")
		for _, w := range c.want {
			any := false
			for _, alt := range strings.Split(w, "||") {
				any = any || strings.Contains(r, alt)
			}
			if !any {
				t.Errorf("%s (change %s) missing doubt %q\n  q=%s\n  sql=%s\n  reasons=%q", c.id, c.change, w, c.q, c.sql, r)
			}
		}
		for _, n := range c.not {
			if strings.Contains(r, n) {
				t.Errorf("%s (change %s) false doubt %q\n  q=%s\n  sql=%s\n  reasons=%q", c.id, c.change, n, c.q, c.sql, r)
			}
		}
	}
}
