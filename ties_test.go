package nl2sql_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
)

// TestTieOrder: a grouped ORDER BY ... LIMIT whose first groups tie
// (museums 5 and 17 have three visits each) comes back as the same group
// before and after ANALYZE, from Pick and Repair alike, and that group is
// one the query as written could return (its WITH TIES answer): the
// grouping key breaks the tie, the meaning stays.
func TestTieOrder(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE visit (visit_id serial PRIMARY KEY, museum_id int NOT NULL);
		INSERT INTO visit (museum_id) SELECT g FROM generate_series(1, 20) g;
		INSERT INTO visit (museum_id) VALUES (17), (5), (17), (5);
		DELETE FROM pg_catalog.pg_statistic;`)
	pool := pgtest.Pool(t, dsn)
	ctx := context.Background()
	const written = "SELECT museum_id FROM visit GROUP BY museum_id ORDER BY count(*) DESC LIMIT 1"
	answer := func(sql string) []int32 {
		t.Helper()
		rows, err := pool.Query(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	tied := answer("SELECT museum_id FROM visit GROUP BY museum_id ORDER BY count(*) DESC FETCH FIRST 1 ROWS WITH TIES")
	slices.Sort(tied)
	if !slices.Equal(tied, []int32{5, 17}) {
		t.Fatalf("test data: tied groups %v, want [5 17]", tied)
	}
	t.Logf("as written, PostgreSQL returns %v", answer(written))
	eng, err := nl2sql.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		pick, err := eng.Pick(ctx, "Which museum was visited most?", []string{written})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(pick.Candidates[0].Repairs, nl2sql.RuleTieOrder) {
			t.Errorf("%s: Pick repairs %v, want %s", when, pick.Candidates[0].Repairs, nl2sql.RuleTieOrder)
		}
		if got := answer(pick.SQL); !slices.Equal(got, []int32{5}) {
			t.Errorf("%s: Pick's %q returns %v, want the first tied group in key order [5]", when, pick.SQL, got)
		}
		rep, err := eng.Repair(ctx, written)
		if err != nil {
			t.Fatal(err)
		}
		if rep.SQLOut != pick.SQL || !slices.Contains(rep.Rules, nl2sql.RuleTieOrder) {
			t.Errorf("%s: Repair = %q %v, want Pick's %q", when, rep.SQLOut, rep.Rules, pick.SQL)
		}
	}
	check("without statistics")
	pgtest.Exec(t, dsn, "ANALYZE")
	check("after ANALYZE")
}
