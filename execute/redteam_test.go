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
