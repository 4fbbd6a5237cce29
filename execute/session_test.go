package execute

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// inTx reads settings inside the query's transaction (the validator, which
// denies current_setting, is bypassed).
const inTx = `SELECT current_setting('work_mem'), current_setting('temp_file_limit')`

// TestResourceSettings checks work_mem and temp_file_limit in the query's
// transaction: the defaults, the options, and that a lower value of the
// session is kept (the executor only lowers them).
func TestResourceSettings(t *testing.T) {
	dsn, pool := fixture(t, 1)
	// The test cluster runs with PostgreSQL's defaults: work_mem 4MB,
	// temp_file_limit -1 (none).
	res := mustQuery(t, New(pool), inTx, unvalidated())
	if want := []any{"4MB", "512MB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("defaults: %v, want %v", res.Rows[0], want)
	}
	res = mustQuery(t, New(pool, WithWorkMem(1<<20), WithTempFileLimit(100<<20)), inTx, unvalidated())
	if want := []any{"1MB", "100MB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("options: %v, want %v", res.Rows[0], want)
	}
	// Tiny values are raised to PostgreSQL's minimum instead of failing.
	res = mustQuery(t, New(pool, WithWorkMem(1), WithTempFileLimit(1)), inTx, unvalidated())
	if want := []any{"64kB", "64kB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("tiny options: %v, want %v", res.Rows[0], want)
	}
	if got := scalar[string](t, pool, "SHOW work_mem"); got != "4MB" {
		t.Errorf("session work_mem after the queries: %s, want the server's 4MB", got)
	}

	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	// A session with more: lowered to the executor's values.
	cfg.ConnConfig.RuntimeParams["work_mem"] = "1GB"
	cfg.ConnConfig.RuntimeParams["temp_file_limit"] = "10GB"
	high, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(high.Close)
	res = mustQuery(t, New(high), inTx, unvalidated())
	if want := []any{"32MB", "512MB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("session with 1GB, 10GB: %v, want the defaults %v", res.Rows[0], want)
	}
	res = mustQuery(t, New(high, WithWorkMem(8<<20), WithTempFileLimit(100<<20)), inTx, unvalidated())
	if want := []any{"8MB", "100MB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("session with 1GB, 10GB and options: %v, want %v", res.Rows[0], want)
	}
	// A session with less keeps its values.
	cfg.ConnConfig.RuntimeParams["work_mem"] = "1MB"
	cfg.ConnConfig.RuntimeParams["temp_file_limit"] = "50MB"
	low, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(low.Close)
	res = mustQuery(t, New(low), inTx, unvalidated())
	if want := []any{"1MB", "50MB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("session with 1MB, 50MB: %v, want them kept", res.Rows[0])
	}
}

// TestTempFileLimit makes a query spill more than temp_file_limit allows:
// it fails with 53400, classed as a timeout (simplify the query).
func TestTempFileLimit(t *testing.T) {
	_, pool := fixture(t, 1)
	ex := New(pool, WithWorkMem(1<<20), WithTempFileLimit(4<<20))
	e := queryErr(t, ex, "SELECT g FROM generate_series(1, 2000000) g ORDER BY g DESC", unvalidated())
	if e.SQLState != "53400" || !errors.Is(e, ErrTimeout) || e.Retryable {
		t.Errorf("got %v (class %s), want a non-retryable ErrTimeout 53400", e, e.class)
	}
	mustQuery(t, ex, "SELECT 1")
}

// testRole creates role with attrs and the grants (each with %s for the
// quoted name), and at cleanup ends its backends and drops it with what it
// owns.
func testRole(t *testing.T, dsn string, admin *pgx.Conn, role, attrs string, grants ...string) {
	t.Helper()
	id := pgx.Identifier{role}.Sanitize()
	qs := []string{"CREATE ROLE " + id + " " + attrs}
	for _, g := range grants {
		qs = append(qs, fmt.Sprintf(g, id))
	}
	for _, q := range qs {
		if _, err := admin.Exec(ctxT(t), q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Log(err)
			return
		}
		defer c.Close(context.Background())
		// Its backends must be gone before the role can be dropped.
		_, _ = c.Exec(context.Background(), "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE usename = $1", role)
		for _, q := range []string{"REVOKE SET ON PARAMETER temp_file_limit FROM " + id, "DROP OWNED BY " + id, "DROP ROLE " + id} {
			if _, err := c.Exec(context.Background(), q); err != nil {
				t.Log(q, err)
			}
		}
	})
}

