package semantic_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// FuzzRead: any input gives a model or Errors, never a panic; a model read
// renders its definitions and binds its examples without panicking.
func FuzzRead(f *testing.F) {
	erpModel, err := os.ReadFile("../examples/erp/semantic.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{base, string(erpModel), "", "- 1\n", "entities: [1, {a: b}]\n", "entities:\n  - *x\n", "a: &a [*a]\n",
		"verified_questions:\n  - {question: '{y}', sql: '{y.from}', parameters: [{name: y, kind: date_range, examples: ['x/y']}]}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := semantic.Read(strings.NewReader(s), "f.yaml")
		if err != nil {
			var es semantic.Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error is not Errors: %v", err)
			}
			return
		}
		_, _ = m.Definitions()
		for _, q := range m.VerifiedQuestions {
			for _, v := range q.Examples() {
				_, _, _ = q.Bind(v)
				_, _ = q.Inline(v)
			}
		}
	})
}

// BenchmarkCheckERPModel reads and checks the demo ERP's semantic model
// (21 verified questions, 19 measures) against its catalog.
func BenchmarkCheckERPModel(b *testing.B) {
	cat := erpCatalogB(b)
	data, err := os.ReadFile("../examples/erp/semantic.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m, err := semantic.Read(strings.NewReader(string(data)), "semantic.yaml")
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Check(cat, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDeviations: any query text gives deviations or none, never a panic,
// and the same text gives the same deviations (no PostgreSQL: a catalog
// built by hand).
func FuzzDeviations(f *testing.F) {
	cat := schema.NewCatalog([]schema.Schema{{Name: "public"}}, []*schema.Table{{
		Schema: "public", Name: "sales_orders", PrimaryKey: []string{"so_id"},
		Columns: []schema.Column{{Name: "so_id", Type: "integer", NotNull: true}, {Name: "status", Type: "text"}, {Name: "total_amount", Type: "numeric"}},
	}}, nil)
	m, err := semantic.Read(strings.NewReader(model("", "")), "f.yaml")
	if err != nil {
		f.Fatal(err)
	}
	m.Entities = m.Entities[:1] // customers is not in this catalog
	m.Metrics = nil
	m.VerifiedQuestions = nil
	if err := m.Check(cat, nil); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		"SELECT sum(total_amount) FROM sales_orders WHERE status <> 'Cancelled'",
		"SELECT sum(total_amount) FROM sales_orders",
		"WITH RECURSIVE r AS (SELECT * FROM r) SELECT sum(total_amount) FROM r",
		"WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT sum(total_amount) FROM a",
		"SELECT sum(CASE WHEN NOT (status IN ('x')) THEN total_amount END) FROM sales_orders s, LATERAL (VALUES (1)) v(x)",
		"SELECT (SELECT sum(total_amount) FROM (SELECT * FROM sales_orders) x) FROM sales_orders",
		"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total_amount) FROM sales_orders",
		"SELECT sum(", "", ";", "SELECT 1; SELECT sum(total_amount) FROM sales_orders",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		a := m.Deviations(sql, []string{"revenue", "nothing"}, cat, []string{"public"})
		b := m.Deviations(sql, []string{"revenue", "nothing"}, cat, []string{"public"})
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("%q: %v, then %v", sql, a, b)
		}
	})
}
