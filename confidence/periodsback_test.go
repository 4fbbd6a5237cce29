package confidence

import "testing"

// TestPeriodsBack: a bound n units back from the current period, in
// every spelling periodsBack reads, and not another number, another
// unit or a bound from another day.
func TestPeriodsBack(t *testing.T) {
	for _, c := range []struct {
		sql  string
		unit string
		n    int
		want bool
	}{
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - INTERVAL '6 days'", "day", 6, true},
		{"SELECT 1 FROM t WHERE d >= current_date - interval '6 DAY'", "day", 6, true},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - INTERVAL '6' DAY", "day", 6, true},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 6", "day", 6, true},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 6", "day", 7, false},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 16", "day", 6, false},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 06", "day", 6, false},
		{"SELECT 1 FROM t WHERE d >= now() - INTERVAL '6 days'", "day", 6, false},
		// The second bound holds the number, the first does not.
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 30 AND e >= CURRENT_DATE - INTERVAL '6 days'", "day", 6, true},
		{"SELECT 1 FROM t WHERE d >= date_trunc('month', CURRENT_DATE) - INTERVAL '11 months'", "month", 11, true},
		{"SELECT 1 FROM t WHERE d >= DATE_TRUNC('MONTH', now()) - interval '11 Month'", "month", 11, true},
		{"SELECT 1 FROM t WHERE d >= date_trunc('month', current_timestamp) - interval '11months'", "month", 11, true},
		{"SELECT 1 FROM t WHERE d >= date_trunc('month', CURRENT_DATE) - INTERVAL '11 months'", "month", 12, false},
		{"SELECT 1 FROM t WHERE d >= date_trunc('month', CURRENT_DATE) - INTERVAL '11 years'", "month", 11, false},
		{"SELECT 1 FROM t WHERE d >= date_trunc('year', CURRENT_DATE) - INTERVAL '11 months'", "month", 11, false},
		{"SELECT 1 FROM t WHERE d >= date_trunc('year', CURRENT_DATE) - INTERVAL '1 year'", "year", 1, true},
		{"SELECT 1 FROM t WHERE d >= date_trunc('week', d0) - INTERVAL '2 weeks'", "week", 2, false},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 6", "", 6, false},
		{"SELECT 1 FROM t WHERE d >= CURRENT_DATE - 0", "day", 0, false},
	} {
		if got := periodsBack(c.sql, c.unit, c.n); got != c.want {
			t.Errorf("periodsBack(%q, %q, %d) = %v, want %v", c.sql, c.unit, c.n, got, c.want)
		}
	}
}
