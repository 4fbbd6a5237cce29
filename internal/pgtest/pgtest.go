// Package pgtest gives tests a real PostgreSQL server.
//
// Every test package that needs a database calls Main from its TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// When NL2SQL_TEST_DSN is set (make test sets it), the cluster it points at is
// used; otherwise the first test that needs one starts a throwaway cluster
// with scripts/pg for the package, and Main stops it when the tests end. Each
// test then asks for a fresh database (NewDatabase, NewPool) or a copy of a
// template loaded once per cluster (FromTemplate).
//
// Under -short (the fast tier) every test that asks for a server is skipped
// (SkipShort) and none is started; benchmarks still get one. Otherwise there
// is no skip when the server is missing: the tests fail with the reason.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// EnvDSN names the environment variable holding an admin DSN of a running
// cluster to use instead of starting one.
const EnvDSN = "NL2SQL_TEST_DSN"

var (
	mu       sync.Mutex
	adminDSN string
	setupErr error
	inMain   bool   // Main runs the tests: it destroys a cluster started for them
	started  bool   // the server was started (or found in EnvDSN)
	ownDir   string // the directory of a cluster Main started, destroyed when the tests end
)

// Main runs the package's tests with a PostgreSQL cluster available and exits.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	defer stopPGVector()
	mu.Lock()
	inMain = true
	mu.Unlock()
	code := m.Run()
	mu.Lock()
	dir := ownDir
	mu.Unlock()
	if dir != "" {
		if script, err := findScript(); err == nil {
			_ = exec.Command(script, "destroy", dir).Run()
		}
	}
	return code
}

// SkipShort skips a test that needs PostgreSQL when the tests run with
// -short (the fast tier: no server, no network). A benchmark is not
// skipped: make test runs every benchmark once with -short, on the server.
func SkipShort(t testing.TB) {
	t.Helper()
	if _, bench := t.(*testing.B); testing.Short() && !bench {
		t.Skip("needs PostgreSQL: skipped under -short")
	}
}

// server returns the admin DSN of the cluster, starting a throwaway one on
// the first call when EnvDSN is not set, so that a package whose tests all
// skip (-short) starts none.
func server() (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if started {
		return adminDSN, setupErr
	}
	started = true
	if dsn := os.Getenv(EnvDSN); dsn != "" {
		adminDSN = dsn
		return adminDSN, nil
	}
	if !inMain { // a cluster started here would outlive the tests
		setupErr = fmt.Errorf("pgtest: no server: call pgtest.Main from TestMain or set %s", EnvDSN)
		return "", setupErr
	}
	script, err := findScript()
	if err != nil {
		setupErr = err
		return "", setupErr
	}
	dir, dsn, err := startServer(script, "nl2sqlpg")
	if err != nil {
		setupErr = fmt.Errorf("pgtest: %w", err)
		return "", setupErr
	}
	ownDir, adminDSN = dir, dsn
	return adminDSN, nil
}

// startServer runs "script start DIR" in a new temporary directory and
// returns the directory and the DSN the script prints.
func startServer(script, prefix string) (dir, dsn string, err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", "", err
	}
	out, err := exec.Command(script, "start", dir).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		_ = os.RemoveAll(dir)
		return "", "", fmt.Errorf("%s start: %v: %s", script, err, stderr)
	}
	return dir, strings.TrimSpace(string(out)), nil
}

// Script returns the path of the repository's scripts/pg, for tests that
// need a cluster of their own (to stop and restart it).
func Script() (string, error) { return findScript() }

// findScript walks up from the working directory to the repository's scripts/pg.
func findScript() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "scripts", "pg")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("pgtest: scripts/pg not found above the working directory and %s is not set", EnvDSN)
		}
		dir = parent
	}
}

// AdminDSN returns the DSN of the cluster's maintenance database, starting
// the cluster on first use. It skips the test under -short (SkipShort) and
// fails it when no cluster is available (the server did not start).
func AdminDSN(t testing.TB) string {
	t.Helper()
	SkipShort(t)
	dsn, err := server()
	if err != nil {
		t.Fatalf("PostgreSQL test server unavailable: %v", err)
	}
	return dsn
}

