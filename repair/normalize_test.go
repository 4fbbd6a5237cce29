package repair

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/corpus"
)

// Valid PostgreSQL must come back byte for byte, whatever its literals and
// comments contain.
func TestNormalizeLeavesPostgreSQLAlone(t *testing.T) {
	_, cat := fixture(t)
	r := New(cat)
	for _, q := range []string{
		"SELECT id FROM orders WHERE status = 'LIMIT 1, 2' -- TOP 5\nORDER BY id",
		"SELECT 'a `b` c', $$ INTERVAL 30 DAY $$ /* SELECT TOP 3 x */ FROM orders",
		`SELECT "status", count(*) FROM orders WHERE "status" = status GROUP BY 1`,
		"SELECT E'it\\'s', now() - interval '30 days' FROM customers",
		"SELECT COALESCE(sales_rep_id, 0), EXTRACT(year FROM order_date) FROM orders LIMIT 3 OFFSET 5",
		"SELECT sum(qty) FROM order_lines",
		"WITH x AS (SELECT customer_id AS c FROM orders) SELECT * FROM x WHERE c = 3",
	} {
		out, changes, err := r.Normalize(q)
		if err != nil || out != q || len(changes) != 0 {
			t.Errorf("Normalize(%q) = %q, %v, %v; want unchanged", q, out, changes, err)
		}
	}
}

