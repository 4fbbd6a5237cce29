package validate_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/validate"
)

func mustValidate(t *testing.T, v *validate.Validator, sql string) *validate.Result {
	t.Helper()
	res, err := v.Validate(sql)
	if err != nil {
		t.Fatalf("Validate(%q): %v", sql, err)
	}
	return res
}

func mustReject(t *testing.T, v *validate.Validator, sql, code string) *validate.Error {
	t.Helper()
	_, err := v.Validate(sql)
	var ve *validate.Error
	if !errors.As(err, &ve) {
		t.Fatalf("Validate(%q): err = %v, want *validate.Error with %s", sql, err, code)
	}
	if !ve.Has(code) {
		t.Fatalf("Validate(%q): %v, want code %s", sql, ve.Violations(), code)
	}
	return ve
}

func TestLimitRewrite(t *testing.T) {
	v := validate.New(validate.WithMaxRows(100))
	tests := []struct {
		sql, want, code string
	}{
		{"SELECT id FROM t", "SELECT id FROM t LIMIT 100", validate.CodeLimitAdded},
		{"SELECT id FROM t LIMIT 5000", "SELECT id FROM t LIMIT 100", validate.CodeLimitCapped},
		{"SELECT id FROM t LIMIT ALL", "SELECT id FROM t LIMIT 100", validate.CodeLimitCapped},
		{"SELECT id FROM t ORDER BY id LIMIT 10", "SELECT id FROM t ORDER BY id LIMIT 10", ""},
		{"SELECT id FROM t LIMIT (SELECT count(*) FROM u)", "SELECT id FROM t LIMIT LEAST((SELECT count(*) FROM u), 100)", validate.CodeLimitCapped},
		{"SELECT 1 UNION SELECT 2", "SELECT 1 UNION SELECT 2 LIMIT 100", validate.CodeLimitAdded},
		{"WITH a AS (SELECT id FROM t) SELECT id FROM a", "WITH a AS (SELECT id FROM t) SELECT id FROM a LIMIT 100", validate.CodeLimitAdded},
		{"SELECT id FROM t ORDER BY id FETCH FIRST 500 ROWS ONLY", "SELECT id FROM t ORDER BY id LIMIT 100", validate.CodeLimitCapped},
	}
	for _, tt := range tests {
		res := mustValidate(t, v, tt.sql)
		if res.SQL != tt.want {
			t.Errorf("Validate(%q).SQL = %q, want %q", tt.sql, res.SQL, tt.want)
		}
		var codes []string
		for _, is := range res.Issues {
			if is.Severity == validate.SeverityInfo {
				codes = append(codes, is.Code)
			}
		}
		if (tt.code == "" && len(codes) > 0) || (tt.code != "" && !slices.Equal(codes, []string{tt.code})) {
			t.Errorf("Validate(%q) notes = %v, want %q", tt.sql, codes, tt.code)
		}
		// The rewrite is a fixed point.
		if again := mustValidate(t, v, res.SQL); again.SQL != res.SQL {
			t.Errorf("rewrite not idempotent: %q -> %q", res.SQL, again.SQL)
		}
	}
	if got := mustValidate(t, validate.New(), "select id from t").SQL; got != "select id from t" {
		t.Errorf("zero config changed the query: %q", got)
	}
}

