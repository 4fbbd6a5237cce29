package semantic_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var (
	catOnce sync.Once
	cat     *schema.Catalog
	catErr  error
)

// erpCatalog introspects the demo ERP (no data) once per test binary.
func erpCatalog(t *testing.T) *schema.Catalog { return erpCatalogB(t) }

func erpCatalogB(t testing.TB) *schema.Catalog {
	t.Helper()
	pgtest.SkipShort(t) // before the Once: a skip inside it would leave the catalog nil for every later test
	catOnce.Do(func() {
		pool := pgtest.Pool(t, erptest.Load(t, erp.Options{NoData: true}))
		cat, catErr = schema.Introspect(context.Background(), pool)
	})
	if catErr != nil {
		t.Fatal(catErr)
	}
	return cat
}

// base is a valid model; the tests replace one of its lines. Its line
// numbers matter: MEASURE is line 8, FILTER line 10, DIM line 6, METRIC
// line 15 and a verified question line 17.
const base = `version: 1
entities:
  - name: sales_orders
    synonyms: [orders]
    dimensions:
      - {name: status, expr: DIM}
    measures:
      - {name: revenue, agg: sum, expr: MEASURE, filter: not_cancelled}
    filters:
      - {name: not_cancelled, expr: FILTER}
  - name: customers
    measures:
      - {name: customer_count, agg: count}
metrics:
  - {name: revenue_per_customer, type: derived, expr: METRIC}
verified_questions:
  - question: Revenue in {year}
    sql: SQL
    parameters:
      - {name: year, kind: year, examples: ["2024"]}
`

var defaults = map[string]string{
	"DIM":     "status",
	"MEASURE": "total_amount",
	"FILTER":  "status <> 'Cancelled'",
	"METRIC":  "revenue / NULLIF(customer_count, 0)",
	"SQL":     "SELECT sum(total_amount) FROM sales_orders WHERE extract(year FROM order_date) = {year}",
}

// model returns base with key replaced by value (a YAML scalar) and the
// other markers by their defaults.
func model(key, value string) string {
	s := base
	for k, v := range defaults {
		if k == key {
			v = value
		}
		s = strings.Replace(s, k, yamlQuote(v), 1)
	}
	return s
}

func yamlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func read(t *testing.T, text string) *semantic.Model {
	t.Helper()
	m, err := semantic.Read(strings.NewReader(text), "test.yaml")
	if err != nil {
		t.Fatalf("Read: %v\n%s", err, text)
	}
	return m
}

func TestBaseModelChecks(t *testing.T) {
	m := read(t, model("", ""))
	if err := m.Check(erpCatalog(t), validate.New()); err != nil {
		t.Fatal(err)
	}
	d, err := m.Definition("revenue")
	if err != nil {
		t.Fatal(err)
	}
	if want := "sum(total_amount) FILTER (WHERE status <> 'Cancelled')"; d.Expr != want || d.Tables[0] != "public.sales_orders" {
		t.Errorf("revenue = %q over %v, want %q over public.sales_orders", d.Expr, d.Tables, want)
	}
	d, err = m.Definition("revenue_per_customer")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Tables) != 2 || !strings.Contains(d.Query, "(SELECT count(*) FROM public.customers)") {
		t.Errorf("metric over two tables: %+v", d)
	}
}

// checkErr reads and checks text and returns the error at line (a
// filter's error also shows at the measure using it), or the first.
func checkErr(t *testing.T, text string, line int) *semantic.Error {
	t.Helper()
	m, err := semantic.Read(strings.NewReader(text), "test.yaml")
	if err == nil {
		err = m.Check(erpCatalog(t), validate.New())
	}
	var es semantic.Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("want semantic.Errors, got %v\n%s", err, text)
	}
	for _, e := range es {
		if e.Line == line {
			return e
		}
	}
	return es[0]
}