// Textual rewrites never touch string literals, quoted identifiers or
// comments.
func TestNormalizeTokensSkipLiterals(t *testing.T) {
	_, cat := fixture(t)
	r := New(cat)
	in := "SELECT `cust_nm`, 'a `b` LIMIT 1, 2 INTERVAL 3 DAY' AS s, \"TOP 5\" FROM customers /* LIMIT 7, 8 */ ORDER BY id LIMIT 1, 2"
	out, changes, err := r.Normalize(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"'a `b` LIMIT 1, 2 INTERVAL 3 DAY'", `"TOP 5"`, "LIMIT 2 OFFSET 1", "SELECT cust_nm,"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	if len(changes) != 2 || changes[0].Rule != RuleBacktick || changes[1].Rule != RuleLimitComma {
		t.Errorf("changes %v", changes)
	}
}

// Rewrites whose results are checked as text (their row order or values are
// not deterministic enough for the database table).
func TestNormalizeRules(t *testing.T) {
	_, cat := fixture(t)
	r := New(cat)
	cases := []struct{ in, want, rule string }{
		{"SELECT customer_id, GROUP_CONCAT(DISTINCT status) FROM orders GROUP BY customer_id",
			"SELECT customer_id, string_agg(DISTINCT status::text, ',') FROM orders GROUP BY customer_id", RuleGroupConcat},
		{"SELECT DAYOFWEEK(order_date) FROM orders", "SELECT extract ('dow' FROM order_date) + 1 FROM orders", RuleExtract},
		{"SELECT DATEPART(month, order_date) FROM orders", "SELECT extract ('month' FROM order_date) FROM orders", RuleExtract},
		{"SELECT LOCATE('x', cust_nm) FROM customers", "SELECT strpos(cust_nm, 'x') FROM customers", RuleFunctionName},
		{"SELECT DATEDIFF(year, signup_date, CURRENT_DATE) FROM customers",
			"SELECT extract ('year' FROM current_date) - extract ('year' FROM signup_date) FROM customers", RuleDateDiff},
		{"SELECT DATE_FORMAT(order_date, '%d %M %Y at %H:%i') FROM orders",
			`SELECT to_char(order_date, 'DD FMMonth YYYY "at" HH24:MI') FROM orders`, RuleDateFormat},
		{"SELECT strftime('%Y', 'now')", "SELECT to_char(now(), 'YYYY')", RuleStrftime},
		{"SELECT MAX(is_vip), MIN(is_vip), AVG(is_vip) FROM customers",
			"SELECT bool_or(is_vip), bool_and(is_vip), avg(is_vip::int) FROM customers", RuleBoolAggregate},
		{"SELECT CAST(order_date AS DATETIME) FROM orders", "SELECT order_date::timestamp FROM orders", RuleCastType},
		{"SELECT SYSDATE() - INTERVAL 2 HOUR", "SELECT now() - '2 hours'::interval", RuleNow},
		{"SELECT IIF(is_paid, 1, 0) FROM orders", "SELECT CASE WHEN is_paid THEN 1 ELSE 0 END FROM orders", RuleIf},
		// a double-quoted name that is a column stays an identifier
		{`SELECT id FROM orders WHERE "status" = "pending"`, "SELECT id FROM orders WHERE status = 'pending'", RuleQuotedString},
	}
	for _, c := range cases {
		_, rules, ok := normalized(t, r, c.in, c.want)
		if ok && !contains(rules, c.rule) {
			t.Errorf("%s: rules %v lack %s", c.in, rules, c.rule)
		}
	}
}

// normalized checks that Normalize rewrites in into want and returns its
// output and the rules it applied; ok is false when Normalize failed.
func normalized(t *testing.T, r *Repairer, in, want string) (out string, rules []string, ok bool) {
	t.Helper()
	out, changes, err := r.Normalize(in)
	if err != nil {
		t.Errorf("%s: %v", in, err)
		return "", nil, false
	}
	if out != want {
		t.Errorf("Normalize(%q)\n got  %s\n want %s", in, out, want)
	}
	for _, ch := range changes {
		rules = append(rules, ch.Rule)
	}
	return out, rules, true
}

func TestParseErrors(t *testing.T) {
	_, cat := fixture(t)
	r := New(cat)
	_, _, err := r.Normalize("SELEC id FROM orders")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.SQL == "" {
		t.Errorf("Normalize: %v, want *ParseError", err)
	}
	_, err = r.Fix("SELECT id FROM orders WHERE", Failure{SQLState: "42601", Message: "syntax error at end of input", Position: 28})
	if !errors.As(err, &pe) {
		t.Errorf("Fix: %v, want *ParseError", err)
	}
}

// Queries whose failure must not be "repaired": a genuinely unknown name in
// a filter, a grouping or a table, an unknown function, a phantom column in
// an aggregate query.
func TestNoFix(t *testing.T) {
	pool, cat := fixture(t)
	r := New(cat)
	for _, q := range []string{
		"SELECT id FROM orders WHERE flux_capacitor > 3",
		"SELECT id, cust_nm FROM customers WHERE loyalty_tier_xyz = 'gold'",
		"SELECT count(*) FROM orders GROUP BY wibble_wobble",
		"SELECT o.id FROM orders o JOIN customers c ON c.zork_id = o.id",
		"SELECT * FROM zzqx_things",
		"SELECT frobnicate(id) FROM orders",
		"SELECT count(*), wobble_factor FROM orders",
		"SELECT id FROM orders HAVING sum(total_amt) > 1 ORDER BY x.y",
		"SELECT hiring_date FROM hr.employees",
		"SELECT 1 + 'abc'::int",
	} {
		f := serverFailure(t, pool, q)
		fixes, err := r.Fix(q, f)
		if !errors.Is(err, ErrNoFix) {
			t.Errorf("Fix(%q) [%s %s] = %v, %v; want ErrNoFix", q, f.SQLState, f.Message, fixes, err)
		}
	}
}

// The glosser teaches abbreviations the built-in list does not know.
func TestGlosser(t *testing.T) {
	pool, cat := fixture(t)
	ctx := context.Background()
	r := New(cat, WithGlosser(func(w string) []string {
		if w == "hire" {
			return []string{"hiring"}
		}
		return nil
	}))
	q := "SELECT emp_id, hiring_date FROM hr.employees"
	got, _ := repairLoop(ctx, t, r, pool, q, "42703")
	if got != "SELECT emp_id, hire_dt FROM hr.employees" {
		t.Errorf("fixed to %q", got)
	}
}

// Fix proposes one repair per unknown name, never a choice: o.paid is
// orders.is_paid (a column of the table in the query), not invoices.paid
// (a JOIN away). Handlers with several ways to fix one failure still return
// them best first, bounded by WithMaxCandidates.
func TestCandidates(t *testing.T) {
	pool, cat := fixture(t)
	ctx := context.Background()
	q := "SELECT o.id, o.paid FROM orders o"
	f := serverFailure(t, pool, q)
	fixes, err := New(cat).Fix(q, f)
	if err != nil || len(fixes) != 1 || fixes[0].Rule != RuleFuzzyColumn || fixes[0].SQL != "SELECT o.id, o.is_paid FROM orders o" {
		t.Fatalf("fixes %+v, %v", fixes, err)
	}
	q = "SELECT id FROM orders WHERE shipped_at - order_date > 2"
	f = serverFailure(t, pool, q)
	fixes, err = New(cat).Fix(q, f)
	if err != nil || len(fixes) < 2 {
		t.Fatalf("%s: fixes %+v, %v", q, fixes, err)
	}
	for _, fx := range fixes {
		if ff, err := failure(ctx, pool, fx.SQL); err != nil || ff != nil {
			t.Errorf("candidate %q fails: %v %v", fx.SQL, err, ff)
		}
	}
	one, err := New(cat, WithMaxCandidates(1)).Fix(q, f)
	if err != nil || len(one) != 1 || one[0].SQL != fixes[0].SQL {
		t.Errorf("WithMaxCandidates(1): %v %v", one, err)
	}
}

func TestPrompt(t *testing.T) {
	pool, cat := fixture(t)
	q := "SELECT o.id, o.region FROM orders o"
	p := Prompt(q, serverFailure(t, pool, q), cat)
	for _, want := range []string{
		"SQLSTATE 42703", "column o.region does not exist", q, "⟶o.region",
		"public.orders(id integer, customer_id integer, sales_rep_id integer, order_date date",
		"public.customers(id integer, cust_nm text", "JOIN ON orders.customer_id = customers.id",
		"hr.employees(", "JOIN ON order_lines.order_id = orders.id",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "legacy_events") {
		t.Errorf("prompt lists an unrelated table:\n%s", p)
	}
}

func BenchmarkNormalize(b *testing.B) {
	_, cat := fixture(b)
	r := New(cat)
	q := "SELECT `o`.`id`, IFNULL(o.sales_rep_id, 0) AS rep FROM orders o WHERE YEAR(o.order_date) = 2024 ORDER BY o.id LIMIT 2, 3"
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.Normalize(q); err != nil {
			b.Fatal(err)
		}
	}
}

