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

const shopSchema = `
CREATE TABLE users (id int PRIMARY KEY, name text, email text, created_at timestamptz);
CREATE TABLE orders (id int PRIMARY KEY, user_id int REFERENCES users, amount numeric, status text, created_at timestamptz);
CREATE TABLE products (id int PRIMARY KEY, name text, price numeric);
INSERT INTO users SELECT g, 'user' || g, 'u' || g || '@x', now() FROM generate_series(1, 100) g;
INSERT INTO orders SELECT g, 1 + g % 100, g, 'paid', now() FROM generate_series(1, 1000) g;
ANALYZE;
CREATE FUNCTION explain_settings() RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('transaction_read_only') <> 'on' THEN RAISE EXCEPTION 'not read only'; END IF;
  IF current_setting('statement_timeout') <> '300ms' THEN RAISE EXCEPTION 'statement_timeout is %', current_setting('statement_timeout'); END IF;
  RETURN 1;
END $$;
CREATE FUNCTION slow_constant() RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep(5); RETURN 1; END $$;
`

func shopPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	dsn := pgtest.FromTemplate(t, "validate-shop-v2", func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, shopSchema)
		return err
	})
	return pgtest.Pool(t, dsn)
}

// explainCandidates are six candidates of the kind a generator produces for
// one question.
var explainCandidates = []string{
	"SELECT u.name, sum(o.amount) AS total FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY total DESC LIMIT 5",
	"SELECT u.name, sum(o.amount) FROM users u JOIN orders o ON o.user_id = u.id GROUP BY 1 ORDER BY 2 DESC LIMIT 5",
	"SELECT name FROM users WHERE id IN (SELECT user_id FROM orders GROUP BY user_id ORDER BY sum(amount) DESC LIMIT 5)",
	"SELECT u.id, nmae FROM users u", // undefined column (unqualified: a qualified one is V014)
	"SELECT pg_sleep(10)",            // rejected, never sent
	"SELECT count(*) FROM orders WHERE amount > 10",
}

func TestExplain(t *testing.T) {
	pool := shopPool(t)
	v := shopValidator()
	res := v.Explain(context.Background(), pool, explainCandidates, validate.Concurrency(2))
	if len(res) != len(explainCandidates) {
		t.Fatalf("%d results for %d candidates", len(res), len(explainCandidates))
	}
	for _, i := range []int{0, 1, 2, 5} {
		r := res[i]
		if r.Err != nil || r.TotalCost <= 0 || r.PlanRows <= 0 || len(r.Plan) == 0 || r.SQLState != "" {
			t.Errorf("candidate %d: %+v", i, r)
		}
		if !strings.HasPrefix(r.SQL, "SELECT") || !strings.HasSuffix(r.SQL, "LIMIT 5") && !strings.HasSuffix(r.SQL, "LIMIT 1000") {
			t.Errorf("candidate %d: SQL %q is not the validated form", i, r.SQL)
		}
	}
	if res[5].PlanRows != 1 {
		t.Errorf("count(*) plan rows = %v, want 1", res[5].PlanRows)
	}
	bad := res[3]
	if bad.SQLState != "42703" || !strings.Contains(bad.Message, "nmae") {
		t.Errorf("undefined column: %+v", bad)
	}
	var pgErr interface{ SQLState() string }
	if !errors.As(bad.Err, &pgErr) {
		t.Errorf("undefined column error %T does not wrap the PostgreSQL error", bad.Err)
	}
	if bad.Location < 0 || !strings.HasPrefix(bad.SQL[bad.Location:], "nmae") {
		t.Errorf("location %d does not point at nmae in %q", bad.Location, bad.SQL)
	}
	rej := res[4]
	if !errors.Is(rej.Err, validate.ErrRejected) || rej.SQL != "" || rej.SQLState != "" {
		t.Errorf("rejected candidate: %+v", rej)
	}
}

func TestExplainSingleConnAndCancel(t *testing.T) {
	pool := shopPool(t)
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	v := validate.New()
	res := v.Explain(ctx, conn.Conn(), []string{"SELECT 1", "SELECT * FROM missing_table", "SELECT 2"}, validate.Concurrency(1))
	if res[0].Err != nil || res[2].Err != nil {
		t.Errorf("single connection: %+v", res)
	}
	if res[1].SQLState != "42P01" {
		t.Errorf("missing table: %+v", res[1])
	}
	// The failed candidate's transaction was rolled back: the connection
	// is usable and not left read-only or with a short timeout.
	var ro, timeout string
	if err := conn.QueryRow(ctx, "SELECT current_setting('transaction_read_only'), current_setting('statement_timeout')").Scan(&ro, &timeout); err != nil {
		t.Fatal(err)
	}
	if ro != "off" || timeout != "0" {
		t.Errorf("session left with transaction_read_only=%s statement_timeout=%s", ro, timeout)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for i, r := range v.Explain(cctx, pool, []string{"SELECT 1", "SELECT 2"}) {
		if !errors.Is(r.Err, context.Canceled) {
			t.Errorf("cancelled context, candidate %d: %+v", i, r)
		}
	}
}

// TestExplainTransaction checks the transaction each EXPLAIN runs in, from
// the server side: IMMUTABLE functions are evaluated while planning, so
// they can observe the settings and overrun the timeout.
func TestExplainTransaction(t *testing.T) {
	pool := shopPool(t)
	v := validate.New(validate.WithFunctions("explain_settings", "slow_constant"))
	res := v.Explain(context.Background(), pool, []string{
		"SELECT id FROM users WHERE id = explain_settings()",
		"SELECT id FROM users WHERE id = slow_constant()",
	}, validate.Timeout(300*time.Millisecond))
	if res[0].Err != nil {
		t.Fatalf("settings seen while planning: %v", res[0].Err)
	}
	if res[1].SQLState != "57014" {
		t.Errorf("slow candidate: want statement_timeout (57014), got %+v", res[1])
	}
}
