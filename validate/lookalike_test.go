package validate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/lookalikes"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestLookalikesExplain: a tenant's look-alikes in div_01 (and public) never
// run during Explain: the ones found by name on the path are pinned out of
// it (the built-in is planned), the others are refused with V025 or V029
// before the server plans the query, and no result or error holds the
// marker or the secret. Each
// attack is first shown to leak the secret when run as the engine under
// the tenant's search path, and to pass the validator's static policy.
func TestLookalikesExplain(t *testing.T) {
	pool := lookalikes.New(t).Pool(t)
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	for _, a := range lookalikes.Attacks {
		if leaked := runRaw(pool, a.SQL); !strings.Contains(leaked, lookalikes.Secret) {
			t.Errorf("%s: run as is, it does not reach the secret (%s): the case tests nothing", a.Name, leaked)
		}
		if _, err := v.Validate(a.SQL); err != nil {
			t.Errorf("%s: the validator refuses it on its own (%v): the case tests nothing", a.Name, err)
			continue
		}
		r := v.Explain(context.Background(), pool, []string{a.SQL})[0]
		var ve *validate.Error
		refused := errors.As(r.Err, &ve) && (ve.Has(validate.CodeLookalike) || ve.Has(validate.CodeMutable)) && r.Validation == nil
		switch {
		case a.OnPath():
			// Pinned off the path: refused for another object of the
			// relation read, or planned with the built-in.
			if !refused && r.Err != nil {
				t.Errorf("%s: got %v, want the plan of the built-in or a V025/V029 refusal", a.Name, r.Err)
			}
		case !refused || (ve.Has(validate.CodeLookalike) && !strings.Contains(strings.ReplaceAll(r.Message, "div_01.", ""), strings.ReplaceAll(a.Object, "div_01.", ""))):
			t.Errorf("%s: got %v, want a V029 refusal or a V025 naming %s", a.Name, r.Err, a.Object)
		}
		for _, s := range []string{r.Message, string(r.Plan)} {
			if lookalikes.Leaked(s) {
				t.Errorf("%s: the look-alike ran: %s", a.Name, s)
			}
		}
	}
}

// runRaw runs sql as is under the tenant's search path, read-only, and
// returns its rows and error as text.
func runRaw(pool *pgxpool.Pool, sql string) string {
	ctx := context.Background()
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return err.Error()
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, "SET LOCAL search_path = div_01, public"); err != nil {
		return err.Error()
	}
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return err.Error()
	}
	vals, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
	return fmt.Sprint(vals, err)
}

// TestLookalikesExtensionsAllowed: functions and operators of allowed
// extensions installed in public (pg_trgm, pgvector, unaccent,
// fuzzystrmatch, hstore, citext: superusers' extension members) and
// user functions in public under names no query calls (one a built-in's,
// initcap) refuse nothing:
// ordinary queries, and the extensions' own calls, are planned.
func TestLookalikesExtensionsAllowed(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `
CREATE EXTENSION pg_trgm; CREATE EXTENSION vector; CREATE EXTENSION unaccent; CREATE EXTENSION fuzzystrmatch;
CREATE EXTENSION hstore; CREATE EXTENSION citext;
CREATE TABLE items (id int PRIMARY KEY, name varchar(40), tag citext, emb vector(3), attrs hstore, born date);
INSERT INTO items VALUES (1, 'widget', 'Red', '[1,2,3]', 'a=>1', '2024-01-02'), (2, 'gadget', 'blue', '[3,2,1]', 'a=>2', '2024-05-06');
CREATE FUNCTION public.fiscal_quarter(date) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 1';
CREATE FUNCTION public.my_helper(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1';
CREATE FUNCTION public.initcap(int) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT ''never called''';`)
	pool := pgtest.Pool(t, dsn)
	v := validate.New(validate.WithSearchPath("public"))
	sqls := []string{
		"SELECT name FROM items WHERE name % 'widgit' ORDER BY similarity(name, 'widgit') DESC",
		"SELECT id FROM items ORDER BY emb <-> '[1,2,3]' LIMIT 1",
		"SELECT unaccent(name) AS n, levenshtein(name, 'gadget') AS d FROM items",
		"SELECT attrs -> 'a' AS a FROM items WHERE attrs ? 'a'",
		"SELECT lower(tag) AS t FROM items WHERE tag = 'red'",
		"SELECT lower(name), upper(name), sum(id), max(name) FROM items WHERE name = 'x' OR id IN (1, 2) OR name LIKE 'w%' " +
			"OR id BETWEEN 1 AND 2 GROUP BY name",
		"SELECT a.id FROM items a JOIN items b USING (id) WHERE CASE a.name WHEN 'widget' THEN true END",
		"SELECT extract(quarter FROM born) AS q, name || '!' AS n FROM items",
	}
	for i, r := range v.Explain(context.Background(), pool, sqls) {
		if r.Err != nil {
			t.Errorf("%s: %v", sqls[i], r.Err)
		}
	}
}

