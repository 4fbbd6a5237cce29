package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// LargeRows is the row count of the larger table of Large (the smaller has
// half as many).
const LargeRows = 2_000_000

// largeScript builds two tables the size of a real application's, which
// autovacuum never analyses: the plans of the tests are those of tables
// without statistics unless a test runs ANALYZE on its copy. Every row of
// each table shares k % 1 (a constant key) and id is unique.
const largeScript = `
CREATE TABLE big_a (id int, k int, s text) WITH (autovacuum_enabled = false);
INSERT INTO big_a SELECT g, g % 100, md5(g::text) FROM generate_series(1, 1000000) g;
CREATE TABLE big_b (id int, k int, s text) WITH (autovacuum_enabled = false);
INSERT INTO big_b SELECT g, g % 100, md5(g::text) FROM generate_series(1, 2000000) g;`

// Large returns the DSN of a fresh copy of a database holding big_a (a
// million rows of id, k, s) and big_b (two million), never analysed; the
// template is built once per cluster. Skipped in -short mode.
func Large(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds three million rows")
	}
	return FromTemplate(t, "large-v1"+largeScript, func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, largeScript)
		return err
	})
}
