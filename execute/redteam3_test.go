package execute

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// Third red team on issue 25's fixes. Each test plants, as the tenant that
// owns div_01 (lookalikes.Fixture), objects that use only built-in
// functions, and runs an ordinary query scoped to div_01 through the
// executor: nothing of div_02 may come back, in rows or errors.

// plantAsTenant runs script as the fixture's tenant on its database.
func plantAsTenant(t *testing.T, f *lookalikes.Fixture, script string) {
	t.Helper()
	pgtest.Exec(t, f.AdminDSN, "SET ROLE "+f.Tenant+"; SET search_path = div_01, public; "+script+
		"; GRANT SELECT ON ALL TABLES IN SCHEMA div_01 TO "+f.Engine+"; RESET ROLE")
}

// TestRedteam3HiddenBuiltins: a tenant's view or policy calls a built-in
// the policy always denies (query_to_xml, which runs SQL from a string as
// the role running the query: the engine, which may read div_02) where
// EXPLAIN VERBOSE prints no expression: a VALUES list, a LIMIT, a window
// frame offset; or a domain's CHECK constraint calls it, which runs when a
// literal is coerced to the domain (a cast, or COALESCE and UNION with a
// column of the domain: the common type of a domain and unknown is the
// domain). The static layer never sees a view's body; the look-alike
// check reads only user functions a view depends on; the plan check reads
// printed expressions. The view's rows (or its error) carry div_02's
// IBAN.
func TestRedteam3HiddenBuiltins(t *testing.T) {
	f := lookalikes.New(t)
	const leak = `query_to_xml('SELECT iban FROM div_02.bank_accounts', true, true, '')`
	plantAsTenant(t, f, `
CREATE VIEW div_01.v_values AS SELECT x::text AS x FROM (VALUES (`+leak+`), (NULL)) v(x);
CREATE VIEW div_01.v_limit AS SELECT id FROM div_01.plain LIMIT (`+leak+`)::text::int;
CREATE VIEW div_01.v_offset AS SELECT id FROM div_01.plain OFFSET (`+leak+`)::text::int;
CREATE VIEW div_01.v_frame AS SELECT count(*) OVER (ORDER BY id ROWS BETWEEN (`+leak+`)::text::int PRECEDING AND CURRENT ROW) AS n FROM div_01.plain;
CREATE TABLE div_01.memo (id int, body text);
INSERT INTO div_01.memo VALUES (1, 'x');
ALTER TABLE div_01.memo ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON div_01.memo USING (id IN (SELECT x FROM (VALUES (length((`+leak+`)::text::int::text))) v(x)));
CREATE DOMAIN div_01.tag AS text CHECK (VALUE = 'plant' OR (`+leak+`)::text::int > 0);
CREATE TABLE div_01.tagged (id int, t div_01.tag);
INSERT INTO div_01.tagged VALUES (1, 'plant')`)
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	for _, sql := range []string{
		"SELECT x FROM v_values",
		"SELECT id FROM v_limit",
		"SELECT id FROM v_offset",
		"SELECT n FROM v_frame",
		"SELECT body FROM memo",
		"SELECT COALESCE(t, 'x') AS t FROM tagged",
		"SELECT t FROM tagged UNION ALL SELECT 'x'",
		"SELECT 'x'::tag AS t",
	} {
		res, err := ex.Query(ctxT(t), sql, scope)
		if got := fmt.Sprint(res, err); lookalikes.Leaked(got) || (res != nil && lookalikes.Leaked(fmt.Sprint(res.Rows))) {
			t.Errorf("%s: div_02's secret came back: %s", sql, strings.ReplaceAll(got, "\n", " "))
		} else {
			t.Logf("%s: %v", sql, err)
		}
	}
}

// TestRedteam3LookalikeAfterCheck: the look-alike check runs before the
// EXPLAIN in the same transaction, but function resolution reads the
// latest catalog, not the check's. The tenant holds a lock on its own
// table (it owns it), so the query's EXPLAIN waits after the check passed;
// meanwhile it creates div_01.reverse(varchar) and commits. The planner
// then resolves reverse(name) to the look-alike, which the check
// never saw (and the plan prints by its bare name), and the query returns
// div_02's IBAN.
func TestRedteam3LookalikeAfterCheck(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, "CREATE TABLE div_01.staff (id int, name varchar(40)); INSERT INTO div_01.staff VALUES (1, 'Ann'), (2, 'Bob')")
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	const sql = "SELECT reverse(name) AS x FROM staff ORDER BY id"
	if res := mustQuery(t, ex, sql, scope); res.RowCount != 2 || res.Rows[0][0] != "nnA" {
		t.Fatalf("before the attack: %v", res.Rows)
	}
	tenant := connect(t, f.AdminDSN)
	ctx := ctxT(t)
	if _, err := tenant.Exec(ctx, "SET ROLE "+f.Tenant+"; BEGIN; LOCK TABLE div_01.staff IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := ex.Query(ctx, sql, scope)
		done <- outcome{res, err}
	}()
	admin := connect(t, f.AdminDSN)
	waitFor(t, "the query's EXPLAIN to wait for the tenant's lock", func() bool {
		return scalar[bool](t, admin, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock'
			AND query LIKE 'EXPLAIN%reverse%')`)
	})
	if _, err := tenant.Exec(ctx, `SET LOCAL check_function_bodies = off; CREATE FUNCTION div_01.reverse(varchar) RETURNS text LANGUAGE sql STABLE
		AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$; COMMIT`); err != nil {
		t.Fatal(err)
	}
	o := <-done
	if got := fmt.Sprint(o.res, o.err); lookalikes.Leaked(got) || (o.res != nil && lookalikes.Leaked(fmt.Sprint(o.res.Rows))) {
		t.Errorf("the look-alike created after the check ran: %s", got)
	}
}
