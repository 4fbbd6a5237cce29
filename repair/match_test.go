package repair

import "testing"

func TestOSA(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"name", "name", 0}, {"", "abc", 3}, {"abc", "", 3},
		{"nmae", "name", 1}, {"emial", "email", 1}, {"stauts", "status", 1}, // one swap
		{"custmer", "customer", 1}, {"name", "names", 1}, {"cat", "cut", 1},
		{"ca", "abc", 3}, // OSA, not full Damerau: a swapped pair is not edited again
		{"kitten", "sitting", 3}, {"café", "cafe", 1},
	} {
		if got := osa(c.a, c.b); got != c.want {
			t.Errorf("osa(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := osa(c.b, c.a); got != c.want {
			t.Errorf("osa(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

// The ranks decide which repairs happen: each line is a reason to fix (or
// not) that the corpora rely on.
func TestRank(t *testing.T) {
	m := newMatcher(nil, nil)
	customers, orderLines := []string{"customer"}, []string{"order", "line"}
	for _, c := range []struct {
		wanted, cand string
		ctx          []string
		want         rank
	}{
		{"Email", "email", nil, rankExact},
		{"customer_name", "cust_nm", nil, rankWords},
		{"paid", "is_paid", nil, rankWords},
		{"qty", "quantity", nil, rankWords},
		{"order_line", "order_lines", nil, rankWords},
		{"customerName", "customer_name", nil, rankWords},
		{"nmae", "name", nil, rankTypo},
		{"emial", "email", nil, rankTypo},
		{"custmer_name", "customer_name", nil, rankTypo},
		{"amnt", "amount", nil, rankAbbrev},
		{"customer_id", "id", customers, rankNamed},
		{"name", "customer_name", customers, rankImplied},
		{"nme", "cust_nm", customers, rankImplied},
		{"id", "order_id", orderLines, rankNone}, // order_id is not the line's own id
		{"name", "first_nm", nil, rankNone},
		{"dept_name", "last_name", nil, rankNone},
		{"amount", "shipped_at", nil, rankNone}, // "at" abbreviates nothing here
		{"customer_name", "customer_id", nil, rankNone},
		{"shipped", "shipped_at", nil, rankNone},
	} {
		if got := m.rank(c.wanted, c.cand, c.ctx); got != c.want {
			t.Errorf("rank(%q, %q, %v) = %d, want %d", c.wanted, c.cand, c.ctx, got, c.want)
		}
	}
}

func TestLooseAndGeneric(t *testing.T) {
	m := newMatcher(nil, nil)
	for _, c := range []struct {
		wanted, cand string
		want         bool
	}{
		{"total", "total_amt", true}, {"shipped", "shipped_at", true}, {"nm", "first_nm", true},
		{"stats", "status", true}, // two edits
		{"hiring_date", "hire_dt", true}, {"ship_date", "order_date", false},
		{"dept_name", "name", false}, {"dept_name", "last_name", false}, {"customer_name", "customer_id", false},
		{"amount", "shipped_at", false},
	} {
		if got := m.loose(c.wanted, c.cand); got != c.want {
			t.Errorf("loose(%q, %q) = %t", c.wanted, c.cand, got)
		}
	}
	for _, n := range []string{"name", "nme", "status", "created_at", "is_active", "id", "code"} {
		if !m.generic(n) {
			t.Errorf("%q is generic", n)
		}
	}
	for _, n := range []string{"email", "city", "dept_name", "region", "customer_id", ""} {
		if m.generic(n) {
			t.Errorf("%q is not generic", n)
		}
	}
}
