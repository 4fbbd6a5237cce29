package pgtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
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
// schema. PGlite is started with scripts/pglite/pglite (which installs its
// npm packages on first use) and stopped when Main returns.
func PGVector(t testing.TB) string {
	t.Helper()
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
