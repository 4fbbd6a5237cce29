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
// no relation it may read holds a copy of another tenant's customer name
// without the prefix (an opportunity's "<customer> - Fleet Renewal"), and
// no reference between tenants' tables crosses tenants; every table with a
// tenant_id has its forced policy; without the setting a tenant table's
// query fails, and the role can neither bypass the policies nor write.
func TestRLSLayout(t *testing.T) {
	pgtest.SkipShort(t)
	owner, app := erptest.RLS(t)
	conn := connect(t, app)
	ctx := context.Background()
	own := connect(t, owner)
	theirs := customersOfOthers(t, own)
	crossingReferences(t, own)
	if n := queryInt(t, conn, `SELECT count(*) FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id'
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
  AND NOT (c.relrowsecurity AND c.relforcerowsecurity AND EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid))`); n != 0 {
		t.Errorf("%d tables with a tenant_id have no forced policy", n)
	}
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
		if table, value := otherTenantsCopy(t, tx, theirs[id]); table != "" {
			t.Errorf("tenant %s (%s) reads another tenant's customer %q in %s", id, name, value, table)
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

// customersOfOthers maps each tenant to the customer names, without their
// tenant's prefix, that only other tenants have.
func customersOfOthers(t *testing.T, owner *pgx.Conn) map[string]map[string]bool {
	t.Helper()
	rows, err := owner.Query(context.Background(), `SELECT tenant_id::text, substr(customer_name, length(t.tenant_name) + 2)
FROM customers JOIN tenants t USING (tenant_id)`)
	if err != nil {
		t.Fatal(err)
	}
	byTenant := map[string]map[string]bool{}
	var tenant, base string
	if _, err := pgx.ForEachRow(rows, []any{&tenant, &base}, func() error {
		if byTenant[tenant] == nil {
			byTenant[tenant] = map[string]bool{}
		}
		byTenant[tenant][base] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for id := range erp.Tenants() {
		out[id] = map[string]bool{}
		for other, names := range byTenant {
			for n := range names {
				if other != id && !byTenant[id][n] {
					out[id][n] = true
				}
			}
		}
		if len(out[id]) == 0 {
			t.Fatalf("tenant %s: no customer name of another tenant to look for", id)
		}
	}
	return out
}

// otherTenantsCopy reads every relation of public the transaction's role
// may read, as text, and returns the first (in name order) holding one of
// names as a run of whole words, and the name.
func otherTenantsCopy(t *testing.T, tx pgx.Tx, names map[string]bool) (table, value string) {
	t.Helper()
	ctx := context.Background()
	rows, err := tx.Query(ctx, `SELECT c.oid::regclass::text FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
AND c.relkind IN ('r', 'p', 'v', 'm') AND has_table_privilege(c.oid, 'SELECT') ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(rels) < 50 {
		t.Fatalf("readable relations: %d, %v", len(rels), err)
	}
	longest := 0
	for n := range names {
		longest = max(longest, len(nameWords(n)))
	}
	for _, rel := range rels {
		rows, err := tx.Query(ctx, "SELECT x::text FROM "+rel+" x")
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		var text string
		_, err = pgx.ForEachRow(rows, []any{&text}, func() error {
			if value != "" {
				return nil
			}
			words := nameWords(text)
			for i := range words {
				for j := i + 1; j <= min(len(words), i+longest); j++ {
					if s := strings.Join(words[i:j], " "); names[s] {
						value = s
						return nil
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if value != "" {
			return rel, value
		}
	}
	return "", ""
}

// nameWords splits a row's text (or a name) into words: runs between
// spaces and the record's punctuation.
func nameWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" ,()\"\\", r) })
}

// crossingReferences fails for each foreign key between two tables with a
// tenant_id whose rows point to another tenant's row (read as the owner,
// a superuser here: every row).
func crossingReferences(t *testing.T, owner *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	rows, err := owner.Query(ctx, `SELECT format('SELECT count(*) FROM %s x JOIN %s p ON %s WHERE x.tenant_id <> p.tenant_id',
    c.conrelid::regclass, c.confrelid::regclass,
    (SELECT string_agg(format('x.%I = p.%I', a.attname, f.attname), ' AND ')
     FROM unnest(c.conkey, c.confkey) k(ck, fk)
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.ck
     JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = k.fk))
FROM pg_constraint c
WHERE c.contype = 'f' AND c.conparentid = 0 AND c.conrelid <> c.confrelid AND c.confrelid <> 'tenants'::regclass
  AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attname = 'tenant_id')
  AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.confrelid AND a.attname = 'tenant_id')
ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	checks, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(checks) < 30 {
		t.Fatalf("references between tenants' tables: %d, %v", len(checks), err)
	}
	for _, q := range checks {
		if n := queryInt(t, owner, q); n != 0 {
			t.Errorf("%d rows cross tenants: %s", n, q)
		}
	}
}
