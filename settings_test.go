package nl2sql_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestSettingRowLevelSecurity: a row-level security policy keeps tenants
// apart by a custom setting the request carries (Setting), read as the
// request's role (AsRole): Run and Check answer each tenant with its own
// rows only, and without WithSettings the policy's current_setting is
// refused rather than run.
func TestSettingRowLevelSecurity(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	reader := fmt.Sprintf("rls_engine_reader_%d", time.Now().UnixNano())
	pgtest.Exec(t, dsn, `CREATE TABLE tenant_notes (id int PRIMARY KEY, tenant_id int, body text);
INSERT INTO tenant_notes VALUES (1, 1, 'one-a'), (2, 1, 'one-b'), (3, 2, 'two-a');
ALTER TABLE tenant_notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON tenant_notes USING (tenant_id = current_setting('app.tenant_id', true)::int);
CREATE ROLE `+reader+`; GRANT SELECT ON tenant_notes TO `+reader)
	t.Cleanup(func() {
		pgtest.Exec(t, dsn, "DROP OWNED BY "+reader)
		pgtest.Exec(t, pgtest.AdminDSN(t), "DROP ROLE IF EXISTS "+reader)
	})
	pool := pgtest.Pool(t, dsn)
	eng, err := nl2sql.New(pool, nl2sql.WithSettings("app.tenant_id"), nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	const sql = "SELECT body FROM tenant_notes ORDER BY body"
	for tenant, want := range map[string]string{"1": "[[one-a] [one-b]]", "2": "[[two-a]]"} {
		opts := []nl2sql.AskOption{nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", tenant)}
		res, err := eng.Run(ctx, sql, opts...)
		if err != nil {
			t.Fatalf("tenant %s: %v", tenant, err)
		}
		if got := fmt.Sprint(res.Rows); got != want {
			t.Errorf("tenant %s: %s, want %s", tenant, got, want)
		}
		if chk, err := eng.Check(ctx, sql, opts...); err != nil || !chk.OK {
			t.Errorf("tenant %s: Check %+v, %v", tenant, chk, err)
		}
	}
	plain, err := nl2sql.New(pool, nl2sql.WithValueIndex(false))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := plain.Run(ctx, sql, nl2sql.AsRole(reader), nl2sql.Setting("app.tenant_id", "1")); err == nil {
		t.Errorf("without WithSettings the policy ran: %v", res.Rows)
	}
}
