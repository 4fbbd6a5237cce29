package execute

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestSettingRowLevelSecurity: a row-level security policy reads the
// request's tenant from a custom setting; Setting gives each query its
// value (SET LOCAL, as parameters), and a reader role sees only its
// tenant's rows, with the policy's current_setting allowed in the plan and
// the policy's text by WithSettings. The setting does not outlive the
// query, and what Setting does not take is refused before anything runs.
func TestSettingRowLevelSecurity(t *testing.T) {
	dsn, pool := fixture(t, 0)
	reader := fmt.Sprintf("rls_reader_%d", time.Now().UnixNano())
	pgtest.Exec(t, dsn, `CREATE TABLE tenant_notes (tenant_id int, body text);
INSERT INTO tenant_notes VALUES (1, 'one-a'), (1, 'one-b'), (2, 'two-a');
ALTER TABLE tenant_notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON tenant_notes USING (tenant_id = current_setting('app.tenant_id', true)::int);
DROP ROLE IF EXISTS `+reader+`; CREATE ROLE `+reader+`; GRANT SELECT ON tenant_notes TO `+reader)
	t.Cleanup(func() {
		pgtest.Exec(t, dsn, "DROP OWNED BY "+reader)
		pgtest.Exec(t, pgtest.AdminDSN(t), "DROP ROLE IF EXISTS "+reader)
	})
	ex := New(pool, WithValidateOptions(validate.WithSettings("app.tenant_id")))
	const sql = "SELECT body FROM tenant_notes ORDER BY body"
	for tenant, want := range map[string]string{"1": "[[one-a] [one-b]]", "2": "[[two-a]]", "3": "[]"} {
		res := mustQuery(t, ex, sql, AsRole(reader), Setting("app.tenant_id", tenant))
		if got := fmt.Sprint(res.Rows); got != want {
			t.Errorf("tenant %s: %s, want %s", tenant, got, want)
		}
	}
	// Without the setting the policy's missing_ok read is NULL: no rows.
	if res := mustQuery(t, ex, sql, AsRole(reader)); res.RowCount != 0 {
		t.Errorf("no setting: %v", res.Rows)
	}
	// A value is a parameter, never SQL.
	if e := queryErr(t, ex, sql, AsRole(reader), Setting("app.tenant_id", "1; SELECT 1")); e == nil || e.Op != "query" {
		t.Errorf("a non-numeric tenant: %v, want the server's cast error", e)
	}
	// Without WithSettings the policy's current_setting is refused.
	if e := queryErr(t, New(pool), sql, AsRole(reader), Setting("app.tenant_id", "1")); !errors.Is(e, ErrRejected) {
		t.Errorf("without WithSettings: %v, want a refusal", e)
	}
	for _, bad := range [][2]string{{"search_path", "x"}, {"role", "postgres"}, {"app.", "1"}, {"app.x; drop", "1"},
		{"app.tenant_id", strings.Repeat("9", maxSettingValue+1)}, {"app.tenant_id", "a\x00b"}} {
		e := queryErr(t, ex, sql, Setting(bad[0], bad[1]))
		if e == nil || e.Op != "options" {
			t.Errorf("Setting(%q, %d bytes): %v, want an options error", bad[0], len(bad[1]), e)
		}
	}
}

// TestExplainSetting: Explain takes the request's custom settings, as the
// executor does (the policy's plan, which reads one, is accepted with
// WithSettings), and a name that is not a custom one fails the candidate.
func TestExplainSetting(t *testing.T) {
	dsn, pool := fixture(t, 0)
	pgtest.Exec(t, dsn, `CREATE TABLE tenant_docs (tenant_id int, body text);
ALTER TABLE tenant_docs ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON tenant_docs USING (tenant_id = current_setting('app.tenant_id')::int)`)
	v := validate.New(validate.WithSettings("app.tenant_id"))
	const sql = "SELECT body FROM tenant_docs"
	if r := v.Explain(ctxT(t), pool, []string{sql}, validate.Setting("app.tenant_id", "7"))[0]; r.Err != nil {
		t.Errorf("with the setting: %v", r.Err)
	}
	// A name Setting does not take fails the candidate before anything is
	// set.
	if r := v.Explain(ctxT(t), pool, []string{sql}, validate.Setting("work_mem", "1GB"))[0]; r.Err == nil {
		t.Error("a built-in setting was set")
	}
}
