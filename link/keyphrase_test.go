package link_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/link"
)

// phraseSet renders keyphrases as "kind:text" strings.
func phraseSet(kps []link.Keyphrase) []string {
	out := make([]string, len(kps))
	for i, k := range kps {
		out[i] = string(k.Kind) + ":" + k.Text
	}
	return out
}

func TestKeyphrases(t *testing.T) {
	tests := []struct {
		q        string
		want     []string // must all be present
		mustNot  []string // must all be absent
		wantSize int      // exact count when > 0
	}{
		{
			q:       "How many deals are in Negotiation?",
			want:    []string{"capitalized:Negotiation", "ngram:deals", "ngram:Negotiation"},
			mustNot: []string{"capitalized:How", "ngram:How", "ngram:many", "ngram:deals are"},
		},
		{
			q:    "total amount of invoices per customer",
			want: []string{"ngram:total", "ngram:amount", "ngram:total amount", "ngram:invoices", "ngram:customer"},
			// "amount of invoices" crosses a stopword.
			mustNot:  []string{"ngram:amount of invoices", "ngram:total amount invoices"},
			wantSize: 5,
		},
		{
			q:    "Show orders for 'Acme Corp' placed after 2024-03-01 worth more than $1,200.50",
			want: []string{"quoted:Acme Corp", "date:2024-03-01", "number:$1,200.50", "ngram:orders"},
			// Quoted words are not also n-grams or capitalised phrases.
			mustNot: []string{"ngram:Acme", "capitalized:Acme Corp", "year:2024", "number:2024", "capitalized:Show"},
		},
		{
			q:       "Revenue by region in 2023 and in March 2024",
			want:    []string{"year:2023", "date:March 2024", "ngram:Revenue", "ngram:region"},
			mustNot: []string{"capitalized:Revenue", "number:2023", "year:2024"},
		},
		{
			q:    "Which customers of Bank of America bought more than 15% of Q3 2023 volume?",
			want: []string{"capitalized:Bank of America", "number:15%", "date:Q3 2023", "ngram:customers", "ngram:volume"},
		},
		{
			q:       `List employees whose status is "On leave" in the HR department`,
			want:    []string{"quoted:On leave", "capitalized:HR", "ngram:employees", "ngram:HR department", "ngram:status"},
			mustNot: []string{"ngram:leave", "capitalized:List"},
		},
		{
			q:    "sum of tot_amt in sales.invoices for the customer's top 5 products",
			want: []string{"ngram:tot_amt", "ngram:sales.invoices", "ngram:customer's", "number:5", "ngram:products"},
			// The possessive is not a quote; "top" asks for a shape (a
			// stopword), it names nothing.
			mustNot: []string{"quoted:s top 5 products", "ngram:customer's top", "ngram:top"},
		},
		{
			q:    "average unit price of products, grouped by product category",
			want: []string{"ngram:average unit price", "ngram:product category", "ngram:grouped"},
			// The comma ends an n-gram.
			mustNot: []string{"ngram:price products", "ngram:products grouped"},
		},
		{q: "", wantSize: -1},
		{q: "how many are there?", wantSize: -1},
	}
	for _, tt := range tests {
		got := phraseSet(link.Keyphrases(tt.q))
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Keyphrases(%q): missing %q in %v", tt.q, w, got)
			}
		}
		for _, w := range tt.mustNot {
			if slices.Contains(got, w) {
				t.Errorf("Keyphrases(%q): unexpected %q in %v", tt.q, w, got)
			}
		}
		switch {
		case tt.wantSize > 0 && len(got) != tt.wantSize:
			t.Errorf("Keyphrases(%q) = %v, want %d phrases", tt.q, got, tt.wantSize)
		case tt.wantSize < 0 && len(got) != 0:
			t.Errorf("Keyphrases(%q) = %v, want none", tt.q, got)
		}
	}
}

func TestKeyphraseWordsAndOffsets(t *testing.T) {
	q := "Total salaries of employees by department"
	for _, k := range link.Keyphrases(q) {
		if !strings.HasPrefix(q[k.Start:], k.Text) {
			t.Errorf("phrase %q: Start %d points at %q", k.Text, k.Start, q[k.Start:])
		}
		if k.Text == "Total salaries" && strings.Join(k.Words, " ") != "total salary" {
			t.Errorf("words of %q = %v, want singular lower case", k.Text, k.Words)
		}
	}
}

// FuzzKeyphrases checks that any input yields phrases whose spans lie in
// the question and that Link does not fail on it.
func FuzzKeyphrases(f *testing.F) {
	for _, s := range []string{"", "2024", "$1,200.50%", "'a'", "1,", "Q3 2023", "March 5, 2024", "x'y", "“quoted”", "-5 +3",
		"sales.invoices.tot_amt", "Bank of America & Co", "\xff\xfe", "12/31/2024"} {
		f.Add(s)
	}
	l := link.New(syntheticCatalog(30))
	f.Fuzz(func(t *testing.T, q string) {
		for _, k := range link.Keyphrases(q) {
			if k.Start < 0 || k.Start+len(k.Text) > len(q) || q[k.Start:k.Start+len(k.Text)] != k.Text {
				t.Fatalf("phrase %+v does not point into %q", k, q)
			}
		}
		l.Link(context.Background(), q, q, nil)
	})
}
