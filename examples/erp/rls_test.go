package erp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestRLSLayout: in the row-level tenancy layout the engine's login role
// sees, for each tenant it sets, that tenant's customers and products only
// (each name starting with the tenant's), through tables and views alike;
// without the setting a tenant table's query fails, and the role can
// neither bypass the policies nor write.
func TestRLSLayout(t *testing.T) {
	pgtest.SkipShort(t)
	_, app := erptest.RLS(t)
	conn := connect(t, app)
	ctx := context.Background()
	var bypass, super bool
	if err := conn.QueryRow(ctx, "SELECT rolbypassrls, rolsuper FROM pg_roles WHERE rolname = current_user").Scan(&bypass, &super); err != nil {
		t.Fatal(err)
	}
	if bypass || super || queryInt(t, conn, "SELECT count(*) FROM pg_tables WHERE tableowner = current_user") != 0 {
		t.Fatalf("%s may bypass the policies (bypassrls %v, superuser %v) or owns tables", erp.AppRole, bypass, super)
	}
	counts := map[string]int{}
	for id, name := range erp.Tenants() {
		tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "SELECT set_config($1, $2, true)", erp.TenantSetting, id); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"SELECT customer_name FROM customers", "SELECT product_name FROM products",
			"SELECT customer_name FROM v_customer_revenue", "SELECT product_name FROM v_inventory_valuation",
			"SELECT description FROM invoice_lines l JOIN products p USING (product_id)", "SELECT tenant_name FROM tenants"} {
			rows, err := tx.Query(ctx, q)
			if err != nil {
				t.Fatalf("tenant %s: %s: %v", id, q, err)
			}
			names, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil || len(names) == 0 {
				t.Fatalf("tenant %s: %s: %d rows, %v", id, q, len(names), err)
			}
			for _, n := range names {
				if !strings.HasPrefix(n, name) {
					t.Fatalf("tenant %s (%s): %s returned %q", id, name, q, n)
				}
			}
			counts[id+q] = len(names)
		}
		var cross int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM sales_order_lines l JOIN sales_orders o USING (so_id) JOIN products p USING (product_id)
WHERE l.tenant_id <> o.tenant_id OR p.tenant_id <> l.tenant_id`).Scan(&cross); err != nil || cross != 0 {
			t.Errorf("tenant %s: %d order lines cross tenants (%v)", id, cross, err)
		}
		_ = tx.Rollback(ctx)
	}
	if c1, c2 := counts["1SELECT customer_name FROM customers"], counts["2SELECT customer_name FROM customers"]; c1 == 0 || c2 == 0 {
		t.Errorf("customers per tenant: %d, %d", c1, c2)
	}
	_, err := conn.Exec(ctx, "SELECT count(*) FROM customers")
	var pe *pgconn.PgError
	// 42704 on a fresh session, 22P02 ('' is no integer) on one that set
	// it in an earlier transaction.
	if !errors.As(err, &pe) || (pe.Code != "42704" && pe.Code != "22P02") {
		t.Errorf("without %s: %v, want 42704 or 22P02", erp.TenantSetting, err)
	}
	if _, err := conn.Exec(ctx, "SET row_security = off; SET app.tenant_id = '1'; SELECT count(*) FROM customers"); err == nil {
		t.Error("row_security = off let the role read a protected table")
	}
	if _, err := conn.Exec(ctx, "UPDATE regions SET region_name = region_name"); err == nil {
		t.Errorf("%s may write", erp.AppRole)
	}
}

// TestLoadRejectsRLSWithDivisions: the layouts exclude each other.
func TestLoadRejectsRLSWithDivisions(t *testing.T) {
	err := erp.Load(context.Background(), nil, erp.Options{RLS: true, Divisions: 2})
	if !errors.Is(err, erp.ErrInvalidOptions) {
		t.Fatalf("got %v, want ErrInvalidOptions", err)
	}
}
