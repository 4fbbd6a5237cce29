package link_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// analyzed are the fixture tables with statistics; the others have none, so
// BuildValueIndex must sample them.
var analyzed = []string{"crm.deals", "sales.customers", "hr.employees"}

// fixture returns a fresh copy of testdata/erp.sql (with analyzed tables
// analyzed) and its catalog.
func fixture(t *testing.T) (string, *schema.Catalog) {
	t.Helper()
	script, err := os.ReadFile("testdata/erp.sql")
	if err != nil {
		t.Fatal(err)
	}
	analyze := "ANALYZE " + strings.Join(analyzed, ", ") + ";"
	sum := sha256.Sum256(append(script, analyze...))
	dsn := pgtest.FromTemplate(t, "link-erp-"+hex.EncodeToString(sum[:8]), func(ctx context.Context, conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, string(script)); err != nil {
			return err
		}
		_, err := conn.Exec(ctx, analyze)
		return err
	})
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	return dsn, cat
}

func valueIndex(t *testing.T, dsn string, cat *schema.Catalog, opts ...link.ValueOption) *link.ValueIndex {
	t.Helper()
	vi, err := link.BuildValueIndex(context.Background(), pgtest.Pool(t, dsn), cat, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return vi
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// summary is a readable one-line-per-link rendering for failure messages.
func summary(r *link.Result) string {
	var b strings.Builder
	for _, x := range r.Tables {
		fmt.Fprintf(&b, "table %s %.3f %s %q\n", x.Table, x.Score, x.Reason, x.Phrase)
	}
	for _, x := range r.Columns {
		fmt.Fprintf(&b, "column %s.%s %.3f %s %q\n", x.Table, x.Column, x.Score, x.Reason, x.Phrase)
	}
	for _, x := range r.Values {
		fmt.Fprintf(&b, "value %s %.3f %q\n", x, x.Score, x.Phrase)
	}
	for _, x := range r.Warnings {
		fmt.Fprintf(&b, "warning %s %s\n", x.Code, x.Message)
	}
	return b.String()
}

func columnsOf(r *link.Result) []string {
	var out []string
	for _, c := range r.Columns {
		out = append(out, c.Table+"."+c.Column)
	}
	return out
}

func tablesOf(r *link.Result) []string {
	var out []string
	for _, c := range r.Tables {
		out = append(out, c.Table)
	}
	return out
}

func warningsOf(r *link.Result) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, string(w.Code)+":"+strings.Join(w.Tables, ",")+":"+w.Column)
	}
	return out
}

func valuesOf(r *link.Result) []string {
	var out []string
	for _, v := range r.Values {
		out = append(out, v.String())
	}
	return out
}

