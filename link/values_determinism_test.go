package link_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// detFixture adds schema det to a copy of the link fixture:
//
//   - det.small (13 rows, not analyzed yet): status with counts 5, 3, 3, 2,
//     whose frequency order is not their byte order;
//   - det.big (20,000 rows, statistics target 10, so ANALYZE reads 3,000 of
//     them): tier, 5 values of 4,000 rows each; kind, 10 values of close
//     frequencies plus 3 rare ones; rare, 30 values of one row each spread
//     over the table.
func detFixture(t *testing.T) (string, *schema.Catalog) {
	t.Helper()
	dsn, _ := fixture(t)
	pgtest.Exec(t, dsn, `
CREATE SCHEMA det;
CREATE TABLE det.small (id int PRIMARY KEY, status text);
INSERT INTO det.small SELECT i, CASE WHEN i <= 5 THEN 'Zulu' WHEN i <= 8 THEN 'Mike' WHEN i <= 11 THEN 'Alpha' ELSE 'bravo' END
FROM generate_series(1, 13) i;
CREATE TABLE det.big (id int PRIMARY KEY, tier text, kind text, rare text);
INSERT INTO det.big SELECT i, 'tier-' || i % 5,
	CASE WHEN i % 997 = 0 THEN 'rare-' || (i / 997) % 3 ELSE 'kind-' || (i * 7919 % 10) || repeat('x', i % 10 % 3) END,
	CASE WHEN i % 661 = 0 THEN 'r' || (i / 661) ELSE NULL END
FROM generate_series(1, 20000) i;
ALTER TABLE det.big ALTER COLUMN id SET STATISTICS 1, ALTER COLUMN tier SET STATISTICS 10,
	ALTER COLUMN kind SET STATISTICS 1, ALTER COLUMN rare SET STATISTICS 1;
`)
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	return dsn, cat
}

// reintrospect reads the catalog again (ANALYZE changes row estimates).
func reintrospect(t *testing.T, dsn string) *schema.Catalog {
	t.Helper()
	cat, err := schema.Introspect(context.Background(), pgtest.Pool(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// distinctValues returns a column's distinct values in byte order,
// computed by the server.
func distinctValues(t *testing.T, dsn, table, col string) []string {
	t.Helper()
	rows, err := pgtest.Pool(t, dsn).Query(context.Background(),
		"SELECT DISTINCT "+col+" COLLATE \"C\" FROM "+table+" WHERE "+col+" IS NOT NULL ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	return out
}

// valuesOnly is the index without the provenance (Source, Stats), which
// legitimately tells which path was taken.
func valuesOnly(vi *link.ValueIndex) string {
	type col struct {
		Table, Column string
		Values        []string
	}
	var out []col
	for _, c := range vi.Columns {
		out = append(out, col{c.Table, c.Column, c.Values})
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// TestValueIndexSameBeforeAndAfterAnalyze: a table ANALYZE reads whole gives
// the same values in the same order whether they come from a query (before
// ANALYZE) or from pg_stats (after it): byte order. Before, pg_stats gave
// them most common first, so autovacuum running between two builds changed
// the index.
func TestValueIndexSameBeforeAndAfterAnalyze(t *testing.T) {
	t.Parallel()
	dsn, cat := detFixture(t)
	opt := link.WithValueTables("det.small", "det.big", "sales.invoices")
	before := valueIndex(t, dsn, cat, opt)
	want := []string{"Alpha", "Mike", "Zulu", "bravo"}
	if c := column(before, "det.small.status"); c == nil || c.Source != link.SourceSample || !slices.Equal(c.Values, want) {
		t.Fatalf("before ANALYZE: %+v, want sampled %q", c, want)
	}
	pgtest.Exec(t, dsn, "ANALYZE det.small, det.big, sales.invoices")
	cat = reintrospect(t, dsn)
	after := valueIndex(t, dsn, cat, opt)
	if c := column(after, "det.small.status"); c == nil || c.Source != link.SourceStats || !slices.Equal(c.Values, want) {
		t.Fatalf("after ANALYZE: %+v, want from pg_stats %q", c, want)
	}
	if a, b := valuesOnly(before), valuesOnly(after); a != b {
		t.Errorf("values changed with ANALYZE:\nbefore %s\nafter  %s", a, b)
	}
}

// TestValueIndexIgnoresSampledStatistics: ANALYZE of a table larger than
// its sample (3,000 rows here) draws a random sample, so its most common
// values and their order change from one ANALYZE to the next (tier: five
// values of equal counts in a random order), and rare values come and go.
// Such a table is read by a query: the same complete values after every
// ANALYZE.
func TestValueIndexIgnoresSampledStatistics(t *testing.T) {
	t.Parallel()
	dsn, _ := detFixture(t)
	var builds []*link.ValueIndex
	for range 4 {
		pgtest.Exec(t, dsn, "ANALYZE det.big")
		cat := reintrospect(t, dsn)
		builds = append(builds, valueIndex(t, dsn, cat, link.WithValueTables("det.big"), link.WithSampleAbove(1_000_000)))
	}
	for i, vi := range builds[1:] {
		if a, b := valuesOnly(builds[0]), valuesOnly(vi); a != b {
			t.Errorf("ANALYZE %d changed the index:\n%s\nfirst %s", i+2, b, a)
		}
	}
	// Complete, in byte order, read by a query.
	for _, col := range []string{"tier", "kind", "rare"} {
		want := distinctValues(t, dsn, "det.big", col)
		if c := column(builds[0], "det.big."+col); c == nil || c.Source != link.SourceSample || !slices.Equal(c.Values, want) {
			t.Errorf("%s = %+v, want sampled %q", col, c, want)
		}
	}
}

// TestValueIndexRepeatableSample: a table above WithSampleAbove is read
// through a block sample; the same blocks on every build (REPEATABLE), so
// the same values, although a 3% sample sees only some of the 30 rare
// values. Before, TABLESAMPLE SYSTEM drew other blocks on every query.
func TestValueIndexRepeatableSample(t *testing.T) {
	t.Parallel()
	dsn, _ := detFixture(t)
	pgtest.Exec(t, dsn, "VACUUM det.big") // row estimate, no statistics: every column is sampled
	cat := reintrospect(t, dsn)
	if n := cat.Table("det.big").EstimatedRows; n != 20000 {
		t.Fatalf("det.big estimated rows = %d", n)
	}
	var first []string
	for i := range 5 {
		vi := valueIndex(t, dsn, cat, link.WithValueTables("det.big"), link.WithSampleAbove(1000))
		c := column(vi, "det.big.rare")
		var got []string
		if c != nil {
			got = c.Values
		}
		if i == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Errorf("build %d sampled %q, build 1 %q", i+1, got, first)
		}
	}
	if len(first) == 0 || len(first) >= 30 {
		t.Errorf("rare = %q: want a strict, non-empty part of the 30 values", first)
	}
}
