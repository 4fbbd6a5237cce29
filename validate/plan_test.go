package validate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// explainVerbose returns the EXPLAIN (VERBOSE, FORMAT JSON) output of sql,
// planned in a READ ONLY transaction with a statement timeout, rolled back.
// EXPLAIN without ANALYZE runs no volatile function.
func explainVerbose(t testing.TB, pool *pgxpool.Pool, searchPath, sql string, settings ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, "SELECT set_config('statement_timeout', '5s', true), set_config('search_path', $1, true)", searchPath); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(settings); i += 2 {
		if _, err := tx.Exec(ctx, "SELECT set_config($1, $2, true)", settings[i], settings[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	var plan []byte
	err = tx.QueryRow(ctx, "EXPLAIN (VERBOSE, FORMAT JSON) "+sql, pgx.QueryExecModeExec).Scan(&plan)
	return plan, err
}

const planSchema = `
CREATE TABLE nums (n int, x bigint, o oid, f float8, t text);
INSERT INTO nums SELECT g, g, g, g / 1000.0, 'v' || g FROM generate_series(1, 50) g;
CREATE SEQUENCE t_id_seq;
CREATE TABLE users (id int PRIMARY KEY, name text);
INSERT INTO users SELECT g, 'user' || g FROM generate_series(1, 200) g;
CREATE TABLE big (id int PRIMARY KEY, grp int, note text);
INSERT INTO big SELECT g, g % 10, 'note ' || g FROM generate_series(1, 20000) g;
CREATE INDEX ON big (grp);
CREATE TABLE pts (p point);
INSERT INTO pts SELECT point(g, g) FROM generate_series(1, 1000) g;
CREATE INDEX ON pts USING gist (p);
ANALYZE;
-- Not inlinable: the plan shows the call.
CREATE FUNCTION leak(users) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN $1.name; END $$;
-- An operator whose SQL function the planner inlines: the plan shows its body.
CREATE FUNCTION evil_eq(int, int) RETURNS bool LANGUAGE sql VOLATILE AS 'SELECT pg_sleep(0) IS NOT NULL AND $1 = $2';
CREATE OPERATOR === (LEFTARG = int, RIGHTARG = int, FUNCTION = evil_eq);
CREATE VIEW user_names AS SELECT id, leak(u) AS secret FROM users u;
-- A built-in the policy refuses, which only the plan shows.
CREATE VIEW user_settings AS SELECT id, current_setting('work_mem') AS s FROM users;
`

func planPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	dsn := pgtest.FromTemplate(t, "validate-plan-v3", func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, planSchema)
		return err
	})
	return pgtest.Pool(t, dsn)
}