func TestCheckRefusesUnsafeExpressions(t *testing.T) {
	for _, c := range []struct {
		key, value string
		line       int
		want       error
		code       string
	}{
		{"MEASURE", "pg_sleep(1)", 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", "pg_catalog.pg_sleep(1)", 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", `"PG_SLEEP"(1)`, 8, semantic.ErrUnsafe, validate.CodeFuncDenied}, // fails closed on any case
		{"MEASURE", `"pg_sleep"(1)`, 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", `U&"\0070g_sleep"(1)`, 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", "(SELECT count(*) FROM pg_authid)", 8, semantic.ErrUnsafe, validate.CodeSystemCatalog},
		{"MEASURE", "(WITH x AS (SELECT pg_sleep(1)) SELECT 1 FROM x)", 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", "(SELECT v FROM (VALUES (pg_sleep(1))) s(v))", 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", "total_amount) FROM sales_orders UNION SELECT sum(credit_limit", 8, semantic.ErrInvalid, ""},
		{"MEASURE", "total_amount -- ", 8, semantic.ErrInvalid, ""},
		{"MEASURE", "total_amount /* x */", 8, semantic.ErrInvalid, ""},
		{"MEASURE", "1; DELETE FROM sales_orders", 8, semantic.ErrInvalid, ""},
		{"MEASURE", "pg_sleep($$1$$::float8)", 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"MEASURE", "(SELECT sum(x) FROM (SELECT pg_sleep(1)::text AS x) s)", 8, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"DIM", "sum(total_amount) OVER (ROWS BETWEEN length(pg_sleep(1)::text) PRECEDING AND CURRENT ROW)", 6, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"FILTER", "status IN (SELECT pg_catalog.\"pg_sleep\"(1)::text)", 10, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"FILTER", "status <> 'x' OR pg_advisory_lock(1) IS NULL", 10, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"FILTER", "EXISTS (SELECT 1 FROM customers c, LATERAL (SELECT set_config('a.b', 'c', false)) s)", 10, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"DIM", "current_user", 6, semantic.ErrUnsafe, validate.CodeFuncNotAllowed},
		{"DIM", "sum(total_amount) OVER (ORDER BY pg_sleep(1)::text)", 6, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"DIM", "(sales_orders).pg_sleep", 6, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"METRIC", "revenue + pg_sleep(1)", 15, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"METRIC", "revenue FROM sales_orders", 15, semantic.ErrInvalid, ""},
		{"SQL", "SELECT {year}; DELETE FROM sales_orders", 17, semantic.ErrUnsafe, validate.CodeMultiple},
		{"SQL", "WITH d AS (DELETE FROM sales_orders RETURNING 1) SELECT {year} FROM d", 17, semantic.ErrUnsafe, validate.CodeDataModifying},
		{"SQL", "SELECT {year}, pg_read_file('/etc/passwd')", 17, semantic.ErrUnsafe, validate.CodeFuncDenied},
		{"SQL", "SELECT $1 + {year}", 17, semantic.ErrParameter, ""},
		{"SQL", "SELECT '{year}' FROM sales_orders", 17, semantic.ErrParameter, ""},
		{"SQL", "SELECT $x${year}$x$ FROM sales_orders", 17, semantic.ErrParameter, ""},
		{"SQL", "SELECT 1 AS \"{year}\" FROM sales_orders", 17, semantic.ErrParameter, ""},
		{"SQL", "SELECT {year} FROM sales_orders -- {year}", 17, semantic.ErrParameter, ""},
	} {
		e := checkErr(t, model(c.key, c.value), c.line)
		if !errors.Is(e, c.want) || e.Line != c.line || (c.code != "" && e.Code != c.code) || e.File != "test.yaml" {
			t.Errorf("%s = %s: got %v (line %d, code %q), want %v at line %d code %q", c.key, c.value, e, e.Line, e.Code, c.want, c.line, c.code)
		}
	}
}

func TestCheckResolvesNames(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
		msg  string
	}{
		{model("MEASURE", "total_amt"), 8, "total_amt"},
		{model("FILTER", "c.status = 'x'"), 10, "c"},
		{model("METRIC", "revenue / no_such_measure"), 15, "no_such_measure"},
		{model("SQL", "SELECT sum(total) FROM sales_orders WHERE {year} > 0"), 17, "total"},
		{model("SQL", "SELECT count(*) FROM no_such_table WHERE {year} > 0"), 17, "no_such_table"},
		{strings.Replace(model("", ""), "- name: customers", "- name: customerz", 1), 11, "customerz"},
		{strings.Replace(model("", ""), "{name: year, kind: year, examples: [\"2024\"]}", "{name: year, kind: value, column: customers.nope, examples: [\"2024\"]}", 1), 20, "nope"},
	} {
		e := checkErr(t, c.text, c.line)
		if !errors.Is(e, semantic.ErrUnknownName) || e.Line != c.line || !strings.Contains(e.Error(), c.msg) {
			t.Errorf("got %v (line %d), want ErrUnknownName at line %d naming %q", e, e.Line, c.line, c.msg)
		}
	}
}

