package gloss_test

import (
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// questions are texts every stage reads: identifiers, possessives,
// numbers glued to letters, quotes, dates, unicode, camelCase, evidence.
var questions = []string{
	"How many deals are in Negotiation?",
	"sum of tot_amt in sales.invoices for the customer's top 5 products",
	"Show orders for 'Acme Corp' placed after 2024-03-01 worth more than $1,200.50",
	"Which customers of Bank of America bought more than 15% of Q3 2023 volume?",
	`List employees whose status is "On leave" in the HR department`,
	"custNbr and HTTPServer in addr2, O'Brien's café – naïve São Paulo 1990s",
	"What’s the PONbr of vendor_id 7 vs. last year's?",
	"",
	"   ",
	"x",
}

// TestAnalysisWordsAreFields: an Analysis's Words are Fields(text), word
// for word, and its Terms are Terms(text): a stage that reads the
// analysis sees what reading the text again would give.
func TestAnalysisWordsAreFields(t *testing.T) {
	for _, q := range questions {
		a := gloss.Analyze(q)
		var ws []string
		for _, w := range a.Words {
			ws = append(ws, w.Text)
			if w.Stem != gloss.Stem(w.Text) || w.Stop != gloss.Stopword(w.Text) {
				t.Errorf("%q: word %+v: stem or stop differs from Stem/Stopword", q, w)
			}
			if w.Token < 0 || w.Token >= len(a.Tokens) {
				t.Errorf("%q: word %+v: no token %d", q, w, w.Token)
			}
		}
		if want := gloss.Fields(q); !slices.Equal(ws, want) {
			t.Errorf("%q: words %q, Fields %q", q, ws, want)
		}
		if got, want := a.Terms(), gloss.Terms(q); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%q: Terms %q, gloss.Terms %q", q, got, want)
		}
		if a.Text != q {
			t.Errorf("Text %q, want %q", a.Text, q)
		}
	}
	var none *gloss.Analysis
	if none.Terms() != nil {
		t.Error("a nil Analysis has terms")
	}
}

// TestStem: one stemmer for every stage; plural and singular meet, the
// words the linker's stemmer kept whole stay whole.
func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"categories": "category", "orders": "order", "Orders": "order", "boxes": "box", "classes": "class",
		"status": "status", "address": "address", "analysis": "analysis", "tot_amt": "tot_amt",
		"o'brien": "o'brien", "qty": "qty", "metrics": "metric", "1990s": "1990", "": "",
	} {
		if got := gloss.Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStopword: the merged list keeps the words both lists dropped and
// the plural that names data.
func TestStopword(t *testing.T) {
	for _, w := range []string{"the", "which", "top", "they", "where", "when", "display", "s"} {
		if !gloss.Stopword(w) {
			t.Errorf("%q is not a stopword", w)
		}
	}
	for _, w := range []string{"returns", "customer", "total", "order", "name"} {
		if gloss.Stopword(w) {
			t.Errorf("%q is a stopword", w)
		}
	}
}

// BenchmarkAnalyze is the cost of reading a question once.
func BenchmarkAnalyze(b *testing.B) {
	q := "Show orders for 'Acme Corp' placed after 2024-03-01 worth more than $1,200.50 by customer region"
	b.ReportAllocs()
	for b.Loop() {
		gloss.Analyze(q)
	}
}
