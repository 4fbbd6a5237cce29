package execute

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestConnectionFailedAtConnect: the ways a connection is refused before
// any query (a role that does not exist, 28000; a database dropped or never
// made, 3D000; a pool its owner closed) are connection failures, and a
// query's own error is not.
func TestConnectionFailedAtConnect(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	query := func(t *testing.T, cfg *pgxpool.Config, closed bool) error {
		t.Helper()
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if closed {
			pool.Close()
		} else {
			defer pool.Close()
		}
		var one int
		return pool.QueryRow(ctx, "SELECT 1").Scan(&one)
	}
	config := func(t *testing.T, dsn string) *pgxpool.Config {
		t.Helper()
		cfg, err := pgxpool.ParseConfig(dsn)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for _, tc := range []struct {
		name   string
		cfg    func(*pgxpool.Config)
		closed bool
		state  string // the server's SQLSTATE, "" for a client-side failure
	}{
		{"role that does not exist", func(c *pgxpool.Config) { c.ConnConfig.User = "no_such_role_x" }, false, "28000"},
		{"database that does not exist", func(c *pgxpool.Config) { c.ConnConfig.Database = "no_such_database_x" }, false, "3D000"},
		{"closed pool", func(*pgxpool.Config) {}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t, dsn)
			tc.cfg(cfg)
			err := query(t, cfg, tc.closed)
			if err == nil {
				t.Fatal("the query ran")
			}
			var pe *pgconn.PgError
			if tc.state != "" && (!errors.As(err, &pe) || pe.Code != tc.state) {
				t.Errorf("error %v, want SQLSTATE %s", err, tc.state)
			}
			if !ConnectionFailed(err) {
				t.Errorf("ConnectionFailed(%v) = false", err)
			}
		})
	}
	if err := query(t, config(t, dsn), false); err != nil {
		t.Fatalf("a good connection: %v", err)
	}
	pool := pgtest.Pool(t, dsn)
	_, err := pool.Exec(ctx, "SELECT * FROM no_such_table")
	if err == nil || ConnectionFailed(err) {
		t.Errorf("a query's own error %v counts as a connection failure", err)
	}
}
