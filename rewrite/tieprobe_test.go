package rewrite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/rewrite"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestNewTieProbe: the probe appends the sort keys as PostgreSQL reads
// them (an alias or an ordinal stands for its output column's expression),
// skips to the last row kept and reads two rows; every unclear query gets
// no probe.
func TestNewTieProbe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT grade FROM hs GROUP BY grade ORDER BY count(*) DESC LIMIT 1",
			"SELECT grade, count(*) AS nl2sql_tie_key_1 FROM hs GROUP BY grade ORDER BY count(*) DESC LIMIT 2 OFFSET 0"},
		// An alias and an ordinal are the output column's expression.
		{"SELECT grade, count(*) AS n FROM hs GROUP BY grade ORDER BY n DESC LIMIT 3",
			"SELECT grade, count(*) AS n, count(*) AS nl2sql_tie_key_1 FROM hs GROUP BY grade ORDER BY n DESC LIMIT 2 OFFSET 2"},
		{"SELECT grade, count(*) FROM hs GROUP BY grade ORDER BY 2 DESC, 1 LIMIT 1",
			"SELECT grade, count(*), count(*) AS nl2sql_tie_key_1, grade AS nl2sql_tie_key_2 FROM hs GROUP BY grade ORDER BY 2 DESC, 1 LIMIT 2 OFFSET 0"},
		// A bare name is the output column first, as ORDER BY reads it: here
		// "a" is b's alias, so the key is b.
		{"SELECT b AS a FROM t ORDER BY a LIMIT 1",
			"SELECT b AS a, b AS nl2sql_tie_key_1 FROM t ORDER BY a LIMIT 2 OFFSET 0"},
		// Quoting, unicode escapes, qualification, OFFSET and FETCH FIRST.
		{`SELECT "Name" FROM country ORDER BY U&"P\006fpulation" OFFSET 4 FETCH FIRST 2 ROWS ONLY`,
			`SELECT "Name", "Population" AS nl2sql_tie_key_1 FROM country ORDER BY "Population" LIMIT 2 OFFSET 5`},
		{"SELECT c.name FROM public.country c ORDER BY pg_catalog.lower(c.name) LIMIT 1",
			"SELECT c.name, pg_catalog.lower(c.name) AS nl2sql_tie_key_1 FROM public.country c ORDER BY pg_catalog.lower(c.name) LIMIT 2 OFFSET 0"},
		// A CTE and a sublink stay as written; only the top level is probed.
		{"WITH top AS (SELECT a FROM t ORDER BY b LIMIT 5) SELECT a FROM top WHERE a IN (SELECT a FROM u) ORDER BY a DESC LIMIT 1",
			"WITH top AS (SELECT a FROM t ORDER BY b LIMIT 5) SELECT a, a AS nl2sql_tie_key_1 FROM top WHERE a IN (SELECT a FROM u) ORDER BY a DESC LIMIT 2 OFFSET 0"},
		// DISTINCT keeps its sort keys in the output already.
		{"SELECT DISTINCT a FROM t ORDER BY a LIMIT 1",
			"SELECT DISTINCT a, a AS nl2sql_tie_key_1 FROM t ORDER BY a LIMIT 2 OFFSET 0"},

		// No probe: nothing is cut, ties are the answer, or it is unclear.
		{"SELECT a FROM t ORDER BY a", ""},
		{"SELECT a FROM t LIMIT 1", ""},
		{"SELECT a FROM t ORDER BY a FETCH FIRST 1 ROWS WITH TIES", ""},
		{"SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b LIMIT 1", ""},
		{"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 1", ""},
		{"SELECT * FROM t ORDER BY 1 LIMIT 1", ""},
		{"SELECT a FROM t ORDER BY 2 LIMIT 1", ""},
		{"SELECT a FROM t ORDER BY a LIMIT $1", ""},
		{"SELECT a FROM t ORDER BY a LIMIT 1 + 1", ""},
		{"SELECT a FROM t ORDER BY a LIMIT ALL", ""},
		{"SELECT a FROM t ORDER BY a LIMIT 5000", ""},
		{"SELECT a AS x, b AS x FROM t ORDER BY x LIMIT 1", ""},
		{"SELECT a AS nl2sql_tie_key_1 FROM t ORDER BY a LIMIT 1", ""},
		{"SELECT a FROM t ORDER BY a LIMIT 1 FOR UPDATE", ""},
		{"SELECT 1; SELECT 2", ""},
		{"SELECT FROM WHERE", ""},
	} {
		p, ok := rewrite.NewTieProbe(tc.in)
		if tc.want == "" {
			if ok {
				t.Errorf("NewTieProbe(%q) = %q, want no probe", tc.in, p.SQL)
			}
			continue
		}
		if !ok || p.SQL != tc.want {
			t.Errorf("NewTieProbe(%q)\n got %q (%v)\nwant %q", tc.in, p.SQL, ok, tc.want)
		}
		if ok && p.Keys != strings.Count(p.SQL, "nl2sql_tie_key_") {
			t.Errorf("NewTieProbe(%q).Keys = %d", tc.in, p.Keys)
		}
	}
}

// TestTieProbeOnData runs probes on a real table: a cut inside a tie is
// found whatever the keys' types (NULLs sort together, so they tie), and a
// cut between distinct keys, or a LIMIT past the last row, is no tie.
func TestTieProbeOnData(t *testing.T) {
	pgtest.SkipShort(t)
	dsn := pgtest.NewDatabase(t)
	pgtest.Exec(t, dsn, `CREATE TABLE hs (id int PRIMARY KEY, grade int, name text, score numeric);
		INSERT INTO hs VALUES (1, 9, 'a', 1.5), (2, 9, 'b', 2), (3, 10, 'c', 2), (4, 10, 'd', NULL),
		(5, 11, 'e', NULL), (6, 12, 'f', 3)`)
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
		{"SELECT name FROM hs WHERE grade > (SELECT min(grade) FROM hs) ORDER BY 1 LIMIT 1", false},
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
		var got [][]any
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if tied := p.Tied(got); tied != tc.tied {
			t.Errorf("%q: Tied = %v, want %v (rows %v)", tc.sql, tied, tc.tied, got)
		}
	}
}
