// The fourth red team, on pinning (validate.Pin, issue 25): what a tenant
// that owns div_01 can still change after the engine's checks, while the
// engine waits on a lock the tenant holds.

package execute

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// openBypass skips the test of a bypass this red team found and could not
// close within pinning (docs/redteam4.md) unless NL2SQL_REDTEAM_OPEN is
// set: with it, the test fails while the bypass is open.
func openBypass(t *testing.T) {
	t.Helper()
	if os.Getenv("NL2SQL_REDTEAM_OPEN") == "" {
		t.Skip("open bypass (docs/redteam4.md); set NL2SQL_REDTEAM_OPEN=1 to run it")
	}
}

// refusesAll asserts that ex refuses every query with code (as
// validate.Error, errors.Is ErrRejected) and that no error leaks.
// asOwner lets the engine act as the tenant and returns the option that
// does: a tenant's relations are read only by their owner (V029 for any
// other role), whose own code then runs with its own privileges.
func asOwner(t *testing.T, f *lookalikes.Fixture) QueryOption {
	t.Helper()
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	return AsRole(f.Tenant)
}

func refusesAll(t *testing.T, ex *Executor, code string, sqls []string, opts ...QueryOption) {
	t.Helper()
	for _, sql := range sqls {
		e := queryErr(t, ex, sql, opts...)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !ve.Has(code) || lookalikes.Leaked(e.Error()) {
			t.Errorf("%s: got %v, want a %s refusal", sql, e, code)
		}
	}
}

// answersAll asserts that each query returns one row whose first value is
// the one given.
func answersAll(t *testing.T, ex *Executor, want map[string]string, opts ...QueryOption) {
	t.Helper()
	for sql, w := range want {
		if res := mustQuery(t, ex, sql, opts...); res.RowCount != 1 || fmt.Sprint(res.Rows[0][0]) != w {
			t.Errorf("%s: %v, want %s", sql, res.Rows, w)
		}
	}
}

// raceOutcome is what the engine's query returned.
type raceOutcome struct {
	res *Result
	err error
}

// leaked reports whether the outcome holds div_02's secret or the marker.
func (o raceOutcome) leaked() bool {
	return lookalikes.Leaked(fmt.Sprint(o.res, o.err)) || (o.res != nil && lookalikes.Leaked(fmt.Sprint(o.res.Rows)))
}

