package execute

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
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
// value is cast to the domain. The static layer never sees a view's body; the look-alike
// check reads only user functions a view depends on; the plan check reads
// printed expressions. The view's rows (or its error) carried div_02's
// IBAN; the look-alike check now reads those definitions (V025).
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
		"SELECT 'x'::tag AS t",
	} {
		// The threat: unvalidated, the secret comes back.
		res, err := ex.Query(ctxT(t), sql, scope, unvalidated())
		if got := fmt.Sprint(res, err); !lookalikes.Leaked(got) && (res == nil || !lookalikes.Leaked(fmt.Sprint(res.Rows))) {
			t.Errorf("%s: unvalidated, no secret (%s): the case tests nothing", sql, got)
		}
		e := queryErr(t, ex, sql, scope)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !(ve.Has(validate.CodeMutable) ||
			(ve.Has(validate.CodeLookalike) && strings.Contains(e.Error(), "query_to_xml"))) {
			t.Errorf("%s: got %v, want a V029 refusal or a V025 naming query_to_xml", sql, e)
		}
		if lookalikes.Leaked(e.Error()) {
			t.Errorf("%s: div_02's secret came back: %v", sql, e)
		}
	}
	// Views, policies and domains that call allowed built-ins still run.
	plantAsTenant(t, f, `
CREATE VIEW div_01.v_ok AS SELECT id, btrim(name) AS name FROM (VALUES (1, 'a'), (2, 'b')) v(id, name) LIMIT length('ab');
CREATE DOMAIN div_01.posint AS int CHECK (VALUE > 0 AND abs(VALUE) < 1000);
CREATE TABLE div_01.memo2 (id int, body text);
INSERT INTO div_01.memo2 VALUES (1, 'x'), (2, 'y');
ALTER TABLE div_01.memo2 ENABLE ROW LEVEL SECURITY;
CREATE POLICY p2 ON div_01.memo2 USING (id IN (SELECT x FROM (VALUES (1)) v(x)) AND body <> 'z' AND abs(id) > 0)`)
	// A cast to the tenant's domain is refused all the same (V029): its
	// constraints can change after any check.
	if e := queryErr(t, ex, "SELECT 5::posint AS n", scope); !errors.Is(e, ErrRejected) || !strings.Contains(e.Error(), validate.CodeMutable) {
		t.Errorf("cast to a tenant's domain: got %v, want V029", e)
	}
	// Run as their owner (as the engine, a tenant's relations are refused:
	// V029), they answer (the owner is not subject to memo2's policy).
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	for sql, want := range map[string]int{
		"SELECT name FROM v_ok":  2,
		"SELECT body FROM memo2": 2,
	} {
		if res := mustQuery(t, ex, sql, scope, AsRole(f.Tenant)); res.RowCount != want {
			t.Errorf("%s: %d rows, want %d", sql, res.RowCount, want)
		}
	}
}

// TestRedteam3Interruptless: calls that check for interrupts too rarely
// kept the backend busy far past a 1 s statement timeout on values within
// the string guard: pg_trgm's word_similarity (every position of one
// argument against the other: 10.5 s on 100,000 characters) and translate
// (every character of the string against every one of its from list:
// 15.9 s on 50,000 and 50,000) and btrim, ltrim, rtrim with a list of
// characters (21 s). Refused now (V028) in every spelling
// (interrupts.sql); here the threat is measured on smaller values and the
// validated queries are refused before anything runs.
func TestRedteam3Interruptless(t *testing.T) {
	dsn, pool := fixture(t, 1)
	pgtest.Exec(t, dsn, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
	admin := connect(t, dsn)
	timeout := time.Second
	ex := New(pool, WithStatementTimeout(timeout))
	for _, sql := range []string{
		"SELECT word_similarity(repeat('ab', 2000), repeat('ba', 48000)) AS w",
		"SELECT length(translate(repeat('a', 30000), repeat('b', 30000), '')) AS n",
		"SELECT length(btrim(repeat('a', 45000), repeat('b', 44999) || 'a')) AS n",
	} {
		pid := backendPID(t, pool)
		start := time.Now()
		_, err := ex.Query(ctxT(t), sql, unvalidated())
		waitFor(t, "the backend to be idle", func() bool {
			return !scalar[bool](t, admin, "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1 AND state = 'active')", pid)
		})
		if busy := time.Since(start); busy < timeout+3*time.Second {
			t.Errorf("%s: unvalidated, the backend was busy %v (err %v): the case tests nothing", sql, busy, err)
		} else {
			t.Logf("%s: unvalidated, backend busy %v under a %v timeout", sql, busy.Round(time.Millisecond), timeout)
		}
		e := queryErr(t, ex, sql)
		var ve *validate.Error
		if !errors.Is(e, ErrRejected) || !errors.As(e, &ve) || !ve.Has(validate.CodeOperand) || e.Op != "validate" {
			t.Errorf("%s: got %v (op %s), want a V028 refusal before the server", sql, e, e.Op)
		}
	}
}