// planAttacks are spellings PostgreSQL resolves to a call of the function
// named second (functional notation, user functions, inlined operators),
// in the places of a query the verbose plan shows.
var planAttacks = []struct{ sql, fn string }{
	{"SELECT ('25 seconds'::interval).pg_sleep_for", "pg_sleep"}, // inlined SQL function
	{"SELECT (1.0::float8).pg_sleep", "pg_sleep"},
	{"SELECT t.pg_sleep FROM abs(2.0::float8) AS t", "pg_sleep"},
	{"SELECT (f).pg_sleep FROM nums", "pg_sleep"},
	{"SELECT ('pg_hba.conf'::text).pg_stat_file", "pg_stat_file"},
	{"SELECT (x).pg_advisory_lock FROM nums", "pg_advisory_lock"},
	{"SELECT (1::bigint).pg_try_advisory_lock", "pg_try_advisory_lock"},
	{"SELECT (1::bigint).pg_advisory_xact_lock", "pg_advisory_xact_lock"},
	{"SELECT ('select 1'::text).ts_stat", "ts_stat"},
	{"SELECT (0.5::float8).setseed", "setseed"},
	{"SELECT (n).pg_terminate_backend FROM nums", "pg_terminate_backend"},
	{"SELECT (123).pg_cancel_backend", "pg_cancel_backend"},
	{"SELECT (1).pg_log_backend_memory_contexts", "pg_log_backend_memory_contexts"},
	{"SELECT ('t_id_seq'::text).nextval", "nextval"},
	{"SELECT ('t_id_seq'::regclass).nextval", "nextval"},
	{"SELECT ('t_id_seq'::regclass).currval", "currval"},
	{"SELECT ('t_id_seq'::text).pg_sequence_last_value", "pg_sequence_last_value"},
	{"SELECT ('x'::text).current_setting", "current_setting"},
	{"SELECT (t).current_setting FROM nums", "current_setting"},
	{"SELECT ('somefile'::text).pg_read_file", "pg_read_file"},
	{"SELECT ('somefile'::text).pg_read_binary_file", "pg_read_binary_file"},
	{"SELECT ('.'::text).pg_ls_dir", "pg_ls_dir"},
	{"SELECT (1::oid).lo_get", "lo_get"},
	{"SELECT (o).lo_get FROM nums", "lo_get"},
	{"SELECT ('/etc/passwd'::text).lo_import", "lo_import"},
	{"SELECT (o).lo_unlink FROM nums", "lo_unlink"},
	// CTEs, materialized or inlined, recursive.
	{"WITH s AS MATERIALIZED (SELECT (f).pg_sleep AS z FROM nums) SELECT count(*) FROM s", "pg_sleep"},
	{"WITH s AS (SELECT (x).pg_try_advisory_lock AS l FROM nums) SELECT * FROM s", "pg_try_advisory_lock"},
	{"WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5 AND (i::bigint).pg_try_advisory_lock) SELECT * FROM r", "pg_try_advisory_lock"},
	// Sublinks: init plans, correlated subplans, semi and anti joins.
	{"SELECT (SELECT (0.5::float8).setseed)", "setseed"},
	{"SELECT n, (SELECT ('t_id_seq'::regclass).nextval FROM nums m WHERE m.n = nums.n) FROM nums", "nextval"},
	{"SELECT n FROM nums WHERE n IN (SELECT (x).pg_try_advisory_lock::int FROM nums)", "pg_try_advisory_lock"},
	{"SELECT n FROM nums WHERE n NOT IN (SELECT (x).pg_try_advisory_lock::int FROM nums)", "pg_try_advisory_lock"},
	{"SELECT n FROM nums WHERE EXISTS (SELECT 1 FROM nums m WHERE (m.x).pg_try_advisory_lock AND m.n = nums.n)", "pg_try_advisory_lock"},
	{"SELECT ARRAY(SELECT ('.'::text).pg_ls_dir)", "pg_ls_dir"},
	// LATERAL and FROM-clause functions.
	{"SELECT * FROM nums, LATERAL (SELECT (nums.f).pg_sleep) s", "pg_sleep"},
	{"SELECT * FROM nums CROSS JOIN LATERAL (SELECT ('.'::text).pg_ls_dir AS d) s", "pg_ls_dir"},
	{"SELECT * FROM (SELECT ('x'::text).current_setting AS c) s", "current_setting"},
	// WHERE, joins, GROUP BY, HAVING, ORDER BY, DISTINCT, CASE, aggregates.
	{"SELECT n FROM nums WHERE (x).pg_try_advisory_lock", "pg_try_advisory_lock"},
	{"SELECT a.n FROM nums a JOIN nums b ON (a.x).pg_try_advisory_lock", "pg_try_advisory_lock"},
	{"SELECT a.n FROM nums a LEFT JOIN nums b ON a.n = b.n AND (b.x).pg_try_advisory_lock", "pg_try_advisory_lock"},
	{"SELECT a.n FROM nums a JOIN nums b ON a.n = (b.x).pg_try_advisory_lock::int", "pg_try_advisory_lock"},
	{"SELECT count(*) FROM nums GROUP BY (x).pg_try_advisory_lock", "pg_try_advisory_lock"},
	{"SELECT count(*) FROM nums HAVING bool_and((x).pg_try_advisory_lock)", "pg_try_advisory_lock"},
	{"SELECT n FROM nums ORDER BY (x).pg_try_advisory_lock", "pg_try_advisory_lock"},
	{"SELECT n FROM nums ORDER BY (n::bigint).pg_try_advisory_lock LIMIT 3", "pg_try_advisory_lock"},
	{"SELECT DISTINCT ON ((x).pg_try_advisory_lock) n FROM nums", "pg_try_advisory_lock"},
	{"SELECT CASE WHEN n > 0 THEN (x).pg_try_advisory_lock END FROM nums", "pg_try_advisory_lock"},
	{"SELECT count((x).pg_try_advisory_lock) FROM nums", "pg_try_advisory_lock"},
	{"SELECT count(*) FILTER (WHERE (x).pg_try_advisory_lock) FROM nums", "pg_try_advisory_lock"},
	{"SELECT string_agg(t, ',' ORDER BY (x).pg_try_advisory_lock) FROM nums", "pg_try_advisory_lock"},
	// Window clauses.
	{"SELECT sum(n) OVER (PARTITION BY (x).pg_try_advisory_lock) FROM nums", "pg_try_advisory_lock"},
	{"SELECT sum(n) OVER (ORDER BY ('t_id_seq'::regclass).nextval) FROM nums", "nextval"},
	{"SELECT sum(n) OVER w FROM nums WINDOW w AS (ORDER BY (x).pg_try_advisory_lock)", "pg_try_advisory_lock"},
	{"SELECT * FROM (SELECT n, row_number() OVER (ORDER BY (x).pg_try_advisory_lock) AS r FROM nums) s WHERE r <= 3", "pg_try_advisory_lock"},
	// Set operations.
	{"SELECT n FROM nums UNION ALL SELECT (1::bigint).pg_try_advisory_lock::int", "pg_try_advisory_lock"},
	{"SELECT n FROM nums UNION SELECT (x).pg_try_advisory_lock::int FROM nums", "pg_try_advisory_lock"},
	{"SELECT n FROM nums EXCEPT SELECT ('t_id_seq'::regclass).nextval::int", "nextval"},
	{"SELECT n FROM nums INTERSECT SELECT (x).pg_try_advisory_lock::int FROM nums", "pg_try_advisory_lock"},
	// TABLESAMPLE arguments.
	{"SELECT * FROM nums TABLESAMPLE system ((1::bigint).pg_try_advisory_lock::int)", "pg_try_advisory_lock"},
	{"SELECT * FROM nums TABLESAMPLE bernoulli (10) REPEATABLE (((0.5::float8).setseed IS NULL)::int)", "setseed"},
	// User functions reached through functional notation, views and
	// operators.
	{"SELECT u.leak FROM users u", "leak"},
	{"SELECT leak(u) FROM users u", "leak"},
	{"SELECT secret FROM user_names", "leak"},
	{"SELECT a.n FROM nums a JOIN nums b ON a.n === b.n", "pg_sleep"},
}