// raceTenant runs sql through ex while the tenant holds what hold takes (it
// starts a transaction as the tenant), then, once the engine waits for a
// lock, runs change as the tenant (it ends with COMMIT).
func raceTenant(t *testing.T, f *lookalikes.Fixture, ex *Executor, sql string, opts []QueryOption, hold, change string) raceOutcome {
	t.Helper()
	ctx := ctxT(t)
	tenant := connect(t, f.AdminDSN)
	if _, err := tenant.Exec(ctx, "SET ROLE "+f.Tenant+"; BEGIN; "+hold); err != nil {
		t.Fatal(err)
	}
	done := make(chan raceOutcome, 1)
	go func() {
		res, err := ex.Query(ctx, sql, opts...)
		done <- raceOutcome{res, err}
	}()
	admin := connect(t, f.AdminDSN)
	waitFor(t, "the engine to wait for the tenant's lock", func() bool {
		return scalar[bool](t, admin, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock'
			AND usename = '`+f.Engine+`')`)
	})
	if _, err := tenant.Exec(ctx, change); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-done:
		return o
	case <-ctx.Done():
		t.Fatal("the engine's query did not return")
	}
	return raceOutcome{}
}

// TestRedteam4ImplicitCastAfterExplain: pin.go argued that an implicit cast
// the tenant adds after the check cannot change a resolution that
// succeeded. It can: m = 'ok' on a tenant's enum resolves to
// =(anyenum, anyenum), and with an implicit cast from the enum to text the
// unknown literal's preference for the string category picks
// =(text, text), which calls the cast's function on every row. The engine
// parses the query twice (its EXPLAIN, then the statement it runs; and the
// server parses it again whenever a plan is invalidated): the tenant holds
// an index of the table (REINDEX, which its SELECT lock does not conflict
// with), so the EXPLAIN's planner waits after its parse, and creates the
// cast meanwhile. The leak went through: an untyped literal beside a
// column of a tenant's enum, composite, range or array type is now refused
// (V029) in every spelling; written with its type, the literal resolves
// to the built-in or, once a cast exists, fails as ambiguous.
func TestRedteam4ImplicitCastAfterExplain(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, `CREATE TYPE div_01.mood AS ENUM ('ok', 'bad');
CREATE TABLE div_01.moods (id int PRIMARY KEY, m div_01.mood, ms div_01.mood[], note varchar(20));
INSERT INTO div_01.moods VALUES (1, 'ok', '{ok}', 'fine'), (2, 'bad', '{bad}', 'sad');
CREATE FUNCTION div_01.mood_text(div_01.mood) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN div_01.pwn(); END $$`)
	// The same table, the database owner's, with the tenant's types: the
	// engine may read it, and the tenant may add casts from its types.
	pgtest.Exec(t, f.AdminDSN, `CREATE SCHEMA app; CREATE TABLE app.moods AS SELECT * FROM div_01.moods;
GRANT USAGE ON SCHEMA app TO `+f.Engine+`; GRANT SELECT ON app.moods TO `+f.Engine)
	ex := New(f.Pool(t))
	scope := Scope("app", "div_01", "public")
	refusesAll(t, ex, validate.CodeMutable, []string{
		"SELECT id FROM moods WHERE m = 'ok'",
		"SELECT id FROM moods WHERE 'ok' = m",
		"SELECT id FROM moods WHERE moods.m <> 'ok'",
		`SELECT id FROM moods WHERE "m" > 'ok'`,
		`SELECT id FROM moods WHERE U&"\006D" = U&'\006Fk'`,
		"SELECT id FROM moods WHERE m = $$ok$$",
		"SELECT id FROM moods WHERE m = E'ok'",
		"SELECT id FROM moods WHERE m IN ('ok', 'bad')",
		"SELECT id FROM moods WHERE m NOT IN ('ok')",
		"SELECT id FROM moods WHERE m BETWEEN 'ok' AND 'bad'",
		"SELECT id FROM moods WHERE m IS DISTINCT FROM 'ok'",
		"SELECT id FROM moods WHERE m IS DISTINCT FROM NULL",
		"SELECT NULLIF(m, 'ok') AS x FROM moods",
		"SELECT CASE m WHEN 'ok' THEN 1 END AS x FROM moods",
		"SELECT id FROM moods WHERE m = ANY ('{ok}')",
		"SELECT id FROM moods WHERE ms = '{ok}'",
		"SELECT id FROM moods WHERE (m, id) = ('ok', 1)",
		"SELECT m || '' AS x FROM moods",
		"SELECT id FROM moods WHERE (SELECT m FROM moods WHERE id = 1) = 'ok'",
		"WITH c AS (SELECT id, m AS z FROM moods) SELECT id FROM c WHERE z = 'ok'",
		"SELECT l.id FROM moods o, LATERAL (SELECT o.id, o.m AS z) l WHERE l.z = 'ok'",
		"SELECT count(*) FILTER (WHERE m = 'ok') OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS n FROM moods",
	}, scope)
	// Typed literals, and comparisons of built-in columns, still run.
	answersAll(t, ex, map[string]string{
		"SELECT id FROM moods WHERE m = 'ok'::mood":                      "1",
		"SELECT id FROM moods WHERE m IN ('bad'::div_01.mood)":           "2",
		"SELECT id FROM moods WHERE note = 'sad'":                        "2",
		"SELECT id FROM moods WHERE m = 'ok'::mood AND note IN ('fine')": "1",
	}, scope)
	// The tenant's own table is read only as the tenant; under the race
	// its cast then runs as the tenant, with nothing of div_02 to read.
	refusesAll(t, ex, validate.CodeMutable, []string{"SELECT id FROM div_01.moods WHERE m = 'ok'::div_01.mood"}, scope)
	const sql = "SELECT id FROM div_01.moods WHERE m = 'ok'"
	o := raceTenant(t, f, ex, sql, []QueryOption{scope, asOwner(t, f)}, "REINDEX INDEX div_01.moods_pkey",
		"CREATE CAST (div_01.mood AS text) WITH FUNCTION div_01.mood_text(div_01.mood) AS IMPLICIT; COMMIT")
	if o.leaked() {
		t.Fatalf("the cast created after the check ran: %v, %v", o.res, o.err)
	}
}

// TestRedteam4IndexAfterCheck: LOCK ... IN ACCESS SHARE MODE does not
// conflict with CREATE INDEX (SHARE) or CREATE STATISTICS (SHARE UPDATE
// EXCLUSIVE), and the planner folds the immutable functions of every
// index's (and extended statistics') expressions of the tables it plans.
// The tenant holds an index of the table (REINDEX), so the EXPLAIN's
// planner waits, and creates an index (statistics) calling its function;
// the statement that runs is planned again, with the new index.
func TestRedteam4IndexAfterCheck(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, `CREATE TABLE div_01.cards (id int PRIMARY KEY, name text);
INSERT INTO div_01.cards VALUES (1, 'a'), (2, 'b'); ANALYZE div_01.cards`)
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	const sql = "SELECT name FROM cards WHERE id = 1"
	// Closed by refusing: as the engine the tenant's table is not read at
	// all (V029); as the tenant, its code runs with its own privileges.
	refusesAll(t, ex, validate.CodeMutable, []string{sql}, scope)
	owner := asOwner(t, f)
	for _, change := range []string{
		"CREATE INDEX cards_evil ON div_01.cards (div_01.idx(id))",
		"CREATE STATISTICS div_01.cards_evil ON (div_01.idx(id)), id FROM div_01.cards",
		"CREATE TABLE div_01.cards_child () INHERITS (div_01.cards); CREATE INDEX ON div_01.cards_child (div_01.idx(id))",
	} {
		t.Run(change[:22], func(t *testing.T) {
			if res := mustQuery(t, ex, sql, scope, owner); res.RowCount != 1 {
				t.Fatalf("before the attack: %v", res.Rows)
			}
			o := raceTenant(t, f, ex, sql, []QueryOption{scope, owner}, "REINDEX INDEX div_01.cards_pkey", change+"; COMMIT")
			plantAsTenant(t, f, "DROP INDEX IF EXISTS div_01.cards_evil; DROP STATISTICS IF EXISTS div_01.cards_evil; DROP TABLE IF EXISTS div_01.cards_child")
			if o.leaked() {
				t.Fatalf("the index created after the check ran: %v, %v", o.res, o.err)
			}
		})
	}
}

// TestRedteam4DomainConstraintAfterCheck: a value read into the tenant's
// domain through an input function (a column definition list of
// json_to_record, a string literal of a row type holding the domain,
// jsonb_populate_record of a row) runs the domain's constraints when the
// query runs. ALTER DOMAIN ... ADD CONSTRAINT ... NOT VALID takes no lock
// the engine holds: the tenant added one calling its function while the
// engine's EXPLAIN waited (REINDEX of the table's index), and the run
// leaked. These are now refused (V029); COALESCE, CASE, UNION and ARRAY
// with a literal reduce the domain to its base type, run nothing of the
// tenant's, and still run, under the same race.
func TestRedteam4DomainConstraintAfterCheck(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, `CREATE DOMAIN div_01.label AS text;
CREATE TABLE div_01.labels (id int PRIMARY KEY, l div_01.label);
INSERT INTO div_01.labels VALUES (1, 'plant'), (2, NULL)`)
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	refusesAll(t, ex, validate.CodeMutable, []string{
		`SELECT x.l FROM labels, json_to_record('{"l": "none"}') AS x(l label) WHERE labels.id = 1`,
		`SELECT x.l FROM labels, jsonb_to_record('{"l": "none"}') AS x(l div_01.label) WHERE labels.id = 1`,
		`SELECT x.l FROM labels, json_to_recordset('[{"l": "none"}]') AS x(l "label") WHERE labels.id = 1`,
		`SELECT x.l FROM labels, ROWS FROM (json_to_record('{"l": "none"}') AS (l label)) x WHERE labels.id = 1`,
		`SELECT x.l FROM labels, json_to_record('{"l": ["none"]}') AS x(l label[]) WHERE labels.id = 1`,
		`SELECT x.r FROM labels, json_to_record('{"r": "(3,none)"}') AS x(r labels) WHERE labels.id = 1`,
		`SELECT '(3,none)'::labels AS r FROM labels WHERE id = 1`,
		`SELECT jsonb_populate_record(b, '{"l": "none"}') AS r FROM labels b WHERE id = 1`,
		`SELECT pg_catalog.json_populate_record(b, '{"l": "none"}') AS r FROM labels b WHERE id = 1`,
	}, scope)
	owner := asOwner(t, f)
	for _, sql := range []string{
		"SELECT COALESCE(l, 'none') AS x FROM labels ORDER BY id",
		"SELECT CASE WHEN id = 1 THEN l ELSE 'none' END AS x FROM labels ORDER BY id",
		"SELECT l AS x FROM labels UNION ALL SELECT 'none'",
	} {
		if res := mustQuery(t, ex, sql, scope, owner); res.RowCount < 2 {
			t.Fatalf("%s before the attack: %v", sql, res.Rows)
		}
		o := raceTenant(t, f, ex, sql, []QueryOption{scope, owner}, "REINDEX INDEX div_01.labels_pkey",
			"ALTER DOMAIN div_01.label ADD CONSTRAINT evil CHECK (div_01.chk(VALUE)) NOT VALID; COMMIT")
		plantAsTenant(t, f, "ALTER DOMAIN div_01.label DROP CONSTRAINT evil")
		if o.leaked() || o.err != nil {
			t.Errorf("%s under the race: %v, %v; want its rows", sql, o.res, o.err)
		}
	}
}

// TestRedteam4PolicySubqueryViewReplaced: the relations a row-level
// security policy's subquery reads are not named by the query, so they are
// not locked before the definitions check; the rewriter locks them only
// while the EXPLAIN runs. The tenant holds the view the policy reads and
// replaces it with one calling its function after the check.
func TestRedteam4PolicySubqueryViewReplaced(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, `CREATE VIEW div_01.gate AS SELECT 1 AS id;
CREATE TABLE div_01.docs (id int, body text);
INSERT INTO div_01.docs VALUES (1, 'hello'), (2, 'hidden');
ALTER TABLE div_01.docs ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON div_01.docs USING (id IN (SELECT g.id FROM div_01.gate g))`)
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	const sql = "SELECT body FROM docs"
	refusesAll(t, ex, validate.CodeMutable, []string{sql}, scope) // the tenant's table, read as the engine
	owner := asOwner(t, f)
	pgtest.Exec(t, f.AdminDSN, "ALTER TABLE div_01.docs FORCE ROW LEVEL SECURITY") // the policy binds its owner too
	if res := mustQuery(t, ex, sql, scope, owner); res.RowCount != 1 {
		t.Fatalf("before the attack: %v", res.Rows)
	}
	o := raceTenant(t, f, ex, sql, []QueryOption{scope, owner}, "LOCK TABLE div_01.gate IN ACCESS EXCLUSIVE MODE",
		"CREATE OR REPLACE VIEW div_01.gate AS SELECT length(div_01.pwn()) AS id; COMMIT")
	if o.leaked() {
		t.Fatalf("the view replaced after the check ran: %v, %v", o.res, o.err)
	}
	var ve *validate.Error
	if !errors.As(o.err, &ve) || !ve.Has(validate.CodeLookalike) {
		t.Errorf("after the attack: %v, %v; want a V025 refusal of the new view", o.res, o.err)
	}
}

// TestRedteam4TenantBecomesOwner: the pin query trusts a schema owned by
// the database's owner (or pg_database_owner) where no other role has
// CREATE, as has_schema_privilege says. A role that may become the owner
// is not counted: a NOINHERIT member of the owner (it has no privilege of
// the owner until SET ROLE), or a role with CREATEROLE (which, before
// PostgreSQL 16, may grant itself the owner's membership at any time).
// Such a tenant creates a look-alike in public, as the owner, while the
// engine's EXPLAIN waits; the statement that runs is parsed after it,
// under a path that still holds public.
func TestRedteam4TenantBecomesOwner(t *testing.T) {
	for _, c := range []struct{ name, setup, become string }{
		{"noinherit member", "ALTER ROLE TENANT NOINHERIT; GRANT DBO TO TENANT", "SET LOCAL ROLE DBO"},
		{"createrole", "ALTER ROLE TENANT CREATEROLE", "GRANT DBO TO TENANT; SET LOCAL ROLE DBO"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lookalikes.New(t)
			dbo := ownerRole(t, f)
			r := strings.NewReplacer("TENANT", f.Tenant, "DBO", dbo)
			pgtest.Exec(t, f.AdminDSN, r.Replace(c.setup))
			plantAsTenant(t, f, "CREATE TABLE div_01.staff (id int PRIMARY KEY, name varchar(40)); INSERT INTO div_01.staff VALUES (1, 'Ann'), (2, 'Bob')")
			ex := New(f.Pool(t))
			scope := Scope("div_01", "public")
			const sql = "SELECT reverse(name) AS x FROM staff ORDER BY id"
			owner := asOwner(t, f)
			if res := mustQuery(t, ex, sql, scope, owner); res.RowCount != 2 || res.Rows[0][0] != "nnA" {
				t.Fatalf("before the attack: %v", res.Rows)
			}
			o := raceTenant(t, f, ex, sql, []QueryOption{scope, owner}, "REINDEX INDEX div_01.staff_pkey",
				r.Replace(c.become)+`; SET LOCAL check_function_bodies = off;
				CREATE FUNCTION public.reverse(varchar) RETURNS text LANGUAGE sql STABLE AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$; COMMIT`)
			if o.leaked() {
				t.Fatalf("the look-alike the owner's member created ran: %v, %v", o.res, o.err)
			}
			if o.err != nil || o.res.RowCount != 2 || o.res.Rows[0][0] != "nnA" {
				t.Errorf("after the attack: %v, %v; want the built-in's nnA", o.res, o.err)
			}
		})
	}
}

// ownerRole makes a new role, not a superuser, the owner of f's database
// (and so of public, through pg_database_owner), takes from the tenant its
// CREATE on public, and returns the role's name.
func ownerRole(t *testing.T, f *lookalikes.Fixture) string {
	t.Helper()
	dbo := "dbo_" + strings.TrimPrefix(f.Tenant, "tenant_")
	db := scalar[string](t, connect(t, f.AdminDSN), "SELECT current_database()")
	pgtest.Exec(t, f.AdminDSN, "CREATE ROLE "+dbo+" NOLOGIN")
	t.Cleanup(func() {
		pgtest.Exec(t, f.AdminDSN, "REASSIGN OWNED BY "+dbo+" TO CURRENT_USER; DROP OWNED BY "+dbo)
		pgtest.Exec(t, pgtest.AdminDSN(t), "DROP ROLE "+dbo)
	})
	pgtest.Exec(t, f.AdminDSN, "ALTER DATABASE "+db+" OWNER TO "+dbo+"; REVOKE CREATE ON SCHEMA public FROM "+f.Tenant)
	return dbo
}

// TestRedteam4TrustedViewOverTenantTable: a view of the database's owner
// (trusted, so pinning did not lock it) reads the tenant's table; the
// tenant holds the table, so the EXPLAIN's rewriter waits for it after the
// checks, and enables row-level security with a policy whose immutable
// call the planner folds (a policy applies to the view's owner, not a
// superuser here). Pinning now locks the views the query names, which
// locks what they read, before the definitions check.
func TestRedteam4TrustedViewOverTenantTable(t *testing.T) {
	f := lookalikes.New(t)
	dbo := ownerRole(t, f)
	pgtest.Exec(t, f.AdminDSN, "GRANT USAGE ON SCHEMA div_01 TO "+dbo+"; GRANT SELECT ON div_01.plain TO "+dbo+
		"; SET ROLE "+dbo+"; CREATE VIEW public.pv AS SELECT id, name FROM div_01.plain; GRANT SELECT ON public.pv TO "+f.Engine+"; RESET ROLE")
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	const sql = "SELECT name FROM pv ORDER BY id"
	// The view reaches the tenant's table, whose owner could attach a
	// policy to it at any time: refused as the engine (V029), before any
	// race can start.
	refusesAll(t, ex, validate.CodeMutable, []string{sql}, scope)
}
