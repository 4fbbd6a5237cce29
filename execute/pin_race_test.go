// The third red team's race: a look-alike created after the catalog check.

package execute

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestRedteam3LookalikeAfterCheck: catalog lookups read the latest
// committed catalog, not the transaction's snapshot, so a check before the
// EXPLAIN proves nothing about the names the planner resolves later. The
// tenant holds a lock on its own table (it owns it), so the engine waits
// after its pin query; meanwhile the tenant creates reverse(varchar) in its
// own schema, and in public, where this fixture lets it create too, and
// commits. Pinning (validate.Pin) runs the query under a search path of
// schemas only the database's owners can create in, with its relations
// qualified: the query must still return the built-in's answer.
func TestRedteam3LookalikeAfterCheck(t *testing.T) {
	for _, schema := range []string{"div_01", "public"} {
		t.Run(schema, func(t *testing.T) { lookalikeAfterCheck(t, schema) })
	}
}

func lookalikeAfterCheck(t *testing.T, schema string) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, "CREATE TABLE div_01.staff (id int, name varchar(40)); INSERT INTO div_01.staff VALUES (1, 'Ann'), (2, 'Bob')")
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	ex := New(f.Pool(t))
	// As the engine, the tenant's own table is refused outright: its owner
	// could attach code to it that runs with the engine's privileges.
	if e := queryErr(t, ex, "SELECT reverse(name) AS x FROM staff ORDER BY id", Scope("div_01", "public")); !errors.Is(e, ErrRejected) ||
		!strings.Contains(e.Error(), validate.CodeMutable) {
		t.Fatalf("the tenant's table read as the engine: %v, want V029", e)
	}
	// As its owner, the query runs, pinned.
	scope := Scope("div_01", "public")
	asOwner := AsRole(f.Tenant)
	const sql = "SELECT reverse(name) AS x FROM staff ORDER BY id"
	if res := mustQuery(t, ex, sql, scope, asOwner); res.RowCount != 2 || res.Rows[0][0] != "nnA" {
		t.Fatalf("before the attack: %v", res.Rows)
	}
	o := raceTenant(t, f, ex, sql, []QueryOption{scope, asOwner}, "LOCK TABLE div_01.staff IN ACCESS EXCLUSIVE MODE",
		`SET LOCAL check_function_bodies = off; CREATE FUNCTION `+schema+`.reverse(varchar) RETURNS text LANGUAGE sql STABLE
		AS $$ SELECT iban FROM div_02.bank_accounts LIMIT 1 $$; COMMIT`)
	if o.leaked() {
		t.Fatalf("the look-alike created after the check ran: %v, %v", o.res, o.err)
	}
	if o.err != nil || o.res.RowCount != 2 || o.res.Rows[0][0] != "nnA" {
		t.Errorf("after the attack: %v, %v; want the built-in's nnA", o.res, o.err)
	}
	// The look-alike is still there: the next query is refused or calls the
	// built-in, never the tenant's function.
	res, err := ex.Query(ctxT(t), sql, scope, asOwner)
	if got := fmt.Sprint(res, err); lookalikes.Leaked(got) || (res != nil && lookalikes.Leaked(fmt.Sprint(res.Rows))) {
		t.Fatalf("the look-alike ran on the next query: %s", got)
	}
}

// TestRedteam3ViewReplacedAfterCheck: the tenant locks its own view, so
// the engine waits before its definitions check; meanwhile the tenant
// replaces the view with one that runs a denied built-in where the plan
// prints no expression (a VALUES list). The engine locks the relations of
// untrusted schemas before it reads their definitions (validate.Pin), so
// the check reads the new view and refuses it.
func TestRedteam3ViewReplacedAfterCheck(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, "CREATE VIEW div_01.v_swap AS SELECT x::text AS x FROM (VALUES ('a'), ('b')) v(x)")
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	asOwner := AsRole(f.Tenant)
	const sql = "SELECT x FROM v_swap ORDER BY x"
	if res := mustQuery(t, ex, sql, scope, asOwner); res.RowCount != 2 {
		t.Fatalf("before the attack: %v", res.Rows)
	}
	o := raceTenant(t, f, ex, sql, []QueryOption{scope, asOwner}, "LOCK TABLE div_01.v_swap IN ACCESS EXCLUSIVE MODE",
		`CREATE OR REPLACE VIEW div_01.v_swap AS SELECT x::text AS x
		FROM (VALUES (query_to_xml('SELECT iban FROM div_02.bank_accounts', true, true, '')), (NULL)) v(x); COMMIT`)
	if o.leaked() {
		t.Fatalf("the replaced view ran: %v, %v", o.res, o.err)
	}
	var ve *validate.Error
	if !errors.As(o.err, &ve) || !ve.Has(validate.CodeLookalike) {
		t.Errorf("after the attack: %v, %v; want a V025 refusal of the new view", o.res, o.err)
	}
}