// TestResultText checks which text Validate returns: the statement's own
// text when the tree needs no rewrite, the text with LIMIT appended when it
// has none, and the deparsed tree otherwise; each parses to the tree that
// was checked.
func TestResultText(t *testing.T) {
	v := validate.New(validate.WithMaxRows(100))
	tests := []struct{ sql, want string }{
		{"  select id\n  from t  ;\n", "select id\n  from t LIMIT 100"},
		{"SELECT id FROM t;;", "SELECT id FROM t LIMIT 100"},
		{"SELECT id FROM t -- all of them", "SELECT id FROM t -- all of them\nLIMIT 100"},
		{"SELECT id FROM t /* note */", "SELECT id FROM t /* note */ LIMIT 100"},
		{"SELECT id FROM t ORDER BY id OFFSET 5", "SELECT id FROM t ORDER BY id OFFSET 5 LIMIT 100"},
		{"(SELECT id FROM t) UNION (SELECT id FROM u)", "(SELECT id FROM t) UNION (SELECT id FROM u) LIMIT 100"},
		{"VALUES (1), (2)", "VALUES (1), (2) LIMIT 100"},
		{"TABLE t", "TABLE t LIMIT 100"},
		{"SELECT '--' AS a FROM t", "SELECT '--' AS a FROM t\nLIMIT 100"},
		{"SELECT id FROM t limit 7; -- seven", "SELECT id FROM t limit 7"},
		{"SELECT id FROM t WHERE note = 'no limit' ", "SELECT id FROM t WHERE note = 'no limit' LIMIT 100"},
		// A statement followed by a comment after its semicolon cannot
		// take an appended LIMIT: it goes the deparse way.
		{"SELECT id FROM t; -- done", "SELECT id FROM t LIMIT 100"},
		{"SELECT id FROM (SELECT id FROM t LIMIT 5) s", "SELECT id FROM (SELECT id FROM t LIMIT 5) s LIMIT 100"},
	}
	for _, tt := range tests {
		res := mustValidate(t, v, tt.sql)
		if res.SQL != tt.want {
			t.Errorf("Validate(%q).SQL = %q, want %q", tt.sql, res.SQL, tt.want)
		}
		tree, err := pg.Parse(res.SQL)
		if err != nil || len(tree.Stmts) != 1 {
			t.Fatalf("%q: result %q is not one statement: %v", tt.sql, res.SQL, err)
		}
		if again := mustValidate(t, v, res.SQL); again.SQL != res.SQL {
			t.Errorf("not a fixed point: %q -> %q", res.SQL, again.SQL)
		}
	}
}

// TestAppendedLimitIsNotLinted checks that the checks see the query as
// written: the LIMIT the validator appends draws no L006 warning, while
// the author's own LIMIT without ORDER BY does.
func TestAppendedLimitIsNotLinted(t *testing.T) {
	v := validate.New(validate.WithMaxRows(100))
	codes := func(sql string) []string {
		var out []string
		for _, is := range mustValidate(t, v, sql).Issues {
			out = append(out, is.Code)
		}
		return out
	}
	if got := codes("SELECT id FROM t"); !slices.Equal(got, []string{validate.CodeLimitAdded}) {
		t.Errorf("appended LIMIT: issues %v, want only %s", got, validate.CodeLimitAdded)
	}
	if got := codes("SELECT id FROM t LIMIT 5"); !slices.Contains(got, validate.CodeLimitNoOrder) {
		t.Errorf("own LIMIT without ORDER BY: issues %v, want %s", got, validate.CodeLimitNoOrder)
	}
}

// TestRejectedLocationsPointIntoInput checks that a query rejected on the
// appended-LIMIT path reports locations in the caller's text.
func TestRejectedLocationsPointIntoInput(t *testing.T) {
	v := validate.New(validate.WithMaxRows(100))
	sql := "SELECT id, pg_sleep(1) FROM t;"
	ve := mustReject(t, v, sql, validate.CodeFuncDenied)
	if ve.SQL != sql {
		t.Errorf("error SQL = %q, want the input", ve.SQL)
	}
	for _, is := range ve.Violations() {
		if is.Code == validate.CodeFuncDenied && !strings.HasPrefix(sql[is.Location:], "pg_sleep") {
			t.Errorf("location %d does not point at pg_sleep in %q", is.Location, sql)
		}
	}
}

func TestResultTablesAndFunctions(t *testing.T) {
	v := validate.New(validate.WithSearchPath("div_01", "public"), validate.WithTables(
		validate.Table{Schema: "div_01", Name: "sales"},
		validate.Table{Schema: "public", Name: "customers"},
		validate.Table{Schema: "public", Name: "sales"},
	))
	res := mustValidate(t, v, `WITH recent AS (SELECT * FROM sales WHERE sold_at > now() - interval '7 days')
		SELECT c.name, count(*), lower(c.name) FROM recent r JOIN customers c ON c.id = r.customer_id
		JOIN public.sales ps ON ps.id = r.id GROUP BY c.name`)
	if want := []string{"div_01.sales", "public.customers", "public.sales"}; !slices.Equal(res.Tables, want) {
		t.Errorf("Tables = %v, want %v", res.Tables, want)
	}
	if want := []string{"count", "lower", "now"}; !slices.Equal(res.Functions, want) {
		t.Errorf("Functions = %v, want %v", res.Functions, want)
	}
	// The first search path schema holding an allowed table wins.
	res = mustValidate(t, v, "SELECT * FROM customers")
	if !slices.Equal(res.Tables, []string{"public.customers"}) {
		t.Errorf("Tables = %v", res.Tables)
	}
	ve := mustReject(t, v, "SELECT * FROM div_01.customers", validate.CodeTableNotAllowed)
	if !strings.Contains(ve.Error(), "div_01.customers") || !strings.Contains(ve.Error(), "allowed: ") {
		t.Errorf("message does not name the table and the allowed set: %v", ve)
	}
	// Zero config: any non-system relation, resolved in the first schema.
	res = mustValidate(t, validate.New(), "SELECT * FROM anything JOIN other.thing USING (id)")
	if want := []string{"other.thing", "public.anything"}; !slices.Equal(res.Tables, want) {
		t.Errorf("Tables = %v, want %v", res.Tables, want)
	}
}

