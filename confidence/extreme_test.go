package confidence_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestExtremeReversed: a query that keeps the other end of what the
// question asks for, in every spelling of a sort, a maximum and a ranking
// (case, quoting, qualification, an output column's alias, nesting in WITH
// queries, subqueries, sublinks, LATERAL, windows), is doubted; one that
// keeps the end asked, both ends, or an end the question does not say, is
// not.
func TestExtremeReversed(t *testing.T) {
	for _, c := range []struct {
		name, q, sql string
		reason       string // "": not reversed
	}{
		{"the most, ascending", "Which customer has the most orders?",
			"SELECT customer_id FROM orders GROUP BY customer_id ORDER BY count(*) LIMIT 1", "the question asks for the most; the query keeps the lowest"},
		{"the most, descending", "Which customer has the most orders?",
			"SELECT customer_id FROM orders GROUP BY customer_id ORDER BY count(*) DESC LIMIT 1", ""},
		{"the highest, a minimum", "What is the highest price of a product?", "SELECT min(price) FROM products", "the question asks for the highest; the query keeps the lowest"},
		{"the highest, a maximum", "What is the highest price of a product?", "SELECT MAX(price) FROM products", ""},
		{"pg_catalog-qualified, upper case", "What is the lowest price?", `SELECT PG_CATALOG."max"("PRICE") FROM "PRODUCTS"`, "the question asks for the lowest; the query keeps the highest"},
		{"a maximum of another schema is no end", "What is the lowest price?", "SELECT stats.max(price) FROM products", ""},
		{"top N, ascending", "Who are the top 5 customers by revenue?",
			"SELECT c.name, sum(o.total) AS revenue FROM customers c JOIN orders o ON o.cid = c.id GROUP BY c.name ORDER BY revenue ASC LIMIT 5", "the question asks for the top; the query keeps the lowest"},
		{"top N, descending through an alias", "Who are the top 5 customers by revenue?",
			"SELECT c.name, sum(o.total) AS revenue FROM customers c JOIN orders o ON o.cid = c.id GROUP BY c.name ORDER BY revenue DESC NULLS LAST LIMIT 5", ""},
		{"the top 3 cheapest: top says nothing", "What are the top 3 cheapest products?", "SELECT name FROM products ORDER BY price LIMIT 3", ""},
		{"the top 3 cheapest, descending", "What are the top 3 cheapest products?", "SELECT name FROM products ORDER BY price DESC LIMIT 3", "the question asks for the cheapest; the query keeps the highest"},
		{"a sort without a limit keeps every row", "List the products from the highest price.", "SELECT name FROM products ORDER BY price", ""},
		{"both ends asked", "What are the minimum and maximum share?", "SELECT min(share), min(share) FROM tv_series", ""},
		{"from highest to lowest asks for an order, top for an end", "List the top 3 products ordered from highest to lowest price.", "SELECT name FROM products ORDER BY price LIMIT 3",
			"the question asks for the top; the query keeps the lowest"},
		{"from highest to lowest is no end", "Return the highest sale price of each make, ordered from highest to lowest.",
			"SELECT make, min(sale_price) FROM sales GROUP BY make ORDER BY 2 DESC", "the question asks for the highest; the query keeps the lowest"},
		{"from lowest to highest, the cheapest kept", "Which 3 products are the cheapest, from lowest to highest price?", "SELECT name FROM products ORDER BY price LIMIT 3", ""},
		{"the maxima a cut sort keeps are no end", "What are the top 3 diagnoses by maximum itch score?",
			"SELECT diag, max(itch) AS m FROM t GROUP BY diag ORDER BY m ASC LIMIT 3", "the question asks for the maximum; the query keeps the lowest"},
		{"the maxima a cut sort keeps, descending", "What are the top 3 diagnoses by maximum itch score?",
			"SELECT diag, max(itch) AS m FROM t GROUP BY diag ORDER BY m DESC LIMIT 3", ""},
		{"at least is a bound", "Which customers have at least 3 orders?", "SELECT customer_id FROM orders GROUP BY 1 HAVING count(*) >= 3 ORDER BY max(total) DESC LIMIT 1", ""},
		{"at most is a bound", "Which customer with at most 2 orders spent the least?",
			"SELECT customer_id FROM orders GROUP BY 1 HAVING count(*) <= 2 ORDER BY sum(total) DESC LIMIT 1", "the question asks for the least; the query keeps the highest"},
		{"one end of two kept as asked", "Which product has the highest price?",
			"SELECT name FROM products WHERE price = (SELECT max(price) FROM products) ORDER BY name LIMIT 1", ""},
		{"in a WITH query", "Which store sold the most?",
			"WITH s AS (SELECT store_id, sum(qty) AS n FROM sales GROUP BY 1 ORDER BY n ASC LIMIT 1) SELECT store_id FROM s", "the question asks for the most; the query keeps the lowest"},
		{"in a sublink", "How many cars accelerate faster than the one with the most horsepower?",
			"SELECT count(*) FROM cars WHERE accelerate > (SELECT min(horsepower) FROM cars)", "the question asks for the most; the query keeps the lowest"},
		{"in a LATERAL subquery", "For each customer, what is their largest order?",
			"SELECT c.name, o.total FROM customers c CROSS JOIN LATERAL (SELECT total FROM orders WHERE cid = c.id ORDER BY total LIMIT 1) o", "the question asks for the largest; the query keeps the lowest"},
		{"a ranking window", "Which 3 employees earn the most in each department?",
			"SELECT name FROM (SELECT name, rank() OVER (PARTITION BY dept ORDER BY salary) AS r FROM employees) x WHERE r <= 3", "the question asks for the most; the query keeps the lowest"},
		{"a ranking window, descending", "Which 3 employees earn the most in each department?",
			"SELECT name FROM (SELECT name, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY salary DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS r FROM employees) x WHERE r <= 3", ""},
		{"a rank's low end is its best", "Who are the top 5 players?", "SELECT name FROM players ORDER BY ranking LIMIT 5", ""},
		{"the oldest: a high age", "Who is the oldest singer?", "SELECT name FROM singer ORDER BY age LIMIT 1", "the question asks for the oldest; the query keeps the lowest"},
		{"the oldest: an early date", "Who is the oldest singer?", "SELECT name FROM singer ORDER BY birth_date LIMIT 1", ""},
		{"the oldest: a late date", "Who is the oldest singer?", "SELECT name FROM singer ORDER BY birth_date DESC LIMIT 1", "the question asks for the oldest; the query keeps the latest"},
		{"the youngest: a low age", "Who is the youngest singer?", "SELECT name FROM singer ORDER BY age ASC LIMIT 1", ""},
		{"the youngest says nothing of a weight", "How much does the youngest dog weigh?", "SELECT min(weight) FROM pets WHERE pettype = 'dog'", ""},
		{"the most recent order", "When was the most recent order placed?", "SELECT min(order_date) FROM orders", "the question asks for the most; the query keeps the earliest"},
		{"the earliest order", "When was the earliest order placed?", `SELECT "created_at" FROM orders ORDER BY "created_at" LIMIT 1`, ""},
		{"the latest order, ascending", "Which is the latest order?", "SELECT id FROM orders ORDER BY created_at LIMIT 1", "the question asks for the latest; the query keeps the earliest"},
		{"a quoted value is no question word", "Which 3 items named 'Most Wanted' cost under 5?", "SELECT name FROM items WHERE name = 'Most Wanted' AND cost < 5 ORDER BY cost LIMIT 3", ""},
		{"a quoted value in lower case", "Which 3 items named 'most wanted' cost under 5?", "SELECT name FROM items WHERE name = 'most wanted' AND cost < 5 ORDER BY cost LIMIT 3", ""},
		{"no end asked", "List the products and their prices.", "SELECT name, min(price) FROM products GROUP BY name", ""},
		{"no end kept", "Which customer has the most orders?", "SELECT customer_id, count(*) FROM orders GROUP BY 1", ""},
		{"a set operation's branches", "Which customer has the most orders?",
			"(SELECT customer_id FROM orders GROUP BY 1 ORDER BY count(*) LIMIT 1) UNION (SELECT customer_id FROM vip_orders GROUP BY 1 ORDER BY count(*) LIMIT 1)", "the question asks for the most; the query keeps the lowest"},
		{"a name holds a cue word", "What is the lowest price at Largest Mart?",
			"SELECT price FROM prices WHERE store = 'Largest Mart' ORDER BY price DESC LIMIT 1", "the question asks for the lowest; the query keeps the highest"},
		{"top says no end of another superlative", "Who are the top 3 slowest runners?", "SELECT name FROM runners ORDER BY speed LIMIT 3", ""},
		{"a difference of two columns keeps no end to tell", "Which product has the highest margin?", "SELECT name FROM products ORDER BY cost - price LIMIT 1", ""},
		{"a negated key keeps the other end", "Which product has the highest price?", "SELECT name FROM products ORDER BY -price DESC LIMIT 1",
			"the question asks for the highest; the query keeps the lowest"},
		{"a difference of two times is a duration", "Which flight has the shortest duration?",
			"SELECT flight_id, (arrival_time - departure_time) / 60 AS minutes FROM flight ORDER BY arrival_time - departure_time DESC LIMIT 1",
			"the question asks for the shortest; the query keeps the highest"},
		{"the shortest duration, ascending", "Which flight has the shortest duration?",
			"SELECT flight_id FROM flight ORDER BY arrival_time - departure_time LIMIT 1", ""},
		{"an output's own name is no column of the schema", "What are the top 3 diagnoses by maximum itch score?",
			"SELECT diag, max(itch) AS max_itch_score FROM t GROUP BY diag ORDER BY max_itch_score ASC LIMIT 3", "the question asks for the maximum; the query keeps the lowest"},
		{"VALUES is no end", "What is the largest value?", "SELECT v FROM (VALUES (1), (2)) t(v) ORDER BY v DESC LIMIT 1", ""},
		{"a dollar-quoted value is no end", "What is the largest order?", "SELECT $$min$$ FROM orders ORDER BY total DESC LIMIT 1", ""},
	} {
		s := alone(c.q, c.sql)
		if s.ExtremeReversed != (c.reason != "") {
			t.Errorf("%s: ExtremeReversed %v, want %v (%v)", c.name, s.ExtremeReversed, c.reason != "", s.Reasons())
		}
		checkReason(t, c.name, s, c.reason, "the query keeps the")
	}
	checkInput(t, "extreme_reversed", confidence.Signals{ExtremeReversed: true})
}

// alone measures the signals of sql as the only candidate answering q.
func alone(q, sql string) confidence.Signals {
	in := &score.Input{Question: q,
		Candidates: []score.Candidate{{SQL: sql, Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	return confidence.Of(in, []float64{1}, 0)
}

// checkReason checks that s gives the reason want, or, want "", no reason
// that holds marker.
func checkReason(t *testing.T, name string, s confidence.Signals, want, marker string) {
	t.Helper()
	reasons := strings.Join(s.Reasons(), " | ")
	if want != "" && !strings.Contains(reasons, want) || want == "" && strings.Contains(reasons, marker) {
		t.Errorf("%s: reasons %q, want %q", name, reasons, want)
	}
}
