package repair

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// Table answers "which allowed table is this unknown relation name,
// uniquely?" on the fixture's catalog (hr and archive off the path).
func TestTable(t *testing.T) {
	_, cat := fixture(t)
	r := New(cat)
	tables := func(names ...string) []*schema.Table {
		var out []*schema.Table
		for _, n := range names {
			tb := cat.Table(n)
			if tb == nil {
				t.Fatalf("no table %s", n)
			}
			out = append(out, tb)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		allowed []*schema.Table
		r       *Repairer
		want    string   // the table found
		tied    []string // or the alternatives of a tie
		loose   []string // or of loose matches
	}{
		{name: "customers", want: "public.customers"},
		{name: "custmers", want: "public.customers"},
		{name: "prodcuts", want: "public.products"}, // a swap is one edit
		{name: "order_line", want: "public.order_lines"},
		{name: "employee", want: "hr.employees"}, // off the path, the only one
		{name: "hr.departmnts", want: "hr.departments"},
		{name: "departments", tied: []string{"archive.departments", "hr.departments"}},
		{name: "departments", r: r.With(WithSearchPath("public", "hr")), want: "hr.departments"}, // the path first
		{name: "departments", allowed: tables("public.customers", "hr.departments"), want: "hr.departments"},
		// Another schema's table of that very name, the allowed one found
		// (a tenant's copy): whether to use it is the caller's decision.
		{name: "archive.employees", allowed: tables("hr.employees", "public.orders"), want: "hr.employees"},
		{name: "employees", allowed: tables("public.customers", "public.orders")},
		{name: "lines", loose: []string{"public.order_lines"}},
		{name: "line_items"},
		{name: ""},
		{name: "emp", r: r.With(WithTables("public.orders")), want: ""},
	} {
		rr := c.r
		if rr == nil {
			rr = r
		}
		got, err := rr.Table(c.name, c.allowed)
		var amb *AmbiguousError
		switch {
		case c.want != "":
			if err != nil || got == nil || got.QualifiedName() != c.want {
				t.Errorf("Table(%q) = %v, %v; want %s", c.name, got, err, c.want)
			}
		case c.tied != nil || c.loose != nil:
			want := append(c.tied, c.loose...)
			if got != nil || !errors.As(err, &amb) || !errors.Is(err, ErrNoFix) || amb.Tied != (c.tied != nil) ||
				!reflect.DeepEqual(amb.Alternatives, want) || amb.Rule != RuleFuzzyTable || len(amb.Fixes) != 0 {
				t.Errorf("Table(%q) = %v, %v; want alternatives %v (tied %t)", c.name, got, err, want, c.tied != nil)
			}
		default:
			if got != nil || err != ErrNoFix {
				t.Errorf("Table(%q) = %v, %v; want ErrNoFix", c.name, got, err)
			}
		}
	}
}

// With and WithTables: a request's repairer joins and corrects only into
// the tables it may read.
func TestWithTables(t *testing.T) {
	pool, cat := fixture(t)
	r := New(cat)
	scoped := r.With(WithTables("public.orders", "public.order_lines", "public.products"))
	q := "SELECT o.id, o.cust_nm FROM orders o"
	f := serverFailure(t, pool, q)
	if fixes, err := r.Fix(q, f); err != nil || fixes[0].Rule != RuleJoinNeighbor {
		t.Fatalf("unscoped: %v %v", fixes, err)
	}
	if fixes, err := scoped.Fix(q, f); !errors.Is(err, ErrNoFix) {
		t.Errorf("scoped: %v %v, want ErrNoFix (customers is not allowed)", fixes, err)
	}
	q = "SELECT count(*) FROM custmers"
	f = serverFailure(t, pool, q)
	if fixes, err := scoped.Fix(q, f); !errors.Is(err, ErrNoFix) {
		t.Errorf("scoped: %v %v, want ErrNoFix", fixes, err)
	}
	if fixes, err := r.Fix(q, f); err != nil || !strings.Contains(fixes[0].SQL, "FROM customers") {
		t.Errorf("With changed its receiver: %v %v", fixes, err)
	}
	// A glosser given to With is used; the original keeps none.
	hiring := r.With(WithGlosser(func(w string) []string {
		if w == "hire" {
			return []string{"hiring"}
		}
		return nil
	}))
	q = "SELECT emp_id, hiring_date FROM hr.employees"
	f = serverFailure(t, pool, q)
	if fixes, err := hiring.Fix(q, f); err != nil || fixes[0].SQL != "SELECT emp_id, hire_dt FROM hr.employees" {
		t.Errorf("With(WithGlosser): %v %v", fixes, err)
	}
	if _, err := r.Fix(q, f); !errors.Is(err, ErrNoFix) {
		t.Errorf("receiver got the glosser: %v", err)
	}
}

func TestAmbiguousError(t *testing.T) {
	pool, cat := fixture(t)
	q := "SELECT nme FROM products p JOIN categories c ON c.id = p.category_id"
	_, err := New(cat).Fix(q, serverFailure(t, pool, q))
	wrapped := fmt.Errorf("candidate 2: %w", err)
	var amb *AmbiguousError
	if !errors.Is(wrapped, ErrNoFix) || !errors.As(wrapped, &amb) {
		t.Fatalf("%v: not an *AmbiguousError wrapping ErrNoFix", err)
	}
	if got := amb.Error(); got != `repair: no deterministic fix: "nme" is ambiguous: p.name or c.name` {
		t.Errorf("Error() = %s", got)
	}
	if amb.SQLState != "42703" || amb.Rule != RuleFuzzyColumn || amb.Name != "nme" || !amb.Tied ||
		amb.Fixes[0].SQL != "SELECT p.name FROM products p JOIN categories c ON c.id = p.category_id" ||
		amb.Fixes[1].SQL != "SELECT c.name FROM products p JOIN categories c ON c.id = p.category_id" {
		t.Errorf("%+v", amb)
	}
	loose := &AmbiguousError{Name: "total", Alternatives: []string{"a", "b", "c"}}
	if got := loose.Error(); got != `repair: no deterministic fix: "total" is not close enough to a, b or c` {
		t.Errorf("Error() = %s", got)
	}
}
