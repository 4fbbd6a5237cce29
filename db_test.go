package nl2sql_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// countingDB wraps a pool the way DB's comment suggests: embedding the
// *pgxpool.Pool and overriding what it observes.
type countingDB struct {
	*pgxpool.Pool
	queries, acquires atomic.Int64
}

func (d *countingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	d.queries.Add(1)
	return d.Pool.Query(ctx, sql, args...)
}

func (d *countingDB) Acquire(ctx context.Context) (*pgxpool.Conn, error) {
	d.acquires.Add(1)
	return d.Pool.Acquire(ctx)
}

// TestDBWrapped: a type embedding *pgxpool.Pool is a DB, and the Engine
// reads the catalog (Query) and runs queries (Acquire) through its methods.
func TestDBWrapped(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, "CREATE TABLE fruit (id int PRIMARY KEY, name text); INSERT INTO fruit VALUES (1, 'apple'), (2, 'pear')")
	db := &countingDB{Pool: pgtest.Pool(t, dsn)}
	eng, err := nl2sql.New(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := eng.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if db.queries.Load() == 0 {
		t.Error("Prepare read the catalog without the wrapper's Query")
	}
	before := db.acquires.Load()
	res, err := eng.Run(ctx, "SELECT name FROM fruit ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Rows[1][0] != "pear" {
		t.Errorf("rows %v, want apple and pear", res.Rows)
	}
	if db.acquires.Load() == before {
		t.Error("Run took no connection through the wrapper's Acquire")
	}
}
