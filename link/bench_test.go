package link_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// syntheticCatalog builds an ERP-flavoured catalog of n tables with 12
// columns each, foreign keys to earlier tables and comments on some.
func syntheticCatalog(n int) *schema.Catalog {
	modules := []string{"sales", "ap", "ar", "gl", "hr", "inv", "mfg", "crm", "proj", "fa"}
	nouns := []string{"order", "invoice", "customer", "supplier", "employee", "item", "warehouse", "account", "project",
		"asset", "shipment", "receipt", "payment", "budget", "contract", "deal", "lead", "ledger", "batch", "route"}
	suffixes := []string{"hdr", "dtl", "lines", "hist", "stg", "map", "log", "snap"}
	colNames := []string{"tot_amt", "qty", "stat", "cre_dt", "upd_ts", "curr_cd", "desc", "ref_no", "unit_prc", "disc_pct"}
	var schemas []schema.Schema
	for _, m := range modules {
		schemas = append(schemas, schema.Schema{Name: m})
	}
	tables := make([]*schema.Table, 0, n)
	for i := range n {
		m := modules[i%len(modules)]
		noun := nouns[(i/len(modules))%len(nouns)]
		name := fmt.Sprintf("%s_%s_%d", noun, suffixes[i%len(suffixes)], i)
		t := &schema.Table{Schema: m, Name: name, Kind: schema.KindTable, EstimatedRows: int64(i * 10),
			Columns: []schema.Column{{Name: noun + "_id", Type: "integer", PrimaryKey: true, NotNull: true}}, PrimaryKey: []string{noun + "_id"}}
		if i%3 == 0 {
			t.Comment = fmt.Sprintf("%s records of the %s module", noun, m)
		}
		for j, c := range colNames {
			col := schema.Column{Name: c, Type: "text"}
			if j%2 == 0 {
				col.Type = "numeric(12,2)"
			}
			if (i+j)%7 == 0 {
				col.Comment = "the " + c + " of the " + noun
			}
			t.Columns = append(t.Columns, col)
		}
		if i > 0 {
			ref := tables[(i*7919)%i]
			t.Columns = append(t.Columns, schema.Column{Name: ref.Columns[0].Name + "_ref", Type: "integer"})
			t.ForeignKeys = []schema.ForeignKey{{Name: "fk", Columns: []string{ref.Columns[0].Name + "_ref"},
				RefSchema: ref.Schema, RefTable: ref.Name, RefColumns: []string{ref.Columns[0].Name}}}
		}
		tables = append(tables, t)
	}
	return schema.NewCatalog(schemas, tables, nil)
}

func BenchmarkNew(b *testing.B) {
	cat := syntheticCatalog(10_000)
	cols := 0
	for _, t := range cat.Tables {
		cols += len(t.Columns)
	}
	b.ReportMetric(float64(cols), "columns")
	b.ResetTimer()
	for b.Loop() {
		link.New(cat)
	}
}

func BenchmarkLink(b *testing.B) {
	cat := syntheticCatalog(10_000)
	l := link.New(cat)
	q := "What is the total amount and quantity of open invoices per customer in EMEA for 2024, by currency code?"
	var cand []string
	for _, t := range cat.Tables[:20] {
		cand = append(cand, t.QualifiedName())
	}
	ctx := context.Background()
	b.Run("candidates=20", func(b *testing.B) {
		for b.Loop() {
			l.Link(ctx, q, "", cand)
		}
	})
	b.Run("all=10000", func(b *testing.B) {
		for b.Loop() {
			l.Link(ctx, q, "", nil)
		}
	})
}

func BenchmarkKeyphrases(b *testing.B) {
	q := "Show orders for 'Acme Corp' placed after 2024-03-01 worth more than $1,200.50 by customer region"
	for b.Loop() {
		link.Keyphrases(q)
	}
}

func BenchmarkValueMatch(b *testing.B) {
	var cols []link.ValueColumn
	for i := range 2000 {
		vals := make([]string, 20)
		for j := range vals {
			vals[j] = fmt.Sprintf("Value %d status %d", j, i%13)
		}
		cols = append(cols, link.ValueColumn{Table: "s.t", Column: fmt.Sprintf("c%d", i), Values: vals, Source: link.SourceSample})
	}
	vi := link.NewValueIndex(cols)
	vi.Match("warm up")
	b.ResetTimer()
	for b.Loop() {
		vi.Match("negotiation")
	}
}
