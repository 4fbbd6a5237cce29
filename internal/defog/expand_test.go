package defog

import (
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	tests := []struct {
		name string
		gold string
		want []string
	}{
		{"plain", "SELECT 1", []string{"SELECT 1"}},
		{"trailing semicolon", "SELECT 1;", []string{"SELECT 1"}},
		{"alternatives", "SELECT a FROM t;SELECT b FROM t;", []string{"SELECT a FROM t", "SELECT b FROM t"}},
		{"duplicate alternatives", "SELECT a FROM t; SELECT a FROM t", []string{"SELECT a FROM t"}},
		{"semicolon in literal", "SELECT ';' AS x; SELECT 2", []string{"SELECT ';' AS x", "SELECT 2"}},
		{"semicolon in identifier", `SELECT 1 AS "a;b"`, []string{`SELECT 1 AS "a;b"`}},
		{"escaped quote", "SELECT 'it''s;' AS x", []string{"SELECT 'it''s;' AS x"}},
		{"subset with group by",
			"SELECT {a.name, a.aid}, count(*) FROM a GROUP BY {}",
			[]string{
				"SELECT a.name, count(*) FROM a GROUP BY a.name",
				"SELECT a.aid, count(*) FROM a GROUP BY a.aid",
				"SELECT a.name, a.aid, count(*) FROM a GROUP BY a.name, a.aid",
			}},
		{"no spaces", "SELECT {x,y} FROM t", []string{"SELECT x FROM t", "SELECT y FROM t", "SELECT x, y FROM t"}},
		{"single column group", "SELECT {x} FROM t GROUP BY {}", []string{"SELECT x FROM t GROUP BY x"}},
		{"braces in literal untouched", "SELECT '{a,b}' FROM t", []string{"SELECT '{a,b}' FROM t"}},
		{"per alternative",
			"SELECT {a,b} FROM t GROUP BY {};SELECT c FROM u",
			[]string{"SELECT a FROM t GROUP BY a", "SELECT b FROM t GROUP BY b", "SELECT a, b FROM t GROUP BY a, b", "SELECT c FROM u"}},
		{"two groups combine",
			"SELECT {a,b}, {c,d} FROM t",
			[]string{"SELECT a, c FROM t", "SELECT a, d FROM t", "SELECT a, c, d FROM t",
				"SELECT b, c FROM t", "SELECT b, d FROM t", "SELECT b, c, d FROM t",
				"SELECT a, b, c FROM t", "SELECT a, b, d FROM t", "SELECT a, b, c, d FROM t"}},
		{"empty", "  ;  ", nil},
		{"line comment with semicolon", "SELECT 1 -- a; b\n", []string{"SELECT 1 -- a; b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Expand(tt.gold)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Expand(%q)\n got %q\nwant %q", tt.gold, got, tt.want)
			}
		})
	}
}

func TestExpandBounded(t *testing.T) {
	gold := "SELECT {a,b,c,d,e,f}, {g,h,i,j,k,l}, {m,n,o,p,q,r} FROM t"
	got := Expand(gold)
	if len(got) != maxExpansions {
		t.Fatalf("got %d expansions, want the bound %d", len(got), maxExpansions)
	}
}

func TestParseCSV(t *testing.T) {
	in := "a,b,c\n1,\"x, \"\"y\"\"\",3\n\"q\" tail,\"multi\nline\",\n"
	got := parseCSV(in)
	want := [][]string{{"a", "b", "c"}, {"1", `x, "y"`, "3"}, {"q tail", "multi\nline", ""}}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("record %d: got %q want %q", i, got[i], want[i])
		}
	}
}
