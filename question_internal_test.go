package nl2sql

import (
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
)

// TestReadingFollowsTheInput: a ScoreInput carries the Engine's reading of
// its question; a Scorer that changes Question or Evidence gets a reading
// of the new text, never the stale one, and the words are the question's
// then the evidence's, as reading question + " " + evidence would give.
func TestReadingFollowsTheInput(t *testing.T) {
	in := &ScoreInput{Question: "How many orders per customer?", Evidence: "orders means sales_orders"}
	in.read = read(in.Question, in.Evidence)
	if in.reading() != in.read {
		t.Fatal("the Engine's reading was not used")
	}
	var words []string
	for _, w := range in.reading().words() {
		words = append(words, w.Text)
	}
	if want := gloss.Fields(in.Question + " " + in.Evidence); !slices.Equal(words, want) {
		t.Errorf("words %q, want %q", words, want)
	}
	if got, want := in.reading().terms(), gloss.Terms(in.Question+" "+in.Evidence); !slices.Equal(got, want) {
		t.Errorf("terms %q, want %q", got, want)
	}
	in.Question = "How many invoices?"
	if r := in.reading(); r == in.read || r.question.Text != in.Question {
		t.Errorf("a changed question kept the old reading %q", r.question.Text)
	}
	in.Question, in.Evidence = "How many orders per customer?", ""
	if r := in.reading(); r == in.read || r.evidence.Text != "" {
		t.Error("a changed evidence kept the old reading")
	}
	var none ScoreInput
	if r := none.reading(); len(r.words()) != 0 {
		t.Errorf("an empty input has words %v", r.words())
	}
}

// TestScoresWithoutTheEngineReading: DefaultScorer and the signals give
// the same scores whether the input carries the Engine's reading or a
// program built it without one.
func TestScoresWithoutTheEngineReading(t *testing.T) {
	in := &ScoreInput{
		Question: "Which 3 customers in Asia have the most orders?", Evidence: "orders are sales orders",
		ContextTables: []string{"public.customers", "public.sales_orders"},
		Candidates: []ScoreCandidate{
			{SQL: "SELECT c.name FROM customers c JOIN sales_orders o ON o.customer_id = c.id WHERE c.region = 'Asia' GROUP BY c.name ORDER BY count(*) DESC LIMIT 3",
				Votes: 2, Tables: []string{"public.customers", "public.sales_orders"}, Columns: []string{"public.customers.name", "public.customers.region"}, ResultGroup: -1, ResultRows: -1, Agreement: -1, OrderedAgreement: -1},
			{SQL: "SELECT count(*) FROM customers", Votes: 1, Tables: []string{"public.customers"}, ResultGroup: -1, ResultRows: -1, Agreement: -1, OrderedAgreement: -1},
		},
	}
	plain := DefaultScorer{}.Score(t.Context(), in)
	in.read = read(in.Question, in.Evidence)
	withReading := DefaultScorer{}.Score(t.Context(), in)
	if !slices.Equal(plain, withReading) {
		t.Errorf("scores %v without the reading, %v with it", plain, withReading)
	}
	if plain[0] <= plain[1] {
		t.Errorf("the query that answers scored %v, the count %v", plain[0], plain[1])
	}
	a, b := SignalsOf(in, plain, 0), measure(&ScoreInput{Question: in.Question, Evidence: in.Evidence, ContextTables: in.ContextTables, Candidates: in.Candidates}, plain, 0)
	if a.QuestionCovered != b.QuestionCovered || a.QueryNamed != b.QueryNamed || a.TablesNamed != b.TablesNamed || a.ColumnsOutOfOrder != b.ColumnsOutOfOrder {
		t.Errorf("signals %+v with the reading, %+v without", a, b)
	}
}
