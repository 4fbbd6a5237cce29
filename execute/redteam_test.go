package execute

import (
	"errors"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Red-team findings, run end to end: each attack is shown to reach the
// server's data or memory when the validator is bypassed (the threat is
// real, and the plan check alone does not stop it), and to be rejected by
// the validator before anything runs.

// TestRedteamSchemasUnqualified: WithSchemas("div_01") without a table
// list, run under Scope("div_01", "public"). An unqualified name was taken
// to live in div_01 and accepted; the server found it in public and
// returned public.secret.
func TestRedteamSchemasUnqualified(t *testing.T) {
	_, pool := fixture(t, 2)
	ex := New(pool, WithValidateOptions(validate.WithSchemas("div_01")))
	scope := Scope("div_01", "public")
	for _, sql := range []string{
		"SELECT s FROM secret",
		"SELECT s FROM div_01.t, secret",
		"WITH x AS (SELECT s FROM secret) SELECT s FROM x",
		"SELECT (SELECT s FROM SECRET LIMIT 1) AS s",
	} {
		// The threat: the plan check alone lets it read public.secret.
		if res := mustQuery(t, ex, sql, scope, planCheckOnly()); res.RowCount != 1 || res.Rows[0][0] != "top" {
			t.Fatalf("%s: without the validator got %v, want public.secret's row", sql, res.Rows)
		}
		e := queryErr(t, ex, sql, scope)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !ve.Has(validate.CodeTableNotAllowed) {
			t.Errorf("%s: got %v, want a V012 rejection", sql, e)
		}
	}
	// The tenant's own table, qualified, still runs.
	if res := mustQuery(t, ex, "SELECT v FROM div_01.t", scope); res.RowCount != 1 || res.Rows[0][0] != "one" {
		t.Errorf("div_01.t: %v", res.Rows)
	}
}

// TestRedteamBuiltValues: a value built within the string guard's limit in
// a CTE, a subquery or a recursive CTE, and built on again, made the server
// allocate 10^8 characters (10^9 is as easy) before any statement timeout.
func TestRedteamBuiltValues(t *testing.T) {
	_, pool := fixture(t, 2)
	ex := New(pool)
	for _, tc := range []struct {
		sql  string
		size int64
	}{
		{"WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(repeat(s, 1000)) AS n FROM a", 100_000_000},
		{"SELECT length(repeat(s, 1000)) AS n FROM (SELECT repeat('x', 100000) s) a", 100_000_000},
		{"WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 25) SELECT max(length(s)) AS n FROM r", 16_777_216},
		{"SELECT length(array_to_string(ARRAY(SELECT repeat('x', 10000) FROM generate_series(1, 5000)), '')) AS n", 50_000_000},
	} {
		res := mustQuery(t, ex, tc.sql, planCheckOnly())
		if res.RowCount != 1 || res.Rows[0][0] != tc.size {
			t.Fatalf("%s: without the validator got %v, want %d", tc.sql, res.Rows, tc.size)
		}
		e := queryErr(t, ex, tc.sql)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !ve.Has(validate.CodeStringBomb) {
			t.Errorf("%s: got %v, want a V022 rejection", tc.sql, e)
		}
	}
}

// TestRedteamLookupValues: a VALUES list unifies a string literal with
// pg_typeof's regtype, so the literal is read by regtype's input: a div_01
// request listed div_02's relation and the catalogs' with their OIDs. The
// plan does not print a VALUES list, so there the plan check alone lets it
// run; the validator refuses every form (V013).
func TestRedteamLookupValues(t *testing.T) {
	dsn, pool := fixture(t, 2)
	var oid string
	if err := connect(t, dsn).QueryRow(ctxT(t), "SELECT 'div_02.t'::regtype::oid::text").Scan(&oid); err != nil {
		t.Fatal(err)
	}
	ex := New(pool, WithValidateOptions(validate.WithSchemas("div_01")))
	scope := Scope("div_01")
	for _, c := range []struct {
		sql string
		// planSees: the plan prints the literal as a regtype constant
		// (the plan check refuses it, though the server has already
		// looked the name up); a VALUES list it does not print.
		planSees bool
	}{
		{"SELECT t::text AS name, t::oid::text AS oid FROM (VALUES (pg_typeof(1)), ('div_02.t'), ('pg_catalog.pg_authid')) v(t) OFFSET 1 LIMIT 1", false},
		{"WITH v(t) AS (VALUES ('div_02.t'), (pg_typeof(1))) SELECT t::text AS name, t::oid::text AS oid FROM v LIMIT 1", false},
		{"SELECT t::text AS name, t::oid::text AS oid FROM (SELECT 'div_02.t' AS t UNION ALL SELECT pg_typeof(1)) s LIMIT 1", true},
	} {
		// The threat: unchecked, it names div_02.t and its row type's OID
		// (the literal is read as a regtype).
		res := mustQuery(t, ex, c.sql, scope, unvalidated())
		if res.RowCount != 1 || res.Rows[0][0] != "div_02.t" || res.Rows[0][1] != oid {
			t.Fatalf("%s: unchecked got %v, want div_02.t and its row type's OID %s", c.sql, res.Rows, oid)
		}
		var ve *validate.Error
		if c.planSees {
			if e := queryErr(t, ex, c.sql, scope, planCheckOnly()); !errors.As(e, &ve) || !ve.Has(validate.CodePlan) {
				t.Errorf("%s: plan check alone: %v, want a V015 rejection", c.sql, e)
			}
		} else if res := mustQuery(t, ex, c.sql, scope, planCheckOnly()); res.RowCount != 1 || res.Rows[0][1] != oid {
			t.Errorf("%s: the plan check alone got %v: does the plan show VALUES lists now?", c.sql, res.Rows)
		}
		e := queryErr(t, ex, c.sql, scope)
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !ve.Has(validate.CodeSystemCatalog) {
			t.Errorf("%s: got %v, want a V013 rejection", c.sql, e)
		}
	}
	// The type's name as text still runs.
	if res := mustQuery(t, ex, "SELECT pg_typeof(v)::text AS ty FROM div_01.t", scope); res.RowCount != 1 || res.Rows[0][0] != "text" {
		t.Errorf("pg_typeof(v)::text: %v", res.Rows)
	}
}

// TestRedteamTransactionCounter: xmin (a row version's transaction id)
// tells how many transactions the cluster ran, what the denied
// txid_current() would. Unchecked, the query returns the counter; the
// plan check refuses the system column the plan names, and the validator
// before it (V026). WithSystemColumns(true) allows it.
func TestRedteamTransactionCounter(t *testing.T) {
	_, pool := fixture(t, 2)
	ex := New(pool)
	sql := "SELECT xmin::text::bigint AS x FROM div_01.t"
	res := mustQuery(t, ex, sql, unvalidated())
	if x, ok := res.Rows[0][0].(int64); res.RowCount != 1 || !ok || x < 3 {
		t.Fatalf("%s: unchecked got %v, want the transaction id that wrote the row", sql, res.Rows)
	}
	for _, c := range []struct {
		opts []QueryOption
		code string
	}{
		{[]QueryOption{planCheckOnly()}, validate.CodePlan},
		{nil, validate.CodeSystemColumn},
	} {
		e := queryErr(t, ex, sql, c.opts...)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !ve.Has(c.code) {
			t.Errorf("%s: got %v, want a %s rejection", sql, e, c.code)
		}
	}
	open := New(pool, WithValidateOptions(validate.WithSystemColumns(true)))
	if res := mustQuery(t, open, sql); res.RowCount != 1 {
		t.Errorf("WithSystemColumns(true): %v", res.Rows)
	}
}
