package execute

import (
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestRedteamGuardsRefuse: one attack of each route past the old resource
// guards (issue 25), on the real server. With the validator bypassed each
// runs (to the statement timeout for the unbounded ones, building an
// aggregated value for the others: the threat is real); through the
// validator each is refused before anything is sent, and the backend
// stays idle and small. Both runs are measured: the backend's peak
// memory (VmHWM of its /proc status, reset before) is asserted under
// 1 GiB, and each call returns within the statement timeout plus 3 s.
func TestRedteamGuardsRefuse(t *testing.T) {
	dsn, pool := fixture(t, 1)
	admin := connect(t, dsn)
	tempDir := filepath.Join(scalar[string](t, admin, "SHOW data_directory"), "base", "pgsql_tmp")
	const timeout = 2 * time.Second
	ex := New(pool, WithStatementTimeout(timeout))
	for _, tc := range []struct {
		route, sql, code string
		unbounded        bool // without the validator it runs to the timeout
	}{
		{"recursion step n + -1", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + -1 FROM r WHERE n < 10) SELECT count(*) FROM r", validate.CodeRecursion, true},
		{"recursion key join to VALUES", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n FROM r JOIN (VALUES (1)) v(k) ON v.k = r.n) SELECT count(*) FROM r", validate.CodeRecursion, true},
		{"generate_series over 2000 years", "SELECT count(*) FROM generate_series(now() - interval '1000 years', now() + interval '1000 years', interval '2 seconds')", validate.CodeSeries, true},
		{"aggregated value repeated", "SELECT length(repeat((SELECT string_agg(name, ',') FROM items), 50000))", validate.CodeStringBomb, false},
		{"window aggregate over every row", "SELECT sum(length(x::text)) FROM (SELECT array_agg(name) OVER () AS x FROM items) s", validate.CodeStringBomb, false},
		{"aggregate over a <= self-join", "SELECT length(string_agg(a.name, ',')) FROM items a JOIN items b ON a.id <= b.id", validate.CodeCrossJoin, false},
	} {
		t.Run(tc.route, func(t *testing.T) {
			// The threat, bounded here only by the executor's settings.
			m := runMeasured(t, dsn, pool, tempDir, func() (*Result, error) {
				return ex.Query(ctxT(t), tc.sql, unvalidated())
			})
			t.Logf("without the validator: %s after %v, backend peak %d MiB", m.outcome(), m.elapsed.Round(time.Millisecond), m.memory/mib)
			var e *Error
			switch {
			case tc.unbounded && (!errors.As(m.err, &e) || e.class != classTimeout):
				t.Errorf("without the validator: %s, want it to run to the statement timeout", m.outcome())
			case !tc.unbounded && m.err != nil:
				t.Errorf("without the validator: %s, want it to run", m.outcome())
			}
			m.checkBounded(t, timeout)

			// Through the validator: refused, nothing runs.
			m = runMeasured(t, dsn, pool, tempDir, func() (*Result, error) {
				return ex.Query(ctxT(t), tc.sql)
			})
			var ve *validate.Error
			if !errors.Is(m.err, ErrRejected) || !errors.As(m.err, &ve) || !ve.Has(tc.code) {
				t.Errorf("got %s, want a %s rejection", m.outcome(), tc.code)
			}
			if last := scalar[string](t, admin, "SELECT query FROM pg_stat_activity WHERE pid = $1", backendPID(t, pool)); last == tc.sql {
				t.Errorf("the rejected query reached the server")
			}
			t.Logf("through the validator: %s; backend peak %d MiB", m.outcome(), m.memory/mib)
			m.checkBounded(t, timeout)
		})
	}
}

// measured is the outcome of a query and what its backend used.
type measured struct {
	res     *Result
	err     error
	memory  int64         // the backend's peak resident set (and its workers')
	elapsed time.Duration // until the backend is idle again or gone
}

// runMeasured runs a query on the pool's single backend, measuring it.
func runMeasured(t *testing.T, dsn string, pool *pgxpool.Pool, tempDir string, run func() (*Result, error)) measured {
	t.Helper()
	pid := backendPID(t, pool)
	use := watchServer(t, dsn, pid, tempDir)
	start := time.Now()
	var m measured
	m.res, m.err = run()
	if backendPID(t, pool) != pid {
		waitFor(t, "the backend to exit", func() bool { return procStatusKB(t, strconv.Itoa(int(pid)), "VmHWM") < 0 })
	}
	m.elapsed = time.Since(start)
	m.memory, _ = use.done()
	return m
}

// checkBounded: under 1 GiB, idle within the timeout plus 3 s.
func (m measured) checkBounded(t *testing.T, timeout time.Duration) {
	t.Helper()
	if m.memory >= 1<<30 {
		t.Errorf("backend peak %d MiB, want under 1 GiB", m.memory/mib)
	}
	if limit := timeout + 3*time.Second; m.elapsed > limit {
		t.Errorf("backend busy for %v, want idle within %v", m.elapsed, limit)
	}
}

func (m measured) outcome() string {
	if m.err != nil {
		return "error: " + m.err.Error()
	}
	return "result: " + strconv.Itoa(m.res.RowCount) + " rows"
}