// TestCheckPlanFunctionalNotation: the second layer alone refuses every
// spelling: the plans come from the server directly, not through Validate.
func TestCheckPlanFunctionalNotation(t *testing.T) {
	pool := planPool(t)
	v := validate.New()
	for _, a := range planAttacks {
		plan, err := explainVerbose(t, pool, "public", a.sql)
		if err != nil {
			t.Errorf("%s: does not plan: %v", a.sql, err)
			continue
		}
		err = v.CheckPlan(plan)
		var ve *validate.Error
		if !errors.As(err, &ve) || !errors.Is(err, validate.ErrRejected) || !ve.Has(validate.CodePlan) {
			t.Errorf("%s: CheckPlan = %v, want a %s rejection\nplan: %s", a.sql, err, validate.CodePlan, plan)
			continue
		}
		if !strings.Contains(err.Error(), a.fn+"(") {
			t.Errorf("%s: %v does not name %s", a.sql, err, a.fn)
		}
		for _, is := range ve.Issues {
			if is.Code != validate.CodePlan || is.Severity != validate.SeverityError || is.Location != -1 {
				t.Errorf("%s: issue %+v", a.sql, is)
			}
		}
	}
}

// TestCheckPlanAllowedUserFunction: a user function allowed by name
// passes in the plan too; the same query without the option is refused.
func TestCheckPlanAllowedUserFunction(t *testing.T) {
	pool := planPool(t)
	plan, err := explainVerbose(t, pool, "public", "SELECT leak(u) FROM users u")
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.New(validate.WithFunctions("leak")).CheckPlan(plan); err != nil {
		t.Errorf("allowed function refused: %v", err)
	}
	if err := validate.New().CheckPlan(plan); err == nil {
		t.Error("leak accepted without WithFunctions")
	}
}