func TestLinkFixtureQuestions(t *testing.T) {
	t.Parallel()
	dsn, cat := fixture(t)
	vi := valueIndex(t, dsn, cat)
	glossary := link.Glossary{
		"headcount":     {"hr.employees"},
		"revenue":       {"sales.invoices.tot_amt"},
		"open pipeline": {"crm.deals"},
	}
	if err := glossary.Validate(cat); err != nil {
		t.Fatal(err)
	}
	l := link.New(cat,
		link.WithValueIndex(vi),
		link.WithGlossary(glossary),
		link.WithConfusable("sales.customers", "ap.suppliers", "customers buy from us, suppliers sell to us"))

	tests := []struct {
		name, q, evidence string
		tables            []string // candidates
		topTable          string
		topColumn         string
		columns           []string // present among column links
		notColumns        []string
		values            []string // ValueHint.String() present
		topValue          string
		warnings          []string  // "code:tables:column" present
		noWarnings        []string  // prefixes of "code:tables:column" absent
		before            [2]string // column links, the first ranked above the second
	}{
		{
			name: "value hint from a capitalised word", q: "How many deals are in Negotiation?",
			topTable: "crm.deals", topValue: "crm.deals.stage = 'Negotiation'",
			columns: []string{"crm.deals.stage"},
		},
		{
			name: "value hint from a lower-case multi-word value", q: "list deals that were closed won last year",
			topTable: "crm.deals", topValue: "crm.deals.stage = 'Closed Won'",
		},
		{
			name: "value hint from an enum label", q: "employees on leave by department",
			topTable: "hr.employees", topValue: "hr.employees.status = 'On leave'",
			columns: []string{"hr.employees.status", "hr.employees.dept_cd"},
		},
		{
			name: "misspelt value", q: "deals in Negociation stage",
			values: []string{"crm.deals.stage = 'Negotiation'"}, topColumn: "crm.deals.stage",
		},
		{
			name: "expanded abbreviation", q: "total amount of invoices per customer",
			topTable: "sales.invoices", topColumn: "sales.invoices.tot_amt",
			columns: []string{"sales.invoices.cust_id"},
			// "invoices" alone does not say whose invoices.
			warnings: []string{"confusable_tables:ap.supplier_invoices,sales.invoices:"},
		},
		{
			name: "distinguishing word silences the confusable rule", q: "supplier invoices due next month",
			topTable: "ap.supplier_invoices", topColumn: "ap.supplier_invoices.due_dt",
			noWarnings: []string{"confusable_tables"},
		},
		{
			name: "column redirect to the FK parent", q: "total invoice amount by region",
			columns:  []string{"sales.invoices.tot_amt", "sales.customers.region"},
			before:   [2]string{"sales.customers.region", "hr.departments.region"},
			warnings: []string{"column_redirect:sales.invoices,sales.customers:region"},
		},
		{
			name: "redirect reaches outside the candidates", q: "number of sales orders per customer segment",
			tables:   []string{"sales.sales_orders"},
			topTable: "sales.sales_orders",
			columns:  []string{"sales.customers.segment"},
			warnings: []string{"column_redirect:sales.sales_orders,sales.customers:segment"},
		},
		{
			name: "no redirect when the table has the column", q: "deals by stage",
			topColumn: "crm.deals.stage", noWarnings: []string{"column_redirect"},
		},
		{
			name: "confusable head noun", q: "How many orders were placed in 2024?",
			warnings: []string{"confusable_tables:ap.purchase_orders,sales.sales_orders:"},
		},
		{
			name: "purchase orders are not sales orders", q: "open purchase orders by supplier",
			topTable: "ap.purchase_orders", noWarnings: []string{"confusable_tables:ap.purchase_orders,sales.sales_orders"},
		},
		{
			name: "configured confusable pair", q: "list customers in EMEA",
			topTable: "sales.customers", values: []string{"sales.customers.region = 'EMEA'"},
			warnings: []string{"confusable_tables:ap.suppliers,sales.customers:"},
		},
		{
			name: "glossary table", q: "What is the headcount per department?",
			topTable: "hr.employees", columns: []string{"hr.employees.dept_cd"},
		},
		{
			name: "glossary column", q: "revenue by month",
			topColumn: "sales.invoices.tot_amt",
		},
		{
			name: "semantic date column", q: "employees hired after 2020",
			topTable: "hr.employees", topColumn: "hr.employees.hire_dt",
		},
		{
			name: "misspelt column word", q: "average salery of employees",
			topTable: "hr.employees", topColumn: "hr.employees.sal_amt",
		},
		{
			name: "comment match", q: "yearly gross pay of engineers",
			topColumn: "hr.employees.sal_amt",
		},
		{
			name: "identifier in the question", q: "sum of list_prc in sales.products",
			topTable: "sales.products", topColumn: "sales.products.list_prc",
		},
		{
			name: "qualified phrase", q: "customer name and credit limit",
			columns: []string{"sales.customers.cust_nm", "sales.customers.credit_lmt"},
		},
		{
			name: "evidence links with the question", q: "best customers", evidence: "best means highest credit_lmt",
			columns: []string{"sales.customers.credit_lmt"},
		},
		{
			name: "candidates restrict links", q: "total amount by status",
			tables:     []string{"sales.invoices"},
			columns:    []string{"sales.invoices.tot_amt", "sales.invoices.stat"},
			notColumns: []string{"ap.purchase_orders.tot_amt", "sales.sales_orders.tot_amt", "hr.employees.status"},
		},
		{
			name: "value with a quote", q: "customers in the o'reilly partners segment",
			topValue: "sales.customers.segment = 'O''Reilly partners'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := l.Link(context.Background(), tt.q, tt.evidence, tt.tables)
			fail := func(format string, args ...any) {
				t.Helper()
				t.Errorf(format, args...)
				t.Logf("result:\n%s", summary(r))
			}
			if tt.topTable != "" && (len(r.Tables) == 0 || r.Tables[0].Table != tt.topTable) {
				fail("top table = %v, want %s", tablesOf(r), tt.topTable)
			}
			if tt.topColumn != "" && (len(r.Columns) == 0 || r.Columns[0].Table+"."+r.Columns[0].Column != tt.topColumn) {
				fail("top column = %v, want %s", columnsOf(r), tt.topColumn)
			}
			for _, c := range tt.columns {
				if !slices.Contains(columnsOf(r), c) {
					fail("column %s not linked: %v", c, columnsOf(r))
				}
			}
			for _, c := range tt.notColumns {
				if slices.Contains(columnsOf(r), c) {
					fail("column %s linked: %v", c, columnsOf(r))
				}
			}
			for _, v := range tt.values {
				if !slices.Contains(valuesOf(r), v) {
					fail("value %s missing: %v", v, valuesOf(r))
				}
			}
			if tt.topValue != "" && (len(r.Values) == 0 || r.Values[0].String() != tt.topValue) {
				fail("top value = %v, want %s", valuesOf(r), tt.topValue)
			}
			for _, w := range tt.warnings {
				if !slices.Contains(warningsOf(r), w) {
					fail("warning %s missing: %v", w, warningsOf(r))
				}
			}
			for _, prefix := range tt.noWarnings {
				for _, w := range warningsOf(r) {
					if strings.HasPrefix(w, prefix) {
						fail("unexpected warning %s", w)
					}
				}
			}
			if tt.before[0] != "" {
				cols := columnsOf(r)
				i, j := slices.Index(cols, tt.before[0]), slices.Index(cols, tt.before[1])
				if i < 0 || j >= 0 && j < i {
					fail("%s should rank above %s: %v", tt.before[0], tt.before[1], cols)
				}
			}
			// Scores are in range and sorted.
			for i, c := range r.Columns {
				if c.Score <= 0 || c.Score > 1 || i > 0 && c.Score > r.Columns[i-1].Score {
					fail("bad column score order at %d: %+v", i, r.Columns)
				}
			}
		})
	}
}

