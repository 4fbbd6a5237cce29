package nl2sql

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// BenchmarkCatalogDigest measures the periodic check of WithRefreshEvery
// (digest) against what it saves when nothing changed: a full
// introspection (introspect), on the demo ERP and on 25 of its divisions
// as tenant schemas.
//
//	go test -run XXX -bench BenchmarkCatalogDigest -benchtime 20x .
func BenchmarkCatalogDigest(b *testing.B) {
	for _, c := range []struct {
		name string
		dsn  func(testing.TB) string
	}{
		{"erp", erptest.Single},
		{"divisions-25", func(tb testing.TB) string { return erptest.Divisions(tb, 25) }},
	} {
		pool := pgtest.Pool(b, c.dsn(b))
		ctx := context.Background()
		cat, err := schema.Introspect(ctx, pool)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/%d-tables/digest", c.name, len(cat.Tables)), func(b *testing.B) {
			for b.Loop() {
				if _, err := queryString(ctx, pool, catalogDigestSQL); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%s/%d-tables/introspect", c.name, len(cat.Tables)), func(b *testing.B) {
			for b.Loop() {
				if _, err := schema.Introspect(ctx, pool); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCatalogDigestMoves: the digest moves with each kind of change the
// engine reads (a column, its type, a table, a comment, a constraint, an
// enum label, a grant) and stays put when only data changes.
func TestCatalogDigestMoves(t *testing.T) {
	dsn := erptest.Single(t)
	pool := pgtest.Pool(t, dsn)
	ctx := context.Background()
	digest := func() string {
		t.Helper()
		d, err := queryString(ctx, pool, catalogDigestSQL)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	last := digest()
	pgtest.Exec(t, dsn, "UPDATE projects SET budget_amt = budget_amt + 1")
	if d := digest(); d != last {
		t.Error("the digest moved on a data change")
	}
	for _, ddl := range []string{
		"ALTER TABLE projects ADD COLUMN risk_rating int",
		"ALTER TABLE projects ALTER COLUMN risk_rating TYPE bigint",
		"UPDATE projects SET risk_rating = 1; ALTER TABLE projects ALTER COLUMN risk_rating SET NOT NULL",
		"CREATE TABLE project_audits (id int)",
		"COMMENT ON TABLE project_audits IS 'audits of a project'",
		"COMMENT ON COLUMN project_audits.id IS 'the audit'",
		"ALTER TABLE project_audits ADD PRIMARY KEY (id)",
		"CREATE TYPE audit_grade AS ENUM ('a', 'b')",
		"ALTER TYPE audit_grade ADD VALUE 'c'",
		"DROP ROLE IF EXISTS digest_probe_reader; CREATE ROLE digest_probe_reader; GRANT SELECT ON project_audits TO digest_probe_reader",
		"CREATE SCHEMA audits; CREATE VIEW audits.recent AS SELECT id FROM public.project_audits",
		"ALTER TABLE project_audits RENAME TO project_reviews",
		"DROP TABLE project_reviews CASCADE",
	} {
		pgtest.Exec(t, dsn, ddl)
		d := digest()
		if d == last {
			t.Errorf("the digest did not move after %s", ddl)
		}
		last = d
	}
	pgtest.Exec(t, dsn, "DROP SCHEMA audits CASCADE; DROP ROLE digest_probe_reader")
}
