package execute

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestWorkMemAttacks runs the red team's attacks on work_mem and on
// interrupts through the executor, with its validator, on tables of a real
// application's size (pgtest.Large: a million and two million rows). A
// hash join on a key every row shares (cmin, a constant expression), a
// hashed NOT IN (subquery) the planner thinks small and a hashed
// INTERSECT of tables without statistics are over the default plan budget
// (V027), and the operators that do not check for interrupts on collected
// arrays are refused (V028): none runs. The same shapes under the budget
// (with statistics, or on fewer rows) run bounded: the backend's peak
// memory stays under 1 GiB and it is idle again within the statement
// timeout plus 3 s.
func TestWorkMemAttacks(t *testing.T) {
	dsn := pgtest.Large(t)
	pool := poolOn(t, dsn, 1)
	admin := connect(t, dsn)
	timeout := 5 * time.Second
	ex := New(pool, WithStatementTimeout(timeout))
	for _, a := range []struct{ sql, code string }{
		// cmin is a system column: refused before the plan (V026); the
		// k * 0 join below is the same hash on a key every row shares.
		{`SELECT count(*) FROM big_a a JOIN big_b b ON a.cmin = b.cmin`, validate.CodeSystemColumn},
		{`WITH j AS (SELECT a.id FROM big_a a JOIN big_b b ON a.k * 0 = b.k * 0) SELECT count(*) FROM j`, validate.CodeBudget},
		{`SELECT count(*) FROM big_a WHERE s NOT IN (SELECT s FROM big_b WHERE id > 0 AND k >= 0)`, validate.CodeBudget},
		{`SELECT count(*) FROM (SELECT s FROM big_b INTERSECT SELECT s FROM big_a) x`, validate.CodeBudget},
		{`SELECT (SELECT array_agg(id) FROM big_a) && (SELECT array_agg(-id) FROM big_b)`, validate.CodeOperand},
		{`SELECT jsonb_agg(id) @> jsonb_agg(-id) FROM big_a`, validate.CodeOperand},
		{`SELECT repeat('9', 60000)::numeric % repeat('7', 30000)::numeric`, validate.CodeOperand},
	} {
		_, err := ex.Query(ctxT(t), a.sql)
		var ve *validate.Error
		if e := (*Error)(nil); !errors.As(err, &e) || !errors.Is(err, ErrRejected) || !errors.As(err, &ve) || !ve.Has(a.code) {
			t.Errorf("got %v, want a refusal with %s\nSQL: %s", err, a.code, a.sql)
		}
	}

	pgtest.Exec(t, dsn, "ANALYZE big_a; ANALYZE big_b")
	tempDir := filepath.Join(scalar[string](t, admin, "SHOW data_directory"), "base", "pgsql_tmp")
	const gib = 1 << 30
	for _, sql := range []string{
		// A million groups, hashed now that the planner counts them.
		`SELECT count(*) FROM (SELECT s FROM big_b INTERSECT SELECT s FROM big_a) x`,
		// A hashed NOT IN of a hundred thousand rows (work_mem is the
		// server's 4 MB here: the executor only lowers it), in each of
		// three processes, of a table whose scan costs 170 MB: over.
		`SELECT count(*) FROM big_b WHERE s NOT IN (SELECT s FROM big_a WHERE id <= 100000)`,
		// A key every row shares, on fewer rows: within the budget (the
		// whole inner side in one bucket), and slow.
		`SELECT count(*) FROM big_a a JOIN big_b b ON a.k * 0 = b.k * 0 AND b.id <= 100000`,
	} {
		pid := backendPID(t, pool)
		use := watchServer(t, dsn, pid, tempDir)
		start := time.Now()
		_, err := ex.Query(ctxT(t), sql)
		// Idle again, or gone: what the server still spends on it.
		waitFor(t, "the backend to be idle", func() bool {
			var active bool
			if err := admin.QueryRow(ctxT(t), "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1 AND state = 'active')", pid).Scan(&active); err != nil {
				t.Fatal(err)
			}
			return !active
		})
		busy := time.Since(start)
		memory, temp := use.done()
		t.Logf("%s: backend busy %v, peak %d MiB, temporary files %d MiB; err %v", sql, busy.Round(time.Millisecond), memory/mib, temp/mib, err)
		var e *Error
		var ve *validate.Error
		if err != nil && (!errors.As(err, &e) || e.class != classTimeout) && !(errors.As(err, &ve) && ve.Has(validate.CodeBudget)) {
			t.Errorf("got %v, want a result, the statement timeout or V027\nSQL: %s", err, sql)
		}
		if memory >= gib {
			t.Errorf("backend peak %d MiB, want under 1 GiB\nSQL: %s", memory/mib, sql)
		}
		if limit := timeout + 3*time.Second; busy > limit {
			t.Errorf("the backend was busy for %v, want within %v\nSQL: %s", busy, limit, sql)
		}
	}
}
