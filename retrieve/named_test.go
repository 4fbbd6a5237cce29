package retrieve_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// TestRetrieveWordsTheSchemaNeverSays: the questions a new user tries on
// the demo ERP get the tables they are about, first or at least in the
// context, through names, glosses and the thesaurus; nonsense gets none.
func TestRetrieveWordsTheSchemaNeverSays(t *testing.T) {
	ctx := context.Background()
	cat := introspectDSN(t, erptest.Single(t))
	r, err := retrieve.New(ctx, cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		question string
		first    string   // the table ranked first, if set
		want     []string // tables the context must hold
		reason   string   // why the first table is there, if set
	}{
		{"How many staff did we hire in 2023?", "public.employees", nil, "thesaurus"},
		{"What is the headcount per department?", "", []string{"public.employees", "public.departments"}, ""},
		{"What is the average tenure per department?", "", []string{"public.employees", "public.departments"}, ""},
		{"What is the total quantity received from each vendor over purchase orders and goods receipts?", "",
			[]string{"public.suppliers", "public.purchase_orders", "public.goods_receipts", "public.goods_receipt_lines"}, ""},
		{"Which sales rep has won the most deals?", "", []string{"public.sales_reps", "public.opportunities", "public.employees"}, ""},
		{"How many of our clients are in Germany?", "public.customers", nil, "thesaurus"},
	} {
		res, err := r.Tables(ctx, c.question)
		if err != nil {
			t.Fatal(err)
		}
		names := res.Names()
		if res.Match != retrieve.MatchStrong {
			t.Errorf("%q: match %s", c.question, res.Match)
		}
		if c.first != "" && (len(names) == 0 || names[0] != c.first) {
			t.Errorf("%q: %v, want %s first", c.question, names, c.first)
		}
		if c.reason != "" && len(res.Tables) > 0 && !slices.Contains(res.Tables[0].Reasons, c.reason) {
			t.Errorf("%q: first table's reasons %v lack %s", c.question, res.Tables[0].Reasons, c.reason)
		}
		for _, w := range c.want {
			if !slices.Contains(names, w) {
				t.Errorf("%q: %v lack %s", c.question, names, w)
			}
		}
		if len(names) > 8 {
			t.Errorf("%q: %d tables for a clear question: %v", c.question, len(names), names)
		}
	}

	for _, q := range []string{"xyzzy plugh", "qwertyuiop asdfghjkl zxcvbnm"} {
		res, err := r.Tables(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if res.Match != retrieve.MatchNone || len(res.Tables) != 0 || res.Known != 0 {
			t.Errorf("%q: match %s, known %.2f, tables %v", q, res.Match, res.Known, res.Names())
		}
	}

	// Without the thesaurus "staff" names nothing.
	plain, err := retrieve.New(ctx, cat, retrieve.WithThesaurus(nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := plain.Tables(ctx, "How many staff did we hire in 2023?")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Tables {
		if slices.Contains(h.Reasons, "thesaurus") {
			t.Errorf("WithThesaurus(nil): %s has reason thesaurus", h.Name)
		}
	}
}
