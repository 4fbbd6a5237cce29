package repair

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

//go:embed testdata/erp.sql
var erpSQL string

//go:embed testdata/models.sql
var modelsSQL string

// fixtureSQL is the whole fixture: the ERP tables, then the tables of the
// cases models write (dates, doubles, a tenant schema).
var fixtureSQL = erpSQL + "\n" + modelsSQL

// fixture returns a pool on a copy of the ERP fixture and its catalog.
func fixture(t testing.TB) (*pgxpool.Pool, *schema.Catalog) {
	t.Helper()
	h := sha256.Sum256([]byte(fixtureSQL))
	dsn := pgtest.FromTemplate(t, "repair-erp-"+hex.EncodeToString(h[:8]), func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, fixtureSQL)
		return err
	})
	pool := pgtest.Pool(t, dsn)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cat, err := schema.Introspect(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	return pool, cat
}

// failure runs sql and returns the server's error, or nil when it runs.
func failure(ctx context.Context, pool *pgxpool.Pool, sql string) (*Failure, error) {
	rows, err := pool.Query(ctx, sql)
	if err == nil {
		for rows.Next() {
		}
		rows.Close()
		err = rows.Err()
	}
	if err == nil {
		return nil, nil
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil, err
	}
	return &Failure{SQLState: pe.Code, Message: pe.Message, Detail: pe.Detail, Hint: pe.Hint, Position: int(pe.Position)}, nil
}

// result renders the rows of sql as text, one string per row.
func result(ctx context.Context, pool *pgxpool.Pool, sql string, ordered bool) ([]string, error) {
	sql = strings.TrimRight(strings.TrimSpace(sql), ";")
	rows, err := pool.Query(ctx, "SELECT t::text FROM ("+sql+") t")
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	if !ordered {
		sort.Strings(out)
	}
	return out, nil
}

type repairCase struct {
	name    string
	sql     string // broken
	want    string // hand-written correct query
	state   string // SQLSTATE of the broken query's first failure
	rules   []string
	ordered bool
}

