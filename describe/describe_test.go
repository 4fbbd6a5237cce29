package describe_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/defog"
)

func TestConstructs(t *testing.T) {
	cases := []struct{ name, sql, want string }{
		{"count", `SELECT count(*) FROM employees WHERE status = 'Active'`,
			"Counts employees where status is 'Active'."},
		{"columns", `SELECT name, email FROM customers`,
			"Lists name and email of customers."},
		{"distinct", `SELECT DISTINCT city FROM customers`,
			"Lists the distinct city of customers."},
		{"count distinct", `SELECT count(DISTINCT customer_id) FROM orders`,
			"Computes the number of distinct customers, from orders."},
		{"sum avg min max", `SELECT sum(amount), avg(amount), min(amount), max(order_date) FROM orders`,
			"Computes the total amount, the average amount, the lowest amount and the latest order date, from orders."},
		{"expression", `SELECT sum(qty * price) FROM lines`,
			"Computes the total of quantity times price, from lines."},
		{"percentage", `SELECT 100.0 * count(*) FILTER (WHERE paid) / count(*) FROM invoices`,
			"Computes the number of invoices where paid is true as a percentage of the number of invoices, from invoices."},
		{"comparisons", `SELECT id FROM t WHERE a <> 1 AND b < 2 AND c >= 3 AND d BETWEEN 1 AND 5`,
			"Lists id of t where a is not 1, b is less than 2, c is at least 3 and d is between 1 and 5."},
		{"in lists", `SELECT id FROM t WHERE s IN ('a', 'b') AND u NOT IN ('x', 'y', 'z')`,
			"Lists id of t where s is 'a' or 'b' and u is none of 'x', 'y' and 'z'."},
		{"like", `SELECT id FROM t WHERE n LIKE 'Ab%' AND m ILIKE '%x%' AND o NOT LIKE '%z'`,
			"Lists id of t where n starts with 'Ab', m contains 'x' (ignoring case) and o does not end with 'z'."},
		{"null", `SELECT id FROM t WHERE end_date IS NULL AND start_date IS NOT NULL`,
			"Lists id of t where end date is not set and start date is set."},
		{"year", `SELECT id FROM t WHERE d >= DATE '2024-01-01' AND d < DATE '2025-01-01'`,
			"Lists id of t where d is in 2024."},
		{"month", `SELECT id FROM t WHERE d >= '2024-03-01' AND d < '2024-04-01'`,
			"Lists id of t where d is in March 2024."},
		{"range", `SELECT id FROM t WHERE d >= DATE '2024-03-05' AND d <= DATE '2024-04-01'`,
			"Lists id of t where d is between 2024-03-05 and 2024-04-01."},
		{"date compare", `SELECT id FROM t WHERE d < DATE '2024-03-05'`,
			"Lists id of t where d is before 2024-03-05."},
		{"or not", `SELECT id FROM t WHERE (a = 1 OR b = 2) AND NOT is_active`,
			"Lists id of t where either a is 1 or b is 2 and active is false."},
		{"in subquery", `SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE amount > 100)`,
			"Lists name of customers where id is among the customer ids of orders where amount is greater than 100."},
		{"not exists", `SELECT name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)`,
			"Lists name of customers where there is no order with the same customer id."},
		{"join", `SELECT c.name, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id LEFT JOIN regions r ON r.id = c.region_id`,
			"Lists customer name and order amount of orders, joined with customers and regions where present."},
		{"self join", `SELECT m.first_name, count(*) FROM employees e JOIN employees m ON m.emp_id = e.manager_id GROUP BY m.first_name`,
			"For each manager first name, counts employees, joined with employees (as manager)."},
		{"group having order limit", `SELECT dept, avg(salary) AS a FROM employees GROUP BY dept HAVING count(*) > 3 ORDER BY a DESC LIMIT 5 OFFSET 10`,
			"For each department, computes the average salary, from employees, keeping only groups where the number of employees is greater than 3, sorted by the average salary (highest first), top 5, skipping the first 10."},
		{"order asc", `SELECT name FROM t ORDER BY name LIMIT 1`,
			"Lists name of t, sorted by name, only the first row."},
		{"limit unsorted", `SELECT name FROM t LIMIT 3`,
			"Lists name of t, at most 3 rows."},
		{"distinct on", `SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC`,
			"Lists a and b of t, one row per a (the first in the order), sorted by a, then b (highest first)."},
		{"cte", `WITH big AS (SELECT id FROM orders WHERE amount > 100) SELECT count(*) FROM big`,
			`Counts "big". "big" lists id of orders where amount is greater than 100.`},
		{"union", `SELECT name FROM a UNION SELECT name FROM b ORDER BY name`,
			"Combines the rows of 2 queries, without duplicates, sorted by name (first, lists name of a; second, lists name of b)."},
		{"except", `SELECT id FROM a EXCEPT SELECT id FROM b`,
			"Keeps the rows of the first query that the others do not return (first, lists id of a; second, lists id of b)."},
		{"window", `SELECT name, rank() OVER (PARTITION BY dept ORDER BY salary DESC) FROM employees`,
			"Lists name and the rank by salary (highest first) within each department of employees."},
		{"lag", `SELECT m, v - lag(v) OVER (ORDER BY m) FROM s`,
			"Lists m and v minus the previous v by m of s."},
		{"case coalesce", `SELECT CASE WHEN age < 18 THEN 'minor' ELSE 'adult' END, coalesce(nick, 'none') FROM p`,
			"Lists one of 'minor' or 'adult' depending on age and nick ('none' when missing) of p."},
		{"no from", `SELECT 1`, "Lists 1."},
		{"values", `VALUES (1), (2)`, "Lists 2 given rows."},
		{"scalar subquery", `SELECT name FROM t WHERE v > (SELECT avg(v) FROM t)`,
			"Lists name of t where v is greater than the average v of t."},
		{"unknown function", `SELECT foo_bar(x) FROM t`, "Lists the foo bar of x of t."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := describe.SQL(c.sql)
			if err != nil {
				t.Fatal(err)
			}
			if d.Text != c.want {
				t.Errorf("\n got %s\nwant %s", d.Text, c.want)
			}
		})
	}
}

