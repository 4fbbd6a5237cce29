package semantic

import (
	"fmt"
	"strings"
	"testing"
)

// TestMatch: a question matches a template on its words apart from the
// slots, each slot taking a value of its kind; a stored value only as the
// value index knows it; two readings are both returned; other words, a
// missing or an extra word, or a sign beside a slot ("10%", ">2025",
// "+5"), do not match.
func TestMatch(t *testing.T) {
	m, err := Load("../examples/erp/semantic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]string{"customers.segment": {"Enterprise", "SMB"}, "customer_payments.method": {"Wire", "Card"},
		"countries.name": {"United States", "Germany"}}
	values := func(column, text string) (string, bool) {
		for _, v := range stored[column] {
			if strings.EqualFold(v, text) {
				return v, true
			}
		}
		return "", false
	}
	find := func(q string) *VerifiedQuestion {
		for _, v := range m.VerifiedQuestions {
			if v.Question == q {
				return v
			}
		}
		t.Fatalf("no verified question %q", q)
		return nil
	}
	for _, c := range []struct{ tmpl, question, want string }{
		{"Sales order count by sales region for {year}", "Sales order count by sales region for 2025", "[map[year:2025]]"},
		{"Sales order count by sales region for {year}", "sales order count, by sales region, for 2021?", "[map[year:2021]]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region for 20255", "[]"},
		{"Sales order count by sales region for {year}", "Sales order count by region for 2025", "[]"},
		{"Top {n} customers by revenue", "Top 7 customers by revenue", "[map[n:7]]"},
		{"Top {n} customers by revenue", "top five customers by revenue", "[map[n:5]]"},
		{"Top {n} customers by revenue", "Top 0 customers by revenue", "[]"},
		{"How many {segment} customers are active?", "How many SMB customers are active?", "[map[segment:SMB]]"},
		{"How many {segment} customers are active?", "How many Retail customers are active?", "[]"},
		{"How much is overdue for customers in {country}?", "How much is overdue for customers in united states?", "[map[country:United States]]"},
		{"What is the total cash collected by {method} in {year}?", "What is the total cash collected by card in 2023?", "[map[method:Card year:2023]]"},
		{"What was the revenue per month between {period}?", "What was the revenue per month between 2024-01-01 and 2024-03-31?", "[map[period:2024-01-01/2024-04-01]]"},
		{"What was the revenue per month between {period}?", "What was the revenue per month between Q2 2023?", "[map[period:2023-04-01/2023-07-01]]"},
		{"What was the revenue per month between {period}?", "What was the revenue per month between March 2024", "[map[period:2024-03-01/2024-04-01]]"},
		{"What was the revenue per month between {period}?", "What was the revenue per month between 2024-04-01 and 2024-01-01?", "[]"},
		{"Top {n} customers by revenue", "Top 10% customers by revenue", "[]"},
		{"Top {n} customers by revenue", "Top -5 customers by revenue", "[]"},
		{"Top {n} customers by revenue", "Top +5 customers by revenue", "[]"},
		{"Top {n} customers by revenue", "Top .5 customers by revenue", "[]"},
		{"Top {n} customers by revenue", "Top ~5 customers by revenue", "[]"},
		{"Top {n} customers by revenue", "Top (5) customers by revenue.", "[map[n:5]]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region for >2025", "[]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region for ≥2025?", "[]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region for 2025+", "[]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region for ≠2025", "[]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region for +2025", "[]"},
		{"Sales order count by sales region for {year}", "Sales order count by sales region - for 2025", "[]"},
		{"Sales order count by sales region for {year}", "\"Sales order count by sales region for 2025\"!", "[map[year:2025]]"},
		{"How many {segment} customers are active?", "How many !SMB customers are active?", "[]"},
		{"What is our total revenue?", "what is our total revenue", "[map[]]"},
		{"What is our total revenue?", "what is our total revenue in 2024", "[]"},
	} {
		if got := fmt.Sprint(find(c.tmpl).Match(c.question, values)); got != c.want {
			t.Errorf("%q ~ %q: %s, want %s", c.tmpl, c.question, got, c.want)
		}
	}
	// Two readings: "2024 2025" could split either way between two years.
	q := &VerifiedQuestion{Question: "orders {a} {b}", Parameters: []*Parameter{{Name: "a", Kind: ParamValue, Column: "x.y"}, {Name: "b", Kind: ParamValue, Column: "x.y"}}}
	two := func(_, text string) (string, bool) {
		return text, text == "new" || text == "new york" || text == "york" || text == "york city" || text == "city"
	}
	if got := q.Match("orders new york city", two); len(got) != 2 {
		t.Errorf("ambiguous: %v, want two bindings", got)
	}
}

// BenchmarkMatchERP: one question read against every verified question of
// the demo ERP's model (what Ask does before anything else).
func BenchmarkMatchERP(b *testing.B) {
	m, err := Load("../examples/erp/semantic.yaml")
	if err != nil {
		b.Fatal(err)
	}
	values := func(_, text string) (string, bool) { return text, text == "wire" }
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, q := range m.VerifiedQuestions {
			n += len(q.Match("What is the total cash collected by wire in 2024?", values))
		}
		if n != 1 {
			b.Fatalf("%d fits", n)
		}
	}
}
