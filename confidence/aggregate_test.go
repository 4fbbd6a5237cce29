package confidence_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
)

// TestAggregateMismatched: a query that sums what the question asks the
// average of, or averages what it asks the total of, in every spelling
// (case, quoting, qualification, casts, nesting in WITH queries,
// subqueries, sublinks, LATERAL, windows), is doubted; one that computes
// what is asked, written out or beside other aggregates, is not.
func TestAggregateMismatched(t *testing.T) {
	for _, c := range []struct {
		name, q, sql string
		reason       string // "": no mismatch
	}{
		{"a sum for an average", "What are the top 3 insurance types by average patient height in cm?",
			"SELECT ins_type, sum(height_cm) AS avg_height, avg(weight_kg) FROM patients GROUP BY 1 ORDER BY 2 DESC LIMIT 3",
			"the question asks for the average patient height; the query computes sum(height_cm) instead"},
		{"an average", "What are the top 3 insurance types by average patient height in cm?",
			"SELECT ins_type, avg(height_cm) FROM patients GROUP BY 1 ORDER BY 2 DESC LIMIT 3", ""},
		{"an average written out", "What is the average patient height?",
			"SELECT sum(height_cm)::numeric / count(*) FROM patients", ""},
		{"an average for a total", "What is the total revenue of each state?",
			`SELECT state, AVG("Revenue") FROM sales GROUP BY state`, "the question asks for the total revenue; the query computes avg(Revenue) instead"},
		{"pg_catalog-qualified, cast", "What is the total revenue?", "SELECT pg_catalog.avg(s.revenue)::int FROM sales s",
			"the question asks for the total revenue; the query computes avg(revenue) instead"},
		{"another schema's avg", "What is the total revenue?", "SELECT stats.avg(revenue) FROM sales", ""},
		{"a total is a count", "What is the total number of students?", "SELECT count(student_id) FROM students", ""},
		{"a total of a stored count", "What is the total number of reviews for each category?",
			"SELECT category, avg(review_count) FROM business GROUP BY 1", "the question asks for the total number of reviews; the query computes avg(review_count) instead"},
		{"an average of counts", "What is the average number of employees per department?",
			"SELECT avg(n) FROM (SELECT count(emp_id) AS n FROM employees GROUP BY dept_id) d", ""},
		{"an abbreviated column", "What is the average drug amount per treatment?", "SELECT sum(tot_drug_amt) FROM treatments",
			"the question asks for the average drug amount; the query computes sum(tot_drug_amt) instead"},
		{"another column summed", "What is the average rating and the total number of votes?",
			"SELECT avg(rating), sum(votes) FROM reviews", ""},
		{"in a WITH query", "What is the average salary of each department?",
			"WITH d AS (SELECT dept, SUM(salary) AS s FROM emp GROUP BY dept) SELECT dept, s FROM d", "the question asks for the average salary; the query computes sum(salary) instead"},
		{"in a sublink", "Which employees earn more than the average salary?",
			"SELECT name FROM emp WHERE salary > (SELECT sum(salary) FROM emp)", "the question asks for the average salary; the query computes sum(salary) instead"},
		{"in a LATERAL subquery", "For each customer, what is the average order total?",
			"SELECT c.name, o.x FROM customers c CROSS JOIN LATERAL (SELECT sum(total) AS x FROM orders WHERE cid = c.id) o", "the question asks for the average order total; the query computes sum(total) instead"},
		{"a window", "Show each sale with the average price of its store.",
			"SELECT id, sum(price) OVER (PARTITION BY store_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM sales", "the question asks for the average price; the query computes sum(price) instead"},
		{"a window average", "Show each sale with the average price of its store.",
			"SELECT id, avg(price) OVER (PARTITION BY store_id) FROM sales", ""},
		{"a quoted value", "Which plan is named 'Total Care' and what is its price?", "SELECT name, avg(care) FROM plans WHERE name = 'Total Care' GROUP BY 1", ""},
		{"a quoted value in lower case", "Which plan is named 'total care' and what is its price?", "SELECT name, avg(care) FROM plans WHERE name = 'total care' GROUP BY 1", ""},
		{"a word after the aggregate, then the column", "What is the average of the ratings?", "SELECT sum(rating) FROM reviews",
			"the question asks for the average ratings; the query computes sum(rating) instead"},
		{"a dollar-quoted value is no column", "What is the average price?", "SELECT sum($$price$$::int) FROM items", ""},
		{"the minimum for the maximum", "What are the top 3 diagnoses by maximum itch VAS score at day 100?",
			"SELECT di.diag_name, min(o.day100_itch_vas) AS max_itch_score FROM outcomes o JOIN diagnoses di USING (diag_id) GROUP BY 1 ORDER BY 2 DESC LIMIT 3",
			"the question asks for the maximum itch vas score; the query computes min(day100_itch_vas) instead"},
		{"the maximum", "What is the maximum itch score?", "SELECT MAX(itch_score) FROM outcomes", ""},
		{"a stored total averaged", "What is the average total amount of orders?", "SELECT avg(total_amount) FROM orders", ""},
		{"a stored average maximised", "What is the maximum average rating?", "SELECT max(average_rating) FROM business", ""},
		{"a stored average minimised", "What is the maximum average rating?", "SELECT min(average_rating) FROM business",
			"the question asks for the maximum average rating; the query computes min(average_rating) instead"},
		{"a stored total averaged for the total", "What was the total amount of purchase orders placed in 2023?",
			"SELECT avg(tot_amt) FROM purchase_orders WHERE order_dt >= '2023-01-01'", "the question asks for the total amount; the query computes avg(tot_amt) instead"},
		{"a stored total averaged, the word said twice", "Return the specialty, the number of treatments and the total drug amount, top 3 by total drug amount.",
			"SELECT specialty, count(*), avg(tot_drug_amt) FROM treatments GROUP BY 1 ORDER BY 3 DESC LIMIT 3",
			"the question asks for the total drug amount; the query computes avg(tot_drug_amt) instead"},
		{"a stored total summed", "What was the total amount of purchase orders placed in 2023?",
			"SELECT sum(tot_amt) FROM purchase_orders WHERE order_dt >= '2023-01-01'", ""},
		{"the column named, another averaged", "What is the minimum temperature of the day with the highest pressure?",
			"SELECT min_temperature_f FROM weather WHERE pressure = (SELECT max(pressure) FROM weather) AND max_temperature_f > 0", ""},
		{"a name holds an aggregate word", "How many members does Total Fitness have, and what is their average fitness score?",
			"SELECT count(*), avg(fitness_score) FROM members WHERE gym = 'Total Fitness'", ""},
		{"nothing aggregated", "What is the average price of item 5?", "SELECT avg_price FROM items WHERE id = 5", ""},
	} {
		s := alone(c.q, c.sql)
		if s.AggregateMismatched != (c.reason != "") {
			t.Errorf("%s: AggregateMismatched %v, want %v (%v)", c.name, s.AggregateMismatched, c.reason != "", s.Reasons())
		}
		checkReason(t, c.name, s, c.reason, "instead")
	}
	checkInput(t, "aggregate_mismatched", confidence.Signals{AggregateMismatched: true})
}
