package confidence_test

import "testing"

// TestRedTeamSignals is the red team's list for ExtremeReversed and
// AggregateMismatched (session 18): realistic questions with a right or a
// wrong answer of exactly these two kinds, in many SQL spellings. want* is
// what a careful human says. What the signals cannot see yet (a word
// whose end no cue says: "best-selling", "the last hired"; two opposite
// superlatives; an aggregate word after its phrase: "on average", "in
// total"; a rank key renamed in a WITH query) is listed in
// docs/benchmarks.md, not here.
func TestRedTeamSignals(t *testing.T) {
	for _, c := range []struct {
		name, question, sql        string
		wantExtreme, wantAggregate bool
	}{
		// ---- ExtremeReversed: right answers that must not be flagged ----
		{"fp: top N fastest by lap time (ascending metric)", "What are the top 5 fastest laps?",
			"SELECT driver_id, lap_time FROM laps ORDER BY lap_time ASC LIMIT 5", false, false},
		{"fp: top N finishers by finishing time", "Who are the top 3 finishers of the marathon by finishing time?",
			"SELECT runner_name FROM results ORDER BY finish_time LIMIT 3", false, false},
		{"fp: top N closest stores", "What are the top 10 closest stores to the airport?",
			"SELECT store_name FROM stores ORDER BY distance_km LIMIT 10", false, false},
		{"fp: top seeds (seed 1 is best)", "Who are the top 4 seeded players in the tournament?",
			"SELECT player_name FROM entries ORDER BY seed LIMIT 4", false, false},
		{"fp: top N by rank through ORDER BY ordinal", "Who are the top 5 players?",
			"SELECT name, ranking FROM players ORDER BY 2 LIMIT 5", false, false},
		{"fp: biggest drop sorts ascending", "Which product had the biggest drop in sales from 2023 to 2024?",
			"SELECT product_name FROM product_sales ORDER BY sales_2024 - sales_2023 ASC LIMIT 1", false, false},
		{"fp: largest loss is the lowest net income", "Which company had the largest loss last year?",
			"SELECT company FROM financials WHERE fiscal_year = 2023 ORDER BY net_income LIMIT 1", false, false},
		{"fp: longest tenure is the earliest hire date", "Which employee has worked at the company the longest?",
			"SELECT first_name, last_name FROM employees ORDER BY hire_date ASC LIMIT 1", false, false},
		{"fp: most senior is the earliest hire date", "Who is the most senior employee in the sales department?",
			"SELECT name FROM employees WHERE department = 'Sales' ORDER BY hire_date LIMIT 1", false, false},
		{"fp: longest-standing member via min(join_date)", "When did the longest-standing member join the club?",
			"SELECT min(join_date) FROM members", false, false},
		{"fp: most affordable is the lowest price", "What is the most affordable laptop?",
			"SELECT model FROM laptops ORDER BY price ASC LIMIT 1", false, false},
		{"fp: oldest by age computed from a date, descending", "Who is the oldest customer?",
			"SELECT name FROM customers ORDER BY current_date - birth_date DESC LIMIT 1", false, false},
		{"fp: youngest by age computed from birth year, ascending", "Who is the youngest player?",
			"SELECT name FROM players ORDER BY 2024 - birth_year ASC LIMIT 1", false, false},
		{"fp: highest by a negated key ascending", "Which product has the highest price?",
			"SELECT name FROM products ORDER BY -price LIMIT 1", false, false},
		{"fp: top speed is a column, first is by date", "What is the top speed of the car that was released first?",
			"SELECT top_speed FROM cars ORDER BY release_date LIMIT 1", false, false},
		{"fp: unquoted title Top Gun, first release", "When was Top Gun first released?",
			"SELECT min(release_date) FROM releases WHERE title = 'Top Gun'", false, false},
		{"fp: gone the longest without ordering", "Which customer has gone the longest without placing an order?",
			"SELECT customer_id FROM orders GROUP BY customer_id ORDER BY max(order_date) ASC LIMIT 1", false, false},
		{"fp: 'a minimum of' is a bound, order asked descending", "List 5 products with a minimum stock of 100, ordered by price descending.",
			"SELECT name FROM products WHERE stock >= 100 ORDER BY price DESC LIMIT 5", false, false},
		{"fp: minimum temperature on the hottest day (max is another column)", "What was the minimum temperature on the hottest day?",
			"SELECT min_temperature_f FROM weather WHERE max_temperature_f = (SELECT max(max_temperature_f) FROM weather)", false, false},

		// ---- ExtremeReversed: right answers, currently quiet (regression) ----
		{"ok: most recent, descending date", "Who is the most recently hired employee?",
			"SELECT name FROM employees ORDER BY hire_date DESC NULLS LAST LIMIT 1", false, false},
		{"ok: highest chart position is the lowest number", "What is the highest chart position reached by each song?",
			"SELECT song, min(chart_position) FROM charts GROUP BY song", false, false},
		{"ok: from highest to lowest, no limit", "List the employees' salaries from highest to lowest.",
			"SELECT name, salary FROM employees ORDER BY salary ASC", false, false},
		{"ok: most recent 5, re-sorted chronologically", "List the 5 most recent orders in chronological order.",
			"SELECT * FROM (SELECT order_id, order_date FROM orders ORDER BY order_date DESC LIMIT 5) t ORDER BY order_date", false, false},
		{"ok: average, minimum and maximum age", "What is the average, minimum, and maximum age of all singers from France?",
			"SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'", false, false},
		{"ok: double-quoted album title", `When was the album "Greatest Hits" first released?`,
			"SELECT min(release_date) FROM albums WHERE title = 'Greatest Hits'", false, false},
		{"ok: second highest salary with OFFSET", "What is the second highest salary?",
			"SELECT DISTINCT salary FROM employees ORDER BY salary DESC LIMIT 1 OFFSET 1", false, false},

		// ---- ExtremeReversed: wrong answers that must be flagged ----
		{"fn ok: FETCH FIRST ascending for highest", "Which product has the highest price?",
			"SELECT name FROM products ORDER BY price FETCH FIRST 1 ROW ONLY", true, false},
		{"fn ok: FETCH WITH TIES ascending for most", "Which customer placed the most orders?",
			"SELECT customer_id FROM orders GROUP BY customer_id ORDER BY count(*) FETCH FIRST 1 ROWS WITH TIES", true, false},
		{"fn ok: UNION then ascending sort", "Which product has the highest price across both catalogs?",
			"SELECT name, price FROM catalog_a UNION SELECT name, price FROM catalog_b ORDER BY price LIMIT 1", true, false},
		{"fn ok: alias of a year, ascending for newest", "What is the newest car model?",
			"SELECT model, model_year AS yr FROM cars ORDER BY yr LIMIT 1", true, false},
		{"fn ok: camel-case quoted date of birth, descending for oldest", "Who is the oldest employee?",
			`SELECT "FirstName" FROM "Employees" ORDER BY "DateOfBirth" DESC LIMIT 1`, true, false},
		{"fn ok: rank window, descending birth date for oldest", "Who is the oldest employee in each department?",
			"SELECT name FROM (SELECT name, rank() OVER (PARTITION BY dept ORDER BY birth_date DESC) AS r FROM employees) t WHERE r = 1", true, false},
		{"fn ok: second highest reversed", "What is the second highest salary?",
			"SELECT DISTINCT salary FROM employees ORDER BY salary ASC LIMIT 1 OFFSET 1", true, false},
		{"fn ok: maximum salary by an ascending sort", "What is the maximum salary?",
			"SELECT salary FROM employees ORDER BY salary LIMIT 1", true, false},
		{"fn: ascending sort on a date in an all-lowercase column", "Who is the newest employee?",
			"SELECT firstname, lastname FROM employee ORDER BY hiredate ASC LIMIT 1", true, false},
		{"fn ok: lowest with DESC NULLS FIRST", "Which product has the lowest price?",
			"SELECT name FROM products ORDER BY price DESC NULLS FIRST LIMIT 1", true, false},
		{"fn: _ts timestamp column, ascending for newest", "Who is the newest user?",
			"SELECT username FROM users ORDER BY signup_ts ASC LIMIT 1", true, false},
		{"fn: founded column for the oldest college", "What are the enrollment and primary conference of the oldest college?",
			"SELECT enrollment, primary_conference FROM university ORDER BY founded DESC LIMIT 1", true, false},
		{"fn: oldest by ORDER BY ordinal on age", "Who is the oldest singer?",
			"SELECT name, age FROM singer ORDER BY 2 LIMIT 1", true, false},
		{"fn: DISTINCT ON keeps the earliest for the latest", "What is the latest order of each customer?",
			"SELECT DISTINCT ON (customer_id) customer_id, order_id FROM orders ORDER BY customer_id, order_date ASC", true, false},
		{"fn: <= ALL keeps the lowest for the highest", "Which product has the highest price?",
			"SELECT name FROM products WHERE price <= ALL (SELECT price FROM products)", true, false},
		{"fn: first_value ascending for the highest paid", "Who is the highest-paid employee in each department?",
			"SELECT DISTINCT dept, first_value(name) OVER (PARTITION BY dept ORDER BY salary ASC) FROM employees", true, false},
		{"fn: bottom 5 sorted descending", "Which are the bottom 5 stores by sales?",
			"SELECT store_id FROM stores ORDER BY total_sales DESC LIMIT 5", true, false},
		{"fn: tallest sorted ascending", "Who is the tallest player?",
			"SELECT name FROM players ORDER BY height ASC LIMIT 1", true, false},
		{"fn: highest minimum wage sorted ascending", "Which state has the highest minimum wage?",
			"SELECT state FROM wages ORDER BY minimum_wage ASC LIMIT 1", true, false},

		// ---- AggregateMismatched: right answers that must not be flagged ----
		{"fp: 1.0 * sum / count is an average", "What is the average order amount?",
			"SELECT 1.0 * sum(amount) / count(*) FROM orders", false, false},
		{"fp: sum * 1.0 / count is an average", "What is the average salary of each department?",
			"SELECT dept, sum(salary) * 1.0 / count(*) FROM employees GROUP BY dept", false, false},
		{"fp: average of per-customer sums (two-level)", "What is the average amount spent per customer?",
			"SELECT avg(customer_total) FROM (SELECT customer_id, sum(amount) AS customer_total FROM payments GROUP BY customer_id) t", false, false},
		{"fp: average daily revenue (two-level)", "What is the average daily revenue?",
			"SELECT avg(day_total) FROM (SELECT sale_date, sum(revenue) AS day_total FROM sales GROUP BY sale_date) d", false, false},
		{"fp: regions above the average of regional totals", "Which regions have total sales above the average sales of all regions?",
			"SELECT region FROM sales GROUP BY region HAVING sum(sales) > (SELECT avg(t) FROM (SELECT sum(sales) AS t FROM sales GROUP BY region) r)", false, false},
		{"fp: average written out in an outer query over a CTE", "What is the average sales per store?",
			"WITH s AS (SELECT sum(sales) AS total, count(DISTINCT store_id) AS n FROM sales) SELECT total / n FROM s", false, false},
		{"fp: average written out with scalar subqueries", "What is the average revenue per employee?",
			"SELECT (SELECT sum(revenue) FROM sales) / (SELECT count(*) FROM employees)", false, false},
		{"fp: total number by count(*) beside an average", "What is the total number of orders and the average order amount?",
			"SELECT count(*), avg(order_amount) FROM orders", false, false},
		{"fp: total number by count(*) with an average in HAVING", "What is the total number of reviews for businesses whose average review stars are above 4?",
			"SELECT count(*) FROM reviews WHERE business_id IN (SELECT business_id FROM reviews GROUP BY business_id HAVING avg(review_stars) > 4)", false, false},
		{"fp: total in thousands divides a sum", "What is the total revenue in thousands of dollars?",
			"SELECT sum(revenue) / 1000.0 FROM sales", false, false},
		{"fp: total duration in hours divides a sum", "What is the total duration of all calls in hours?",
			"SELECT sum(duration_minutes) / 60.0 FROM calls", false, false},
		{"fp: ratio of two totals", "What is the ratio of total sales to total returns?",
			"SELECT sum(sales)::numeric / sum(returns) FROM monthly_figures", false, false},
		{"fp: lowest maximum temperature", "What is the lowest maximum temperature recorded in 2014?",
			"SELECT min(max_temperature_f) FROM weather WHERE date >= '2014-01-01' AND date < '2015-01-01'", false, false},
		{"fp: sum insured is a column, on average", "How much is the sum insured on average for car policies?",
			"SELECT avg(sum_insured) FROM policies WHERE policy_type = 'car'", false, false},

		// ---- AggregateMismatched: right answers, currently quiet (regression) ----
		{"ok: CAST(sum AS float) / count", "What is the average order amount?",
			"SELECT CAST(SUM(amount) AS FLOAT) / COUNT(*) FROM orders", false, false},
		{"ok: sum / nullif(count)", "What is the average order amount?",
			"SELECT sum(amount) / NULLIF(count(*), 0) FROM orders", false, false},
		{"ok: weighted average", "What is the average price per unit sold?",
			"SELECT sum(price * quantity) / sum(quantity) FROM order_items", false, false},
		{"ok: share of total revenue", "What share of total revenue comes from each region?",
			"SELECT region, sum(revenue) / sum(sum(revenue)) OVER () FROM sales GROUP BY region", false, false},
		{"ok: minimum and maximum", "What are the minimum and maximum salaries?",
			"SELECT min(salary), max(salary) FROM employees", false, false},
		{"ok: average total (stored column)", "What is the average total price per order?",
			"SELECT avg(total_price) FROM orders", false, false},
		{"ok: total and average", "What are the total and average salaries of each department?",
			"SELECT dept, sum(salary), avg(salary) FROM employees GROUP BY dept", false, false},

		// ---- AggregateMismatched: wrong answers that must be flagged ----
		{"fn ok: avg with FILTER for a total", "What is the total revenue from online orders?",
			"SELECT avg(revenue) FILTER (WHERE channel = 'online') FROM orders", false, true},
		{"fn ok: pg_catalog.sum with a cast for an average", "What is the mean salary?",
			`SELECT pg_catalog.sum("BaseSalary")::numeric(10,2) FROM employees`, false, true},
		{"fn ok: min(DISTINCT) for a maximum", "What is the maximum score per student?",
			"SELECT student_id, MIN(DISTINCT score) FROM exams GROUP BY student_id", true, true},
		{"fn ok: sum over a window for an average", "For each order, show its amount and the average amount of the customer's orders.",
			"SELECT order_id, amount, sum(amount) OVER (PARTITION BY customer_id) FROM orders", false, true},
		{"fn ok: sum in a WHERE sublink for an average", "Which products cost more than the average price?",
			"SELECT name FROM products WHERE price > (SELECT SUM(p.price) FROM products p)", false, true},
		{"fn ok: avg in a UNION branch for a total", "What is the total amount of sales in each year?",
			"SELECT 2023, avg(amount) FROM sales_2023 UNION ALL SELECT 2024, avg(amount) FROM sales_2024", false, true},
	} {
		s := alone(c.question, c.sql)
		if s.ExtremeReversed != c.wantExtreme {
			t.Errorf("%s: ExtremeReversed %v, want %v\n\tQ: %s\n\tSQL: %s\n\treasons: %q", c.name, s.ExtremeReversed, c.wantExtreme, c.question, c.sql, s.Reasons())
		}
		if s.AggregateMismatched != c.wantAggregate {
			t.Errorf("%s: AggregateMismatched %v, want %v\n\tQ: %s\n\tSQL: %s\n\treasons: %q", c.name, s.AggregateMismatched, c.wantAggregate, c.question, c.sql, s.Reasons())
		}
	}
}