// TestCheckPlanCatalogs: relations the server scans in system schemas,
// reached directly or through a view.
func TestCheckPlanCatalogs(t *testing.T) {
	pool := planPool(t)
	closed, open := validate.New(), validate.New(validate.WithSystemCatalogs(true))
	for _, c := range []struct {
		sql    string
		openOK bool
	}{
		{"SELECT relname FROM pg_class", true},
		{"SELECT count(*) FROM pg_catalog.pg_namespace", true},
		{"SELECT rolname FROM pg_authid", false},
		{"SELECT rolname FROM pg_roles", false}, // a view over pg_authid
	} {
		plan, err := explainVerbose(t, pool, "public", c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if err := closed.CheckPlan(plan); !errors.Is(err, validate.ErrRejected) {
			t.Errorf("%s without catalogs: %v", c.sql, err)
		}
		if err := open.CheckPlan(plan); (err == nil) != c.openOK {
			t.Errorf("%s with catalogs: %v", c.sql, err)
		}
	}
}

// TestExplainChecksPlan: Explain refuses a candidate whose plan calls a
// function the validator cannot see in the query (functional notation over
// a table whose columns it was not given), with the plan check's error and
// no validation result; a view calling a user's function, or a built-in
// the policy refuses, is refused before it is planned (V025).
func TestExplainChecksPlan(t *testing.T) {
	pool := planPool(t)
	v := validate.New(validate.WithMaxRows(100))
	res := v.Explain(context.Background(), pool, []string{
		"SELECT n.pg_column_size FROM nums n",
		"SELECT n FROM nums WHERE n > 3 ORDER BY n",
		"SELECT nmae FROM nums",
		"SELECT id, secret FROM user_names",
		"SELECT id, s FROM user_settings",
	})
	bad := res[0]
	var ve *validate.Error
	if !errors.As(bad.Err, &ve) || !ve.Has(validate.CodePlan) || !strings.Contains(bad.Message, "pg_column_size(") {
		t.Fatalf("functional notation calling pg_column_size: %+v", bad)
	}
	var vve *validate.Error
	if view := res[4]; !errors.As(view.Err, &vve) || !vve.Has(validate.CodeLookalike) || !strings.Contains(view.Message, "current_setting") ||
		view.Validation != nil || len(view.Plan) != 0 {
		t.Errorf("view calling current_setting: %+v", view)
	}
	if bad.Validation != nil || bad.SQLState != "" || bad.Location != -1 || len(bad.Plan) == 0 || ve.SQL != bad.SQL || bad.SQL == "" {
		t.Errorf("plan rejection: %+v (error SQL %q)", bad, ve.SQL)
	}
	if user := res[3]; !errors.As(user.Err, &ve) || !ve.Has(validate.CodeLookalike) || !strings.Contains(user.Message, "leak(") ||
		user.Validation != nil || len(user.Plan) != 0 || ve.SQL != user.SQL {
		t.Errorf("view calling leak: %+v", user)
	}
	if ok := res[1]; ok.Err != nil || ok.Validation == nil || ok.TotalCost <= 0 || ok.PlanRows <= 0 {
		t.Errorf("plain query: %+v", ok)
	}
	// Server errors still point into the SQL past the longer prefix.
	if e := res[2]; e.SQLState != "42703" || e.Location < 0 || !strings.HasPrefix(e.SQL[e.Location:], "nmae") {
		t.Errorf("undefined column: %+v", e)
	}
}

// planShapes are legitimate queries planned into the node types and plan
// properties CheckPlan reads (forced with planner settings); the third
// field is a text the plan must contain, so each shape is really there.
var planShapes = []struct {
	settings []string
	sql      string
	want     string
}{
	{nil, "SELECT u.name, count(*) FROM users u JOIN nums n ON n.n = u.id GROUP BY u.name HAVING count(*) > 0", `"Hash Cond"`},
	{[]string{"enable_seqscan", "off"}, "SELECT name FROM users WHERE id = 3", `"Index Cond"`},
	{[]string{"enable_seqscan", "off", "enable_bitmapscan", "off"}, "SELECT id FROM users WHERE id > 3", `"Index Only Scan"`},
	{[]string{"enable_seqscan", "off", "enable_indexscan", "off"}, "SELECT name FROM users WHERE id IN (1, 2, 3)", `"Recheck Cond"`},
	{[]string{"enable_hashjoin", "off", "enable_nestloop", "off"}, "SELECT a.n FROM nums a JOIN nums b ON a.n = b.n", `"Merge Cond"`},
	{nil, "SELECT a.n FROM nums a JOIN nums b ON a.n < b.n", `"Join Filter"`},
	{[]string{"enable_hashjoin", "off", "enable_mergejoin", "off"}, "SELECT b.id, u.name FROM big b JOIN users u ON u.id = b.grp", `"Cache Key"`},
	{nil, "SELECT * FROM big ORDER BY grp, id LIMIT 10", `"Presorted Key"`},
	{[]string{"parallel_setup_cost", "0", "parallel_tuple_cost", "0", "min_parallel_table_scan_size", "0", "max_parallel_workers_per_gather", "2"},
		"SELECT grp, count(*), avg(id) FROM big GROUP BY grp", `PARTIAL`},
	{[]string{"parallel_setup_cost", "0", "parallel_tuple_cost", "0", "min_parallel_table_scan_size", "0", "max_parallel_workers_per_gather", "2"},
		"SELECT id FROM big WHERE note LIKE '%7' ORDER BY note", `"Gather Merge"`},
	{[]string{"enable_seqscan", "off"}, "SELECT * FROM nums WHERE ctid = '(0,1)'", `"TID Cond"`},
	{nil, "SELECT n FROM nums WHERE now() > '2000-01-01'", `"One-Time Filter"`},
	{nil, "SELECT * FROM (SELECT n, row_number() OVER (ORDER BY n) AS r FROM nums) s WHERE r <= 3", `"Run Condition"`},
	{nil, "SELECT n, sum(n) OVER (PARTITION BY x ORDER BY n ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nums", `OVER (?)`},
	{nil, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5) SELECT * FROM r", `"WorkTable Scan"`},
	{nil, "WITH s AS MATERIALIZED (SELECT n FROM nums) SELECT * FROM s WHERE n > 2", `"CTE Name"`},
	{nil, "SELECT n FROM nums EXCEPT SELECT id FROM users", `"Command"`},
	{nil, "SELECT * FROM nums TABLESAMPLE bernoulli (10) REPEATABLE (7)", `"Repeatable Seed"`},
	{nil, "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(k, w)", `*VALUES*`},
	{nil, "SELECT generate_series(1, n) FROM nums", `"ProjectSet"`},
	{[]string{"enable_hashagg", "off"}, "SELECT n, x, count(*) FROM nums GROUP BY GROUPING SETS ((n), (x), ())", `"Group Keys"`},
	{nil, "SELECT n, x, count(*) FROM nums GROUP BY CUBE (n, x)", `"Hash Keys"`},
	{nil, "SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY['a', 'b'])) WITH ORDINALITY AS t(a, b, o)", `"Function Call"`},
	{nil, "SELECT n FROM nums WHERE n = (SELECT max(id) FROM users)", `InitPlan`},
	{nil, "SELECT n, (SELECT name FROM users u WHERE u.id = nums.n) FROM nums", `(SubPlan 1)`},
	{nil, "SELECT n FROM nums WHERE n NOT IN (SELECT id FROM users)", `hashed SubPlan`},
	{[]string{"enable_hashagg", "off"}, "SELECT DISTINCT n FROM nums ORDER BY n", `"Unique"`},
	{nil, "SELECT * FROM (SELECT n, count(*) FROM nums GROUP BY n LIMIT 3) s WHERE n > 1", `"Subquery Scan"`},
	{nil, "SELECT p FROM pts ORDER BY p <-> point(0, 0) LIMIT 3", `"Order By"`},
	{nil, "SELECT n FROM nums ORDER BY t COLLATE \"C\" DESC NULLS LAST, t USING ~>~", `USING ~>~`},
	{nil, "SELECT 'SubPlan 1' AS a, 'OVER (?)' AS b, '\"*VALUES*\"' AS c, E'it''s' AS d, $$PARTIAL$$ AS e", `SubPlan 1`},
	{nil, "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f), string_agg(DISTINCT t, ',' ORDER BY t), count(*) FILTER (WHERE n > 1) FROM nums", `WITHIN GROUP`},
	{nil, "SELECT EXTRACT(year FROM now()), CURRENT_DATE, substring(t FROM 1 FOR 2), trim(both 'x' FROM t), t SIMILAR TO 'a%', (n, x) < (1, 2), n IS DISTINCT FROM 2, NULLIF(n, 3), ARRAY[n, 2] FROM nums", `EXTRACT`},
}

// TestCheckPlanShapes: no false rejection on any plan shape.
func TestCheckPlanShapes(t *testing.T) {
	pool := planPool(t)
	v := validate.New()
	for _, c := range planShapes {
		plan, err := explainVerbose(t, pool, "public", c.sql, c.settings...)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if !strings.Contains(string(plan), c.want) {
			t.Errorf("%s: the plan has no %s: %s", c.sql, c.want, plan)
		}
		if err := v.CheckPlan(plan); err != nil {
			t.Errorf("%s: %v\nplan: %s", c.sql, err, plan)
		}
	}
}