var repairCases = []repairCase{
	// Dialect idioms (the first error is whatever PostgreSQL says about them).
	{name: "backticks", sql: "SELECT `cust_nm`, `City` FROM `customers` WHERE `id` < 4",
		want: "SELECT cust_nm, city FROM customers WHERE id < 4", state: "42601", rules: []string{RuleBacktick}},
	{name: "ifnull", sql: "SELECT id, IFNULL(sales_rep_id, 0) AS rep FROM orders",
		want: "SELECT id, COALESCE(sales_rep_id, 0) FROM orders", state: "42883", rules: []string{RuleCoalesce}},
	{name: "nvl", sql: "SELECT id, NVL(shipped_at, order_date) FROM orders",
		want: "SELECT id, COALESCE(shipped_at, order_date) FROM orders", state: "42883", rules: []string{RuleCoalesce}},
	{name: "tsql isnull", sql: "SELECT id, ISNULL(sales_rep_id, -1) FROM orders",
		want: "SELECT id, COALESCE(sales_rep_id, -1) FROM orders", state: "42883", rules: []string{RuleCoalesce}},
	{name: "year()", sql: "SELECT count(*) FROM orders WHERE YEAR(order_date) = 2024",
		want: "SELECT count(*) FROM orders WHERE EXTRACT(year FROM order_date) = 2024", state: "42883", rules: []string{RuleExtract}},
	{name: "month() day()", sql: "SELECT id, MONTH(order_date) AS m, DAY(order_date) AS d FROM orders WHERE id < 10",
		want: "SELECT id, EXTRACT(month FROM order_date), EXTRACT(day FROM order_date) FROM orders WHERE id < 10", state: "42883", rules: []string{RuleExtract}},
	{name: "date_add interval n day", sql: "SELECT id, DATE_ADD(order_date, INTERVAL 7 DAY) FROM orders WHERE id < 5",
		want: "SELECT id, order_date + interval '7 days' FROM orders WHERE id < 5", state: "42601", rules: []string{RuleIntervalLiteral, RuleDateAdd}},
	{name: "date_sub", sql: "SELECT count(*) FROM orders WHERE order_date > DATE_SUB(CURRENT_DATE, INTERVAL 1000 DAY)",
		want: "SELECT count(*) FROM orders WHERE order_date > CURRENT_DATE - interval '1000 days'", state: "42601", rules: []string{RuleDateAdd}},
	{name: "mysql datediff", sql: "SELECT id, DATEDIFF(shipped_at, order_date) AS days FROM orders WHERE shipped_at IS NOT NULL",
		want: "SELECT id, shipped_at::date - order_date FROM orders WHERE shipped_at IS NOT NULL", state: "42883", rules: []string{RuleDateDiff}},
	{name: "tsql datediff", sql: "SELECT id, DATEDIFF(day, order_date, shipped_at) FROM orders WHERE shipped_at IS NOT NULL",
		want: "SELECT id, shipped_at::date - order_date FROM orders WHERE shipped_at IS NOT NULL", state: "42703", rules: []string{RuleDateDiff}},
	{name: "tsql dateadd", sql: "SELECT id, DATEADD(day, 3, order_date) FROM orders WHERE id < 4",
		want: "SELECT id, order_date + interval '3 days' FROM orders WHERE id < 4", state: "42703", rules: []string{RuleDateAdd}},
	{name: "strftime on date", sql: "SELECT strftime('%Y-%m', order_date) AS ym, count(*) FROM orders GROUP BY 1 ORDER BY 1",
		want: "SELECT to_char(order_date, 'YYYY-MM'), count(*) FROM orders GROUP BY 1 ORDER BY 1", state: "42883", rules: []string{RuleStrftime}, ordered: true},
	{name: "strftime on text date", sql: "SELECT count(*) FROM legacy_events WHERE strftime('%Y', event_dt) = '2024'",
		want: "SELECT count(*) FROM legacy_events WHERE event_dt LIKE '2024-%'", state: "42883", rules: []string{RuleStrftime, RuleCastTime}},
	{name: "date_format", sql: "SELECT id, DATE_FORMAT(order_date, '%Y-%m') AS ym FROM orders WHERE id < 8",
		want: "SELECT id, to_char(order_date, 'YYYY-MM') FROM orders WHERE id < 8", state: "42883", rules: []string{RuleDateFormat}},
	{name: "limit offset,count", sql: "SELECT id FROM orders ORDER BY id LIMIT 5, 3",
		want: "SELECT id FROM orders ORDER BY id LIMIT 3 OFFSET 5", state: "42601", rules: []string{RuleLimitComma}, ordered: true},
	{name: "select top", sql: "SELECT TOP 3 id, total_amt FROM orders ORDER BY total_amt DESC",
		want: "SELECT id, total_amt FROM orders ORDER BY total_amt DESC LIMIT 3", state: "42601", rules: []string{RuleTop}, ordered: true},
	{name: "top in subquery", sql: "SELECT cust_nm FROM customers WHERE id IN (SELECT TOP (2) customer_id FROM orders ORDER BY total_amt DESC)",
		want: "SELECT cust_nm FROM customers WHERE id IN (SELECT customer_id FROM orders ORDER BY total_amt DESC LIMIT 2)", state: "42883", rules: []string{RuleTop}},
	{name: "interval n day", sql: "SELECT count(*) FROM orders WHERE order_date > CURRENT_DATE - INTERVAL 1000 DAY",
		want: "SELECT count(*) FROM orders WHERE order_date > CURRENT_DATE - 1000", state: "42601", rules: []string{RuleIntervalLiteral}},
	{name: "bare interval n", sql: "SELECT count(*) FROM orders WHERE order_date > CURRENT_DATE - interval 1000",
		want: "SELECT count(*) FROM orders WHERE order_date > CURRENT_DATE - 1000", state: "42601", rules: []string{RuleIntervalLiteral}},
	{name: "double-quoted value", sql: `SELECT id FROM orders WHERE status = "shipped"`,
		want: "SELECT id FROM orders WHERE status = 'shipped'", state: "42703", rules: []string{RuleQuotedString}},
	{name: "double-quoted IN list", sql: `SELECT count(*) FROM customers WHERE status IN ("Active") AND city = "Rome"`,
		want: "SELECT count(*) FROM customers WHERE status = 'Active' AND city = 'Rome'", state: "42703", rules: []string{RuleQuotedString}},
	{name: "sum boolean column", sql: "SELECT SUM(is_vip) AS vips FROM customers",
		want: "SELECT count(*) FILTER (WHERE is_vip) FROM customers", state: "42883", rules: []string{RuleBoolAggregate}},
	{name: "getdate", sql: "SELECT count(*) FROM orders WHERE order_date < GETDATE()",
		want: "SELECT count(*) FROM orders WHERE order_date < now()", state: "42883", rules: []string{RuleNow}},
	{name: "curdate", sql: "SELECT count(*) FROM orders WHERE order_date <= CURDATE()",
		want: "SELECT count(*) FROM orders WHERE order_date <= CURRENT_DATE", state: "42883", rules: []string{RuleNow}},
	{name: "current_date()", sql: "SELECT count(*) FROM orders WHERE order_date <= CURRENT_DATE()",
		want: "SELECT count(*) FROM orders WHERE order_date <= CURRENT_DATE", state: "42601", rules: []string{RuleNow}},
	{name: "len ucase instr", sql: "SELECT LEN(cust_nm), UCASE(city), INSTR(cust_nm, '1') FROM customers WHERE id < 12",
		want: "SELECT length(cust_nm), upper(city), strpos(cust_nm, '1') FROM customers WHERE id < 12", state: "42883", rules: []string{RuleFunctionName}},
	{name: "if()", sql: "SELECT id, IF(total_amt > 500, 'big', 'small') AS size FROM orders WHERE id < 20",
		want: "SELECT id, CASE WHEN total_amt > 500 THEN 'big' ELSE 'small' END FROM orders WHERE id < 20", state: "42883", rules: []string{RuleIf}},
	{name: "cast as signed", sql: "SELECT CAST(invoice_no AS SIGNED) FROM invoices WHERE order_id < 10",
		want: "SELECT invoice_no::bigint FROM invoices WHERE order_id < 10", state: "42704", rules: []string{RuleCastType}},
	{name: "cast as double", sql: "SELECT CAST(total_amt AS DOUBLE) FROM orders WHERE id < 4",
		want: "SELECT total_amt::float8 FROM orders WHERE id < 4", state: "42704", rules: []string{RuleCastType}},
	{name: "mysql everything", sql: "SELECT `o`.`id`, IFNULL(o.sales_rep_id, 0) AS rep FROM orders o WHERE YEAR(o.order_date) = 2024 ORDER BY o.id LIMIT 2, 3",
		want: "SELECT o.id, COALESCE(o.sales_rep_id, 0) FROM orders o WHERE order_date < '2025-01-01' ORDER BY o.id LIMIT 3 OFFSET 2", state: "42601",
		rules: []string{RuleBacktick, RuleLimitComma, RuleCoalesce, RuleExtract}, ordered: true},

	// 42703 undefined column.
	{name: "abbreviated column", sql: "SELECT customer_name, city FROM customers WHERE id = 2",
		want: "SELECT cust_nm, city FROM customers WHERE id = 2", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "non-ASCII text before the error", sql: "SELECT 'café – ☕' AS x, customer_name FROM customers WHERE id = 2",
		want: "SELECT 'café – ☕', cust_nm FROM customers WHERE id = 2", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "typo qualified", sql: "SELECT o.id, o.total_amount FROM orders o WHERE o.id < 4",
		want: "SELECT id, total_amt FROM orders WHERE id < 4", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "column of FK parent: join", sql: "SELECT o.id, o.cust_nm FROM orders o WHERE o.id < 5",
		want: "SELECT o.id, c.cust_nm FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id < 5", state: "42703", rules: []string{RuleJoinNeighbor}},
	{name: "unqualified column of FK parent: the join qualifies the shared id", sql: "SELECT id, customer_name FROM orders WHERE total_amt > 1000",
		want: "SELECT o.id, c.cust_nm FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total_amt > 1000", state: "42703",
		rules: []string{RuleJoinNeighbor}},
	{name: "column in other schema's parent", sql: "SELECT e.first_nm, e.dept_name FROM hr.employees e",
		want: "SELECT e.first_nm, d.dept_name FROM hr.employees e JOIN hr.departments d USING (dept_id)", state: "42703", rules: []string{RuleJoinNeighbor}},
	{name: "column of joined table: requalify", sql: "SELECT o.id, o.cust_nm FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id < 4",
		want: "SELECT o.id, c.cust_nm FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id < 4", state: "42703", rules: []string{RuleRequalify}},
	{name: "wrong alias in WHERE", sql: "SELECT ord.id FROM orders ord JOIN customers c ON c.id = ord.customer_id WHERE ord.city = 'Rome'",
		want: "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city = 'Rome'", state: "42703", rules: []string{RuleRequalify}},
	{name: "phantom ORDER BY column", sql: "SELECT id, cust_nm FROM customers WHERE id < 5 ORDER BY popularity_score DESC, id",
		want: "SELECT id, cust_nm FROM customers WHERE id < 5 ORDER BY id", state: "42703", rules: []string{RuleDropPhantom}, ordered: true},
	{name: "phantom output column", sql: "SELECT id, cust_nm, loyalty_tier_xyz FROM customers WHERE id < 4",
		want: "SELECT id, cust_nm FROM customers WHERE id < 4", state: "42703", rules: []string{RuleDropPhantom}},

	// 42P01 undefined table / missing FROM entry.
	{name: "misspelt table", sql: "SELECT count(*) FROM custmers",
		want: "SELECT count(*) FROM customers", state: "42P01", rules: []string{RuleFuzzyTable}},
	{name: "singular table", sql: "SELECT count(*) FROM order_line WHERE qty > 2",
		want: "SELECT count(*) FROM order_lines WHERE qty > 2", state: "42P01", rules: []string{RuleFuzzyTable}},
	{name: "table in other schema", sql: "SELECT first_nm FROM employees WHERE emp_id = 1",
		want: "SELECT first_nm FROM hr.employees WHERE emp_id = 1", state: "42P01", rules: []string{RuleFuzzyTable}},
	{name: "misspelt table used as qualifier", sql: "SELECT invoice.amount FROM invoice WHERE invoice.order_id = 3",
		want: "SELECT amount FROM invoices WHERE order_id = 3", state: "42P01", rules: []string{RuleFuzzyTable}},
	{name: "missing FROM entry: join", sql: "SELECT o.id, c.cust_nm FROM orders o WHERE o.id < 4",
		want: "SELECT o.id, c.cust_nm FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id < 4", state: "42P01", rules: []string{RuleMissingFrom}},
	{name: "missing FROM entry: child table", sql: "SELECT p.name, l.qty FROM products p WHERE p.id = 3",
		want: "SELECT p.name, l.qty FROM products p LEFT JOIN order_lines l ON l.product_id = p.id WHERE p.id = 3", state: "42P01", rules: []string{RuleMissingFrom}},
	{name: "table name instead of alias", sql: "SELECT customers.cust_nm FROM customers c WHERE c.id = 1",
		want: "SELECT cust_nm FROM customers WHERE id = 1", state: "42P01", rules: []string{RuleFromAlias}},

	// 42702 ambiguous column: qualified only where the join makes the
	// candidates equal (testdata/nofix/qualify.sql has the others).
	{name: "ambiguous join key", sql: "SELECT order_id, count(*) FROM order_lines l JOIN invoices i ON i.order_id = l.order_id GROUP BY order_id",
		want: "SELECT l.order_id, count(*) FROM order_lines l JOIN invoices i ON i.order_id = l.order_id GROUP BY l.order_id", state: "42702", rules: []string{RuleAmbiguous}},
	{name: "ambiguous join key in WHERE", sql: "SELECT e.first_nm FROM hr.employees e JOIN hr.departments d ON d.dept_id = e.dept_id WHERE dept_id = 2",
		want: "SELECT first_nm FROM hr.employees WHERE dept_id = 2", state: "42702", rules: []string{RuleAmbiguous}},

	{name: "ambiguous FK column: referenced side", sql: "SELECT dept_id, dept_name, count(e.emp_id) FROM hr.employees e RIGHT JOIN hr.departments d ON d.dept_id = e.dept_id GROUP BY 1, 2",
		want: "SELECT d.dept_id, d.dept_name, count(e.emp_id) FROM hr.departments d LEFT JOIN hr.employees e ON d.dept_id = e.dept_id GROUP BY 1, 2", state: "42702", rules: []string{RuleAmbiguous}},

	// 42803 grouping.
	{name: "group by FK, select parent column", sql: "SELECT c.cust_nm, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY o.customer_id",
		want: "SELECT c.cust_nm, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id", state: "42803", rules: []string{RuleGroupBy}},
	{name: "group by unique key", sql: "SELECT p.sku, p.name, sum(l.qty) FROM products p JOIN order_lines l ON l.product_id = p.id GROUP BY p.sku",
		want: "SELECT p.sku, p.name, sum(l.qty) FROM products p JOIN order_lines l ON l.product_id = p.id GROUP BY p.id", state: "42803", rules: []string{RuleGroupBy}},

	// 42883 undefined function / operator.
	{name: "round double precision", sql: "SELECT id, round(credit_limit, 1) FROM customers WHERE id < 4",
		want: "SELECT id, round(credit_limit::numeric, 1) FROM customers WHERE id < 4", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "round avg double", sql: "SELECT round(avg(amount), 2) FROM invoices",
		want: "SELECT round(avg(amount)::numeric, 2) FROM invoices", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "sum boolean expression", sql: "SELECT customer_id, SUM(is_paid AND total_amt > 100) FROM orders GROUP BY customer_id",
		want: "SELECT customer_id, count(*) FILTER (WHERE is_paid AND total_amt > 100) FROM orders GROUP BY customer_id", state: "42883", rules: []string{RuleCastInt}},
	{name: "text = integer constant", sql: "SELECT id FROM legacy_events WHERE ref_num = 15",
		want: "SELECT id FROM legacy_events WHERE ref_num = '15'", state: "42883", rules: []string{RuleQuoteLiteral}},
	{name: "boolean = 1", sql: "SELECT count(*) FROM customers WHERE is_vip = 1",
		want: "SELECT count(*) FROM customers WHERE is_vip", state: "42883", rules: []string{RuleQuoteLiteral}},
	// In order, text is read as the number, never the number as text
	// ('3' > '15' as text).
	{name: "text > integer constant", sql: "SELECT id FROM legacy_events WHERE ref_num > 15",
		want: "SELECT id FROM legacy_events WHERE ref_num::numeric > 15", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "integer constant <= text", sql: "SELECT id FROM legacy_events WHERE 15 <= ref_num",
		want: "SELECT id FROM legacy_events WHERE 15 <= ref_num::numeric", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "integer < text columns", sql: "SELECT e.id FROM legacy_events e JOIN orders o ON o.id < e.ref_num WHERE o.id = 10",
		want: "SELECT e.id FROM legacy_events e JOIN orders o ON o.id < e.ref_num::numeric WHERE o.id = 10", state: "42883", rules: []string{RuleCastText}},
	// Read as numeric beside an integer column too: '3.5' is no integer.
	{name: "decimal text > integer column", sql: "SELECT id FROM legacy_events WHERE (ref_num || '.5') > id",
		want: "SELECT id FROM legacy_events WHERE (ref_num || '.5')::numeric > id", state: "42883", rules: []string{RuleCastText}},
	// The largest text is not the largest number (max of '3'..'45' is
	// '9'): the cast goes inside the aggregate, and inside a scalar
	// subquery's output.
	{name: "max of text > integer constant", sql: "SELECT substr(code, 1, 2) AS p FROM legacy_events GROUP BY 1 HAVING max(ref_num) > 40",
		want: "SELECT substr(code, 1, 2) AS p FROM legacy_events GROUP BY 1 HAVING max(ref_num::numeric) > 40", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "scalar subquery's max of text > integer constant", sql: "SELECT id FROM legacy_events WHERE (SELECT max(ref_num) FROM legacy_events) > 40",
		want: "SELECT id FROM legacy_events WHERE (SELECT max(ref_num::numeric) FROM legacy_events) > 40", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "greatest of text < integer constant", sql: "SELECT id FROM legacy_events WHERE 40 < greatest(ref_num, '5')",
		want: "SELECT id FROM legacy_events WHERE ref_num::numeric > 40", state: "42883", rules: []string{RuleCastNumeric}},
	// x < ANY (array of text): the elements are read as numbers.
	{name: "integer constant < ANY (text array)", sql: "SELECT id FROM legacy_events WHERE 40 < ANY (string_to_array(ref_num || ',' || ref_num, ','))",
		want: "SELECT id FROM legacy_events WHERE ref_num::numeric > 40", state: "42883", rules: []string{RuleCastNumeric}},
	{name: "integer = text columns", sql: "SELECT e.id, o.id FROM legacy_events e JOIN orders o ON o.id = e.ref_num",
		want: "SELECT e.id, o.id FROM legacy_events e JOIN orders o ON o.id::text = e.ref_num", state: "42883", rules: []string{RuleCastText}},
	{name: "LIKE on integer", sql: "SELECT id FROM orders WHERE id LIKE '1%'",
		want: "SELECT id FROM orders WHERE id::text LIKE '1%'", state: "42883", rules: []string{RuleCastText}},
	{name: "interval compared with days", sql: "SELECT id FROM orders WHERE shipped_at - order_date > 2",
		want: "SELECT id FROM orders WHERE shipped_at::date - order_date > 2", state: "42883", rules: []string{RuleDateDiffDays}},
	{name: "timestamp minus integer", sql: "SELECT count(*) FROM orders WHERE shipped_at > now() - 900",
		want: "SELECT count(*) FROM orders WHERE shipped_at > CURRENT_DATE - 900", state: "42883", rules: []string{RuleDateArith}},
	{name: "extract from text", sql: "SELECT count(*) FROM legacy_events WHERE EXTRACT(YEAR FROM event_dt) = 2024",
		want: "SELECT count(*) FROM legacy_events WHERE event_dt LIKE '2024-%'", state: "42883", rules: []string{RuleCastTime}},
	{name: "date_trunc text", sql: "SELECT date_trunc('month', event_dt) AS m, count(*) FROM legacy_events GROUP BY 1 ORDER BY 1",
		want: "SELECT date_trunc('month', event_dt::timestamp), count(*) FROM legacy_events GROUP BY 1 ORDER BY 1", state: "42883", rules: []string{RuleCastTime}, ordered: true},
	{name: "length of integer", sql: "SELECT id FROM orders WHERE length(id) = 2",
		want: "SELECT id FROM orders WHERE id >= 10", state: "42883", rules: []string{RuleCastText}},
	{name: "sum of text", sql: "SELECT sum(ref_num) FROM legacy_events",
		want: "SELECT sum(ref_num::int) FROM legacy_events", state: "42883", rules: []string{RuleCastNumeric}},

	// 42804 datatype mismatch.
	{name: "number as condition", sql: "SELECT count(*) FROM order_lines WHERE discount_pct",
		want: "SELECT count(*) FROM order_lines WHERE discount_pct > 0", state: "42804", rules: []string{RuleBoolWhere}},
	{name: "coalesce types", sql: "SELECT id, COALESCE(sales_rep_id, status) FROM orders WHERE id < 8",
		want: "SELECT id, COALESCE(sales_rep_id::text, status) FROM orders WHERE id < 8", state: "42804", rules: []string{RuleMismatchText}},
	{name: "case types", sql: "SELECT id, CASE WHEN is_paid THEN total_amt ELSE status END FROM orders WHERE id < 6",
		want: "SELECT id, CASE WHEN is_paid THEN total_amt::text ELSE status END FROM orders WHERE id < 6", state: "42804", rules: []string{RuleMismatchText}},

	// 22P02 invalid text representation.
	{name: "text default for a number", sql: "SELECT id, COALESCE(sales_rep_id, 'none') AS rep FROM orders WHERE id < 13",
		want: "SELECT id, CASE WHEN sales_rep_id IS NULL THEN 'none' ELSE sales_rep_id::text END FROM orders WHERE id < 13", state: "22P02", rules: []string{RuleInvalidText}},
	{name: "text branch of a numeric CASE", sql: "SELECT id, CASE WHEN is_paid THEN total_amt ELSE 'unpaid' END FROM orders WHERE id < 6",
		want: "SELECT id, CASE WHEN is_paid THEN total_amt::text ELSE 'unpaid' END FROM orders WHERE id < 6", state: "22P02", rules: []string{RuleInvalidText}},
}

