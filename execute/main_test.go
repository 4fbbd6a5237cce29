package execute

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// unvalidated is a TEST-ONLY query option that skips the validator, to prove
// what the transaction layer contains on its own. It is unexported and
// defined in a _test.go file, so no library user can reach it.
func unvalidated() QueryOption {
	return queryOptionFunc(func(c *queryConfig) { c.unvalidated = true })
}

const fixtureSQL = `
CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(10,2), created timestamptz, tags text[],
	data jsonb, blob bytea, day date, ratio float8);
INSERT INTO items SELECT g, 'item ' || g, g * 1.25, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 day',
	ARRAY['a', 'b'], jsonb_build_object('k', g), '\x0102', date '2024-01-01' + g, g / 4.0
	FROM generate_series(1, 50) g;
CREATE SCHEMA div_01; CREATE TABLE div_01.t (v text); INSERT INTO div_01.t VALUES ('one');
CREATE SCHEMA div_02; CREATE TABLE div_02.t (v text); INSERT INTO div_02.t VALUES ('two');
CREATE SCHEMA "Weird ""Name"", x"; CREATE TABLE "Weird ""Name"", x".t (v text);
INSERT INTO "Weird ""Name"", x".t VALUES ('weird');
CREATE TYPE mood AS ENUM ('happy', 'sad'); CREATE TABLE moods (m mood); INSERT INTO moods VALUES ('happy');
CREATE TABLE secret (s text); INSERT INTO secret VALUES ('top');
`

// fixture returns a fresh database loaded with fixtureSQL: its DSN and a pool
// on it (maxConns > 0 limits the pool, so tests can tell whether a
// connection was reused).
func fixture(t testing.TB, maxConns int32) (string, *pgxpool.Pool) {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, fixtureSQL)
	return dsn, poolOn(t, dsn, maxConns)
}

// poolOn returns a pool on dsn (maxConns > 0 limits it), closed at cleanup.
func poolOn(t testing.TB, dsn string, maxConns int32) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// connect opens a plain (admin) connection on dsn, closed at cleanup.
func connect(t testing.TB, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// scalar runs a query on conn and returns its single value.
func scalar[T any](t testing.TB, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := q.QueryRow(ctxT(t), sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// backendPID returns the pid of the pool's connection (use on a pool of one).
func backendPID(t testing.TB, pool *pgxpool.Pool) int32 {
	t.Helper()
	return scalar[int32](t, pool, "SELECT pg_backend_pid()")
}

// waitFor polls cond until it holds or a minute passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// mustQuery runs sql through ex and fails the test on error.
func mustQuery(t testing.TB, ex *Executor, sql string, opts ...QueryOption) *Result {
	t.Helper()
	res, err := ex.Query(ctxT(t), sql, opts...)
	if err != nil {
		t.Fatalf("Query(%q): %v", sql, err)
	}
	return res
}

// queryErr runs sql through ex, which must fail, and returns the *Error.
func queryErr(t testing.TB, ex *Executor, sql string, opts ...QueryOption) *Error {
	t.Helper()
	res, err := ex.Query(ctxT(t), sql, opts...)
	if err == nil {
		t.Fatalf("Query(%q) succeeded with %d rows, want an error", sql, res.RowCount)
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Query(%q) error %T %v, want *Error", sql, err, err)
	}
	return e
}