func TestLinkWarningText(t *testing.T) {
	t.Parallel()
	_, cat := fixture(t)
	r := link.New(cat).Link(context.Background(), "invoices by region", "", nil)
	var msg string
	for _, w := range r.Warnings {
		if w.Code == link.WarnColumnRedirect {
			msg = w.Message
		}
	}
	want := "sales.invoices has no column `region`; its FK parent sales.customers has `region` — join sales.customers (invoices.cust_id = customers.cust_id)"
	if msg != want {
		t.Errorf("redirect message = %q, want %q\n%s", msg, want, dump(r))
	}
}

func TestLinkDeterministic(t *testing.T) {
	t.Parallel()
	_, cat := fixture(t)
	l := link.New(cat)
	q := "total amount and quantity of sales orders by customer region and product category in 2024"
	first := dump(l.Link(context.Background(), q, "", nil))
	for range 5 {
		if again := dump(l.Link(context.Background(), q, "", nil)); again != first {
			t.Fatalf("results differ:\n%s\n---\n%s", first, again)
		}
	}
	// Linking on all tables and on the full candidate list agree.
	var all []string
	for _, tb := range cat.Tables {
		all = append(all, tb.QualifiedName())
	}
	if cand := dump(l.Link(context.Background(), q, "", all)); cand != first {
		t.Errorf("candidate mode differs from index mode:\n%s\n---\n%s", first, cand)
	}
}

func TestLinkCancelled(t *testing.T) {
	t.Parallel()
	_, cat := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := link.New(cat).Link(ctx, "total amount of invoices", "", nil)
	if !r.Incomplete || len(r.Columns) != 0 {
		t.Errorf("cancelled Link: incomplete=%v columns=%v", r.Incomplete, columnsOf(r))
	}
	if len(r.Keyphrases) == 0 {
		t.Error("keyphrases should still be reported")
	}
}

