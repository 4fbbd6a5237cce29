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
// frame offset. The static layer never sees a view's body; the look-alike
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
CREATE POLICY p ON div_01.memo USING (id IN (SELECT x FROM (VALUES (length((`+leak+`)::text::int::text))) v(x)))`)
	ex := New(f.Pool(t))
	scope := Scope("div_01", "public")
	for _, sql := range []string{
		"SELECT x FROM v_values",
		"SELECT id FROM v_limit",
		"SELECT id FROM v_offset",
		"SELECT n FROM v_frame",
		"SELECT body FROM memo",
	} {
		res, err := ex.Query(ctxT(t), sql, scope)
		if got := fmt.Sprint(res, err); lookalikes.Leaked(got) || (res != nil && lookalikes.Leaked(fmt.Sprint(res.Rows))) {
			t.Errorf("%s: div_02's secret came back: %s", sql, strings.ReplaceAll(got, "\n", " "))
		} else {
			t.Logf("%s: %v", sql, err)
		}
	}
}
