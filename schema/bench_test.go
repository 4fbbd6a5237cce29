package schema_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// BenchmarkIntrospect reads the demo ERP catalog at three sizes: single
// layout (~90 tables), 30 divisions (~2,500 tables) and 125 divisions
// (~10,400 tables), schema only.
func BenchmarkIntrospect(b *testing.B) {
	for _, c := range []struct {
		name string
		opts erp.Options
	}{
		{"tables=91", erp.Options{NoData: true}},
		{"tables=2502", erp.Options{Divisions: 30, NoData: true}},
		{"tables=10387", erp.Options{Divisions: 125, NoData: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			erptest.SkipLargeShort(b, c.opts)
			pool := pgtest.Pool(b, erptest.Load(b, c.opts))
			ctx := context.Background()
			var cat *schema.Catalog
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if cat, err = schema.Introspect(ctx, pool); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(len(cat.Tables)), "tables")
		})
	}
}

func BenchmarkMSchema(b *testing.B) {
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(b, erptest.Load(b, erp.Options{NoData: true})))
	if err != nil {
		b.Fatal(err)
	}
	sub := cat.Subset([]string{"public.sales_orders", "public.sales_order_lines", "public.customers", "public.products", "public.employees"}).Tables
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = schema.MSchema(sub)
	}
}

func BenchmarkFingerprint(b *testing.B) {
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(b, erptest.Load(b, erp.Options{Divisions: 30, NoData: true})))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh catalog each time: Fingerprint caches its result.
		b.StopTimer()
		c := schema.NewCatalog(cat.Schemas, cat.Tables, cat.Enums)
		b.StartTimer()
		_ = c.Fingerprint()
	}
}
