package semantic_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestImportDBTERP imports the demo ERP's dbt project: what maps must pass
// Check against the ERP, and every part that cannot map is reported with
// its file, line and reason.
func TestImportDBTERP(t *testing.T) {
	cat := erpCatalog(t)
	m, rep, err := semantic.ImportDBT(cat, "../examples/erp/dbt")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 5 {
		t.Errorf("read %v, want the 5 YAML files", rep.Files)
	}
	var got []string
	for _, u := range rep.Unmapped {
		got = append(got, u.Kind+" "+u.Name)
		if u.File == "" || u.Line == 0 || u.Reason == "" {
			t.Errorf("unmapped without file, line or reason: %+v", u)
		}
	}
	want := []string{
		"measure orders.p90_order_total", "semantic_model web_sessions", // sales.yml
		"measure invoices.open_receivables", // finance.yml
		"metric enterprise_revenue", "metric revenue_growth_mom", "metric cumulative_revenue", "metric session_to_order",
		"metric sessions_per_order", "metric session_count", "saved_query revenue_by_month", // metrics.yml
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("unmapped:\n got %v\nwant %v", got, want)
	}
	for _, u := range rep.Unmapped {
		if u.Name == "sessions_per_order" && !strings.Contains(u.Reason, "session_count") {
			t.Errorf("sessions_per_order: %q, want it to name session_count", u.Reason)
		}
	}

	if err := m.Check(cat, validate.New()); err != nil {
		t.Fatalf("Check of the imported model: %v", err)
	}
	if len(m.Entities) != 6 || len(m.Relationships) != 1 || m.Relationships[0].To != "public.calendar_dates" {
		t.Errorf("%d entities, relationships %+v; want 6 and only the order day (no foreign key)", len(m.Entities), m.Relationships)
	}
	for name, want := range map[string]string{
		"revenue":              "sum(total_amount) FILTER (WHERE status != 'Cancelled')",
		"order_count":          "count(*) FILTER (WHERE status != 'Cancelled')",
		"median_order_total":   "percentile_cont(0.5) WITHIN GROUP (ORDER BY total_amount)",
		"cancelled_orders":     "sum(CASE WHEN (status = 'Cancelled') THEN 1 ELSE 0 END)",
		"billed":               "sum(total_amount) FILTER (WHERE status != 'Cancelled')",
		"average_order_value":  "sum(total_amount) FILTER (WHERE status != 'Cancelled') / NULLIF(count(*) FILTER (WHERE status != 'Cancelled'), 0)",
		"revenue_less_billing": "sum(total_amount) FILTER (WHERE status != 'Cancelled') - sum(total_amount) FILTER (WHERE status != 'Cancelled')",
	} {
		d, err := m.Definition(name)
		if err != nil || d.Expr != want {
			t.Errorf("%s = %q (%v), want %q", name, d.Expr, err, want)
		}
	}
}

func TestImportDBTErrors(t *testing.T) {
	cat := erpCatalog(t)
	if _, _, err := semantic.ImportDBT(cat, "no/such/dir"); !errors.Is(err, semantic.ErrDBT) {
		t.Errorf("missing dir: %v, want ErrDBT", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.yml"), []byte("semantic_models:\n  - name: x\n    measures: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := semantic.ImportDBT(cat, dir)
	var e *semantic.Error
	if !errors.Is(err, semantic.ErrDBT) || !errors.As(err, &e) || e.Line != 3 {
		t.Errorf("bad YAML: %v, want ErrDBT with a *Error at line 3", err)
	}
	// A derived metric whose expression smuggles a function is imported
	// as written and refused by Check, with its code.
	if err := os.WriteFile(filepath.Join(dir, "bad.yml"), []byte(`semantic_models:
  - name: orders
    model: ref('sales_orders')
    measures:
      - {name: total, agg: sum, expr: total_amount}
metrics:
  - name: sneaky
    type: derived
    type_params:
      expr: total + pg_sleep(1)
      metrics: [total]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := semantic.ImportDBT(cat, dir)
	if err != nil {
		t.Fatal(err)
	}
	err = m.Check(cat, validate.New())
	if !errors.As(err, &e) || !errors.Is(err, semantic.ErrUnsafe) || e.Code != validate.CodeFuncDenied {
		t.Errorf("Check of an imported pg_sleep: %v, want ErrUnsafe V010", err)
	}
}
