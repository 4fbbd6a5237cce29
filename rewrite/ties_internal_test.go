package rewrite

import "testing"

// TestBreakTies: the grouping keys a limited, grouped SELECT does not sort
// by are appended to its ORDER BY, in every spelling and at every depth,
// with the rest of the text left as written; every unclear case is left
// alone.
func TestBreakTies(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT d FROM p GROUP BY d ORDER BY count(*) DESC LIMIT 1",
			"SELECT d FROM p GROUP BY d ORDER BY count(*) DESC, d LIMIT 1"},
		// Qualified, several keys, one of them already a sort key.
		{"SELECT t.a, t.b FROM t GROUP BY t.a, t.b ORDER BY count(*), t.a LIMIT 3",
			"SELECT t.a, t.b FROM t GROUP BY t.a, t.b ORDER BY count(*), t.a, t.b LIMIT 3"},
		// Case and quoting: the keys are written as PostgreSQL reads them.
		{`SELECT "Name" FROM T GROUP BY "Name", Kind ORDER BY COUNT(*) DESC LIMIT 1`,
			`SELECT "Name" FROM T GROUP BY "Name", Kind ORDER BY COUNT(*) DESC, "Name", kind LIMIT 1`},
		{`SELECT U&"d\0061ta" FROM t GROUP BY U&"d\0061ta" ORDER BY count(*) LIMIT 1`,
			`SELECT U&"d\0061ta" FROM t GROUP BY U&"d\0061ta" ORDER BY count(*), data LIMIT 1`},
		// Keywords stay quoted; expressions are written as PostgreSQL reads
		// them (the result is validated again before it runs).
		{`SELECT "order" FROM t GROUP BY "order" ORDER BY count(*) LIMIT 1`,
			`SELECT "order" FROM t GROUP BY "order" ORDER BY count(*), "order" LIMIT 1`},
		{"SELECT lower(name), count(*) FROM t GROUP BY lower(name) ORDER BY 2 DESC LIMIT 1",
			"SELECT lower(name), count(*) FROM t GROUP BY lower(name) ORDER BY 2 DESC, lower(name) LIMIT 1"},
		{"SELECT d::date FROM t GROUP BY d::date, pg_catalog.upper(x) ORDER BY count(*) LIMIT 1",
			"SELECT d::date FROM t GROUP BY d::date, pg_catalog.upper(x) ORDER BY count(*), d::date, pg_catalog.upper(x) LIMIT 1"},
		// Ordinals read alike in GROUP BY and ORDER BY.
		{"SELECT a, count(*) FROM t GROUP BY 1 ORDER BY 2 DESC LIMIT 5",
			"SELECT a, count(*) FROM t GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5"},
		// OFFSET before LIMIT, FETCH FIRST, a comment, lower case.
		{"select a from t group by a order by max(b) /* most */ offset 2 limit 1",
			"select a from t group by a order by max(b), a /* most */ offset 2 limit 1"},
		{"SELECT a FROM t GROUP BY a ORDER BY sum(b) DESC FETCH FIRST 3 ROWS ONLY",
			"SELECT a FROM t GROUP BY a ORDER BY sum(b) DESC, a FETCH FIRST 3 ROWS ONLY"},
		// Nested: a subquery, a CTE; the outer query is not grouped.
		{"SELECT name FROM c WHERE id IN (SELECT cid FROM o GROUP BY cid ORDER BY count(*) DESC LIMIT 1)",
			"SELECT name FROM c WHERE id IN (SELECT cid FROM o GROUP BY cid ORDER BY count(*) DESC, cid LIMIT 1)"},
		{"WITH top AS (SELECT cid FROM o GROUP BY cid ORDER BY count(*) LIMIT 2) SELECT * FROM top ORDER BY cid LIMIT 1",
			"WITH top AS (SELECT cid FROM o GROUP BY cid ORDER BY count(*), cid LIMIT 2) SELECT * FROM top ORDER BY cid LIMIT 1"},
		// A literal that looks like the clause is text, not syntax.
		{"SELECT a FROM t WHERE b = 'x LIMIT 1' GROUP BY a ORDER BY count(*) LIMIT 1",
			"SELECT a FROM t WHERE b = 'x LIMIT 1' GROUP BY a ORDER BY count(*), a LIMIT 1"},

		// Left alone: nothing can tie, or the rewrite is not sure.
		{"SELECT a FROM t GROUP BY a ORDER BY count(*) DESC", ""},                         // no limit
		{"SELECT a FROM t ORDER BY b LIMIT 1", ""},                                        // not grouped
		{"SELECT a FROM t GROUP BY a ORDER BY a LIMIT 1", ""},                             // already sorted by the key
		{"SELECT a FROM t GROUP BY a ORDER BY count(*) FETCH FIRST 1 ROWS WITH TIES", ""}, // ties are the answer
		{"SELECT DISTINCT a FROM t GROUP BY a, b ORDER BY a LIMIT 1", ""},                 // ORDER BY must stay in the select list
		{"SELECT b AS a FROM t GROUP BY a ORDER BY count(*) LIMIT 1", ""},                 // ORDER BY a would read the output column
		{"SELECT a FROM t GROUP BY ROLLUP (a) ORDER BY count(*) LIMIT 1", ""},             // grouping sets
		{"SELECT a FROM t GROUP BY a ORDER BY count(*) LIMIT (1)", ""},                    // not a plain number
		{"SELECT a FROM t GROUP BY a ORDER BY count(*) LIMIT ALL", ""},
		{"(SELECT a FROM t GROUP BY a) UNION (SELECT b FROM u) ORDER BY 1 LIMIT 1", ""}, // a set operation
		{"SELECT a FROM t GROUP BY a ORDER BY count(*) LIMIT 1; SELECT 1", ""},          // two statements
		{"SELECT a FROM", ""}, // does not parse
	} {
		got, ok := BreakTies(tc.in)
		if tc.want == "" {
			if ok || got != tc.in {
				t.Errorf("BreakTies(%q) = %q, %v; want it unchanged", tc.in, got, ok)
			}
			continue
		}
		if !ok || got != tc.want {
			t.Errorf("BreakTies(%q)\n got %q, %v\nwant %q", tc.in, got, ok, tc.want)
		}
	}
}
