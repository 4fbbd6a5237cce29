package validate

import (
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
)

func TestSameTree(t *testing.T) {
	parse := func(sql string) *pg.ParseResult {
		t.Helper()
		tree, err := pg.Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	tests := []struct {
		a, b string
		same bool
	}{
		{"SELECT a FROM t", "select   a\nfrom t -- comment", true},
		{"SELECT a, b FROM t WHERE x = 1", "SELECT a, b FROM t WHERE x = 1", true},
		{"SELECT a FROM t", "SELECT b FROM t", false},
		{"SELECT a FROM t WHERE x = 1", "SELECT a FROM t WHERE x = 2", false},
		{"SELECT a FROM t", "SELECT a FROM t LIMIT 1", false},
		{"SELECT a, b FROM t", "SELECT a FROM t", false},
		{"SELECT 1 UNION SELECT 2", "SELECT 1 UNION ALL SELECT 2", false},
		{"SELECT f(x) FROM t", "SELECT g(x) FROM t", false},
		{"SELECT a FROM t", `SELECT "a" FROM "t"`, true},
		{"SELECT 'a'", "SELECT 'a'::text", false},
	}
	for _, tt := range tests {
		if got := sameTree(parse(tt.a).ProtoReflect(), parse(tt.b).ProtoReflect()); got != tt.same {
			t.Errorf("sameTree(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
	// A deparsed tree parses back to the same tree (the fast path of the
	// fixed-point check) for a complex query.
	sql := `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5)
		SELECT n, count(*) FILTER (WHERE n > 1) OVER w, CASE WHEN n = 1 THEN 'a' END
		FROM r LEFT JOIN LATERAL (SELECT 1 AS x) l ON true WINDOW w AS (ORDER BY n) ORDER BY 1 LIMIT 3`
	tree := parse(sql)
	out, err := pg.Deparse(tree)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTree(tree.ProtoReflect(), parse(out).ProtoReflect()) {
		t.Errorf("deparse round trip changed the tree: %s", out)
	}
}