// TestLookalikesInPlan: CheckPlan with Against refuses a plan that calls a
// look-alike's name the query does not write (here a view's lower, which
// the plan prints bare since the search path finds it), and only then.
func TestLookalikesInPlan(t *testing.T) {
	f := lookalikes.New(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, f.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var plan []byte
	if _, err := conn.Exec(ctx, "SET search_path = div_01, public"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "EXPLAIN (VERBOSE, FORMAT JSON) SELECT x FROM v_lower").Scan(&plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(plan), "lower(") || strings.Contains(string(plan), "div_01.lower") {
		t.Fatalf("the plan does not show the bare call: %s", plan)
	}
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	found := [][]string{{"function", "lower", "div_01.lower(character varying)"}}
	for _, c := range []struct {
		sql  string
		want bool
	}{{"SELECT x FROM v_lower", true}, {"SELECT pg_catalog.lower(x) FROM v_lower", false}} {
		res, err := v.Validate(c.sql)
		if err != nil {
			t.Fatal(err)
		}
		l, err := v.CheckLookalikes(res, found)
		if err != nil || l == nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		err = v.CheckPlan(plan, validate.Against(l))
		var ve *validate.Error
		if got := errors.As(err, &ve) && ve.Has(validate.CodeLookalike) && strings.Contains(err.Error(), "the plan calls lower"); got != c.want {
			t.Errorf("%s: CheckPlan = %v, want a V025 refusal %v", c.sql, err, c.want)
		}
	}
	if err := v.CheckPlan(plan); err != nil {
		t.Errorf("without Against: %v", err)
	}
}

// TestLookalikesQualified: with the look-alikes planted, a call qualified
// with the tenant's schema is refused by the static policy (V011), the same
// call qualified with pg_catalog (functions, OPERATOR(pg_catalog.=)) is
// planned, and so is the bare spelling of a shadowed name: the query runs
// under the trusted schemas only (validate.Pin), where the tenant's
// look-alikes are not, so the server can only resolve it to the built-in.
func TestLookalikesQualified(t *testing.T) {
	f := lookalikes.New(t)
	// A superuser's copy of plain, in a schema only the owners can create
	// in (the tenant's own tables are refused outright, V029).
	pgtest.Exec(t, f.AdminDSN, `CREATE SCHEMA app; CREATE TABLE app.plain AS SELECT * FROM div_01.plain;
GRANT USAGE ON SCHEMA app TO `+f.Engine+`; GRANT SELECT ON app.plain TO `+f.Engine)
	pool := f.Pool(t)
	v := validate.New(validate.WithSearchPath("app", "div_01", "public"))
	for _, c := range []struct{ sql, code string }{
		{"SELECT div_01.lower(name) AS x FROM plain", validate.CodeFuncNotAllowed},
		{"SELECT id FROM div_01.plain", validate.CodeMutable},
		{`SELECT "div_01"."lower"(name) AS x FROM plain`, validate.CodeFuncNotAllowed},
		{"SELECT id FROM plain WHERE name OPERATOR(div_01.=) 'Ann'", validate.CodeFuncNotAllowed},
		{"SELECT pg_catalog.lower(name) AS x, PG_CATALOG.UPPER(name) AS y FROM plain WHERE name OPERATOR(pg_catalog.=) 'Ann'", ""},
		{"SELECT id FROM plain WHERE name = 'Ann'", ""},
		{"SELECT lower(name) AS x FROM plain", ""},
		{`SELECT "lower"(name) AS x, U&"\0075pper"(name) AS y FROM plain WHERE name = ANY ('{Ann}') AND name || 'x' LIKE 'A%'`, ""},
	} {
		r := v.Explain(context.Background(), pool, []string{c.sql})[0]
		var ve *validate.Error
		switch {
		case c.code == "" && r.Err != nil:
			t.Errorf("%s: %v", c.sql, r.Err)
		case c.code != "" && (!errors.As(r.Err, &ve) || !ve.Has(c.code)):
			t.Errorf("%s: got %v, want %s", c.sql, r.Err, c.code)
		}
	}
}

// TestLookalikesObjectsGate: the second query of the check (views,
// policies, indexes, casts, domains) is needed only where the database
// holds a user function or operator: not with extensions alone, and again
// once a user creates one.
func TestLookalikesObjectsGate(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, "CREATE EXTENSION pg_trgm; CREATE EXTENSION citext; CREATE TABLE t (id int, name citext)")
	pool := pgtest.Pool(t, dsn)
	v := validate.New(validate.WithSearchPath("public"))
	res, err := v.Validate("SELECT lower(name) AS n FROM t WHERE name % 'x'")
	if err != nil {
		t.Fatal(err)
	}
	needs := func() bool {
		t.Helper()
		sql, params := v.LookalikeQuery(res)
		args := make([]any, len(params))
		for i, p := range params {
			args[i] = p
		}
		rows, err := pool.Query(context.Background(), sql, args...)
		if err != nil {
			t.Fatal(err)
		}
		found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]string, error) {
			var a, b, c string
			err := r.Scan(&a, &b, &c)
			return []string{a, b, c}, err
		})
		if err != nil {
			t.Fatal(err)
		}
		l, err := v.CheckLookalikes(res, found)
		if err != nil {
			t.Fatal(err)
		}
		return l.NeedsObjects()
	}
	if needs() {
		t.Error("extensions alone need the objects query")
	}
	pgtest.Exec(t, dsn, "CREATE SCHEMA other; CREATE FUNCTION other.f(int) RETURNS int LANGUAGE sql AS 'SELECT $1'")
	if !needs() {
		t.Error("a user function outside the path does not call for the objects query")
	}
}