// loginRole creates a LOGIN role (dropped at cleanup) and returns its name
// and a pool connecting as it.
func loginRole(t *testing.T, dsn string, admin *pgx.Conn) (string, *pgxpool.Pool) {
	t.Helper()
	role := fmt.Sprintf("nl2sql_login_%d", time.Now().UnixNano()%1e9)
	testRole(t, dsn, admin, role, "LOGIN", "GRANT SELECT ON items TO %s")
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.User = role
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return role, pool
}

// TestTempFileLimitPrivilege runs queries as a role that may not set
// temp_file_limit: they run with the server's value, the executor says so
// once, and a GRANT SET ON PARAMETER (PostgreSQL 15+) is honoured on the
// next query.
func TestTempFileLimitPrivilege(t *testing.T) {
	dsn, _ := fixture(t, 1)
	admin := connect(t, dsn)
	role, pool := loginRole(t, dsn, admin)
	var log strings.Builder
	ex := New(pool, WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &log}, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	for range 2 {
		res := mustQuery(t, ex, inTx, unvalidated())
		if want := []any{"4MB", "-1"}; !reflect.DeepEqual(res.Rows[0], want) {
			t.Errorf("as %s: %v, want %v", role, res.Rows[0], want)
		}
	}
	if n := strings.Count(log.String(), "may not set temp_file_limit"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, log.String())
	}
	if res := mustQuery(t, ex, "SELECT count(*) FROM items"); res.Rows[0][0] != int64(50) {
		t.Errorf("validated query as %s: %v", role, res.Rows)
	}
	if _, err := admin.Exec(ctxT(t), "GRANT SET ON PARAMETER temp_file_limit TO "+role); err != nil {
		t.Fatal(err)
	}
	res := mustQuery(t, ex, inTx, unvalidated())
	if want := []any{"4MB", "512MB"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("after GRANT SET: %v, want %v", res.Rows[0], want)
	}
}