// precisionCases are repairs that exactly one target justifies: typos
// with swapped letters, a column named after its own table, a parent's
// column the name points at, the inner query's column of a name both
// levels have. Their counterparts with several targets are in
// testdata/nofix.
var precisionCases = []repairCase{
	{name: "swapped letters", sql: "SELECT nmae, sku FROM products WHERE id < 4",
		want: "SELECT name, sku FROM products WHERE id < 4", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "swapped letters in email", sql: "SELECT cust_nm, emial FROM customers WHERE id < 3",
		want: "SELECT cust_nm, email FROM customers WHERE id < 3", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "swapped letters in a filter", sql: "SELECT id FROM orders WHERE stauts = 'pending'",
		want: "SELECT id FROM orders WHERE status = 'pending'", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "name of the table itself", sql: "SELECT name FROM customers WHERE city = 'Rome'",
		want: "SELECT cust_nm FROM customers WHERE city = 'Rome'", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "abbreviated name of the table itself", sql: "SELECT nme, city FROM customers WHERE is_vip",
		want: "SELECT cust_nm, city FROM customers WHERE is_vip", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "key named after its table", sql: "SELECT customer_id, cust_nm FROM customers WHERE is_vip",
		want: "SELECT id, cust_nm FROM customers WHERE is_vip", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "date of an order", sql: "SELECT id, date FROM orders WHERE id < 6",
		want: "SELECT id, order_date FROM orders WHERE id < 6", state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "parent column named by its table", sql: "SELECT c.cust_nm, c.country_name FROM customers c WHERE c.id < 5",
		want:  "SELECT c.cust_nm, k.name FROM customers c JOIN countries k ON k.code = c.country_code WHERE c.id < 5",
		state: "42703", rules: []string{RuleJoinNeighbor}},
	{name: "distinctive column of the only parent that has it", sql: "SELECT cust_nm, region FROM customers WHERE id < 5",
		want:  "SELECT c.cust_nm, k.region FROM customers c JOIN countries k ON k.code = c.country_code WHERE c.id < 5",
		state: "42703", rules: []string{RuleJoinNeighbor}},
	{name: "parent on a nullable key: LEFT JOIN keeps every order", sql: "SELECT id, warehouse_name FROM orders WHERE id < 12",
		want:  "SELECT o.id, w.name FROM orders o LEFT JOIN warehouses w ON w.id = o.warehouse_id WHERE o.id < 12",
		state: "42703", rules: []string{RuleJoinNeighbor}},
	{name: "same name inside and outside a subquery: the inner one", sql: "SELECT c.cust_nm FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND stauts = 'shipped')",
		want:  "SELECT c.cust_nm FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'shipped')",
		state: "42703", rules: []string{RuleFuzzyColumn}},
	{name: "swapped letters in a table", sql: "SELECT count(*) FROM prodcuts WHERE discontinued",
		want: "SELECT count(*) FROM products WHERE discontinued", state: "42P01", rules: []string{RuleFuzzyTable}},
	{name: "ambiguous key of a LEFT JOIN: the preserved side", sql: "SELECT dept_id, count(e.emp_id) FROM hr.departments d LEFT JOIN hr.employees e ON e.dept_id = d.dept_id GROUP BY dept_id",
		want:  "SELECT d.dept_id, count(e.emp_id) FROM hr.departments d LEFT JOIN hr.employees e ON e.dept_id = d.dept_id GROUP BY d.dept_id",
		state: "42702", rules: []string{RuleAmbiguous}},
	{name: "ambiguous key equated in WHERE", sql: "SELECT order_id, amount FROM invoices i, order_lines l WHERE l.order_id = i.order_id AND l.line_no = 1",
		want:  "SELECT i.order_id, i.amount FROM invoices i JOIN order_lines l ON l.order_id = i.order_id WHERE l.line_no = 1",
		state: "42702", rules: []string{RuleAmbiguous}},
}

