package semantic_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// linksModel is checked against a catalog built by hand (no PostgreSQL):
// two entities, a dimension name both share, nested synonyms and a metric
// reading both tables.
func linksModel(t *testing.T) (*semantic.Model, *schema.Catalog) {
	t.Helper()
	cat := schema.NewCatalog([]schema.Schema{{Name: "public"}}, []*schema.Table{{
		Schema: "public", Name: "sales_orders", PrimaryKey: []string{"so_id"},
		Columns: []schema.Column{{Name: "so_id", Type: "integer", NotNull: true}, {Name: "status", Type: "text"},
			{Name: "total_amount", Type: "numeric"}, {Name: "line_total", Type: "numeric"}},
	}, {
		Schema: "public", Name: "customers", PrimaryKey: []string{"customer_id"},
		Columns: []schema.Column{{Name: "customer_id", Type: "integer", NotNull: true}, {Name: "status", Type: "text"}},
	}}, nil)
	m, err := semantic.Read(strings.NewReader(`version: 1
entities:
  - name: sales_orders
    dimensions:
      - {name: status}
    filters:
      - {name: open_order, expr: "status = 'Open'", synonyms: [open orders]}
    measures:
      - {name: revenue, agg: sum, expr: total_amount, synonyms: [turnover], description: "Order revenue
          in USD"}
      - {name: line_revenue, agg: sum, expr: line_total, synonyms: [line revenue]}
  - name: customers
    dimensions:
      - {name: status}
    measures:
      - {name: customer_count, agg: count, synonyms: [number of customers]}
metrics:
  - {name: revenue_per_customer, type: ratio, numerator: revenue, denominator: customer_count}
`), "links.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(cat, nil); err != nil {
		t.Fatal(err)
	}
	return m, cat
}

// TestLinks: the definitions a question names, in the question's order;
// the longest overlapping phrase wins; a dimension only of the tables
// shown; a definition reading a table not shown is left out.
func TestLinks(t *testing.T) {
	m, cat := linksModel(t)
	both := []string{"public.sales_orders", "public.customers"}
	orders := []string{"public.sales_orders"}
	for _, c := range []struct {
		question string
		tables   []string
		want     string // kind name (entity) "phrase", joined by "; "
	}{
		{"Turnover of open orders by status", orders,
			`measure revenue "turnover"; filter open_order "open orders"; dimension status (sales_orders) "status"`},
		{"Turnover of open orders by status", both,
			`measure revenue "turnover"; filter open_order "open orders"; dimension status (sales_orders) "status"; dimension status (customers) "status"`},
		// "line revenue" shadows the "revenue" inside it.
		{"What is the line revenue?", orders, `measure line_revenue "line revenue"`},
		// The metric reads customers, not shown: left out, and the
		// "revenue" its phrase covers stays shadowed.
		{"the number of customers and the revenue per customer", orders, ``},
		{"the number of customers and the revenue per customer", both,
			`measure customer_count "number of customers"; metric revenue_per_customer "revenue_per_customer"`},
		{"nothing the model defines", both, ``},
	} {
		var got []string
		for _, l := range m.Links(gloss.Analyze(c.question), cat, c.tables) {
			s := l.Kind + " " + l.Name
			if l.Entity != "" {
				s += " (" + l.Entity + ")"
			}
			got = append(got, fmt.Sprintf("%s %q", s, l.Phrase))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%q over %v:\n got %s\nwant %s", c.question, c.tables, g, c.want)
		}
	}
	var nilModel *semantic.Model
	if l := nilModel.Links(gloss.Analyze("revenue"), cat, both); l != nil {
		t.Errorf("a nil model links %v", l)
	}
}

// TestLinkLineAndMeasures: a link's prompt line names its kind, tables and
// expression on one line, with its description; Measures keeps the
// measures' names in order.
func TestLinkLineAndMeasures(t *testing.T) {
	m, cat := linksModel(t)
	links := m.Links(gloss.Analyze("open orders turnover and line revenue"), cat, []string{"public.sales_orders"})
	var lines []string
	for _, l := range links {
		lines = append(lines, l.Line())
	}
	want := []string{
		`filter open_order on public.sales_orders: status = 'Open'`,
		`measure revenue on public.sales_orders: sum(total_amount) -- Order revenue in USD`,
		`measure line_revenue on public.sales_orders: sum(line_total)`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("lines:\n got %q\nwant %q", lines, want)
	}
	if got := semantic.Measures(links); !slices.Equal(got, []string{"revenue", "line_revenue"}) {
		t.Errorf("Measures = %v", got)
	}
}