func TestCTEScopes(t *testing.T) {
	v := validate.New(validate.WithTables(validate.Table{Schema: "public", Name: "users"}))
	// A CTE shadows a table only inside its WITH.
	mustValidate(t, v, "WITH secrets AS (SELECT * FROM users) SELECT * FROM secrets")
	mustReject(t, v, "SELECT * FROM (WITH secrets AS (SELECT 1) SELECT * FROM secrets) s JOIN secrets ON true", validate.CodeTableNotAllowed)
	// Non-recursive CTEs see only earlier siblings; recursive ones see all.
	mustReject(t, v, "WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a", validate.CodeTableNotAllowed)
	mustValidate(t, v, "WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a")
	// A non-recursive CTE body naming itself reads the real relation.
	mustReject(t, v, "WITH secrets AS (SELECT * FROM secrets) SELECT * FROM secrets", validate.CodeTableNotAllowed)
	// Nested WITH scopes.
	mustValidate(t, v, "WITH a AS (SELECT id FROM users) SELECT * FROM (WITH b AS (SELECT id FROM a) SELECT id FROM b) s")
	// Schema-qualified names never refer to a CTE.
	mustReject(t, v, "WITH secrets AS (SELECT 1) SELECT * FROM public.secrets", validate.CodeTableNotAllowed)
}

func TestFunctionOptions(t *testing.T) {
	v := validate.New(
		validate.WithFunctions("current_database", "util.fiscal_year", "pg_sleep"),
		validate.WithoutFunctions("random"),
	)
	mustValidate(t, v, "SELECT current_database()")
	mustValidate(t, v, "SELECT pg_catalog.current_database()")
	mustValidate(t, v, "SELECT util.fiscal_year(now())")
	mustReject(t, v, "SELECT fiscal_year(now())", validate.CodeFuncNotAllowed)
	mustReject(t, v, "SELECT other.fiscal_year(now())", validate.CodeFuncNotAllowed)
	mustReject(t, v, "SELECT random()", validate.CodeFuncNotAllowed)
	// Always-denied functions stay denied whatever the options say.
	mustReject(t, v, "SELECT pg_sleep(1)", validate.CodeFuncDenied)
	ve := mustReject(t, validate.New(), "SELECT 1 WHERE pg_sleep(1) IS NULL", validate.CodeFuncDenied)
	if is := ve.Violations()[0]; is.Location != strings.Index("SELECT 1 WHERE pg_sleep(1) IS NULL", "pg_sleep") {
		t.Errorf("location = %d, want the offset of pg_sleep", is.Location)
	}
}

func TestSystemCatalogOption(t *testing.T) {
	v := validate.New(validate.WithSystemCatalogs(true))
	mustValidate(t, v, "SELECT relname FROM pg_class")
	mustValidate(t, v, "SELECT table_name FROM information_schema.tables")
	mustValidate(t, v, "SELECT 'users'::regclass")
	mustReject(t, v, "SELECT * FROM pg_authid", validate.CodeSystemCatalog)
	mustReject(t, v, "SELECT * FROM pg_catalog.pg_shadow", validate.CodeSystemCatalog)
	mustReject(t, validate.New(), "SELECT relname FROM pg_class", validate.CodeSystemCatalog)
}

func TestLintOff(t *testing.T) {
	on, off := validate.New(), validate.New(validate.WithLint(false))
	sql := "SELECT a.x, b.y FROM a, b WHERE a.name LIKE 'bob' LIMIT 3"
	if res := mustValidate(t, on, sql); len(res.Issues) == 0 {
		t.Error("lint on: no findings")
	}
	if res := mustValidate(t, off, sql); len(res.Issues) != 0 {
		t.Errorf("lint off: findings %v", res.Issues)
	}
	// Guards are not lint: they apply with lint off.
	mustReject(t, off, "SELECT * FROM a, b, c, d", validate.CodeCrossJoin)
	mustReject(t, validate.New(validate.WithMaxCrossJoin(4)), "SELECT * FROM a, b, c, d, e", validate.CodeCrossJoin)
	mustValidate(t, validate.New(validate.WithMaxCrossJoin(4)), "SELECT * FROM a, b, c, d")
}

