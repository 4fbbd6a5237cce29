package validate_test

import (
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// Red-team findings: queries the validator used to accept and that, run by
// the executor, reached outside the policy. Each case lists the attack in
// several spellings.

// TestRedteamSchemasUnqualified: WithSchemas without a table list, and a
// search path that also lists a schema outside WithSchemas (Scope("div_01",
// "public") with WithSchemas("div_01")). An unqualified name was assumed to
// live in the first schema of the path and accepted; the server looks it
// up along the whole path and read public.secret. Such a name must be
// qualified (V012).
func TestRedteamSchemasUnqualified(t *testing.T) {
	v := validate.New(validate.WithSchemas("div_01"), validate.WithSearchPath("div_01", "public"))
	for _, sql := range []string{
		`SELECT * FROM secret`,
		`SELECT s FROM "secret"`,
		`SELECT * FROM SECRET AS x`,
		`TABLE secret`,
		`SELECT (SELECT s FROM secret LIMIT 1)`,
		`WITH x AS (SELECT * FROM secret) SELECT * FROM x`,
		`SELECT * FROM div_01.t JOIN secret ON true`,
		`SELECT * FROM div_01.t WHERE EXISTS (SELECT 1 FROM secret)`,
		`SELECT * FROM div_01.t, LATERAL (SELECT * FROM secret) s`,
		`SELECT * FROM secret TABLESAMPLE BERNOULLI (100)`,
		`SELECT json_populate_record(NULL::secret, '{}')`,
	} {
		mustReject(t, v, sql, validate.CodeTableNotAllowed)
	}
	// Qualified names in the allowed schema, and CTEs, still pass.
	for _, sql := range []string{
		`SELECT * FROM div_01.t`,
		`WITH secret AS (SELECT 1 AS s) SELECT s FROM secret`,
		`SELECT 1`,
	} {
		mustValidate(t, v, sql)
	}
	// With every schema of the path allowed, unqualified names pass.
	all := validate.New(validate.WithSchemas("div_01", "public"), validate.WithSearchPath("div_01", "public"))
	mustValidate(t, all, `SELECT * FROM secret`)
	// Not a regression: a system schema on the path is decided by the
	// catalog rules.
	sys := validate.New(validate.WithSchemas("div_01"), validate.WithSearchPath("div_01"))
	mustValidate(t, sys, `SELECT * FROM t`)
}

// TestRedteamBuiltValuesThroughColumns: the string guard (V022) counted a
// column as one character of data, so a value built within the limit in a
// CTE, a subquery or a scalar subquery, and built on again outside it, was
// never bounded: 100,000 characters repeated 1,000 times is 10^8 (the
// server allocated it; with 10,000, about 1 GB), and a recursive CTE that
// concatenates a column with itself doubles it at each step (2^29 after 29
// steps under a bound the recursion guard accepts).
func TestRedteamBuiltValuesThroughColumns(t *testing.T) {
	for _, v := range []*validate.Validator{validate.New(), shopValidator()} {
		for _, sql := range []string{
			// a CTE column built on again
			`WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(repeat(s, 1000)) FROM a`,
			`WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(lpad(s, 10, s) || repeat(a.s, 1000)) FROM a`,
			`WITH a(s) AS (SELECT repeat('x', 100000)) SELECT length(repeat(s, 1000)) FROM a`,
			`WITH a AS (SELECT repeat('x', 100000) AS s), b AS (SELECT s AS t FROM a) SELECT length(repeat(t, 1000)) FROM b`,
			`WITH a AS (SELECT repeat('x', 100000) AS s), b AS (SELECT * FROM a) SELECT length(repeat(s, 1000)) FROM b`,
			`WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(replace(s, 'x', s)) FROM a`,
			`WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(format('%s', repeat(s, 2000))) FROM a`,
			`WITH a AS (SELECT repeat('x', 100000) AS s) SELECT length(string_agg(s, '')) FROM a, generate_series(1, 1000)`,
			// a subquery in FROM, renamed or not
			`SELECT length(repeat(s, 1000)) FROM (SELECT repeat('x', 100000) s) a`,
			`SELECT length(repeat(a.x, 1000)) FROM (SELECT repeat('x', 100000) s) a(x)`,
			`SELECT length(repeat(q.s, 1000)) FROM users u, LATERAL (SELECT repeat(u.name, 100000) AS s) q`,
			// a scalar subquery
			`SELECT length(repeat((SELECT repeat('x', 100000)), 1000))`,
			`SELECT length(repeat((SELECT repeat(name, 10000) FROM users LIMIT 1), 10000))`,
			`SELECT length(rpad('', 10) || repeat((SELECT max(x) FROM (SELECT repeat('y', 100000) x) z), 1000))`,
			// concatenation chains through CTEs, no builder call at the end
			`WITH a AS (SELECT repeat('x', 100000) s), b AS (SELECT s||s||s||s||s||s||s||s||s||s s FROM a), c AS (SELECT s||s||s||s||s||s||s||s||s||s s FROM b) SELECT length(s) FROM c`,
			`WITH a AS (SELECT repeat('x', 100000) s) SELECT length(s || s || s) FROM a`,
			`WITH a AS (SELECT repeat('x', 100000) s) SELECT length(concat(s, s, s)) FROM a`,
			// a recursive CTE that doubles a value at each step
			`WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 29) SELECT max(length(s)) FROM r`,
			`WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, concat(s, s) FROM r WHERE n < 29) SELECT max(length(s)) FROM r`,
			`WITH RECURSIVE r(n, s) AS (SELECT 1, 'x'::text UNION ALL SELECT r.n + 1, r.s || r.s FROM r WHERE r.n < 29) SELECT max(length(s)) FROM r`,
			`WITH RECURSIVE r(n, a) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, a || a FROM r WHERE n < 29) SELECT max(cardinality(a)) FROM r`,
			`WITH RECURSIVE r(n, a) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, array_cat(a, a) FROM r WHERE n < 29) SELECT max(cardinality(a)) FROM r`,
			`WITH RECURSIVE r(n, j) AS (SELECT 1, '[1]'::jsonb UNION ALL SELECT n + 1, jsonb_build_array(j, j) FROM r WHERE n < 29) SELECT max(length(j::text)) FROM r`,
			`WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, repeat(s, 2) FROM r WHERE n < 29) SELECT max(length(s)) FROM r`,
			`WITH RECURSIVE r AS (SELECT 1 AS n, 'x' AS s UNION ALL SELECT q.n + 1, q.s || q.s FROM r AS q WHERE q.n < 29) SELECT max(length(s)) FROM r`,
			// two columns feeding each other (Fibonacci growth)
			`WITH RECURSIVE r(n, a, b) AS (SELECT 1, 'x', 'y' UNION ALL SELECT n + 1, a || b, a FROM r WHERE n < 40) SELECT max(length(a)) FROM r`,
			// ARRAY(subquery) keeps every row, like array_agg
			`SELECT length(array_to_string(ARRAY(SELECT repeat('x', 10000) FROM generate_series(1, 10000)), ''))`,
			`SELECT cardinality(ARRAY(SELECT lpad('x', 50000) FROM users))`,
		} {
			mustReject(t, v, sql, validate.CodeStringBomb)
		}
	}
	// Ordinary uses stay allowed.
	v := shopValidator()
	for _, sql := range []string{
		`WITH a AS (SELECT name, lpad(id::text, 6, '0') AS code FROM users) SELECT repeat(code, 3), name || '-' || code FROM a`,
		`SELECT repeat('-', 40) || name FROM (SELECT name FROM users) u`,
		`WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || 'x' FROM r WHERE n < 100) SELECT max(length(s)) FROM r`,
		`WITH RECURSIVE r(n, path) AS (SELECT id, ARRAY[id] FROM users UNION ALL SELECT u.id, r.path || u.id FROM r JOIN users u ON u.id = r.n + 1) SELECT * FROM r`,
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + n FROM r WHERE n < 1000) SELECT n FROM r`,
		`SELECT ARRAY(SELECT name FROM users ORDER BY id)`,
		`SELECT (SELECT max(name) FROM users) || (SELECT min(name) FROM users)`,
		`SELECT u.name || ' ' || u.email FROM users u`,
	} {
		mustValidate(t, v, sql)
	}
}

// TestRedteamArrayOverProduct: ARRAY(subquery) collects every row like
// array_agg, so over a cartesian product it is refused like array_agg
// (V023).
func TestRedteamArrayOverProduct(t *testing.T) {
	v := shopValidator()
	for _, sql := range []string{
		`SELECT cardinality(ARRAY(SELECT a.id FROM users a, orders b))`,
		`SELECT ARRAY(SELECT a.name || b.name FROM users a CROSS JOIN products b)`,
		`SELECT id FROM users WHERE id = ANY (ARRAY(SELECT a.id FROM orders a JOIN orders b ON true))`,
	} {
		mustReject(t, v, sql, validate.CodeCrossJoin)
	}
	mustValidate(t, v, `SELECT ARRAY(SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id)`)
}

// TestRedteamJSONTableDefaults: the DEFAULT expressions of JSON_TABLE
// columns (ON EMPTY, ON ERROR) were not resolved, so a field selection
// there, a pg_sleep call in functional notation, passed the static checks
// (PostgreSQL 17 runs JSON_TABLE; the plan check is then the only guard).
func TestRedteamJSONTableDefaults(t *testing.T) {
	for _, v := range []*validate.Validator{validate.New(), shopValidator()} {
		for _, sql := range []string{
			`SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT (1.0).pg_sleep ON ERROR)) jt`,
			`SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT ('1 s'::interval).PG_SLEEP_FOR ON EMPTY)) jt`,
			`SELECT * FROM JSON_TABLE('{}'::jsonb, '$' COLUMNS (n FOR ORDINALITY, NESTED PATH '$.x[*]' COLUMNS (b int PATH '$' DEFAULT (1.0)."pg_sleep" ON EMPTY))) jt`,
			`SELECT * FROM users u, JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT u.pg_sleep ON EMPTY)) jt`,
		} {
			mustReject(t, v, sql, validate.CodeFuncDenied)
		}
	}
	v := shopValidator()
	mustReject(t, v, `SELECT * FROM users u, JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT u.nosuch ON EMPTY)) jt`, validate.CodeFuncNotation)
	mustValidate(t, v, `SELECT jt.a FROM users u, JSON_TABLE('{}'::jsonb, '$' COLUMNS (a text PATH '$.a' DEFAULT u.name ON EMPTY)) jt`)
	mustValidate(t, v, `SELECT * FROM JSON_TABLE('{"a":1}'::jsonb, '$' COLUMNS (a int PATH '$.a' DEFAULT 0 ON EMPTY DEFAULT -1 ON ERROR)) jt`)
}

// TestRedteamRefused: spellings tried during the red-team review that the
// validator already refused, kept as regressions (code each must carry).
func TestRedteamRefused(t *testing.T) {
	cases := []struct{ code, sql string }{
		// catalog-lookup types in JSON and record-returning constructs
		{validate.CodeSystemCatalog, `SELECT JSON_VALUE('"pg_authid"'::jsonb, '$' RETURNING regclass)`},
		{validate.CodeSystemCatalog, `SELECT JSON_QUERY('{}'::jsonb, '$.a' RETURNING pg_catalog.regproc)`},
		{validate.CodeSystemCatalog, `SELECT JSON_SERIALIZE('{}' RETURNING regclass)`},
		{validate.CodeSystemCatalog, `SELECT * FROM JSON_TABLE('"x"'::jsonb, '$' COLUMNS (a regclass PATH '$')) jt`},
		{validate.CodeSystemCatalog, `SELECT * FROM json_to_record('{"a":"pg_authid"}') AS x(a regclass)`},
		{validate.CodeSystemCatalog, `SELECT * FROM ROWS FROM (json_to_record('{"a":"pg_authid"}') AS (a regrole))`},
		{validate.CodeSystemCatalog, `SELECT '{pg_authid}'::_regclass`},
		{validate.CodeSystemCatalog, `SELECT regclass 'pg_authid'`},
		{validate.CodeSystemCatalog, `SELECT 1::oid::regclass`},
		{validate.CodeSystemCatalog, `SELECT 'pg_authid'::text::"regclass"::oid`},
		// functional notation in clauses the resolver must reach
		{validate.CodeFuncDenied, `SELECT sum(id) OVER w FROM users WINDOW w AS (ORDER BY id ROWS BETWEEN (1.0).pg_sleep PRECEDING AND CURRENT ROW)`},
		{validate.CodeFuncDenied, `SELECT id FROM users TABLESAMPLE BERNOULLI ((1.0).pg_sleep)`},
		{validate.CodeFuncDenied, `SELECT id FROM users TABLESAMPLE BERNOULLI (50) REPEATABLE ((1.0).pg_sleep)`},
		{validate.CodeFuncDenied, `SELECT * FROM users u JOIN orders o USING (id) AS j WHERE j.pg_sleep IS NULL`},
		{validate.CodeFuncDenied, `SELECT id FROM users GROUP BY GROUPING SETS ((users.pg_sleep))`},
		{validate.CodeFuncDenied, `SELECT (u.*).pg_sleep FROM users u`},
		{validate.CodeFuncDenied, `SELECT (json_each('{"a":1}')).pg_sleep`},
		{validate.CodeFuncDenied, `SELECT (x.value).pg_sleep FROM json_each('{"a":1}') x`},
		{validate.CodeFuncDenied, `SELECT t.pg_sleep FROM ROWS FROM (unnest(ARRAY[1.0]), unnest(ARRAY[2.0])) t`},
		{validate.CodeFuncDenied, `SELECT t.pg_sleep FROM unnest(ARRAY[1.0]) WITH ORDINALITY t`},
		{validate.CodeFuncDenied, `SELECT unnest.pg_sleep FROM unnest(ARRAY[1.0])`},
		{validate.CodeFuncDenied, `SELECT t.t.pg_sleep FROM (SELECT 1.0) t(t)`},
		{validate.CodeFuncDenied, `SELECT JSON_VALUE('{}'::jsonb, '$.a' DEFAULT (1.0).pg_sleep ON EMPTY)`},
		{validate.CodeFuncNotation, `SELECT (t.t).f1 FROM (SELECT ROW(1.0)) t(t)`},
		// XML constructs stay outside the node allow-list
		{validate.CodeUnsupported, `SELECT xmlparse(document '<a/>')`},
		// catalogs through a subquery
		{validate.CodeSystemCatalog, `SELECT 1 FROM users WHERE id IN (SELECT oid FROM pg_class)`},
	}
	v := shopValidator()
	for _, c := range cases {
		mustReject(t, v, c.sql, c.code)
	}
}
