package rewrite_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/rewrite"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestNewTieProbe: the probe is the query with its LIMIT n made FETCH
// FIRST n ROWS WITH TIES, its ORDER BY, targets and OFFSET as written, in
// every spelling; every unclear query gets no probe.
func TestNewTieProbe(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		limit    int
	}{
		{"SELECT grade FROM hs GROUP BY grade ORDER BY count(*) DESC LIMIT 1",
			"SELECT grade FROM hs GROUP BY grade ORDER BY count(*) DESC FETCH FIRST 1 ROWS WITH TIES", 1},
		{"SELECT grade, count(*) AS n FROM hs GROUP BY grade ORDER BY n DESC LIMIT 3",
			"SELECT grade, count(*) AS n FROM hs GROUP BY grade ORDER BY n DESC FETCH FIRST 3 ROWS WITH TIES", 3},
		{`SELECT "Name" FROM country ORDER BY U&"P\006fpulation" OFFSET 4 FETCH FIRST 2 ROWS ONLY`,
			`SELECT "Name" FROM country ORDER BY "Population" FETCH FIRST 2 ROWS WITH TIES OFFSET 4`, 2},
		{"SELECT c.name FROM public.country c ORDER BY pg_catalog.lower(c.name) COLLATE \"C\" USING < NULLS FIRST LIMIT 1",
			"SELECT c.name FROM public.country c ORDER BY pg_catalog.lower(c.name) COLLATE \"C\" USING <NULLS FIRST FETCH FIRST 1 ROWS WITH TIES", 1},
		{"WITH top AS (SELECT a FROM t ORDER BY b LIMIT 5) SELECT a FROM top WHERE a IN (SELECT a FROM u) ORDER BY a DESC LIMIT 1",
			"WITH top AS (SELECT a FROM t ORDER BY b LIMIT 5) SELECT a FROM top WHERE a IN (SELECT a FROM u) ORDER BY a DESC FETCH FIRST 1 ROWS WITH TIES", 1},
		{"SELECT DISTINCT a FROM t ORDER BY a LIMIT 1",
			"SELECT DISTINCT a FROM t ORDER BY a FETCH FIRST 1 ROWS WITH TIES", 1},
		{"VALUES (1, 'x'), (2, 'x') ORDER BY column1 LIMIT 1",
			"VALUES (1, 'x'), (2, 'x') ORDER BY column1 FETCH FIRST 1 ROWS WITH TIES", 1},

		// No probe: nothing is cut, ties are the answer, or it is unclear.
		{"SELECT a FROM t ORDER BY a", "", 0},
		{"SELECT a FROM t LIMIT 1", "", 0},
		{"SELECT a FROM t ORDER BY a FETCH FIRST 1 ROWS WITH TIES", "", 0},
		{"SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b LIMIT 1", "", 0},
		{"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 1", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT $1", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT 1 + 1", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT ALL", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT 5000", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT 0", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT 1 OFFSET $1", "", 0},
		{"SELECT a FROM t ORDER BY a LIMIT 1 FOR UPDATE", "", 0},
		{"SELECT 1; SELECT 2", "", 0},
		{"SELECT FROM WHERE", "", 0},
	} {
		p, ok := rewrite.NewTieProbe(tc.in)
		if tc.want == "" {
			if ok {
				t.Errorf("NewTieProbe(%q) = %q, want no probe", tc.in, p.SQL)
			}
			continue
		}
		if !ok || p.SQL != tc.want || p.Limit != tc.limit {
			t.Errorf("NewTieProbe(%q)\n got %q, limit %d (%v)\nwant %q, limit %d", tc.in, p.SQL, p.Limit, ok, tc.want, tc.limit)
		}
	}
}

// TestTieProbeOnData runs probes on real tables: a cut inside a tie is
// found by the ORDER BY's own meaning (aliases, casts named like a
// column, numeric 2.0 = 2, intervals, -0 = 0, a nondeterministic
// collation, NULLs sorted together, VALUES), and a cut between distinct
// keys, a tie broken by a later key, or a LIMIT past the last row is no
// tie.
func TestTieProbeOnData(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
		CREATE TABLE hs (id int PRIMARY KEY, grade int, name text, score numeric);
		INSERT INTO hs VALUES (1, 9, 'a', 1.5), (2, 9, 'b', 2), (3, 10, 'c', 2), (4, 10, 'd', NULL),
		(5, 11, 'e', NULL), (6, 12, 'f', 3);
		CREATE TABLE m (id int PRIMARY KEY, name text, tenure interval, balance float8, email text COLLATE ci,
			amount numeric, nl2sql_tie_key_1 int);
		INSERT INTO m VALUES (1, 'Ann', '1 mon', '-0', 'ann@x.org', 10.4, 2), (2, 'Bob', '30 days', 0, 'ANN@X.ORG', 9.6, 1),
			(3, 'Cy', '1 day', 5, 'cy@x.org', 3, 1)`)
	pool := pgtest.Pool(t, dsn)
	for _, tc := range []struct {
		sql  string
		tied bool
	}{
		{"SELECT grade FROM hs GROUP BY grade ORDER BY count(*) DESC LIMIT 1", true},  // 9 and 10 have two each
		{"SELECT grade FROM hs GROUP BY grade ORDER BY count(*) DESC LIMIT 2", false}, // both kept; 11 and 12 have one
		{"SELECT grade FROM hs GROUP BY grade ORDER BY count(*) DESC LIMIT 3", true},  // 11 kept, 12 cut
		{"SELECT name FROM hs ORDER BY score DESC NULLS LAST LIMIT 2", true},          // 2 and 2
		{"SELECT name FROM hs ORDER BY score DESC NULLS LAST, name LIMIT 2", false},   // broken by name
		{"SELECT name FROM hs ORDER BY score NULLS LAST LIMIT 5", true},               // NULL and NULL
		{"SELECT name, score AS s FROM hs ORDER BY s DESC NULLS LAST LIMIT 1", false}, // 3 alone
		{"SELECT name FROM hs ORDER BY id LIMIT 10", false},                           // nothing cut
		{"SELECT name FROM hs ORDER BY grade OFFSET 1 LIMIT 2", true},                 // rows 2-3 kept: 10 and 10 at the cut
		{"SELECT name FROM m ORDER BY tenure DESC LIMIT 1", true},                     // '1 mon' = '30 days'
		{"SELECT name FROM m ORDER BY balance LIMIT 1", true},                         // -0 = 0
		{"SELECT name FROM m ORDER BY email LIMIT 1", true},                           // case-insensitive collation
		{"SELECT name, amount::int AS amount FROM m ORDER BY amount DESC LIMIT 1", true},
		{"SELECT name FROM m ORDER BY nl2sql_tie_key_1, id LIMIT 1", false},
		{"VALUES (1, 'x'), (2, 'x') ORDER BY column1 LIMIT 1", false},
		{"VALUES (1, 'x'), (1, 'y') ORDER BY column1 LIMIT 1", true},
	} {
		p, ok := rewrite.NewTieProbe(tc.sql)
		if !ok {
			t.Errorf("no probe for %q", tc.sql)
			continue
		}
		rows, err := pool.Query(context.Background(), p.SQL)
		if err != nil {
			t.Fatalf("%q: %v", p.SQL, err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if tied := p.Tied(n); tied != tc.tied {
			t.Errorf("%q: Tied(%d rows) = %v, want %v", tc.sql, n, tied, tc.tied)
		}
	}
}