func TestGlossaryLoadAndValidate(t *testing.T) {
	t.Parallel()
	_, cat := fixture(t)
	g, err := link.LoadGlossary(strings.NewReader(`{"headcount": ["hr.employees"], "revenue": "sales.invoices.tot_amt",
		"bogus": ["hr.nope", "sales.invoices.nope"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(g["revenue"]) != 1 {
		t.Errorf("single-string target not read: %v", g)
	}
	err = g.Validate(cat)
	var ute *link.UnknownTargetError
	if !errors.As(err, &ute) || ute.Term != "bogus" {
		t.Fatalf("Validate = %v, want UnknownTargetError for bogus", err)
	}
	if n := strings.Count(err.Error(), "unknown table or column"); n != 2 {
		t.Errorf("want 2 unknown targets, got %d: %v", n, err)
	}
	for _, bad := range []string{`[1,2]`, `{"x": 3}`, `{"": ["hr.employees"]}`, `{`} {
		if _, err := link.LoadGlossary(strings.NewReader(bad)); !errors.Is(err, link.ErrInvalidGlossary) {
			t.Errorf("LoadGlossary(%s) = %v, want ErrInvalidGlossary", bad, err)
		}
	}
	// Plural and case do not matter; unknown targets are ignored by the linker.
	r := link.New(cat, link.WithGlossary(g)).Link(context.Background(), "Headcounts by department", "", nil)
	if len(r.Tables) == 0 || r.Tables[0].Table != "hr.employees" || r.Tables[0].Reason != link.ReasonGlossary {
		t.Errorf("glossary not applied: %s", dump(r.Tables))
	}
}

// TestGlossaryLoadErrorDeterministic: a glossary with several bad terms
// names the same one (the first by name) on every load, not whichever map
// order brings first.
func TestGlossaryLoadErrorDeterministic(t *testing.T) {
	t.Parallel()
	const bad = `{"zeta": 1, "alpha": 2, "mu": 3, "beta": {}, "  ": "x"}`
	_, err := link.LoadGlossary(strings.NewReader(bad))
	if err == nil {
		t.Fatal("LoadGlossary accepted a bad glossary")
	}
	want := err.Error()
	if !strings.Contains(want, "empty term") {
		t.Errorf("error %q, want the first term by name (\"  \", empty)", want)
	}
	for range 200 {
		if _, err := link.LoadGlossary(strings.NewReader(bad)); err == nil || err.Error() != want {
			t.Fatalf("error differs between loads:\n%s\n%v", want, err)
		}
	}
}

func TestLinkOptions(t *testing.T) {
	t.Parallel()
	_, cat := fixture(t)
	ctx := context.Background()
	q := "How many orders were placed in 2024?"
	if r := link.New(cat, link.WithAutoConfusable(false)).Link(ctx, q, "", nil); len(r.Warnings) != 0 {
		t.Errorf("auto confusable off: %v", warningsOf(r))
	}
	r := link.New(cat, link.WithMaxColumns(2), link.WithMaxTables(1), link.WithMinScore(0.7)).Link(ctx, "total amount of invoices per customer", "", nil)
	if len(r.Columns) != 2 || len(r.Tables) != 1 {
		t.Errorf("caps: %s", summary(r))
	}
	for _, c := range r.Columns {
		if c.Score < 0.7 {
			t.Errorf("min score: %+v", c)
		}
	}

	// Abbreviations of one database.
	ctr := &schema.Table{Schema: "legal", Name: "ctr_hdr", Kind: schema.KindTable,
		Columns: []schema.Column{{Name: "ctr_id", Type: "integer", PrimaryKey: true}, {Name: "sgn_dt", Type: "date"}}}
	small := schema.NewCatalog([]schema.Schema{{Name: "legal"}}, []*schema.Table{ctr}, nil)
	q = "contracts signed in 2023"
	if r := link.New(small).Link(ctx, q, "", nil); len(r.Tables) != 0 {
		t.Errorf("without the abbreviation: %s", summary(r))
	}
	r = link.New(small, link.WithGlosser(gloss.Abbreviations(map[string]string{"CTR": "contract", "sgn": "signed"}))).Link(ctx, q, "", nil)
	if len(r.Tables) == 0 || r.Tables[0].Table != "legal.ctr_hdr" || len(r.Columns) == 0 || r.Columns[0].Column != "sgn_dt" {
		t.Errorf("with the abbreviation: %s", summary(r))
	}
	// A nil catalog links nothing but does not fail.
	if r := link.New(nil).Link(ctx, q, "", []string{"x.y"}); len(r.Tables)+len(r.Columns) != 0 || len(r.Keyphrases) == 0 {
		t.Errorf("nil catalog: %s", summary(r))
	}
}