// TestExplainAsRole: Explain judges a candidate for the role the query
// will run as. The tenant's own table, explained as the engine, is refused
// (V029: its owner can attach code that would run with the engine's
// privileges); explained as the tenant (its owner), it is planned, pinned:
// the tenant's look-alike of lower is not on the path the plan resolves.
func TestExplainAsRole(t *testing.T) {
	f := lookalikes.New(t)
	pgtest.Exec(t, f.AdminDSN, "GRANT "+f.Tenant+" TO "+f.Engine)
	pool := f.Pool(t)
	v := validate.New(validate.WithSearchPath("div_01", "public"))
	const sql = "SELECT lower(name) AS x FROM plain"
	r := v.Explain(context.Background(), pool, []string{sql})[0]
	var ve *validate.Error
	if !errors.As(r.Err, &ve) || !ve.Has(validate.CodeMutable) {
		t.Errorf("as the engine: %v, want V029", r.Err)
	}
	r = v.Explain(context.Background(), pool, []string{sql}, validate.AsRole(f.Tenant))[0]
	if r.Err != nil || !strings.Contains(string(r.Plan), "lower") || strings.Contains(string(r.Plan), "div_01.lower") {
		t.Errorf("as the owner: %v, plan %s", r.Err, r.Plan)
	}
	if r := v.Explain(context.Background(), pool, []string{sql}, validate.AsRole("no_such_role_x"))[0]; r.Err == nil {
		t.Error("an unknown role was accepted")
	}
}
