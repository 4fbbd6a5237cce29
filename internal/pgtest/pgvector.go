package pgtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// EnvPGVectorDSN names the environment variable holding the DSN of a server
// with the pgvector extension available (a regular PostgreSQL with pgvector
// installed). Without it, PGVector starts PGlite with pgvector.
const EnvPGVectorDSN = "NL2SQL_PGVECTOR_DSN"

var (
	pgvOnce sync.Once
	pgvDSN  string
	pgvErr  error
	pgvDir  string
)

// PGVector returns the DSN of a server where CREATE EXTENSION vector works.
// The server is shared by the package's tests: give each test its own
// schema. Skipped under -short (SkipShort). PGlite is started with scripts/pglite/pglite (which installs its
// npm packages on first use) and stopped when Main returns.
func PGVector(t testing.TB) string {
	t.Helper()
	SkipShort(t)
	pgvOnce.Do(func() {
		if dsn := os.Getenv(EnvPGVectorDSN); dsn != "" {
			pgvDSN = dsn
			return
		}
		script, err := findScript()
		if err != nil {
			pgvErr = err
			return
		}
		pgvDir, pgvDSN, pgvErr = startServer(filepath.Join(filepath.Dir(script), "pglite", "pglite"), "nl2sqlpglite")
	})
	if pgvErr != nil {
		t.Fatalf("pgvector test server unavailable: %v", pgvErr)
	}
	return pgvDSN
}

// stopPGVector stops a PGlite server started by PGVector.
func stopPGVector() {
	if pgvDir == "" {
		return
	}
	if script, err := findScript(); err == nil {
		_ = exec.Command(filepath.Join(filepath.Dir(script), "pglite", "pglite"), "stop", pgvDir).Run()
	}
	_ = os.RemoveAll(pgvDir)
}

// EnvRequirePGVector, when set to 1, makes PGVectorServers fail instead of
// leaving the main cluster out when pgvector is not installed there (CI sets
// it after scripts/pg install-pgvector).
const EnvRequirePGVector = "NL2SQL_REQUIRE_PGVECTOR"

// PGVectorServer is a server where CREATE EXTENSION vector works.
type PGVectorServer struct {
	Name string // "pglite" (or "env" for NL2SQL_PGVECTOR_DSN), "postgres"
	DSN  string
}

// PGVectorServers returns every server the pgvector tests run against:
// PGlite (or the server of NL2SQL_PGVECTOR_DSN), and a fresh database on the
// main test cluster when pgvector is installed there (scripts/pg
// install-pgvector), so the same store is tested on WASM PostgreSQL and on a
// regular server.
func PGVectorServers(t testing.TB) []PGVectorServer {
	t.Helper()
	name := "pglite"
	if os.Getenv(EnvPGVectorDSN) != "" {
		name = "env"
	}
	out := []PGVectorServer{{Name: name, DSN: PGVector(t)}}
	if dsn, ok := ClusterPGVector(t); ok {
		out = append(out, PGVectorServer{Name: "postgres", DSN: dsn})
	} else {
		t.Logf("pgtest: pgvector not installed on the test cluster; testing on %s only (scripts/pg install-pgvector adds it)", name)
	}
	return out
}

// ClusterPGVector returns a fresh database on the main test cluster, where
// pgvector is installed, or false when it is not (a test failure instead
// when NL2SQL_REQUIRE_PGVECTOR=1).
func ClusterPGVector(t testing.TB) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := admin(ctx, t)
	defer conn.Close(ctx)
	var available bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT FROM pg_available_extensions WHERE name = 'vector')").Scan(&available); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if !available {
		if os.Getenv(EnvRequirePGVector) == "1" {
			t.Fatalf("pgtest: pgvector is not installed on the test cluster and %s=1: run scripts/pg install-pgvector", EnvRequirePGVector)
		}
		return "", false
	}
	return NewDatabase(t), true
}
