package nl2sql

import (
	"testing"
	"unicode/utf8"
)

// TestClarify: the clarifying question comes from the first part two
// queries differ in, and stays valid text whatever the names are.
func TestClarify(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"SELECT id FROM orders ORDER BY order_date DESC LIMIT 3", "SELECT id FROM orders ORDER BY ship_date DESC LIMIT 3", "By order date or by ship date?"},
		{"SELECT region, count(*) FROM sales GROUP BY region", "SELECT city, count(*) FROM sales GROUP BY city", "For each region or for each city?"},
		{"SELECT count(*) FROM orders WHERE status = 'Open'", "SELECT count(*) FROM orders", "Where status is 'Open' or without that condition?"},
		{`SELECT "ñame" FROM t`, `SELECT "über" FROM t`, "Ñame or über?"},
		{"SELECT 1", "SELECT 1", ""},
	} {
		got := clarify(c.a, c.b)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("clarify(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
