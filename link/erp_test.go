package link_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
)

// TestLinkDemoERP runs BuildValueIndex and Link on the demo ERP
// (examples/erp) with realistic questions.
func TestLinkDemoERP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, erptest.Single(t))
	cat, vi := catalogWithValues(t, pool)
	if vi.Stats.SkippedErrors != 0 || vi.Stats.BudgetExhausted || len(vi.Columns) < 10 {
		t.Errorf("value index on the demo ERP: %d columns, %+v", len(vi.Columns), vi.Stats)
	}
	for _, c := range vi.Columns {
		if len(c.Values) > 50 {
			t.Errorf("%s.%s: %d values", c.Table, c.Column, len(c.Values))
		}
	}
	t.Logf("value index: %d columns, %+v", len(vi.Columns), vi.Stats)
	l := link.New(cat, link.WithValueIndex(vi))
	tests := []struct {
		q        string
		topTable string
		columns  []string
		values   []string
		warnings []string
	}{
		{q: "How many opportunities are in Negotiation?", topTable: "public.opportunities",
			values: []string{"public.opportunities.stage = 'Negotiation'"}},
		{q: "total amount of invoices per customer", topTable: "public.invoices",
			columns: []string{"public.invoices.total_amount"}},
		{q: "purchase orders total amount by supplier", topTable: "public.purchase_orders",
			columns: []string{"public.purchase_orders.tot_amt"}},
		{q: "employees hired in 2021 by department", topTable: "public.employees",
			columns: []string{"public.employees.hire_date"}},
		{q: "number of invoices by customer segment",
			columns:  []string{"public.customers.segment"},
			warnings: []string{"column_redirect:public.invoices,public.customers:segment"}},
		{q: "How many contractors do we employ?",
			values: []string{"public.employees.employment_type = 'Contractor'"}},
	}
	for _, tt := range tests {
		r := l.Link(ctx, tt.q, "", nil)
		bad := false
		if tt.topTable != "" && (len(r.Tables) == 0 || r.Tables[0].Table != tt.topTable) {
			t.Errorf("%q: top table %v, want %s", tt.q, tablesOf(r), tt.topTable)
			bad = true
		}
		for _, c := range tt.columns {
			if !slices.Contains(columnsOf(r), c) {
				t.Errorf("%q: column %s not linked", tt.q, c)
				bad = true
			}
		}
		for _, v := range tt.values {
			if !slices.Contains(valuesOf(r), v) {
				t.Errorf("%q: value %s missing", tt.q, v)
				bad = true
			}
		}
		for _, w := range tt.warnings {
			if !slices.Contains(warningsOf(r), w) {
				t.Errorf("%q: warning %s missing", tt.q, w)
				bad = true
			}
		}
		if bad {
			t.Logf("result:\n%s", summary(r))
		}
	}
}
