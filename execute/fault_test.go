package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// heavySQL passes the validator (bounded series, two unconnected FROM items)
// and the plan budget (under 10^9 rows) and runs for half a minute: 9·10^8
// rows to count.
const heavySQL = "SELECT count(*) FROM generate_series(1, 30000) a, generate_series(1, 30000) b"

// activeHeavyPID returns the pid running heavySQL in admin's database, or 0.
func activeHeavyPID(ctx context.Context, admin *pgx.Conn) (int32, error) {
	var pid int32
	err := admin.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE state = 'active'
		AND datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%generate_series(1, 30000) a%'`).Scan(&pid)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return pid, err
}

// whenHeavyRuns calls f with the heavy query's pid once it runs, in a
// goroutine; the returned channel is closed when that is done.
func whenHeavyRuns(admin *pgx.Conn, f func(pid int32)) <-chan error {
	done := make(chan error, 1)
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for {
			pid, err := activeHeavyPID(ctx, admin)
			if err != nil {
				done <- err
				return
			}
			if pid != 0 {
				f(pid)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return done
}

func waitHeavyGone(t *testing.T, admin *pgx.Conn) {
	t.Helper()
	waitFor(t, "the server to stop the query", func() bool {
		pid, err := activeHeavyPID(ctxT(t), admin)
		if err != nil {
			t.Fatal(err)
		}
		return pid == 0
	})
}

func TestTerminateBackend(t *testing.T) {
	dsn, pool := fixture(t, 0)
	admin := connect(t, dsn)
	ex := New(pool)
	done := whenHeavyRuns(admin, func(pid int32) {
		_, _ = admin.Exec(context.Background(), "SELECT pg_terminate_backend($1)", pid)
	})
	e := queryErr(t, ex, heavySQL)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !errors.Is(e, ErrConnection) || e.SQLState != "57P01" || !e.Retryable {
		t.Errorf("got %v (class %s, state %s, retryable %v), want a retryable 57P01 connection error", e, e.class, e.SQLState, e.Retryable)
	}
	if res := mustQuery(t, ex, "SELECT count(*) FROM items"); res.Rows[0][0] != int64(50) {
		t.Errorf("after recovery: %v", res.Rows)
	}
}

func TestStatementTimeout(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool, WithStatementTimeout(200*time.Millisecond))
	e := queryErr(t, ex, heavySQL)
	if !errors.Is(e, ErrTimeout) || e.SQLState != "57014" || errors.Is(e, context.DeadlineExceeded) {
		t.Errorf("got %v (class %s), want ErrTimeout 57014", e, e.class)
	}
	mustQuery(t, ex, "SELECT 1")
}

func TestLockTimeout(t *testing.T) {
	dsn, pool := fixture(t, 0)
	admin := connect(t, dsn)
	tx, err := admin.Begin(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck
	if _, err := tx.Exec(ctxT(t), "LOCK TABLE items IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	ex := New(pool, WithLockTimeout(100*time.Millisecond))
	e := queryErr(t, ex, "SELECT count(*) FROM items")
	if !errors.Is(e, ErrTimeout) || e.SQLState != "55P03" {
		t.Errorf("got %v (class %s), want ErrTimeout 55P03", e, e.class)
	}
}

func TestCancel(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	dsn, pool := fixture(t, 0)
	admin := connect(t, dsn)
	ex := New(pool, WithStatementTimeout(10*time.Minute))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := whenHeavyRuns(admin, func(int32) { cancel() })
	start := time.Now()
	_, err := ex.Query(ctx, heavySQL)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrCanceled) {
		t.Errorf("got %v, want context.Canceled wrapped in ErrCanceled", err)
	}
	// Not a speed test: the query would run for minutes, the statement
	// timeout is 10 minutes; returning at all shows the client did not wait.
	if d := time.Since(start); d > 2*time.Minute {
		t.Errorf("returned after %v", d)
	}
	waitHeavyGone(t, admin) // cancelled on the server too, not left running

	dctx, dcancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer dcancel()
	if _, err := ex.Query(dctx, heavySQL); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrCanceled) {
		t.Errorf("deadline: got %v, want context.DeadlineExceeded", err)
	}
	waitHeavyGone(t, admin)
	if _, err := ex.Query(ctx, "SELECT 1"); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: got %v, want context.Canceled", err)
	}
	mustQuery(t, ex, "SELECT 1")

	admin.Close(context.Background())
	pool.Close()
	goleak.VerifyNone(t, ignore)
}

