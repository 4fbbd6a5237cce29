package execute

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestRedteam3AggregateMemory: accumulating aggregates of a big table's
// own values pass every guard (a value of the data counts a thousandth, up
// to ten such aggregates a query) and the plan budget (the scan's rows ×
// width is 74 MB), but each aggregate holds all its input, in a buffer
// that doubles: ten string_agg over two million rows of 33 characters, or
// array_agg, jsonb_agg, json_agg and string_agg of the same column, took
// the backend past 1.4 GiB within a 5 s statement timeout. The plan budget
// now counts what they hold (V027); each must be refused, or run with the
// backend under 1 GiB.
func TestRedteam3AggregateMemory(t *testing.T) {
	dsn := pgtest.Large(t)
	pgtest.Exec(t, dsn, "ANALYZE big_a; ANALYZE big_b")
	pool := poolOn(t, dsn, 1)
	admin := connect(t, dsn)
	ex := New(pool, WithStatementTimeout(5*time.Second))
	tempDir := filepath.Join(scalar[string](t, admin, "SHOW data_directory"), "base", "pgsql_tmp")
	const gib = 1 << 30
	for _, sql := range []string{
		`SELECT length(string_agg(s, ',')) a, length(string_agg(s || 'a', ',')) b, length(string_agg(s || 'b', ',')) c,
			length(string_agg(s || 'c', ',')) d, length(string_agg(s || 'd', ',')) e, length(string_agg(s || 'e', ',')) f,
			length(string_agg(s || 'f', ',')) g, length(string_agg(s || 'g', ',')) h, length(string_agg(s || 'h', ',')) i,
			length(string_agg(s || 'i', ',')) j FROM big_b`,
		`SELECT length(array_agg(s)::text) a, length(array_agg(id)::text) b, length(jsonb_agg(s)::text) c,
			length(json_agg(s)::text) d, length(string_agg(s, ',')) e FROM big_b`,
	} {
		pid := backendPID(t, pool)
		use := watchServer(t, dsn, pid, tempDir)
		_, err := ex.Query(ctxT(t), sql)
		waitFor(t, "the backend to be idle", func() bool {
			return !scalar[bool](t, admin, "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1 AND state = 'active')", pid)
		})
		memory, _ := use.done()
		var ve *validate.Error
		if refused := errors.As(err, &ve); !refused && memory >= gib {
			t.Errorf("accepted, and the backend peaked at %d MiB (err %v)\nSQL: %s", memory/mib, err, sql)
		} else {
			t.Logf("peak %d MiB, err %v", memory/mib, err)
		}
	}
}
