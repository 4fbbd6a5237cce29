package confidence_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestSignals: what the question asks for against what the query does,
// one mismatch at a time, with the reason that names it.
func TestSignals(t *testing.T) {
	one := func(q, sql string, tables, columns []string) confidence.Signals {
		in := &score.Input{Question: q, ContextTables: []string{"public.customers", "public.orders", "public.employees"},
			Candidates: []score.Candidate{{SQL: sql, Votes: 1, Tables: tables, Columns: columns, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		return confidence.Of(in, []float64{1}, 0)
	}
	orders := []string{"public.orders"}
	for _, c := range []struct {
		name, q, sql string
		tables       []string
		check        func(confidence.Signals) bool
		reason       string
	}{
		{"count asked, list given", "How many orders are there?", "SELECT id FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 1 && s.ShapeMissed == 1 }, "the question asks how many"},
		{"count asked, count in ORDER BY only", "How many orders are there?", "SELECT status FROM orders GROUP BY status ORDER BY count(*) DESC LIMIT 1", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 1 }, "asks how many"},
		{"top 5, one count", "Top 5 customers by revenue", "SELECT count(*) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed >= 1 }, "the question asks for 5 rows; the query returns one count"},
		{"top 3 kept", "Show the top 3 orders by amount", "SELECT id FROM orders ORDER BY amount DESC LIMIT 3", orders,
			func(s confidence.Signals) bool {
				return s.ShapeAsked == 1 && s.ShapeMissed == 0 && s.TopRows && !s.TopGroups
			}, ""},
		{"an average number is no count", "What is the average number of items in an order?", "SELECT avg(items) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 1 && s.ShapeMissed == 0 }, ""},
		{"a full name is a name", "What are the names and ids of all customers?", "SELECT full_name, id FROM orders", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"names put together are a name", "Who is the manager of each order?", "SELECT first_name || ' ' || last_name AS manager FROM orders", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"a name written as the schema writes it", "Return each doctor's doc_id and specialty", "SELECT doc_id, specialty FROM orders", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"a superlative asks for what it is the most of", "What are the highest and lowest prices of each ticker?", "SELECT ticker, max(high) AS h, min(low) AS l FROM orders GROUP BY ticker", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"a title names a publication", "What are the top 3 publications by citations?", "SELECT title, citation_num FROM orders ORDER BY citation_num DESC LIMIT 3", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"a city's name is no customer's", "What are the names and ids of all customers?", "SELECT city_name, id FROM orders", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 1 }, "the query returns city name, which the question does not ask for"},
		{"year open", "How many orders were placed in 2024?", "SELECT count(*) FROM orders WHERE placed_on >= '2024-01-01'::date", orders,
			func(s confidence.Signals) bool { return s.PeriodOpen && s.ValuesUsed == 1 }, "the question names a year; the query bounds placed_on from one side only"},
		{"year closed", "How many orders were placed in 2024?", "SELECT count(*) FROM orders WHERE placed_on >= '2024-01-01' AND placed_on < '2025-01-01'", orders,
			func(s confidence.Signals) bool { return !s.PeriodOpen }, ""},
		{"year left out", "How many orders in 2024?", "SELECT count(*) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ValuesUsed == 0 }, `the question names "2024"`},
		{"quoted value used", `How many orders have status "Open"?`, "SELECT count(*) FROM orders WHERE status = 'Open'", orders,
			func(s confidence.Signals) bool { return s.ValuesUsed == 1 }, ""},
		{"name left out", "How many orders does Aberdeen have?", "SELECT count(*) FROM orders", orders,
			func(s confidence.Signals) bool { return s.NamesMissed == 1 }, `"Aberdeen"`},
		{"no table", "How many employees are in each department?", "SELECT 1", nil,
			func(s confidence.Signals) bool { return s.ReadsNoTable && s.ShapeMissed == 2 }, "the query reads no table"},
		{"count ranked", "Which status has the most number of orders?", "SELECT status FROM orders GROUP BY status ORDER BY count(*) DESC LIMIT 1", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 2 && s.ShapeMissed == 0 }, ""},
		{"a bound is no superlative", "Which customers have at least 3 orders?", "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) >= 3", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 && s.ShapeExtra == 0 }, ""},
		{"an apostrophe opens no quote", "What are each owner's first name and their dog's name?", "SELECT id FROM orders", orders,
			func(s confidence.Signals) bool { return s.ValuesUsed == 1 && s.NamesMissed == 0 }, ""},
		{"order asked, none given", "List the customers' names ordered by age.", "SELECT id FROM orders WHERE id IN (SELECT id FROM orders ORDER BY amount LIMIT 1)", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 1 && s.ShapeMissed == 1 }, "the question asks for the rows in an order"},
		{"order asked, sorted", "List the orders in descending order of amount.", "SELECT id FROM orders ORDER BY amount DESC", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 1 && s.ShapeMissed == 0 }, ""},
		{"order asked, ranked in a window", "Rank the orders ordered by amount.", "SELECT id, rank() OVER (ORDER BY amount) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"ordered is a purchase", "How many customers ordered in 2024?", "SELECT count(DISTINCT customer_id) FROM orders WHERE date_part('year', ordered_at) = 2024", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 1 && s.ShapeMissed == 0 }, ""},
		{"a period from today, computed", "How many orders were placed in the past 30 days, inclusive of today?", "SELECT count(*) FROM orders WHERE placed_at >= CURRENT_DATE - INTERVAL '30 days'", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered == 1 }, ""},
		{"a period from today, from now()", "How many orders were placed in the previous calendar month, excluding the current one?", "SELECT count(*) FROM orders WHERE placed_at >= date_trunc('month', pg_catalog.now()) - INTERVAL '1 month' AND placed_at < date_trunc('month', now())", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered == 1 }, ""},
		{"a period from today, no clock", "How many orders were placed in the past 30 days, inclusive of today?", "SELECT count(*) FROM orders WHERE placed_by = CURRENT_USER AND placed_at >= '2024-01-01'", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered < 1 }, "past, days, inclusive and today"},
		{"a period from today, left out", "How many orders were placed in the past 30 days, inclusive of today?", "SELECT count(*) FROM orders WHERE placed_at >= '2024-01-01'", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered < 1 }, "past, days, inclusive and today"},
		{"a unit of time in a difference of times", "On average, how many days late were deliveries?", "SELECT avg(received_on - expected_dt) FROM orders", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered > 0 }, "asks about late and deliveries,"},
		{"a unit of time, no difference", "On average, how many days late were deliveries?", "SELECT avg(amount - 1) FROM orders", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered == 0 }, "asks about days, late and deliveries,"},
		{"a superlative is a shape", "Which river is the longest?", "SELECT river_name FROM river ORDER BY length DESC LIMIT 1", []string{"public.river"},
			func(s confidence.Signals) bool { return s.QuestionCovered == 1 && s.ShapeMissed == 0 }, ""},
		{"a unit's conversion is no value", "Which orders took more than 2 hours?", "SELECT id FROM orders WHERE minutes / 60 > 2", orders,
			func(s confidence.Signals) bool { return s.ConstantsUnasked == 0 }, ""},
		{"a piece of a format is no value", "How many orders were placed in January 2021?", "SELECT count(*) FROM orders WHERE year || '-01' = '2021-01'", orders,
			func(s confidence.Signals) bool { return s.ConstantsUnasked == 0 }, ""},
		{"a compared number is", "Which orders took more than 2 hours?", "SELECT id FROM orders WHERE minutes > 60", orders,
			func(s confidence.Signals) bool { return s.ConstantsUnasked == 1 }, `the query filters on "60"`},
		{"instructions ask for no data", "Calculate the total amount of the orders by joining the orders table; give the answer as an integer.", "SELECT sum(amount)::int FROM orders", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered == 1 }, ""},
		{"a name written with a hyphen", "How many check-ins are there on each day?", "SELECT day, count(*) FROM checkin GROUP BY day", []string{"public.checkin"},
			func(s confidence.Signals) bool { return s.QuestionCovered == 1 }, ""},
		{"a hyphen glues no other name", "How many check-ins are there on each day?", "SELECT day, count(*) FROM visits GROUP BY day", []string{"public.visits"},
			func(s confidence.Signals) bool { return s.QuestionCovered < 1 }, "check and ins"},
		{"a period is no top N", "How many orders were placed in the last 10 days?", "SELECT count(*) FROM orders WHERE placed_at >= current_date - 10", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"a period of calendar months is no top N", "How many orders were placed in the last 10 calendar months?", "SELECT count(*) FROM orders WHERE placed_at >= current_date - interval '10 months'", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"a period of business days is no top N", "How many orders shipped in the past 5 business days?", "SELECT count(*) FROM orders WHERE shipped_at >= current_date - 7", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"last 3 orders", "Show the last 3 orders.", "SELECT id FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 1 }, "the question asks for 3 rows"},
		{"top N per group in a window", "Who are the top 3 customers by amount in each region?", "SELECT * FROM (SELECT region, customer_id, rank() OVER (PARTITION BY region ORDER BY amount DESC) AS r FROM orders) x WHERE r <= 3", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"latest per group by DISTINCT ON", "What is the latest order of each customer?", "SELECT DISTINCT ON (customer_id) customer_id, id FROM orders ORDER BY customer_id, placed_at DESC", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"a superlative that says the order", "List the customers ordered from highest to lowest amount.", "SELECT customer_id FROM orders ORDER BY amount DESC", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"where a sorted list starts", "How many orders were placed per month? Return the month, starting from the earliest date.", "SELECT date_trunc('month', placed_at) AS m, count(*) FROM orders GROUP BY 1 ORDER BY 1", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"where an unsorted list starts", "How many orders were placed per month? Return the month, starting from the earliest date.", "SELECT date_trunc('month', placed_at) AS m, count(*) FROM orders GROUP BY 1", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 2 }, "the question asks for the rows in an order; the query does not sort them"},
		{"a name's start is no order", "How many customers have a name starting with the letter A?", "SELECT count(*) FROM orders WHERE customer_name LIKE 'A%'", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"a superlative a sort does not answer", "Which customer has the highest amount?", "SELECT customer_id FROM orders ORDER BY amount DESC", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 1 }, "the question asks for the highest"},
		{"how many days is a duration", "On average, how many days after the order date did customers pay?", "SELECT avg(paid_on - placed_at) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"a sentence's first word is no name", "Which order took longest? Convert to minutes.", "SELECT id FROM orders ORDER BY took DESC LIMIT 1", orders,
			func(s confidence.Signals) bool { return s.NamesMissed == 0 }, ""},
		{"IDs and months are no names", "Return the customer IDs with orders since April 1 2023.", "SELECT customer_id FROM orders WHERE placed_at >= '2023-04-01'", orders,
			func(s confidence.Signals) bool { return s.NamesMissed == 0 }, ""},
		{"a name inside the sentence is", "Which orders come from Rotterdam? Show their ids.", "SELECT id FROM orders", orders,
			func(s confidence.Signals) bool { return s.NamesMissed == 1 }, `"Rotterdam"`},
		{"a ratio of counts", "What is the ratio of the number of open orders to closed orders?",
			"SELECT CAST(count(CASE WHEN status = 'open' THEN 1 END) AS float) / NULLIF(count(CASE WHEN status = 'closed' THEN 1 END), 0) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 2 && s.ShapeMissed == 0 && s.ShapeExtra == 0 }, ""},
		{"a ratio asked, a count given", "What is the ratio of open orders to closed orders?", "SELECT count(*) FROM orders WHERE status = 'open'", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 1 && s.ShapeExtra == 1 }, "the question asks for a ratio; the query divides nothing"},
		{"thousands grouped", "Which orders were over $30,000?", "SELECT id FROM orders WHERE amount > 30000", orders,
			func(s confidence.Signals) bool { return s.ValuesUsed == 1 && s.ConstantsUnasked == 0 }, ""},
		{"a percentage as a share", "Which orders paid less than 70 percent of their amount?", "SELECT id FROM orders WHERE paid < 0.7 * amount", orders,
			func(s confidence.Signals) bool { return s.ValuesUsed == 1 && s.ConstantsUnasked == 0 }, ""},
		{"a name by its code", "How many orders come from California?", "SELECT count(*) FROM orders WHERE state = 'CA'", orders,
			func(s confidence.Signals) bool { return s.NamesMissed == 0 && s.ConstantsUnasked == 0 }, ""},
		{"a name by its code is a word used", "How many orders are from New York?", "SELECT count(*) FROM orders WHERE state = 'NY'", orders,
			func(s confidence.Signals) bool { return s.QuestionCovered == 1 }, ""},
		{"a code of another name", "How many orders come from Texas?", "SELECT count(*) FROM orders WHERE state = 'CA'", orders,
			func(s confidence.Signals) bool { return s.NamesMissed == 1 && s.ConstantsUnasked == 1 }, `the query filters on "CA"`},
		{"a measure its adjective asks for", "Which orders are the longest, from longest to shortest?", "SELECT id, length FROM orders ORDER BY length DESC", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"an age asked by its adjective", "Which customers are older than 30?", "SELECT customer_name, age FROM orders WHERE age > 30", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"a measure no adjective asks for", "Which orders are the newest?", "SELECT id, length FROM orders ORDER BY created DESC", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 1 }, "the query returns length, which the question does not ask for"},
		{"columns not asked for", "How many orders are from each region?", "SELECT status, channel, count(*) FROM orders GROUP BY status, channel", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 2 }, "the query returns status and channel, which the question does not ask for"},
		{"names, keys and counts are the answer's shape", "How many orders does each customer have?", "SELECT customer_id, customer_name, count(*) FROM orders GROUP BY customer_id, customer_name", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"a column run together with a question word", "What is the region of each order?", "SELECT sbregioncode FROM orders", orders,
			func(s confidence.Signals) bool { return s.ColumnsUnasked == 0 }, ""},
		{"per in a rate is no group", "Which car has the highest miles per gallon?", "SELECT id FROM orders ORDER BY mpg DESC LIMIT 1", orders,
			func(s confidence.Signals) bool { return s.ShapeAsked == 1 && s.ShapeMissed == 0 }, ""},
		{"each time is no group", "What is the average number of items ordered each time?", "SELECT avg(items) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"per a month is", "How many orders per month?", "SELECT count(*) FROM orders", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 1 }, `the question asks for a result per group ("per")`},
		{"several rows in order answer a superlative", "What are the most common reasons for returns?", "SELECT reason, count(*) FROM orders GROUP BY reason ORDER BY count(*) DESC", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 0 }, ""},
		{"one row is not answered by a sort", "What is the most common reason for returns?", "SELECT reason, count(*) FROM orders GROUP BY reason ORDER BY count(*) DESC", orders,
			func(s confidence.Signals) bool { return s.ShapeMissed == 1 }, "the question asks for the most"},
		{"other tables", "Which customers bought the most?", "SELECT first_name FROM employees", []string{"public.employees"},
			func(s confidence.Signals) bool { return s.QuestionCovered < 0.5 && s.ContextRank > 0.5 }, "the query reads employees; the question asks about customers"},
	} {
		s := one(c.q, c.sql, c.tables, nil)
		if !c.check(s) {
			t.Errorf("%s: signals %+v", c.name, s)
		}
		reasons := strings.Join(s.Reasons(), " | ")
		if c.reason != "" && !strings.Contains(reasons, c.reason) {
			t.Errorf("%s: reasons %q, want %q", c.name, reasons, c.reason)
		}
	}
	// A ratio or an average stored in a column answers the shape.
	if s := one("What is the pixel aspect ratio of the orders?", "SELECT pixel_aspect_ratio_par FROM orders", orders, []string{"public.orders.pixel_aspect_ratio_par"}); s.ShapeMissed != 0 {
		t.Errorf("stored ratio: %v", s.Reasons())
	}
	if s := one("What is the pixel aspect ratio of the orders?", "SELECT pixel_aspect FROM orders", orders, []string{"public.orders.pixel_aspect"}); s.ShapeMissed != 1 {
		t.Errorf("no ratio: %+v", s)
	}
	if s := one("Which order has the highest average amount?", "SELECT id FROM orders ORDER BY average DESC LIMIT 1", orders, []string{"public.orders.average", "public.orders.id"}); s.ShapeMissed != 0 {
		t.Errorf("stored average: %v", s.Reasons())
	}
	// "each" answered by the rows of the table it names, aggregating
	// nothing; an aggregate over that table is one row, not one per row.
	perRow := func(sql string, tables []string) bool {
		s := one("What is the average price of each order?", sql, tables, nil)
		return strings.Contains(strings.Join(s.Reasons(), " | "), "a result per group")
	}
	if perRow("SELECT id, avg_price FROM orders", orders) {
		t.Error("each order, one row per order: doubted as no group")
	}
	if !perRow("SELECT avg(price) FROM orders", orders) {
		t.Error("each order, one average of all orders: not doubted")
	}
	if !perRow("SELECT id, avg_price FROM customers", []string{"public.customers"}) {
		t.Error("each order, the rows of another table: not doubted")
	}
	// An extreme stored in a column answers the superlative: "the highest
	// point" is highlow.highest_point; another column does not.
	if s := one("What is the highest point of Texas?", "SELECT highest_point FROM orders WHERE state = 'Texas'", orders, []string{"public.orders.highest_point", "public.orders.state"}); s.ShapeMissed != 0 {
		t.Errorf("stored extreme: %v", s.Reasons())
	}
	if s := one("What is the highest point of Texas?", "SELECT point FROM orders WHERE state = 'Texas'", orders, []string{"public.orders.point", "public.orders.state"}); s.ShapeMissed != 1 {
		t.Errorf("no extreme: %+v", s)
	}
	// Words run together in a name (lifeexpectancy) are the question's
	// words all the same; "life" alone is in no name.
	if s := one("What is the average life expectancy?", "SELECT avg(lifeexpectancy) FROM orders", orders, []string{"public.orders.lifeexpectancy"}); s.QuestionCovered != 1 {
		t.Errorf("run-together name: question covered %.2f (%v)", s.QuestionCovered, s.Reasons())
	}
	// A column the question reaches through its table's name
	// (customers.customer_id for "customers") is used by a query that
	// reads the table; customers.name is not.
	linked := func(q, sql string, columns, linked []string) float64 {
		in := &score.Input{Question: q, Columns: linked,
			Candidates: []score.Candidate{{SQL: sql, Votes: 1, Tables: []string{"public.customers"}, Columns: columns, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		return confidence.Of(in, []float64{1}, 0).ColumnsLinked
	}
	if got := linked("How many customers do we have?", "SELECT count(*) FROM customers", nil, []string{"public.customers.customer_id"}); got != 1 {
		t.Errorf("count of a table: columns linked %.2f, want 1", got)
	}
	if got := linked("What are the names of customers?", "SELECT age FROM customers", []string{"public.customers.age"}, []string{"public.customers.name"}); got != 0 {
		t.Errorf("name not returned: columns linked %.2f, want 0", got)
	}
	if got := linked("How many customers placed orders?", "SELECT count(*) FROM customers", nil, []string{"public.orders.customer_id"}); got != 1 {
		t.Errorf("another table's column named after the table read: columns linked %.2f, want 1", got)
	}
	if got := linked("How many orders do we have?", "SELECT count(*) FROM customers", nil, []string{"public.orders.order_id"}); got != 0 {
		t.Errorf("another table's key: columns linked %.2f, want 0", got)
	}
	// A stored value the question does not write out ("Eastern Asia" for
	// "Asia") is not one it names.
	in := &score.Input{Question: "How many orders come from Asia?", Values: []string{"Asia", "Eastern Asia"},
		Candidates: []score.Candidate{{SQL: "SELECT count(*) FROM orders WHERE region = 'Asia'", Votes: 1, Tables: orders, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	if s := confidence.Of(in, []float64{1}, 0); s.ValuesUsed != 1 {
		t.Errorf("stored values: used %.2f (%v)", s.ValuesUsed, s.Reasons())
	}
	// A stored value the question writes but for its words' endings is
	// named ('Disputed' for "in dispute", 'Monday' and 'Mondays' are one
	// value); one that shares only some of its words is not ('US Airways'
	// for "Jetblue Airways").
	for _, c := range []struct {
		q, sql string
		values []string
		used   float64
		missed int
		reason string
	}{
		{"How many invoices are in dispute?", "SELECT count(*) FROM orders", []string{"Disputed"}, 0, 1, `the question names "Disputed"; the query does not use it`},
		{"Which products are stored in Rotterdam?", "SELECT count(*) FROM orders", []string{"Rotterdam", "Rotterdam  "}, 0, 1, `the question names "Rotterdam"; the query does not use it`},
		{"How many invoices are in dispute?", "SELECT count(*) FROM orders WHERE status = 'Disputed'", []string{"Disputed"}, 1, 0, ""},
		{"What was the rate on 1 March 2024?", "SELECT rate FROM orders WHERE day = DATE '2024-03-01'", []string{"March"}, 1, 0, ""},
		{"What was the rate on 1 March 2024?", "SELECT rate FROM orders WHERE day = DATE '2024-04-01'", []string{"March"}, 2.0 / 3, 1, `the question names "March"`},
		{"How many orders ship on Mondays?", "SELECT count(*) FROM orders WHERE day = 'Mondays'", []string{"Monday", "Mondays"}, 1, 0, ""},
		{"What country is Jetblue Airways affiliated with?", "SELECT country FROM orders WHERE airline = 'JetBlue Airways'", []string{"US Airways", "JetBlue Airways"}, 1, 0, ""},
		// A pattern with a wildcard between the value's words uses it.
		{"Who wrote in the domain \"Computer Science\"?", "SELECT name FROM orders WHERE domain ILIKE '%computer%science%'", nil, 1, 0, ""},
		{"Who wrote in the domain \"Computer Science\"?", "SELECT name FROM orders WHERE domain ILIKE 'computer_science'", nil, 1, 0, ""},
		{"Who wrote in the domain \"Computer Science\"?", "SELECT name FROM orders WHERE domain ILIKE '%science%computer%'", nil, 0, 1, `the question names "Computer Science"`},
		// A number that is part of a name the query reads is used: "day
		// 100" is day100_pasi_score, "line 1" is line_1.
		{"What is the average PASI score at day 100 per insurance type?", "SELECT ins_type, avg(o.day100_pasi_score) FROM orders o GROUP BY 1", nil, 1, 0, ""},
		{"What are all the addresses including line 1 and line 2?", "SELECT line_1, LINE_2 FROM orders", nil, 1, 0, ""},
		{"What is the average PASI score at day 100?", "SELECT avg(day10_pasi_score) FROM orders", nil, 0, 1, `the question names "100"`},
		{"What is the average PASI score at day 100?", "SELECT avg(day1000_pasi_score) FROM orders", nil, 0, 1, `the question names "100"`},
		{"What is the average PASI score at day 100?", "SELECT avg(midday100_score) FROM orders", nil, 0, 1, `the question names "100"`},
		{"How many orders have more than 100 lines?", "SELECT count(*) FROM orders WHERE line_100 > 0", nil, 0, 1, `the question names "100"`},
	} {
		in := &score.Input{Question: c.q, Values: c.values,
			Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: orders, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		s := confidence.Of(in, []float64{1}, 0)
		if s.ValuesUsed != c.used {
			t.Errorf("%q / %q: values used %.2f, want %.2f (%v)", c.q, c.sql, s.ValuesUsed, c.used, s.Reasons())
		}
		if s.ValuesMissed != c.missed {
			t.Errorf("%q / %q: values missed %d, want %d", c.q, c.sql, s.ValuesMissed, c.missed)
		}
		if r := strings.Join(s.Reasons(), " | "); c.reason != "" && !strings.Contains(r, c.reason) {
			t.Errorf("%q: reasons %q, want %q", c.q, r, c.reason)
		}
	}
	checkInput(t, "values_missed", confidence.Signals{ValuesMissed: 2})
	// Repeated rows are said as such, not as a defect.
	dup := &score.Input{Question: "List the order statuses.", Candidates: []score.Candidate{{SQL: "SELECT status FROM orders", Votes: 1, Tables: orders,
		Agreement: -1, OrderedAgreement: -1, ResultRows: 3, ResultGroup: -1, DuplicateRows: true}}}
	if s := confidence.Of(dup, []float64{1}, 0); !s.Duplicates || s.Defect || !slices.Contains(s.Reasons(), "the query returns some rows more than once") ||
		strings.Contains(strings.Join(s.Reasons(), " | "), "count rows twice") {
		t.Errorf("repeated rows: %v", s.Reasons())
	}
	// Bad input: no candidates, or scores of another length: no panic.
	if s := confidence.Of(&score.Input{}, nil, 0); s.Candidates != 0 {
		t.Errorf("empty input: %+v", s)
	}
	if s := confidence.Of(&score.Input{Candidates: []score.Candidate{{SQL: "SELECT"}}}, nil, 0); s.Candidates != 0 {
		t.Errorf("scores missing: %+v", s)
	}
}

// TestColumnsMissed: a column the question links to, of a table the
// query reads, that the query leaves unused is a condition or a column
// the answer lacks; a linked column of a table it does not read, or one
// named after a table it reads, is not.
func TestColumnsMissed(t *testing.T) {
	const q = "What are the names of countries where English is an official language?"
	linked := []string{"public.countrylanguage.isofficial", "public.countrylanguage.language", "public.city.name"}
	read := []string{"public.country", "public.countrylanguage"}
	for _, c := range []struct {
		name, sql string
		columns   []string
		missed    int
		reason    string
	}{
		{"official left out", "SELECT c.name FROM country c JOIN countrylanguage l ON c.code = l.countrycode WHERE l.language = 'English'",
			[]string{"public.country.name", "public.country.code", "public.countrylanguage.countrycode", "public.countrylanguage.language"}, 1,
			"the query reads countrylanguage but not its isofficial, which the question names"},
		{"official used", "SELECT c.name FROM country c JOIN countrylanguage l ON c.code = l.countrycode WHERE l.language = 'English' AND l.isofficial = 'T'",
			[]string{"public.country.name", "public.country.code", "public.countrylanguage.countrycode", "public.countrylanguage.language", "public.countrylanguage.isofficial"}, 0, ""},
	} {
		in := &score.Input{Question: q, Columns: linked,
			Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: read, Columns: c.columns, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		s := confidence.Of(in, []float64{1}, 0)
		// city.name is linked too, but the query reads no city: that
		// lowers ColumnsLinked only.
		if s.ColumnsMissed != c.missed || s.ColumnsLinked == 1 {
			t.Errorf("%s: columns missed %d (want %d), linked %.2f", c.name, s.ColumnsMissed, c.missed, s.ColumnsLinked)
		}
		reasons := strings.Join(s.Reasons(), " | ")
		if c.reason != "" && !strings.Contains(reasons, c.reason) || c.reason == "" && strings.Contains(reasons, "which the question names") {
			t.Errorf("%s: reasons %q, want %q", c.name, reasons, c.reason)
		}
	}
	// A linked column named after a table the query reads counts as used
	// (usedColumns): "How many customers placed orders?" is answered by
	// count(*) FROM customers without orders.customer_id.
	in := &score.Input{Question: "How many customers placed orders?", Columns: []string{"public.customers.customer_id"},
		Candidates: []score.Candidate{{SQL: "SELECT count(*) FROM customers", Votes: 1, Tables: []string{"public.customers"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	if s := confidence.Of(in, []float64{1}, 0); s.ColumnsMissed != 0 {
		t.Errorf("column named after the table read: missed %d (%v)", s.ColumnsMissed, s.Reasons())
	}
	// But a question that asks for the column by its name ("city names",
	// "semester id") asks for it, not only for the table: the query must
	// use it, or a column of its name in another table (a key the tables
	// share).
	for _, c := range []struct {
		name, q, sql string
		columns      []string
		missed       int
	}{
		{"asked by its name, another returned", "What are the 5 city names with the largest population?", "SELECT country_name FROM city ORDER BY population DESC LIMIT 5",
			[]string{"public.city.country_name", "public.city.population"}, 1},
		{"asked by its name, returned", "What are the 5 city names with the largest population?", "SELECT city_name FROM city ORDER BY population DESC LIMIT 5",
			[]string{"public.city.city_name", "public.city.population"}, 0},
		{"the table alone named", "How many cities have a population over 5000?", "SELECT count(*) FROM city WHERE population > 5000",
			[]string{"public.city.population"}, 0},
	} {
		in := &score.Input{Question: c.q, Columns: []string{"public.city.city_name", "public.city.population"},
			Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: []string{"public.city"}, Columns: c.columns, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		if s := confidence.Of(in, []float64{1}, 0); s.ColumnsMissed != c.missed {
			t.Errorf("%s: missed %d, want %d (%v)", c.name, s.ColumnsMissed, c.missed, s.Reasons())
		}
	}
	in = &score.Input{Question: "How many courses are offered for each semester id?", Columns: []string{"public.semester.semester_id", "public.course_offering.semester_id"},
		Candidates: []score.Candidate{{SQL: "SELECT s.semester_id, count(*) FROM semester s JOIN course_offering o ON o.semester_id = s.semester_id GROUP BY 1", Votes: 1,
			Tables: []string{"public.semester", "public.course_offering"}, Columns: []string{"public.semester.semester_id"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	if s := confidence.Of(in, []float64{1}, 0); s.ColumnsLinked != 1 {
		t.Errorf("a key asked by its name, used in one table: linked %.2f, want 1", s.ColumnsLinked)
	}
	// Columns of several tables are named with their tables.
	in = &score.Input{Question: "Which authors write about a domain named Databases?", Columns: []string{"public.author.name", "public.domain.name"},
		Candidates: []score.Candidate{{SQL: "SELECT a.aid FROM author a JOIN domain_author d ON a.aid = d.aid", Votes: 1,
			Tables: []string{"public.author", "public.domain"}, Columns: []string{"public.author.aid"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	two := confidence.Of(in, []float64{1}, 0)
	if r := strings.Join(two.Reasons(), " | "); !strings.Contains(r, "the query reads author and domain but not author.name and domain.name") {
		t.Errorf("columns of two tables: %q", r)
	}
	// A key is how tables meet: an anti-join reads sales without its id,
	// which "salesperson ID" links to.
	in = &score.Input{Question: "Return the salesperson ID of salespersons that have no sales", Columns: []string{"public.sales.id", "public.salespersons.id"},
		Candidates: []score.Candidate{{SQL: "SELECT s.id FROM salespersons s LEFT JOIN sales sa ON s.id = sa.salesperson_id WHERE sa.salesperson_id IS NULL", Votes: 1,
			Tables: []string{"public.salespersons", "public.sales"}, Columns: []string{"public.salespersons.id", "public.sales.salesperson_id"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
	if s := confidence.Of(in, []float64{1}, 0); s.ColumnsMissed != 0 {
		t.Errorf("a key of a table read: missed %d (%v)", s.ColumnsMissed, s.Reasons())
	}
	// A column of the linked one's name, of another table the query reads,
	// meets the question's word: "unpaid" links to the status of invoices
	// and of customers alike.
	for _, c := range []struct {
		name    string
		columns []string
		missed  int
	}{
		{"the status of invoices used", []string{"public.invoices.status", "public.invoices.amount"}, 0},
		{"no status used", []string{"public.invoices.amount"}, 2},
		{"another column used", []string{"public.invoices.amount", "public.customers.segment"}, 2},
	} {
		in := &score.Input{Question: "How much is outstanding on unpaid invoices?", Columns: []string{"public.invoices.status", "public.customers.status"},
			Candidates: []score.Candidate{{SQL: "SELECT sum(i.amount) FROM invoices i JOIN customers c ON c.id = i.customer_id", Votes: 1,
				Tables: []string{"public.invoices", "public.customers"}, Columns: c.columns, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		if s := confidence.Of(in, []float64{1}, 0); s.ColumnsMissed != c.missed {
			t.Errorf("%s: missed %d, want %d (%v)", c.name, s.ColumnsMissed, c.missed, s.Reasons())
		}
	}
	// Its vector entry says whether any is missed.
	checkInput(t, "columns_missed", confidence.Signals{ColumnsMissed: 3})
}

// checkInput checks that the signal name is an input of both models of
// Logistic and that its vector entry is 1 for s.
func checkInput(t *testing.T, name string, s confidence.Signals) {
	t.Helper()
	i := slices.Index(confidence.Names(), name)
	if i < 0 {
		t.Fatalf("%s is no input of Logistic", name)
	}
	if v := s.Vector(); v[i] != 1 {
		t.Errorf("%s: vector entry %v, want 1", name, v[i])
	}
	if !confidence.OnQuestionInputs()[i] {
		t.Errorf("%s is no input of the on-question model", name)
	}
}

// TestSignalsEvidence: the evidence is help, not a demand. Its words,
// numbers and shapes are no part of what the query owes (defog's
// instructions define every other question's terms too), but a column
// or a constant it names is no stranger.
func TestSignalsEvidence(t *testing.T) {
	measure := func(q, evidence, sql string) confidence.Signals {
		in := &score.Input{Question: q, Evidence: evidence, ContextTables: []string{"public.orders"},
			Candidates: []score.Candidate{{SQL: sql, Votes: 1, Tables: []string{"public.orders"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		return confidence.Of(in, []float64{1}, 0)
	}
	q, sql := "How many orders are open?", "SELECT count(*) FROM orders WHERE status = 'open'"
	plain := measure(q, "", sql)
	s := measure(q, "ACP = average closing price of tickers over the past 10 days. Always filter strings with ILIKE.", sql)
	if s.QuestionCovered != plain.QuestionCovered || s.ShapeAsked != plain.ShapeAsked || s.ValuesUsed != 1 || s.NamesMissed != 0 {
		t.Errorf("evidence read as demands: %+v (without it %+v): %v", s, plain, s.Reasons())
	}
	// A shape the evidence names is no extra: "ASP" defined as an average.
	if s := measure("What is the ASP of open orders?", "", "SELECT avg(price) FROM orders WHERE status = 'open'"); s.ShapeExtra != 1 {
		t.Errorf("an average nothing asks for: %+v", s)
	}
	if s := measure("What is the ASP of open orders?", "ASP = average selling price", "SELECT avg(price) FROM orders WHERE status = 'open'"); s.ShapeExtra != 0 {
		t.Errorf("an average the evidence defines counted extra: %v", s.Reasons())
	}
	// A constant the evidence names is no stranger.
	if s := measure(q, "open orders have status 'OPN'", "SELECT count(*) FROM orders WHERE status = 'OPN'"); s.ConstantsUnasked != 0 {
		t.Errorf("a constant the evidence names counted unasked: %v", s.Reasons())
	}
	if s := measure(q, "", "SELECT count(*) FROM orders WHERE status = 'OPN'"); s.ConstantsUnasked != 1 {
		t.Errorf("a constant nothing names not counted: %+v", s)
	}
	// A name the evidence defines is a measure the query computes, not a
	// value it writes; undefined, it is a name the query misses.
	pmcs, pmcsSQL := "What is the PMCS of each month?", "SELECT date_trunc('month', signup) AS month, count(*) FROM orders GROUP BY 1"
	if s := measure(pmcs, "PMCS = per month customer signups", pmcsSQL); s.NamesMissed != 0 {
		t.Errorf("a name the evidence defines counted missed: %v", s.Reasons())
	}
	if s := measure(pmcs, "", pmcsSQL); s.NamesMissed != 1 {
		t.Errorf("an undefined name not counted missed: %+v", s)
	}
	// A name is used through the code the question writes after it.
	if s := measure("How many orders ship to Chicago (ORD)?", "", "SELECT count(*) FROM orders WHERE to_airport = 'ORD'"); s.NamesMissed != 0 || s.ValuesUsed != 1 {
		t.Errorf("a name used through its code counted missed: %v", s.Reasons())
	}
	if s := measure("How many orders ship to Chicago (ORD)?", "", "SELECT count(*) FROM orders WHERE to_airport = 'JFK'"); s.NamesMissed == 0 || !strings.Contains(strings.Join(s.Reasons(), " | "), `"Chicago"`) {
		t.Errorf("another code: %+v", s)
	}
}

// TestSignalsWithoutTheEngineAnalyses: Default and the signals give the
// same scores and signals whether the input carries the caller's analyses
// of its question or a program built it without them.
func TestSignalsWithoutTheEngineAnalyses(t *testing.T) {
	in := &score.Input{
		Question: "Which 3 customers in Asia have the most orders?", Evidence: "orders are sales orders",
		ContextTables: []string{"public.customers", "public.sales_orders"},
		Candidates: []score.Candidate{
			{SQL: "SELECT c.name FROM customers c JOIN sales_orders o ON o.customer_id = c.id WHERE c.region = 'Asia' GROUP BY c.name ORDER BY count(*) DESC LIMIT 3",
				Votes: 2, Tables: []string{"public.customers", "public.sales_orders"}, Columns: []string{"public.customers.name", "public.customers.region"}, ResultGroup: -1, ResultRows: -1, Agreement: -1, OrderedAgreement: -1},
			{SQL: "SELECT count(*) FROM customers", Votes: 1, Tables: []string{"public.customers"}, ResultGroup: -1, ResultRows: -1, Agreement: -1, OrderedAgreement: -1},
		},
	}
	plain := score.Default{}.Score(t.Context(), in)
	bare := confidence.Of(in, plain, 0)
	in.QuestionAnalysis, in.EvidenceAnalysis = gloss.Analyze(in.Question), gloss.Analyze(in.Evidence)
	withAnalyses := score.Default{}.Score(t.Context(), in)
	if !slices.Equal(plain, withAnalyses) {
		t.Errorf("scores %v without the analyses, %v with them", plain, withAnalyses)
	}
	if plain[0] <= plain[1] {
		t.Errorf("the query that answers scored %v, the count %v", plain[0], plain[1])
	}
	if a := confidence.Of(in, plain, 0); a.QuestionCovered != bare.QuestionCovered || a.QueryNamed != bare.QueryNamed || a.TablesNamed != bare.TablesNamed ||
		a.ColumnsOutOfOrder != bare.ColumnsOutOfOrder || !slices.Equal(a.Vector(), bare.Vector()) || !slices.Equal(a.Reasons(), bare.Reasons()) {
		t.Errorf("signals %+v with the analyses, %+v without", a, bare)
	}
}

// TestSignalsReadTheCarriedDescription: the signals read the description
// the candidate carries (the Engine's, made once), and describe its SQL
// when it carries none.
func TestSignalsReadTheCarriedDescription(t *testing.T) {
	const keyFirst, countFirst = "SELECT language, count(*) FROM tv_channel GROUP BY language", "SELECT count(*), language FROM tv_channel GROUP BY language"
	of := func(sql string, d *describe.Description) confidence.Signals {
		in := &score.Input{Question: "For each language, list the number of TV channels that use it.", ContextTables: []string{"public.tv_channel"},
			Candidates: []score.Candidate{{SQL: sql, Votes: 1, Tables: []string{"public.tv_channel"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1, Description: d}}}
		return confidence.Of(in, []float64{1}, 0)
	}
	if s := of(keyFirst, nil); s.ColumnsOutOfOrder {
		t.Errorf("%q described from its SQL: out of order", keyFirst)
	}
	if s := of(countFirst, nil); !s.ColumnsOutOfOrder {
		t.Errorf("%q described from its SQL: in order", countFirst)
	}
	other, err := describe.SQL(countFirst)
	if err != nil {
		t.Fatal(err)
	}
	if s := of(keyFirst, other); !s.ColumnsOutOfOrder {
		t.Errorf("%q carrying the description of %q: in order, want the carried description's order", keyFirst, countFirst)
	}
}

// TestValueSearched: a stored value the question names is used by a
// pattern that searches for its distinctive words ('%Ontario%' for 'Lake
// Ontario'), not by a pattern of some other word or one too short to say.
func TestValueSearched(t *testing.T) {
	for _, c := range []struct {
		sql  string
		used float64
	}{
		{"SELECT border FROM lake WHERE lake_name ILIKE '%Ontario%'", 1},
		{"SELECT border FROM lake WHERE lake_name LIKE 'Lake Ont%'", 1},
		{"SELECT border FROM lake WHERE lake_name = 'Lake Ontario'", 1},
		{"SELECT border FROM lake WHERE lake_name ILIKE '%Erie%'", 0},
		{"SELECT border FROM lake WHERE lake_name ILIKE '%ke%'", 0},
		{"SELECT border FROM lake WHERE lake_name = 'Ontario'", 0},
		{"SELECT border FROM lake", 0},
	} {
		in := &score.Input{Question: "Which states border the state where lake ontario is?", Values: []string{"Lake Ontario"},
			Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: []string{"public.lake"}, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		if s := confidence.Of(in, []float64{1}, 0); s.ValuesUsed != c.used {
			t.Errorf("%s: values used %.2f, want %.2f (%v)", c.sql, s.ValuesUsed, c.used, s.Reasons())
		}
	}
}

// TestColumnsUnreturned: a column the question asks to show by its own
// name ("Return the make, model ...") that the query uses but returns in
// no output is a doubt; a column shown through a step, a star, another
// key for a key, a column named after a table read and a name that is
// another thing's ("the continent name") are not.
func TestColumnsUnreturned(t *testing.T) {
	const cars = "What are the top 5 car models by total revenue? Return the make, model and total revenue."
	carsLinked := []string{"public.cars.make", "public.cars.model", "public.sales.sale_price"}
	carsRead := []string{"public.cars", "public.sales"}
	carsUsed := []string{"public.cars.make", "public.cars.model", "public.cars.id", "public.sales.car_id", "public.sales.sale_price"}
	for _, c := range []struct {
		name, q, sql string
		linked, read []string
		used         []string
		want         int
		reason       string
	}{
		{"make swapped for model", cars, "SELECT c.model, c.model, sum(s.sale_price) AS total_revenue FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY c.make, c.model ORDER BY 3 DESC LIMIT 5",
			carsLinked, carsRead, carsUsed, 1, "the question asks to show make; the query does not return it"},
		{"make and model returned", cars, "SELECT c.make, c.model, sum(s.sale_price) AS total_revenue FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY c.make, c.model ORDER BY 3 DESC LIMIT 5",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"quoted, upper case", cars, `SELECT "C"."MAKE" AS m, C.MODEL, sum(S.SALE_PRICE) FROM SALES S JOIN CARS "C" ON S.CAR_ID = "C".ID GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`,
			carsLinked, carsRead, carsUsed, 0, ""},
		{"shown through a step", cars, "WITH r AS (SELECT c.make AS brand, c.model, sum(s.sale_price) AS rev FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY 1, 2) SELECT brand, model, rev FROM r ORDER BY rev DESC LIMIT 5",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"shown by a subquery in FROM", cars, "SELECT x.* FROM (SELECT c.make, c.model, sum(s.sale_price) FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY 1, 2) x LIMIT 5",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"a star", cars, "SELECT * FROM cars c JOIN sales s ON s.car_id = c.id WHERE c.make <> ''",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"shown by its alias", cars, "SELECT upper(c.model) AS make, c.model, sum(s.sale_price) FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY c.make, c.model LIMIT 5",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"not used at all: ColumnsMissed instead", cars, "SELECT c.model, sum(s.sale_price) FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY c.model LIMIT 5",
			carsLinked, carsRead, []string{"public.cars.model", "public.cars.id", "public.sales.car_id", "public.sales.sale_price"}, 0, ""},
		{"asked in a question, not a request", "Which car makes and models sold best?", "SELECT c.model FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY c.make, c.model ORDER BY count(*) DESC LIMIT 1",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"what are the ...", "What are the make and model of the cheapest car?", "SELECT c.model, c.model FROM cars c WHERE c.make <> '' ORDER BY c.price LIMIT 1",
			[]string{"public.cars.make", "public.cars.model"}, []string{"public.cars"}, []string{"public.cars.make", "public.cars.model", "public.cars.price"}, 1, "the question asks to show make"},
		{"a key shown by another key", "Return the coupon ID and total amount.", "SELECT c.cid, sum(t.amount) FROM coupons c JOIN transactions t ON c.cid = t.coupon_id GROUP BY c.cid",
			[]string{"public.transactions.coupon_id"}, []string{"public.coupons", "public.transactions"}, []string{"public.coupons.cid", "public.transactions.coupon_id", "public.transactions.amount"}, 0, ""},
		{"a key not shown", "Return the coupon ID and total amount.", "SELECT sum(t.amount) FROM coupons c JOIN transactions t ON c.cid = t.coupon_id GROUP BY t.coupon_id",
			[]string{"public.transactions.coupon_id"}, []string{"public.coupons", "public.transactions"}, []string{"public.coupons.cid", "public.transactions.coupon_id", "public.transactions.amount"}, 1, "the question asks to show coupon_id"},
		{"a column named after the table read", "Return the number of airlines in the USA.", "SELECT count(*) FROM airlines WHERE country = 'USA'",
			[]string{"public.airlines.airline", "public.airlines.country"}, []string{"public.airlines"}, []string{"public.airlines.airline", "public.airlines.country"}, 0, ""},
		{"another thing's name", "What is the continent name which Anguilla belongs to?", "SELECT continent FROM country WHERE name = 'Anguilla'",
			[]string{"public.country.name", "public.country.continent"}, []string{"public.country"}, []string{"public.country.name", "public.country.continent"}, 0, ""},
		{"the table's name", "List the country name and its continent.", "SELECT continent FROM country WHERE name <> ''",
			[]string{"public.country.name", "public.country.continent"}, []string{"public.country"}, []string{"public.country.name", "public.country.continent"}, 1, "the question asks to show name"},
		{"its name", "List the country code and its name.", "SELECT code FROM country WHERE name <> ''",
			[]string{"public.country.name", "public.country.code"}, []string{"public.country"}, []string{"public.country.name", "public.country.code"}, 1, "the question asks to show name"},
		{"a condition, not a column to show", "List all cartoons directed by Ben Jones.", "SELECT title FROM cartoon WHERE directed_by = 'Ben Jones'",
			[]string{"public.cartoon.directed_by"}, []string{"public.cartoon"}, []string{"public.cartoon.title", "public.cartoon.directed_by"}, 0, ""},
		{"shown by another table's column of its name", cars, "SELECT m.car_make, c.model, sum(s.sale_price) FROM sales s JOIN cars c ON s.car_id = c.id JOIN makers m ON m.id = c.maker_id GROUP BY 1, 2 LIMIT 5",
			carsLinked, append([]string{"public.makers"}, carsRead...), carsUsed, 0, ""},
		{"a group's key swapped, another table's key counted", "How many courses are offered for each semester id?", "SELECT s.year, count(DISTINCT o.course_id) FROM semester s JOIN course_offering o ON o.semester_id = s.semester_id GROUP BY s.semester_id",
			[]string{"public.semester.semester_id"}, []string{"public.semester", "public.course_offering"}, []string{"public.semester.semester_id", "public.semester.year", "public.course_offering.semester_id", "public.course_offering.course_id"}, 1, "the question asks to show semester_id"},
		{"a group's key swapped, another table's key shown", "How many courses are offered for each semester id?", "SELECT s.year, o.course_id FROM semester s JOIN course_offering o ON o.semester_id = s.semester_id",
			[]string{"public.semester.semester_id"}, []string{"public.semester", "public.course_offering"}, []string{"public.semester.semester_id", "public.semester.year", "public.course_offering.semester_id", "public.course_offering.course_id"}, 1, "the question asks to show semester_id"},
		{"a count() of another schema may show it", cars, "SELECT stats.count(c.make), c.model, sum(s.sale_price) FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY 1, 2 LIMIT 5",
			carsLinked, carsRead, carsUsed, 0, ""},
		{"what count() counts is not shown", cars, "SELECT pg_catalog.COUNT(DISTINCT c.make), c.model, sum(s.sale_price) FROM sales s JOIN cars c ON s.car_id = c.id GROUP BY c.model LIMIT 5",
			carsLinked, carsRead, carsUsed, 1, "the question asks to show make"},
		{"a group's key shown", "How many courses are offered for each semester id?", "SELECT o.semester_id, count(*) FROM course_offering o GROUP BY 1",
			[]string{"public.semester.semester_id", "public.course_offering.semester_id"}, []string{"public.course_offering"}, []string{"public.course_offering.semester_id"}, 0, ""},
		{"first and last name, one returned twice", "Who are the top 3 salespersons by revenue? Return their first and last name and total revenue.",
			"SELECT sp.last_name, sp.last_name, sum(s.price) FROM sales s JOIN salespersons sp ON s.sp_id = sp.id GROUP BY sp.id, sp.first_name, sp.last_name ORDER BY 3 DESC LIMIT 3",
			nil, []string{"public.sales", "public.salespersons"}, []string{"public.salespersons.first_name", "public.salespersons.last_name", "public.salespersons.id", "public.sales.sp_id", "public.sales.price"}, 1,
			"the question asks to show first_name"},
		{"first and last name returned", "Who are the top 3 salespersons by revenue? Return their first and last name and total revenue.",
			"SELECT sp.first_name, sp.last_name, sum(s.price) FROM sales s JOIN salespersons sp ON s.sp_id = sp.id GROUP BY sp.id, sp.first_name, sp.last_name ORDER BY 3 DESC LIMIT 3",
			nil, []string{"public.sales", "public.salespersons"}, []string{"public.salespersons.first_name", "public.salespersons.last_name", "public.salespersons.id", "public.sales.sp_id", "public.sales.price"}, 0, ""},
		{"a word that says which rows", "Show all placebo treatment ids and their start dates.", "SELECT treatment_id, start_dt FROM treatments WHERE is_placebo",
			[]string{"public.treatments.is_placebo"}, []string{"public.treatments"}, []string{"public.treatments.treatment_id", "public.treatments.start_dt", "public.treatments.is_placebo"}, 0, ""},
		{"each city: another column shown", "How many restaurants serve Italian food in each city?", "SELECT r.name, count(*) FROM restaurant r WHERE r.food_type = 'italian' GROUP BY r.city_name, r.name",
			nil, []string{"public.restaurant"}, []string{"public.restaurant.name", "public.restaurant.city_name", "public.restaurant.food_type"}, 1, "the question asks to show city_name"},
		{"each city: its name shown", "How many restaurants serve Italian food in each city?", "SELECT r.city_name, count(*) FROM restaurant r WHERE r.food_type = 'italian' GROUP BY r.city_name",
			nil, []string{"public.restaurant"}, []string{"public.restaurant.city_name", "public.restaurant.food_type"}, 0, ""},
		{"each city: its key shown", "How many restaurants serve Italian food in each city?", "SELECT l.city_id, count(*) FROM restaurant r JOIN location l ON l.rid = r.id WHERE r.food_type = 'italian' GROUP BY 1",
			nil, []string{"public.restaurant", "public.location"}, []string{"public.location.city_id", "public.location.city_name", "public.location.rid", "public.restaurant.id", "public.restaurant.food_type"}, 0, ""},
		{"each city, a table read: its columns name it", "How many restaurants serve Italian food in each city?", "SELECT c.id, count(*) FROM restaurant r JOIN city c ON c.id = r.city_id WHERE r.food_type = 'italian' GROUP BY c.id, c.city_name",
			nil, []string{"public.restaurant", "public.city"}, []string{"public.city.id", "public.city.city_name", "public.restaurant.city_id", "public.restaurant.food_type"}, 0, ""},
		{"a thing named after a table read", "Return the number of airlines in the USA.", "SELECT count(DISTINCT airline_name) FROM airlines WHERE country = 'USA'",
			nil, []string{"public.airlines"}, []string{"public.airlines.airline_name", "public.airlines.country"}, 0, ""},
		{"the manager's name", "Which managers have more than 5 reports? Show the manager's name and the number of reports.", "SELECT m.first_name, count(*) FROM employees e JOIN employees m ON m.emp_id = e.manager_id GROUP BY m.emp_id, m.first_name",
			nil, []string{"public.employees"}, []string{"public.employees.first_name", "public.employees.emp_id", "public.employees.manager_id"}, 0, ""},
		{"a column of a table not read", cars, "SELECT m.model, m.model FROM models m LIMIT 5",
			carsLinked, []string{"public.models"}, []string{"public.models.model"}, 0, ""},
	} {
		in := &score.Input{Question: c.q, Columns: c.linked,
			Candidates: []score.Candidate{{SQL: c.sql, Votes: 1, Tables: c.read, Columns: c.used, Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}}}
		s := confidence.Of(in, []float64{1}, 0)
		if s.ColumnsUnreturned != c.want {
			t.Errorf("%s: unreturned %d, want %d (%v)", c.name, s.ColumnsUnreturned, c.want, s.Reasons())
		}
		reasons := strings.Join(s.Reasons(), " | ")
		if c.reason != "" && !strings.Contains(reasons, c.reason) || c.reason == "" && strings.Contains(reasons, "asks to show") {
			t.Errorf("%s: reasons %q, want %q", c.name, reasons, c.reason)
		}
	}
	checkInput(t, "columns_unreturned", confidence.Signals{ColumnsUnreturned: 2})
}