func TestRoleImpersonation(t *testing.T) {
	dsn, pool := fixture(t, 1)
	admin := connect(t, dsn)
	role := fmt.Sprintf(`reader %d "q", x`, time.Now().UnixNano()%1e9)
	testRole(t, dsn, admin, role, "", "GRANT USAGE ON SCHEMA public TO %s", "GRANT SELECT ON items TO %s")
	me := scalar[string](t, admin, "SELECT current_user")
	ex := New(pool)

	if res := mustQuery(t, ex, "SELECT count(*) FROM items", AsRole(role)); res.Rows[0][0] != int64(50) {
		t.Errorf("granted table as %q: %v", role, res.Rows)
	}
	pid := backendPID(t, pool)
	e := queryErr(t, ex, "SELECT s FROM secret", AsRole(role))
	if !errors.Is(e, ErrPermission) || e.SQLState != "42501" || e.Op != "query" {
		t.Errorf("forbidden table: %v (class %s), want ErrPermission 42501", e, e.class)
	}
	if got := backendPID(t, pool); got == pid {
		t.Errorf("connection %d reused after running as another role", pid)
	}
	res := mustQuery(t, ex, "SELECT current_user, session_user", unvalidated())
	if res.Rows[0][0] != me || res.Rows[0][1] != me {
		t.Errorf("next query runs as %v, want %s", res.Rows[0], me)
	}
	if res := mustQuery(t, ex, "SELECT s FROM secret"); res.Rows[0][0] != "top" {
		t.Errorf("own user: %v", res.Rows)
	}

	e = queryErr(t, ex, "SELECT 1", AsRole("no such role"))
	if e.Op != "begin" || e.SQLState != "22023" || e.class != classUnknown {
		t.Errorf("unknown role: %v (op %s class %s), want a begin error 22023", e, e.Op, e.class)
	}
	e = queryErr(t, ex, "SELECT 1", AsRole(strings.Repeat("r", 64)))
	if e.Op != "options" {
		t.Errorf("64-byte role: %v, want an options error", e)
	}
}

// pgScript finds scripts/pg above the working directory.
func pgScript(t *testing.T) string {
	t.Helper()
	pgtest.SkipShort(t)
	p, err := pgtest.Script()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServerRestart stops and starts a cluster of its own (the shared test
// cluster must not be restarted).
func TestServerRestart(t *testing.T) {
	script := pgScript(t)
	// Not t.TempDir: the server user must reach the socket inside (under
	// root the server runs as postgres and scripts/pg chowns only dir).
	dir, err := os.MkdirTemp("", "nl2sqlexec")
	if err != nil {
		t.Fatal(err)
	}
	pg := func(cmd string) string {
		t.Helper()
		out, err := exec.Command(script, cmd, dir).Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("scripts/pg %s: %v: %s", cmd, err, stderr)
		}
		return strings.TrimSpace(string(out))
	}
	t.Cleanup(func() { _ = exec.Command(script, "destroy", dir).Run() })
	dsn := pg("start")

	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	// scripts/pg picks a new port on each start: follow it.
	cfg.BeforeConnect = func(_ context.Context, cc *pgx.ConnConfig) error {
		b, err := os.ReadFile(filepath.Join(dir, "port"))
		if err != nil {
			return err
		}
		port, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 16)
		cc.Port = uint16(port)
		return err
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	ex := New(pool)
	mustQuery(t, ex, "SELECT 1")

	pg("stop")
	e := queryErr(t, ex, "SELECT 1")
	if !errors.Is(e, ErrConnection) || !e.Retryable {
		t.Errorf("server down: %v (class %s op %s), want a retryable connection error", e, e.class, e.Op)
	}
	pg("start")
	if res := mustQuery(t, ex, "SELECT 41 + 1"); res.Rows[0][0] != int64(42) {
		t.Errorf("after restart: %v", res.Rows)
	}
	// A restart between two queries: the pooled connection is dead, the
	// query still succeeds (pool ping or the executor's one retry).
	pg("stop")
	pg("start")
	mustQuery(t, ex, "SELECT 1")
}

// TestRetryDeadIdleConnection kills the pool's idle connection: the next
// query fails on it before being sent and is retried once on a new one.
func TestRetryDeadIdleConnection(t *testing.T) {
	dsn, pool := fixture(t, 1)
	admin := connect(t, dsn)
	var log strings.Builder
	ex := New(pool, WithLogger(slog.New(slog.NewTextHandler(&syncWriter{w: &log}, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	mustQuery(t, ex, "SELECT 1")
	pid := backendPID(t, pool)
	if _, err := admin.Exec(ctxT(t), "SELECT pg_terminate_backend($1, 10000)", pid); err != nil {
		t.Fatal(err)
	}
	res := mustQuery(t, ex, "SELECT count(*) FROM items")
	if res.Rows[0][0] != int64(50) {
		t.Errorf("rows %v", res.Rows)
	}
	if !strings.Contains(log.String(), "retrying on a new connection") {
		t.Errorf("no retry logged:\n%s", log.String())
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestBackstop freezes the backend running a query (SIGSTOP), as a call that
// never checks for interrupts would: neither statement_timeout nor a cancel
// request can stop it, and the executor gives up backstopSlack after the
// statement timeout, closing the connection.
func TestBackstop(t *testing.T) {
	dsn, pool := fixture(t, 0)
	admin := connect(t, dsn)
	timeout := 2 * time.Second
	ex := New(pool, WithStatementTimeout(timeout))
	var pid int32
	done := whenHeavyRuns(admin, func(p int32) {
		pid = p
		if err := syscall.Kill(int(p), syscall.SIGSTOP); err != nil {
			t.Error(err)
		}
	})
	start := time.Now()
	e := queryErr(t, ex, heavySQL)
	elapsed := time.Since(start)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(int(pid), syscall.SIGCONT); err != nil {
		t.Error(err)
	}
	if !errors.Is(e, ErrTimeout) || e.SQLState != "" || !strings.Contains(e.Message, "did not stop") {
		t.Errorf("got %v (class %s, state %s), want the executor's own timeout", e, e.class, e.SQLState)
	}
	// Bounded, not timed: without the backstop the call never returns.
	if limit := timeout + backstopSlack + 10*time.Second; elapsed > limit {
		t.Errorf("returned after %v, want within %v", elapsed, limit)
	}
	waitHeavyGone(t, admin)
	mustQuery(t, ex, "SELECT 1")
}
