package calib

import "testing"

func TestDropCondition(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT name FROM t WHERE a = 1 AND b = 2 AND c = 3", "SELECT name FROM t WHERE a = 1 AND b = 2"},
		{"SELECT name FROM t WHERE a = 1 AND b = 2", "SELECT name FROM t WHERE a = 1"},
		{"SELECT name FROM t WHERE a = 1 OR b = 2", "SELECT name FROM t"},
		{"SELECT count(*) FROM t AS x JOIN u ON x.id = u.id WHERE u.k > 3 GROUP BY x.a", "SELECT count(*) FROM t x JOIN u ON x.id = u.id GROUP BY x.a"},
		{"SELECT name FROM t", ""},
		{"SELECT a FROM t WHERE a = 1 UNION SELECT a FROM u", ""},
		{"not sql", ""},
	} {
		got, ok := DropCondition(c.in)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("DropCondition(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestSwapColumn(t *testing.T) {
	schema := map[string][]Column{
		"singer":     {{"singer_id", "integer"}, {"name", "text"}, {"country", "text"}, {"age", "integer"}},
		"song":       {{"song_id", "integer"}, {"singer_id", "integer"}, {"title", "text"}},
		"erp.orders": {{"id", "integer"}, {"total", "numeric"}, {"tax", "numeric"}},
	}
	cols := func(t string) []Column { return schema[t] }
	for _, c := range []struct{ in, want string }{
		{"SELECT name FROM singer WHERE age > 30", "SELECT country FROM singer WHERE age > 30"},
		{"SELECT count(*) FROM singer WHERE age > 30", "SELECT count(*) FROM singer WHERE singer_id > 30"},
		{"SELECT t.total FROM erp.orders t", "SELECT t.tax FROM erp.orders t"},
		{"SELECT singer_id FROM song JOIN singer USING (singer_id)", ""}, // in both tables: ambiguous
		{"SELECT count(*) FROM singer", ""},
		{"SELECT title FROM song", ""}, // no other text column
	} {
		got, ok := SwapColumn(c.in, cols)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("SwapColumn(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