func TestPrecisionCases(t *testing.T) {
	pool, cat := fixture(t)
	r := New(cat)
	for _, c := range precisionCases {
		t.Run(c.name, func(t *testing.T) { checkCase(t, r, pool, c) })
	}
}

// repairLoop runs sql, and while it fails asks Fix and takes the first
// candidate, as the engine does. It returns the final SQL and the rules used.
func repairLoop(ctx context.Context, t *testing.T, r *Repairer, pool *pgxpool.Pool, sql, wantState string) (string, []string) {
	t.Helper()
	var rules []string
	for round := 0; round < 5; round++ {
		f, err := failure(ctx, pool, sql)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if f == nil {
			if round == 0 && wantState != "" {
				t.Fatalf("broken query ran without error: %s", sql)
			}
			return sql, rules
		}
		if round == 0 && wantState != "" && f.SQLState != wantState {
			t.Errorf("first failure %s (%s), want SQLSTATE %s", f.SQLState, f.Message, wantState)
		}
		fixes, err := r.Fix(sql, *f)
		if err != nil {
			t.Fatalf("round %d: Fix(%q, %s %q pos %d): %v", round, sql, f.SQLState, f.Message, f.Position, err)
		}
		// As the engine does: a fix whose Verify query finds a row is not
		// applied.
		if fixes = verified(t, pool, fixes); len(fixes) == 0 {
			t.Fatalf("round %d: every fix of %q failed its check", round, sql)
		}
		t.Logf("round %d: %s %s → [%s] %s", round, f.SQLState, f.Message, fixes[0].Rule, fixes[0].SQL)
		for _, c := range fixes[0].Changes {
			rules = append(rules, c.Rule)
		}
		sql = fixes[0].SQL
	}
	t.Fatalf("still failing after 5 rounds: %s", sql)
	return "", nil
}

