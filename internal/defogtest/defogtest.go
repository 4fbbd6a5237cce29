// Package defogtest gives tests the defog databases and questions
// (../shared/datasets/defog): each database is loaded once per PostgreSQL
// cluster into a template and copied per test.
package defogtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/internal/defog"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// Database returns the DSN of a fresh copy of the defog database db. The
// test fails when the dump cannot be read.
func Database(t testing.TB, db string) string {
	t.Helper()
	script, err := defog.Script(db)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(script))
	return pgtest.FromTemplate(t, "defog-"+db+"-"+hex.EncodeToString(sum[:8]), func(ctx context.Context, conn *pgx.Conn) error {
		return defog.LoadDatabase(ctx, conn, db)
	})
}

// Questions returns the dataset's questions grouped by database, with the
// database names sorted. It skips the test when the dataset is absent.
func Questions(t testing.TB) (dbs []string, byDB map[string][]defog.Question) {
	t.Helper()
	if _, ok := defog.Dir(); !ok {
		t.Skip("defog dataset not available (../shared/datasets/defog)")
	}
	qs, err := defog.Questions()
	if err != nil {
		t.Fatal(err)
	}
	byDB = map[string][]defog.Question{}
	for _, q := range qs {
		byDB[q.DBName] = append(byDB[q.DBName], q)
	}
	for db := range byDB {
		dbs = append(dbs, db)
	}
	sort.Strings(dbs)
	return dbs, byDB
}