func TestParts(t *testing.T) {
	d, err := describe.SQL(`SELECT d.dept_name, count(*) FROM employees e JOIN departments d ON d.dept_id = e.dept_id
		WHERE e.status = 'Active' GROUP BY 1 HAVING count(*) > 2 ORDER BY 2 DESC LIMIT 3`)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join([]string{
		strings.Join(d.Columns, "|"), strings.Join(d.Measures, "|"), strings.Join(d.Tables, "|"),
		strings.Join(d.Joins, "|"), strings.Join(d.Filters, "|"), strings.Join(d.GroupBy, "|"),
		strings.Join(d.Having, "|"), strings.Join(d.Order, "|"),
	}, "\n")
	want := strings.Join([]string{
		"department name|the number of employees", "the number of employees", "employees|departments",
		"departments", "employee status is 'Active'", "department name",
		"the number of employees is greater than 2", "the number of employees (highest first)",
	}, "\n")
	if got != want || d.Limit == nil || *d.Limit != 3 || d.Offset != nil {
		t.Errorf("got\n%s\nlimit %v\nwant\n%s", got, d.Limit, want)
	}
}

func TestGlosser(t *testing.T) {
	g := gloss.Abbreviations(map[string]string{"ctr": "contract"})
	d, err := describe.SQL(`SELECT count(*) FROM ctr_lines`, describe.WithGlosser(g))
	if err != nil {
		t.Fatal(err)
	}
	if d.Text != "Counts contract lines." {
		t.Errorf("got %q", d.Text)
	}
}

// TestAbbreviationInContext: an abbreviation in a column's name reads as
// the word of its table it begins (doc_id of doctors is the doctor id),
// else as the glosser reads it (doc_id of documents, of a subquery).
func TestAbbreviationInContext(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{`SELECT d.doc_id FROM treatments t JOIN doctors d ON t.doc_id = d.doc_id`, "doctor id"},
		{`SELECT "DOC_ID" FROM "DOCTORS"`, "doctor id"},
		{`SELECT doc_id FROM doctors`, "doctor id"},
		{`SELECT doc_id FROM documents`, "document id"},
		{`SELECT doc_id FROM (SELECT 1 AS doc_id) AS doctors`, "document id"},
		{`SELECT cust_id FROM customers`, "customer id"},
		{`SELECT amt FROM amendments`, "amount"},  // "amt" begins no word of amendments
		{`SELECT song FROM songwriters`, "song"},  // a word, no abbreviation
		{`SELECT act_id FROM actors`, "actor id"}, // "act" reads "actual" elsewhere
	} {
		d, err := describe.SQL(c.sql)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Columns) != 1 || d.Columns[0] != c.want {
			t.Errorf("%s: columns %q, want %q", c.sql, d.Columns, c.want)
		}
	}
}

func TestInvalid(t *testing.T) {
	for _, sql := range []string{"SELEC 1", "", "SELECT 1; SELECT 2", "DELETE FROM t", "SELECT 1 INTO t"} {
		if _, err := describe.SQL(sql); !errors.Is(err, describe.ErrInvalid) {
			t.Errorf("%q: err = %v, want ErrInvalid", sql, err)
		}
	}
}

func TestDeterministic(t *testing.T) {
	const sql = `WITH a AS (SELECT x, sum(y) s FROM t GROUP BY x) SELECT x, s, rank() OVER (ORDER BY s DESC) FROM a WHERE x IN ('p', 'q')`
	first, err := describe.SQL(sql)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		d, _ := describe.SQL(sql)
		if d.Text != first.Text {
			t.Fatalf("%q != %q", d.Text, first.Text)
		}
	}
}

// TestDefog describes every gold query of the defog dataset
// (../shared/datasets/defog), when present: no valid query may fail or
// get an empty description.
func TestDefog(t *testing.T) {
	if _, ok := defog.Dir(); !ok {
		t.Skip("defog dataset not available (../shared/datasets/defog)")
	}
	qs, err := defog.Questions()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, q := range qs {
		for _, sql := range defog.Expand(q.Query) {
			d, err := describe.SQL(sql)
			if errors.Is(err, describe.ErrInvalid) {
				continue // sql-eval notation leftovers: not a query to describe
			}
			if err != nil || strings.TrimSpace(d.Text) == "" {
				t.Errorf("%s:%d: %v %+v\n%s", q.File, q.Line, err, d, sql)
			}
			n++
		}
	}
	if n < 300 {
		t.Errorf("described %d queries, want at least 300", n)
	}
}