func TestRepairCases(t *testing.T) {
	pool, cat := fixture(t)
	r := New(cat)
	passed := 0
	for _, c := range repairCases {
		if t.Run(c.name, func(t *testing.T) { checkCase(t, r, pool, c) }) {
			passed++
		}
	}
	t.Logf("%d/%d repair cases pass", passed, len(repairCases))
}

// checkCase repairs c.sql with the server's errors and checks the result
// returns the rows of the golden query and used the expected rules.
func checkCase(t *testing.T, r *Repairer, pool *pgxpool.Pool, c repairCase) {
	t.Helper()
	ctx := context.Background()
	want, err := result(ctx, pool, c.want, c.ordered)
	if err != nil || len(want) == 0 {
		t.Fatalf("golden query: %d rows (a case needs some), %v", len(want), err)
	}
	fixed, rules := repairLoop(ctx, t, r, pool, c.sql, c.state)
	got, err := result(ctx, pool, fixed, c.ordered)
	if err != nil {
		t.Fatalf("fixed query: %v", err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("fixed %s\n got  %v\n want %v", fixed, got, want)
	}
	for _, rule := range c.rules {
		if !contains(rules, rule) {
			t.Errorf("rule %s not applied (applied %v)", rule, rules)
		}
	}
}

// serverFailure runs a query that must fail and returns the server's error.
func serverFailure(t testing.TB, pool *pgxpool.Pool, sql string) Failure {
	t.Helper()
	f, err := failure(context.Background(), pool, sql)
	if err != nil || f == nil {
		t.Fatalf("%s: expected a server error, got %v", sql, err)
	}
	return *f
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestOrderedNoReading: text compared in order with something that has no
// reading as one type is left unrepaired: a row of values is no number.
func TestOrderedNoReading(t *testing.T) {
	pool, cat := fixture(t)
	noFix(t, New(cat), pool, []string{
		"SELECT id FROM legacy_events WHERE (ref_num, id) > (10, 1)",
	})
}
