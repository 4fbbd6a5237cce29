// The fourth red team, on pinning (validate.Pin, issue 25), through
// Explain: what a tenant that owns div_01 can still change after the
// checks, while the engine's EXPLAIN waits on a lock the tenant holds.

package validate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// explainRace explains sql as the engine while the tenant holds what hold
// takes (in a transaction), then, once the engine waits for a lock, runs
// change as the tenant (it ends with COMMIT).
func explainRace(t *testing.T, f *lookalikes.Fixture, sql, hold, change string, opts ...validate.ExplainOption) validate.ExplainResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tenant, err := pgx.Connect(ctx, f.AdminDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer tenant.Close(context.Background())
	admin, err := pgx.Connect(ctx, f.AdminDSN) // the tenant's transaction sees one snapshot of pg_stat_activity
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := tenant.Exec(ctx, "SET ROLE "+f.Tenant+"; BEGIN; "+hold); err != nil {
		t.Fatal(err)
	}
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	done := make(chan validate.ExplainResult, 1)
	go func() {
		done <- v.Explain(ctx, f.Pool(t), []string{sql}, append(opts, validate.Timeout(30*time.Second))...)[0]
	}()
	for waiting := false; !waiting; time.Sleep(20 * time.Millisecond) {
		if ctx.Err() != nil {
			t.Fatal("the engine never waited for the tenant's lock")
		}
		if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock'
			AND usename = $1)`, f.Engine).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tenant.Exec(ctx, change); err != nil {
		t.Fatal(err)
	}
	return <-done
}

func explainLeaked(r validate.ExplainResult) bool {
	return lookalikes.Leaked(r.Message) || lookalikes.Leaked(string(r.Plan)) || (r.Err != nil && lookalikes.Leaked(r.Err.Error()))
}

// TestRedteam4ExplainPolicySubqueryViewReplaced: the view a row-level
// security policy reads in a subquery is locked only by the EXPLAIN's
// rewriter, after the definitions check; the tenant, holding it, replaces
// it with one whose immutable call the planner folds. Pinning now locks
// what the policies read before the check, which reads the new view.
func TestRedteam4ExplainPolicySubqueryViewReplaced(t *testing.T) {
	f := lookalikes.New(t)
	pgtest.Exec(t, f.AdminDSN, "SET ROLE "+f.Tenant+`; CREATE VIEW div_01.gate AS SELECT 1 AS id;
CREATE TABLE div_01.docs (id int, body text);
INSERT INTO div_01.docs VALUES (1, 'hello'), (2, 'hidden');
ALTER TABLE div_01.docs ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON div_01.docs USING (id IN (SELECT g.id FROM div_01.gate g));
GRANT SELECT ON div_01.docs, div_01.gate TO `+f.Engine+"; RESET ROLE")
	const sql = "SELECT body FROM docs"
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	var ve *validate.Error
	if r := v.Explain(context.Background(), f.Pool(t), []string{sql})[0]; !errors.As(r.Err, &ve) || !ve.Has(validate.CodeMutable) {
		t.Fatalf("the tenant's table explained as the engine: %v, want V029", r.Err)
	}
	// As its owner (the policy forced on it too), the race is run.
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine+"; ALTER TABLE div_01.docs FORCE ROW LEVEL SECURITY")
	owner := validate.AsRole(f.Tenant)
	if r := v.Explain(context.Background(), f.Pool(t), []string{sql}, owner)[0]; r.Err != nil {
		t.Fatalf("before the attack: %v", r.Err)
	}
	r := explainRace(t, f, sql, "LOCK TABLE div_01.gate IN ACCESS EXCLUSIVE MODE",
		"CREATE OR REPLACE VIEW div_01.gate AS SELECT length(div_01.pwn()) AS id; COMMIT", owner)
	if explainLeaked(r) {
		t.Fatalf("the view replaced after the check ran: %v", r.Err)
	}
	if !errors.As(r.Err, &ve) || !ve.Has(validate.CodeLookalike) {
		t.Errorf("after the attack: %v; want a V025 refusal of the new view", r.Err)
	}
}

// TestRedteam4ExplainIndexAfterCheck: LOCK ... IN ACCESS SHARE MODE does
// not conflict with CREATE INDEX, and the planner folds the immutable
// functions of the index expressions of every table it plans. The tenant
// holds an index of the first table (REINDEX), so the planner waits, and
// indexes the second table with a call of its function meanwhile. Closed by
// the owner rule: the tenant's tables are read only as the tenant.
func TestRedteam4ExplainIndexAfterCheck(t *testing.T) {
	f := lookalikes.New(t)
	pgtest.Exec(t, f.AdminDSN, "SET ROLE "+f.Tenant+`; CREATE TABLE div_01.cards (id int PRIMARY KEY);
CREATE TABLE div_01.decks (id int PRIMARY KEY);
GRANT SELECT ON div_01.cards, div_01.decks TO `+f.Engine+"; RESET ROLE")
	const sql = "SELECT c.id FROM cards c JOIN decks d ON d.id = c.id"
	// Closed by refusing: as the engine the tenant's tables are not read
	// (V029); as the tenant, its index code runs with its own privileges.
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	var ve *validate.Error
	if r := v.Explain(context.Background(), f.Pool(t), []string{sql})[0]; !errors.As(r.Err, &ve) || !ve.Has(validate.CodeMutable) {
		t.Fatalf("the tenant's tables explained as the engine: %v, want V029", r.Err)
	}
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	r := explainRace(t, f, sql, "REINDEX INDEX div_01.cards_pkey", "CREATE INDEX ON div_01.decks (div_01.idx(id)); COMMIT",
		validate.AsRole(f.Tenant))
	if explainLeaked(r) {
		t.Fatalf("the index created after the check ran: %v", r.Err)
	}
}