// TestSessionReset leaves session state behind (with the validator
// bypassed, and, for what a rolled-back read-only transaction cannot
// create, directly on the pooled connection) and checks that the next
// request on the same connection sees none of it.
func TestSessionReset(t *testing.T) {
	dsn, pool := fixture(t, 1)
	admin := connect(t, dsn)
	ex := New(pool)
	pid := backendPID(t, pool)
	sameConn := func(what string) {
		t.Helper()
		if got := backendPID(t, pool); got != pid {
			t.Fatalf("%s: connection replaced (pid %d -> %d); this test needs it reset and reused", what, pid, got)
		}
	}

	// setseed(): the next request's random() is not the seeded sequence.
	dateStyle, workMem := scalar[string](t, admin, "SHOW DateStyle"), scalar[string](t, admin, "SHOW work_mem")
	seeded := scalar[string](t, admin, "SELECT setseed(0.5)::text || random()::text || random()::text")
	mustQuery(t, ex, "SELECT setseed(0.5)", unvalidated())
	sameConn("setseed")
	res := mustQuery(t, ex, "SELECT ''::text || random()::text || random()::text", unvalidated())
	if res.Rows[0][0] == seeded {
		t.Errorf("random() after setseed(0.5) in the previous request: %v, the seeded sequence", res.Rows[0][0])
	}
	// The check can fail: on a connection that is not reseeded the
	// sequence is the seeded one.
	if got := scalar[string](t, pool, "SELECT setseed(0.5)::text || random()::text || random()::text"); got != seeded {
		t.Fatalf("seeded sequence %q here, %q on admin: the comparison above proves nothing", got, seeded)
	}

	// Session settings and a session-level advisory lock, through the
	// executor.
	for _, q := range []string{"SELECT set_config('DateStyle', 'German', false)", "SET application_name = 'pwned'",
		"SELECT pg_advisory_lock(4242)"} {
		mustQuery(t, ex, q, unvalidated())
		sameConn(q)
	}
	if !scalar[bool](t, admin, "SELECT pg_try_advisory_lock(4242) AND pg_advisory_unlock(4242)") {
		t.Error("advisory lock 4242 still held after the request")
	}

	// State a read-only, rolled-back transaction cannot create: planted on
	// the pooled connection itself, as another user of the pool could.
	c, err := pool.Acquire(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DECLARE held CURSOR WITH HOLD FOR SELECT 1", "LISTEN pwn", "CREATE TEMP TABLE tmp_t (i int)",
		"CREATE TEMP SEQUENCE tmp_s", "SELECT nextval('tmp_s')", "SET work_mem = '1MB'", "SET DateStyle = 'German'",
		"SELECT setseed(0.5)", "SELECT pg_advisory_lock(4243)"} {
		if _, err := c.Exec(ctxT(t), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c.Release()
	mustQuery(t, ex, "SELECT 1")
	sameConn("planted state")
	res = mustQuery(t, ex, `SELECT (SELECT count(*) FROM pg_cursors WHERE name <> ''), (SELECT count(*) FROM pg_listening_channels()),
		to_regclass('pg_temp.tmp_t') IS NULL AND to_regclass('pg_temp.tmp_s') IS NULL, current_setting('DateStyle'),
		current_setting('application_name'), ''::text || random()::text || random()::text`, unvalidated())
	if want := []any{int64(0), int64(0), true, dateStyle, "", res.Rows[0][5]}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("after the reset: %v, want %v", res.Rows[0], want)
	}
	if res.Rows[0][5] == seeded {
		t.Error("random() follows setseed(0.5) of the planted session")
	}
	if got := scalar[string](t, pool, "SHOW work_mem"); got != workMem {
		t.Errorf("work_mem %s after the reset, want %s", got, workMem)
	}
	if !scalar[bool](t, admin, "SELECT pg_try_advisory_lock(4243) AND pg_advisory_unlock(4243)") {
		t.Error("advisory lock 4243 still held after the request")
	}

	// A prepared statement, created or removed by the query: the
	// connection is destroyed (pgx's statement cache must match the
	// server's).
	mustQuery(t, ex, "PREPARE pwn AS SELECT 1", unvalidated())
	if got := backendPID(t, pool); got == pid {
		t.Error("connection kept after PREPARE")
	}
	pid = backendPID(t, pool)
	c, err = pool.Acquire(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Conn().Prepare(ctxT(t), "mine", "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	c.Release()
	mustQuery(t, ex, "SELECT 1")
	sameConn("a prepared statement of the pool's own")
	mustQuery(t, ex, "DEALLOCATE mine", unvalidated())
	if got := backendPID(t, pool); got == pid {
		t.Error("connection kept after DEALLOCATE of a statement pgx prepared")
	}
	if n := scalar[int](t, pool, "SELECT count(*) FROM pg_prepared_statements WHERE name IN ('pwn', 'mine')"); n != 0 {
		t.Errorf("%d of the statements on the new connection", n)
	}
}

// TestRuntimeParamsSurvive checks that the reset (RESET ALL) keeps what the
// connection's startup packet set.
func TestRuntimeParamsSurvive(t *testing.T) {
	dsn, _ := fixture(t, 0)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 1
	cfg.ConnConfig.RuntimeParams["application_name"] = "nl2sql-test"
	cfg.ConnConfig.RuntimeParams["DateStyle"] = "SQL, DMY"
	cfg.ConnConfig.RuntimeParams["search_path"] = "div_01, public"
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	c, err := pool.Acquire(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctxT(t), "SET DateStyle = 'German'"); err != nil {
		t.Fatal(err)
	}
	c.Release()
	mustQuery(t, New(pool), "SELECT 1")
	got := scalar[string](t, pool, `SELECT current_setting('application_name') || '|' || current_setting('DateStyle')
		|| '|' || current_setting('search_path')`)
	if want := "nl2sql-test|SQL, DMY|div_01, public"; got != want {
		t.Errorf("after a query: %q, want the startup values %q", got, want)
	}
}

// TestBackupMode starts a backup through the bypassed validator as a
// superuser: the executor stops it and destroys the connection, and the
// next request is not in backup mode.
func TestBackupMode(t *testing.T) {
	_, pool := fixture(t, 1)
	var log strings.Builder
	ex := New(pool, WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &log}, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	pid := backendPID(t, pool)
	mustQuery(t, ex, "SELECT pg_backup_start('nl2sql test', true)", unvalidated())
	if got := backendPID(t, pool); got == pid {
		t.Error("connection kept after pg_backup_start")
	}
	if !strings.Contains(log.String(), "backup mode left on") {
		t.Errorf("no warning logged:\n%s", log.String())
	}
	// pg_backup_stop fails with 55000 in a session that runs no backup.
	e := queryErr(t, ex, "SELECT pg_backup_stop(false)", unvalidated())
	if e.SQLState != "55000" {
		t.Errorf("next request: %v, want 55000 (backup is not in progress)", e)
	}
	// And a clean query keeps its connection (the check costs no reuse).
	pid = backendPID(t, pool)
	mustQuery(t, ex, "SELECT 1")
	if got := backendPID(t, pool); got != pid {
		t.Errorf("connection replaced after a clean query (pid %d -> %d)", pid, got)
	}
}