func TestGuardLimits(t *testing.T) {
	v := validate.New(validate.WithMaxGenerated(1000))
	mustValidate(t, v, "SELECT * FROM generate_series(1, 1000)")
	mustReject(t, v, "SELECT * FROM generate_series(1, 1001)", validate.CodeSeries)
	mustValidate(t, v, "SELECT * FROM generate_series(1, 10000, 10)")
	mustValidate(t, v, "SELECT repeat('x', 1000)")
	mustReject(t, v, "SELECT repeat('x', 1001)", validate.CodeStringBomb)
	mustValidate(t, v, "SELECT * FROM generate_series('2024-01-01'::date, '2024-12-31'::date, interval '1 day')")
	mustReject(t, v, "SELECT * FROM generate_series('2024-01-01'::date, '2024-12-31'::date, interval '1 hour')", validate.CodeSeries)
}

func TestErrorShape(t *testing.T) {
	sql := "SELECT pg_sleep(1), * FROM pg_authid FOR UPDATE"
	_, err := validate.New().Validate(sql)
	if !errors.Is(err, validate.ErrRejected) {
		t.Fatalf("err = %v, want ErrRejected", err)
	}
	var ve *validate.Error
	errors.As(err, &ve)
	var codes []string
	for _, is := range ve.Violations() {
		codes = append(codes, is.Code)
		if is.Severity != validate.SeverityError || is.Location < 0 || is.Location >= len(sql) {
			t.Errorf("issue %v: bad severity or location", is)
		}
	}
	slices.Sort(codes)
	if want := []string{validate.CodeLocking, validate.CodeFuncDenied, validate.CodeSystemCatalog}; !slices.Equal(codes, want) {
		t.Errorf("codes = %v, want all of %v (every violation, not only the first)", codes, want)
	}
	if ve.SQL != sql || !strings.Contains(err.Error(), "pg_sleep") {
		t.Errorf("error = %q", err)
	}
	// Syntax errors point at the offending token, in bytes.
	sql = "SELECT 'é', * FRM t"
	ve = mustReject(t, validate.New(), sql, validate.CodeSyntax)
	if loc := ve.Violations()[0].Location; loc != strings.Index(sql, "FRM") && loc != strings.Index(sql, "t") {
		t.Errorf("syntax error location %d does not point at the bad token", loc)
	}
	mustReject(t, validate.New(), "SELECT 1\x00; DROP TABLE t", validate.CodeSyntax)
	mustReject(t, validate.New(), "SELECT '\xff'", validate.CodeSyntax)
}

// TestTooLarge: a text over 64 KiB, and a chain of operators deep enough
// to crash pg_query_go's own Parse (30,000 additions in 60 KB), are
// rejected with V024 without the process dying; a long but flat query
// under the limit passes.
func TestTooLarge(t *testing.T) {
	v := validate.New()
	mustReject(t, v, "SELECT 1 AS x"+strings.Repeat(" ", 70000), validate.CodeTooLarge)
	mustReject(t, v, "SELECT "+strings.Repeat("1+", 30000)+"1", validate.CodeTooLarge)
	mustReject(t, v, "SELECT "+strings.Repeat("1+", 6000)+"1", validate.CodeTooLarge)
	flat := "SELECT 1 WHERE 1 IN (" + strings.Repeat("1,", 20000) + "1)"
	if _, err := v.Validate(flat); err != nil {
		t.Errorf("%d-byte IN list: %v", len(flat), err)
	}
}

// TestStringBombMessageDeterministic: when several computed columns are
// over the limit, the message names the same one on every call (the
// first by name), not whichever map order brings first: the message goes
// into repair prompts.
func TestStringBombMessageDeterministic(t *testing.T) {
	v := validate.New(validate.WithMaxGenerated(1000))
	sql := "WITH a AS (SELECT repeat('x', 600) || repeat('x', 600) AS s, repeat('y', 600) || repeat('y', 600) AS u, " +
		"repeat('z', 600) || repeat('z', 600) AS b) SELECT 1 FROM a"
	want := mustReject(t, v, sql, validate.CodeStringBomb).Error()
	if !strings.Contains(want, "computes b ") {
		t.Errorf("message %q, want the first column by name (b)", want)
	}
	for range 200 {
		if got := mustReject(t, v, sql, validate.CodeStringBomb).Error(); got != want {
			t.Fatalf("message differs between calls:\n%s\n%s", want, got)
		}
	}
}