func TestReadReportsLines(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
		want error
		msg  string
	}{
		{strings.Replace(base, "agg: sum", "agg: total", 1), 8, semantic.ErrInvalid, "agg"},
		{strings.Replace(base, "agg: sum,", "agg: sum, aggregate: x,", 1), 8, semantic.ErrSyntax, "aggregate"},
		{strings.Replace(base, "agg: sum,", "agg: sum, agg: count,", 1), 8, semantic.ErrSyntax, "agg"},
		{strings.Replace(base, "    measures:\n      - {name: customer_count, agg: count}\n", "    measures: 3\n", 1), 12, semantic.ErrSyntax, "want a list"},
		{strings.Replace(base, "synonyms: [orders]", "synonyms: orders: x", 1), 4, semantic.ErrSyntax, ""},
		{strings.Replace(base, "name: customer_count", "name: revenue", 1), 13, semantic.ErrInvalid, "already used"},
		{strings.Replace(base, "name: customer_count", "name: Customer Count", 1), 13, semantic.ErrInvalid, "identifier"},
		{strings.Replace(base, "kind: year", "kind: month", 1), 20, semantic.ErrInvalid, "month"},
		{strings.Replace(base, `examples: ["2024"]`, `examples: ["24"]`, 1), 20, semantic.ErrParameter, "four digits"},
		{strings.Replace(base, `examples: ["2024"]`, `examples: []`, 1), 20, semantic.ErrParameter, "example"},
		{strings.Replace(base, "Revenue in {year}", "Revenue in {yr}", 1), 17, semantic.ErrParameter, "{yr}"},
		{strings.Replace(base, "type: derived", "type: cumulative", 1), 15, semantic.ErrInvalid, "cumulative"},
		{strings.Replace(base, "version: 1", "versoin: 1", 1), 1, semantic.ErrSyntax, "versoin"},
	} {
		_, err := semantic.Read(strings.NewReader(c.text), "m.yaml")
		var e *semantic.Error
		if !errors.As(err, &e) || !errors.Is(e, c.want) || e.Line != c.line || !strings.Contains(e.Error(), c.msg) || !strings.HasPrefix(e.Error(), "semantic: m.yaml:") {
			t.Errorf("got %v, want %v at line %d containing %q", err, c.want, c.line, c.msg)
		}
	}
}

func TestReadTooLarge(t *testing.T) {
	big := strings.Repeat("#", semantic.MaxFileSize+1)
	if _, err := semantic.Read(strings.NewReader(big), "big.yaml"); !errors.Is(err, semantic.ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if _, err := semantic.Read(strings.NewReader("a: &a [*a, *a]\n"), "alias.yaml"); err == nil {
		t.Fatal("a recursive alias was accepted")
	}
}

// TestCheckDecidesOnTheTree: text that only looks like a breakout, inside
// a string, is one expression and accepted.
func TestCheckDecidesOnTheTree(t *testing.T) {
	for _, c := range []struct{ key, value string }{
		{"FILTER", "status <> $$') FROM customers UNION SELECT 1 --$$"},
		{"FILTER", "status <> E'\\') FROM customers --'"},
		{"MEASURE", "length('/* x */') + total_amount"},
	} {
		m := read(t, model(c.key, c.value))
		if err := m.Check(erpCatalog(t), validate.New()); err != nil {
			t.Errorf("%s = %s: %v", c.key, c.value, err)
		}
	}
}

// TestReadmeModel: the complete model README shows under "Business
// definitions" reads, and fits the demo ERP's catalog.
func TestReadmeModel(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "### Business definitions")
	_, block, ok2 := strings.Cut(after, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README has no yaml block under ### Business definitions")
	}
	m, err := semantic.Read(strings.NewReader(block), "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entities) == 0 || len(m.Metrics) == 0 || len(m.VerifiedQuestions) == 0 || len(m.VerifiedQuestions[0].Parameters) == 0 {
		t.Fatalf("README's model is not complete: %+v", m)
	}
	if err := m.Check(erpCatalog(t), nil); err != nil {
		t.Fatal(err)
	}
}