// TestPinCasts: on a superuser's table with a column of the tenant's enum,
// explicit casts from or to a type the tenant owns are refused (V029) in
// every spelling, since the tenant can create the cast's
// function after any check (CREATE CAST takes no lock); a string literal
// of the tenant's enum (its input function, no cast), comparisons with
// such literals and sorting on it, and casts of built-in columns still
// run (an untyped literal compared with it is refused:
// TestRedteam4ImplicitCastAfterExplain).
func TestPinCasts(t *testing.T) {
	f := lookalikes.New(t)
	plantAsTenant(t, f, `CREATE TYPE div_01.mood AS ENUM ('ok', 'bad')`)
	pgtest.Exec(t, f.AdminDSN, `CREATE SCHEMA app; CREATE TABLE app.moods (id int, m div_01.mood, note varchar(20));
INSERT INTO app.moods VALUES (1, 'ok', 'fine'), (2, 'bad', 'sad');
GRANT USAGE ON SCHEMA app TO `+f.Engine+`; GRANT SELECT ON app.moods TO `+f.Engine)
	ex := New(f.Pool(t))
	scope := Scope("app", "public")
	refusesAll(t, ex, validate.CodeMutable, []string{
		"SELECT m::text AS x FROM moods",
		"SELECT CAST(m AS text) AS x FROM moods",
		"SELECT text(m) AS x FROM moods",
		"SELECT pg_catalog.text(m) AS x FROM moods",
		`SELECT "m"::varchar AS x FROM moods`,
		`SELECT U&"\006D"::text AS x FROM moods`,
		"SELECT moods.m::text AS x FROM moods",
		"SELECT max(m)::text AS x FROM moods",
		"SELECT (SELECT m FROM moods ORDER BY id LIMIT 1)::text AS x",
		"SELECT id FROM moods WHERE m::text = 'ok'",
		"SELECT count(*) OVER (ORDER BY m::text) AS n FROM moods",
		"WITH c AS (SELECT m AS z FROM moods) SELECT z::text AS x FROM c",
		"SELECT l.z::text AS x FROM moods o, LATERAL (SELECT o.m AS z) l",
		"SELECT x FROM (VALUES (1)) v(y), LATERAL (SELECT (SELECT m FROM moods LIMIT 1)::text AS x) s",
		"SELECT id FROM moods WHERE note::div_01.mood = 'ok'",
		"SELECT id FROM moods WHERE m = CAST(note AS div_01.mood)",
		`SELECT id FROM moods WHERE m = note::div_01."mood"`,
		"SELECT 'x'::div_01.code AS x",
		"SELECT CAST('x' AS div_01.code) AS x",
	}, scope)
	answersAll(t, ex, map[string]string{
		"SELECT id FROM moods WHERE m = 'ok'::div_01.mood":                        "1",
		"SELECT id FROM moods WHERE m = 'bad'::div_01.mood":                       "2",
		"SELECT id FROM moods ORDER BY m DESC LIMIT 1":                            "2",
		"SELECT note::text AS x FROM moods WHERE id = 1":                          "fine",
		"SELECT CAST(id AS text) AS x FROM moods WHERE m IN ('bad'::div_01.mood)": "2",
		"SELECT o::text AS x FROM moods o WHERE id = 1":                           "(1,ok,fine)",
	}, scope)
}