// The common case: valid PostgreSQL, checked and returned unchanged.
func BenchmarkNormalizeValid(b *testing.B) {
	_, cat := fixture(b)
	r := New(cat)
	q := "SELECT c.cust_nm, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.order_date >= DATE '2024-01-01' GROUP BY c.id ORDER BY 2 DESC LIMIT 10"
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.Normalize(q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFix(b *testing.B) {
	pool, cat := fixture(b)
	r := New(cat)
	q := "SELECT o.id, o.cust_nm FROM orders o WHERE o.id < 5"
	f := serverFailure(b, pool, q)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Fix(q, f); err != nil {
			b.Fatal(err)
		}
	}
}

// Fix and Normalize never panic, whatever position and message they are
// handed: every case query (fixed and no-fix), every handler, every token
// start.
func TestNoPanicSweep(t *testing.T) {
	_, cat := fixture(t)
	r := New(cat, WithSearchPath("div_19", "public")) // a scope, so the scope rules run too
	messages := map[string][]string{
		"42703": {"column x does not exist", "column t.division does not exist"},
		"42P01": {"missing FROM-clause entry for table \"x\"", "relation \"x\" does not exist"},
		"42702": {"column reference \"x\" is ambiguous"},
		"42803": {"column \"x\" must appear in the GROUP BY clause or be used in an aggregate function"},
		"42883": {"function round(double precision, integer) does not exist", "operator does not exist: text = integer",
			"function sum(boolean) does not exist", "operator does not exist: interval > integer",
			"function pg_catalog.extract(unknown, integer) does not exist", "function date_part(unknown, integer) does not exist",
			"operator does not exist: integer >= interval", "operator does not exist: integer <= interval",
			"operator does not exist: text + interval", "operator does not exist: date - text",
			"operator does not exist: double precision % integer", "function mod(double precision, integer) does not exist"},
		"42804": {"argument of WHERE must be type boolean, not type integer", "COALESCE types integer and text cannot be matched"},
		"22P02": {"invalid input syntax for type integer: \"x\""},
	}
	n := 0
	sqls := []string{}
	for _, c := range append(append(append([]repairCase(nil), repairCases...), precisionCases...), modelCases...) {
		sqls = append(sqls, c.sql)
	}
	nofix, err := corpus.Read("testdata/nofix")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nofix {
		sqls = append(sqls, c.SQL)
	}
	for _, sql := range sqls {
		_, _, _ = r.Normalize(sql)
		pos := 1
		for _, tok := range tokenize(sql) {
			if tok.kind != tkSpace {
				for st, ms := range messages {
					for _, m := range ms {
						_, _ = r.Fix(sql, Failure{SQLState: st, Message: m, Position: pos})
						n++
					}
				}
			}
			pos += len([]rune(tok.text))
		}
	}
	t.Logf("%d Fix calls", n)
}

// TestNormalizeUnbalancedTopDeterministic: TOP n in subqueries whose
// parentheses are never closed leaves several pending LIMITs; they are
// written by depth, outermost first, on every call, not in map order.
func TestNormalizeUnbalancedTopDeterministic(t *testing.T) {
	r := New(nil)
	sql := "SELECT TOP 1 a FROM (SELECT TOP 2 b FROM (SELECT TOP 3 c FROM (SELECT TOP 4 d FROM t"
	want, _, _ := r.Normalize(sql)
	if !strings.HasSuffix(want, "t LIMIT 1 LIMIT 2 LIMIT 3 LIMIT 4") {
		t.Errorf("Normalize(%q) = %q, want the LIMITs outermost first", sql, want)
	}
	for range 200 {
		if got, _, _ := r.Normalize(sql); got != want {
			t.Fatalf("Normalize(%q) differs between calls:\n%s\n%s", sql, want, got)
		}
	}
}
