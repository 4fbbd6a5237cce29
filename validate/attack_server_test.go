package validate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// attackSchema is the database the attack corpus is planned against: the
// allowed shop tables, and the objects the attacks reach around them (a
// table outside the allowed set in public and in other schemas, a sequence,
// user-defined types the validator does not know).
const attackSchema = `
CREATE TABLE users (id int PRIMARY KEY, name text, email text, created_at timestamptz);
CREATE TABLE orders (id int PRIMARY KEY, user_id int REFERENCES users, amount numeric, status text, created_at timestamptz);
CREATE TABLE products (id int PRIMARY KEY, name text, price numeric);
CREATE TABLE secrets (id int, value text);
CREATE SCHEMA other_schema;
CREATE TABLE other_schema.t (id int, secret text);
CREATE TABLE other_schema.users (id int, password text);
CREATE TYPE other_schema.pair AS (a int, b int);
CREATE SCHEMA div_02;
CREATE TABLE div_02.bank_accounts (id int, iban text);
CREATE SEQUENCE seq;
CREATE TYPE mood AS ENUM ('happy', 'sad');
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
`

// TestAttackCorpusParses: every attack parses (except the syntax-error
// cases, V001): a case the validator rejects only because PostgreSQL could
// not parse it either tests nothing.
func TestAttackCorpusParses(t *testing.T) {
	for _, c := range readCorpus(t, "attacks") {
		if c.Code == validate.CodeSyntax {
			continue
		}
		if _, err := pg.Parse(c.SQL); err != nil {
			t.Errorf("%s:%d: does not parse: %v\nSQL: %s", c.File, c.Line, err, c.SQL)
		}
	}
}

// TestAttackCorpusServer: the attacks marked "-- server: ..." are planned by
// a real server with EXPLAIN (FORMAT JSON) (in a READ ONLY transaction with
// a statement_timeout, rolled back), which shows that PostgreSQL accepts the
// spelling: the route is real, not a syntax the server would refuse anyway.
// "-- server: error SQLSTATE" cases must fail planning with that SQLSTATE.
//
// EXPLAIN does not run volatile functions (pg_sleep, lo_import, ...), but
// the planner folds immutable calls with constant arguments (repeat, lpad,
// rpad): the string-building bombs are never marked for the server.
func TestAttackCorpusServer(t *testing.T) {
	var cases []corpusCase
	for _, c := range readCorpus(t, "attacks") {
		if c.Server.Mode != "" {
			cases = append(cases, c)
		}
	}
	if len(cases) < 150 {
		t.Errorf("%d attack cases are checked on the server, want at least 150", len(cases))
	}
	dsn := pgtest.FromTemplate(t, "validate-attacks\n"+attackSchema, func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, attackSchema)
		return err
	})
	pool := pgtest.Pool(t, dsn)
	var major int
	if err := pool.QueryRow(context.Background(), "SELECT current_setting('server_version_num')::int / 10000").Scan(&major); err != nil {
		t.Fatal(err)
	}
	planned, failed, skipped := 0, 0, 0
	for _, c := range cases {
		if c.Server.MinMajor > major {
			skipped++
			t.Logf("%s:%d: needs PostgreSQL %d, the server is %d: not checked", c.File, c.Line, c.Server.MinMajor, major)
			continue
		}
		err := explainAttack(pool, c.SQL)
		var pgErr *pgconn.PgError
		switch c.Server.Mode {
		case "plan":
			if err != nil {
				t.Errorf("%s:%d: PostgreSQL %d does not plan it: %v\nSQL: %s", c.File, c.Line, major, err, c.SQL)
				continue
			}
			planned++
		case "error":
			switch {
			case err == nil:
				t.Errorf("%s:%d: PostgreSQL %d plans it, want error %s\nSQL: %s", c.File, c.Line, major, c.Server.SQLState, c.SQL)
				continue
			case !errors.As(err, &pgErr) || pgErr.Code != c.Server.SQLState:
				t.Errorf("%s:%d: error %v, want SQLSTATE %s\nSQL: %s", c.File, c.Line, err, c.Server.SQLState, c.SQL)
				continue
			}
			failed++
		}
	}
	t.Logf("PostgreSQL %d: %d attacks planned, %d refused as expected, %d need a newer server", major, planned, failed, skipped)
}

// explainAttack plans sql with EXPLAIN (FORMAT JSON) in a READ ONLY
// transaction with a short statement_timeout, and rolls back.
func explainAttack(pool *pgxpool.Pool, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck
	for _, set := range []string{"SET LOCAL statement_timeout = '2s'", "SET LOCAL standard_conforming_strings = on"} {
		if _, err := tx.Exec(ctx, set); err != nil {
			return fmt.Errorf("%s: %w", set, err)
		}
	}
	var plan []byte
	// The newline ends a trailing line comment of the case.
	if err := tx.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+sql+"\n").Scan(&plan); err != nil {
		return err
	}
	var out []struct {
		Plan map[string]any `json:"Plan"`
	}
	if err := json.Unmarshal(plan, &out); err != nil || len(out) != 1 || out[0].Plan["Node Type"] == nil {
		return fmt.Errorf("unexpected EXPLAIN output %q (%v)", plan, err)
	}
	return nil
}