// WithDatabase returns dsn with its database name replaced.
func WithDatabase(dsn, db string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// keyword/value form
		if strings.Contains(dsn, "dbname=") {
			parts := strings.Fields(dsn)
			for i, p := range parts {
				if strings.HasPrefix(p, "dbname=") {
					parts[i] = "dbname=" + db
				}
			}
			return strings.Join(parts, " "), nil
		}
		if err != nil {
			return "", err
		}
		return dsn + " dbname=" + db, nil
	}
	u.Path = "/" + db
	return u.String(), nil
}

func randomName(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func admin(ctx context.Context, t testing.TB) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, AdminDSN(t))
	if err != nil {
		t.Fatalf("pgtest: connect to admin database: %v", err)
	}
	return conn
}

// NewDatabase creates an empty database, dropped when the test ends, and
// returns its DSN.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return create(t, "")
}

func create(t testing.TB, template string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn := admin(ctx, t)
	defer conn.Close(ctx)
	name := randomName("t_")
	q := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		q += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	var err error
	for i := 0; i < 20; i++ { // a template briefly in use by a concurrent copy
		if _, err = conn.Exec(ctx, q); err == nil || !strings.Contains(err.Error(), "being accessed by other users") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("pgtest: %s: %v", q, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		dsn, _ := server()
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
		}
	})
	dsn, err := WithDatabase(AdminDSN(t), name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return dsn
}

// NewPool creates an empty database and a pool on it, both closed/dropped
// when the test ends.
func NewPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return Pool(t, NewDatabase(t))
}

// Pool opens a pool on dsn, closed when the test ends.
func Pool(t testing.TB, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatalf("pgtest: pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// PoolAs opens a pool on dsn connecting as user (the DSN's own user when
// empty), closed when the test ends.
func PoolAs(t testing.TB, dsn, user string) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("pgtest: pool: %v", err)
	}
	if user != "" {
		cfg.ConnConfig.User = user
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("pgtest: pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Exec runs a multi-statement SQL script (simple protocol) on dsn's database.
func Exec(t testing.TB, dsn, script string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, script); err != nil {
		t.Fatalf("pgtest: script: %v", err)
	}
}

// FromTemplate returns the DSN of a fresh database copied from a template
// database that is built once per cluster by load and identified by key (put
// a content hash in key so a changed loader builds a new template). Template
// builds are serialised across processes with an advisory lock, so parallel
// test packages sharing one cluster build it once.
func FromTemplate(t testing.TB, key string, load func(ctx context.Context, conn *pgx.Conn) error) string {
	t.Helper()
	h := fnv.New64a()
	h.Write([]byte(key))
	tpl := fmt.Sprintf("tpl_%x", h.Sum64())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	conn := admin(ctx, t)
	defer conn.Close(ctx)
	lockID := int64(h.Sum64() >> 1)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockID); err != nil {
		t.Fatalf("pgtest: lock: %v", err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockID) //nolint:errcheck
	var ready bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate)", tpl).Scan(&ready); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if !ready {
		building := tpl + "_build"
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{building}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Fatalf("pgtest: %v", err)
		}
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{building}.Sanitize()); err != nil {
			t.Fatalf("pgtest: %v", err)
		}
		dsn, err := WithDatabase(AdminDSN(t), building)
		if err != nil {
			t.Fatalf("pgtest: %v", err)
		}
		lc, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatalf("pgtest: %v", err)
		}
		err = load(ctx, lc)
		lc.Close(ctx)
		if err != nil {
			t.Fatalf("pgtest: loading template %q: %v", key, err)
		}
		for _, q := range []string{
			"ALTER DATABASE " + pgx.Identifier{building}.Sanitize() + " RENAME TO " + pgx.Identifier{tpl}.Sanitize(),
			"ALTER DATABASE " + pgx.Identifier{tpl}.Sanitize() + " WITH IS_TEMPLATE true",
		} {
			if _, err := conn.Exec(ctx, q); err != nil {
				t.Fatalf("pgtest: %s: %v", q, err)
			}
		}
	}
	return create(t, tpl)
}
