package nl2sql

import (
	"testing"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/rewrite"
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
		da, erra := describe.SQL(c.a)
		db, errb := describe.SQL(c.b)
		if erra != nil || errb != nil {
			t.Fatal(erra, errb)
		}
		got := clarify(da, db)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("clarify(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
		if got := clarify(da, nil); got != "" {
			t.Errorf("clarify(%q, undescribed) = %q, want none", c.a, got)
		}
	}
}

// TestResultDigestSet: the set digest ignores how often a row comes back
// and the order of the columns, the unordered digest only the order: a
// DISTINCT answer and its duplicated twin share the set and differ in the
// rest, which is what CountsDisputed reads.
func TestResultDigestSet(t *testing.T) {
	distinct := &execute.Result{Columns: []execute.Column{{Name: "a"}, {Name: "b"}}, Rows: [][]any{{"x", int64(1)}, {"y", int64(2)}}}
	twice := &execute.Result{Columns: []execute.Column{{Name: "b"}, {Name: "a"}}, Rows: [][]any{{int64(1), "x"}, {int64(2), "y"}, {int64(1), "x"}}}
	other := &execute.Result{Columns: []execute.Column{{Name: "a"}, {Name: "b"}}, Rows: [][]any{{"x", int64(1)}}}
	_, u1, s1, dup1 := resultDigest(distinct)
	_, u2, s2, dup2 := resultDigest(twice)
	_, u3, s3, _ := resultDigest(other)
	if s1 != s2 || u1 == u2 || dup1 || !dup2 {
		t.Errorf("distinct and twice: sets equal %v (want true), unordered equal %v (want false), dup %v %v", s1 == s2, u1 == u2, dup1, dup2)
	}
	if s3 == s1 || u3 == u1 {
		t.Errorf("a result with fewer distinct rows shares a digest")
	}
}

// TestRepairedNames: a repair of a name that does not exist (a column, a
// table) or of an ambiguous one counts for the confidence; a dialect's
// spelling, a cast, a GROUP BY completed, a double-quoted string read as
// a column, a stored value's case and a tie broken do not.
func TestRepairedNames(t *testing.T) {
	for _, c := range []struct {
		rules []string
		want  bool
	}{
		{[]string{repair.RuleFuzzyColumn}, true},
		{[]string{repair.RuleBacktick, repair.RuleFuzzyTable}, true},
		{[]string{repair.RuleAmbiguous}, true},
		{[]string{repair.RuleMissingFrom}, true},
		{[]string{repair.RuleBacktick, repair.RuleCoalesce, repair.RuleGroupBy, repair.RuleCastNumeric}, false},
		{[]string{repair.RuleStringValue}, false},
		{[]string{rewrite.RuleStoredValue, rewrite.RuleTieOrder}, false},
		{nil, false},
	} {
		if got := repairedNames(c.rules); got != c.want {
			t.Errorf("repairedNames(%v) = %v, want %v", c.rules, got, c.want)
		}
		if c.want && !repairedToPlan(c.rules) {
			t.Errorf("%v repairs names but not to plan", c.rules)
		}
	}
}
