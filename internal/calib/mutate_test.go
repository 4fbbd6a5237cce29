package calib

import "testing"

func TestDropCondition(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT name FROM t WHERE a = 1 AND b = 2 AND c = 3", "SELECT name FROM t WHERE a = 1 AND b = 2"},
		{"SELECT name FROM t WHERE a = 1 AND b = 2", "SELECT name FROM t WHERE a = 1"},
		{"SELECT name FROM t WHERE a = 1 OR b = 2", "SELECT name FROM t"},
		{"SELECT count(*) FROM t AS x JOIN u ON x.id = u.id WHERE u.k > 3 GROUP BY x.a", "SELECT count(*) FROM t x JOIN u ON x.id = u.id GROUP BY x.a"},
		// The two bounds of one column's range are one condition.
		{"SELECT count(*) FROM o WHERE s = 'x' AND d >= '2024-01-01' AND d < '2025-01-01'", "SELECT count(*) FROM o WHERE s = 'x'"},
		{"SELECT count(*) FROM o WHERE d >= '2024-01-01' AND d < '2025-01-01'", "SELECT count(*) FROM o"},
		{"SELECT count(*) FROM o WHERE '2024-01-01' <= o.d AND o.d <= '2024-12-31'", "SELECT count(*) FROM o"},
		{"SELECT count(*) FROM o WHERE d < '2025-01-01' AND s = 'x' AND d >= '2024-01-01'", "SELECT count(*) FROM o WHERE s = 'x'"},
		{"SELECT count(*) FROM o WHERE d > 3 AND d > 5", "SELECT count(*) FROM o WHERE d > 3"},         // the same side: two conditions
		{"SELECT count(*) FROM o WHERE e >= 1 AND d < 5", "SELECT count(*) FROM o WHERE e >= 1"},       // another column
		{"SELECT count(*) FROM o WHERE x.d >= 1 AND y.d < 5", "SELECT count(*) FROM o WHERE x.d >= 1"}, // another table's
		{"SELECT count(*) FROM o WHERE d >= e AND d < 5", "SELECT count(*) FROM o WHERE d >= e"},       // a comparison of two columns
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
		"artist":     {{"id", "integer"}, {"name", "text"}, {"country", "text"}, {"city", "text"}},
	}
	cols := func(t string) []Column { return schema[t] }
	for _, c := range []struct{ in, want string }{
		{"SELECT name FROM singer WHERE age > 30", "SELECT country FROM singer WHERE age > 30"},
		{"SELECT count(*) FROM singer WHERE age > 30", "SELECT count(*) FROM singer WHERE singer_id > 30"},
		{"SELECT t.total FROM erp.orders t", "SELECT t.tax FROM erp.orders t"},
		{"SELECT singer_id FROM song JOIN singer USING (singer_id)", ""}, // in both tables: ambiguous
		{"SELECT count(*) FROM singer", ""},
		{"SELECT title FROM song", ""}, // no other text column
		// The neighbour the query shows already is passed over: "the
		// code and the code" is no mistake a model makes.
		{"SELECT name, country FROM artist", "SELECT city, country FROM artist"},
		{"SELECT a.country, upper(a.name) FROM artist a", "SELECT a.city, upper(a.name) FROM artist a"},
		{"SELECT name, country FROM singer", ""}, // its one other text column is shown
		{"SELECT s.name, lower(s.country) FROM singer s", ""},
		{"SELECT name, age FROM singer WHERE singer_id = 1", "SELECT country, age FROM singer WHERE singer_id = 1"},
	} {
		got, ok := SwapColumn(c.in, cols)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("SwapColumn(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestFlipOrder(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT name FROM singer ORDER BY age DESC LIMIT 1", "SELECT name FROM singer ORDER BY age ASC LIMIT 1"},
		{"SELECT name FROM singer ORDER BY age LIMIT 3", "SELECT name FROM singer ORDER BY age DESC LIMIT 3"},
		{"SELECT name FROM singer ORDER BY age ASC, name DESC LIMIT 3", "SELECT name FROM singer ORDER BY age DESC, name DESC LIMIT 3"},
		{"SELECT name FROM singer ORDER BY age DESC", ""}, // the same rows, in another order
		{"SELECT name FROM singer LIMIT 3", ""},
		{"SELECT name FROM singer ORDER BY age USING < LIMIT 1", ""},
		{"SELECT a FROM t UNION SELECT a FROM u ORDER BY a LIMIT 1", ""},
	} {
		got, ok := FlipOrder(c.in)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("FlipOrder(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestChangeAggregate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT max(age) FROM singer", "SELECT min(age) FROM singer"},
		{"SELECT name, MIN(age) FROM singer GROUP BY name", "SELECT name, max(age) FROM singer GROUP BY name"},
		{"SELECT round(avg(age), 2) FROM singer", "SELECT round(sum(age), 2) FROM singer"},
		{"SELECT sum(total)::numeric FROM orders", "SELECT avg(total)::numeric FROM orders"},
		{"SELECT max(a) - min(a) FROM t", "SELECT min(a) - min(a) FROM t"},
		{"SELECT pg_catalog.max(age) FROM singer", "SELECT pg_catalog.min(age) FROM singer"},
		{"SELECT count(*) FROM singer", ""},
		{"SELECT public.max(age) FROM singer", ""}, // a function of the user's own
		{"SELECT max(age) OVER () FROM singer", ""},
		{"SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)", ""},
	} {
		got, ok := ChangeAggregate(c.in)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("ChangeAggregate(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestDropDistinct(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT DISTINCT country FROM singer", "SELECT country FROM singer"},
		{"SELECT count(DISTINCT country) FROM singer", "SELECT count(country) FROM singer"},
		{"SELECT DISTINCT ON (country) name FROM singer ORDER BY country, age", ""},
		{"SELECT country FROM singer", ""},
		{"SELECT count(*) FROM singer", ""},
	} {
		got, ok := DropDistinct(c.in)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("DropDistinct(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
