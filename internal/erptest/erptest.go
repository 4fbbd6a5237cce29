// Package erptest gives tests a fresh copy of the demo ERP database
// (examples/erp), loaded once per PostgreSQL cluster into a template database
// keyed on erp.Version and the load options, then copied per test (fast).
//
// The test package must run its tests through pgtest.Main:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		dsn := erptest.Single(t)        // all tables in public, full data
//		dsn3 := erptest.Divisions(t, 3) // div_01..div_03 + public, small data
//	}
package erptest

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// Single returns the DSN of a fresh database holding the single-layout ERP
// demo (schema public, full data). It is dropped when the test ends.
func Single(t testing.TB) string {
	t.Helper()
	return Load(t, erp.Options{})
}

// Divisions returns the DSN of a fresh database holding the division layout
// with n division schemas (div_01 …) and the default small data per division.
func Divisions(t testing.TB, n int) string {
	t.Helper()
	if n < 1 {
		t.Fatalf("erptest: Divisions(%d): need at least one division", n)
	}
	return Load(t, erp.Options{Divisions: n})
}

// Load returns the DSN of a fresh database loaded with opts (Logger is
// ignored), copied from a template built once per cluster.
func Load(t testing.TB, opts erp.Options) string {
	t.Helper()
	opts.Logger = nil
	key := fmt.Sprintf("erp-%s-div%d-scale%g-nodata%t", erp.Version(), opts.Divisions, opts.RowScale, opts.NoData)
	if opts.RLS {
		key += "-rls"
	}
	return pgtest.FromTemplate(t, key, func(ctx context.Context, conn *pgx.Conn) error {
		return erp.Load(ctx, conn, opts)
	})
}

// RLS returns the DSN of a fresh database holding the row-level tenancy
// layout (erp.Options.RLS), connecting as its owner, and the same DSN
// connecting as erp.AppRole, the engine's login role that obeys the
// policies.
func RLS(t testing.TB) (owner, app string) {
	t.Helper()
	owner = Load(t, erp.Options{RLS: true})
	cfg, err := pgx.ParseConfig(owner)
	if err != nil {
		t.Fatal(err)
	}
	u := url.URL{Scheme: "postgres", User: url.User(erp.AppRole), Path: "/" + cfg.Database}
	q := url.Values{"host": {cfg.Host}, "port": {fmt.Sprint(cfg.Port)}, "sslmode": {"disable"}}
	u.RawQuery = q.Encode()
	return owner, u.String()
}

// SkipLargeShort skips, under -short, a benchmark over a catalog of more
// than one division (2,502 tables and up): make test runs every benchmark
// once with -short so that a broken one shows, and loading and indexing
// the large catalogs takes minutes on two cores.
func SkipLargeShort(tb testing.TB, opts erp.Options) {
	tb.Helper()
	if testing.Short() && opts.Divisions > 1 {
		tb.Skipf("-short: the %d-division catalog is left to a full benchmark run", opts.Divisions)
	}
}

// OtherTenant is what Tenants puts in div_02 beyond the ERP: a name no
// other schema uses, in an enum type, its label, a view and a comment. A
// div_01 caller must never see the string.
const OtherTenant = "div_02"

// Tenants returns the DSN of a two-division ERP (div_01, div_02) whose
// div_02 also has an enum type, a table using it (with a comment), and a
// view: the things a scoped server must not show another tenant, each
// carrying OtherTenant in its name, label, definition or comment.
func Tenants(t testing.TB) string {
	t.Helper()
	dsn := Divisions(t, 2)
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), `
CREATE TYPE div_02.tenant_secret AS ENUM ('div_02_label');
CREATE TABLE div_02.secret_plans (id int PRIMARY KEY, kind div_02.tenant_secret, note text);
COMMENT ON TABLE div_02.secret_plans IS 'plans of div_02 only';
CREATE VIEW div_02.secret_view AS SELECT id, 'div_02 view' AS label FROM div_02.secret_plans`)
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
