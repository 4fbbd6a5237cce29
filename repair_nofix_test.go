package nl2sql_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/corpus"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// The repair package's "no deterministic fix" corpus, through the Engine
// (what `nl2sql repair` runs): none of its queries comes out executing, and
// the ones repair declined to guess about report their alternatives.
func TestRepairNoFixCorpusThroughEngine(t *testing.T) {
	cases, err := corpus.Read("repair/testdata/nofix")
	if err != nil {
		t.Fatal(err)
	}
	var fixture []byte
	for _, f := range []string{"repair/testdata/erp.sql", "repair/testdata/models.sql"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fixture = append(append(fixture, b...), '\n')
	}
	dsn := pgtest.FromTemplate(t, "repair-fixture-engine-"+hash(fixture), func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, string(fixture))
		return err
	})
	eng, err := nl2sql.New(pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	withAlternatives := 0
	for _, c := range cases {
		r, err := eng.Repair(context.Background(), c.SQL)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if r.Executes {
			t.Errorf("%s: repaired into %q (rules %v); want no fix\n%s", c, r.SQLOut, r.Rules, c.SQL)
		}
		if c.Code != "none" && len(r.Candidates) > 0 {
			withAlternatives++
		}
	}
	if withAlternatives == 0 {
		t.Error("no case reported its alternatives")
	}
	t.Logf("%d no-fix cases through Engine.Repair, %d with alternatives reported", len(cases), withAlternatives)
}

func hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}
