package confidence_test

import (
	"context"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/score"
)

// A question asking for five rows, answered by a count: the signals say
// what is wrong in words, and the default calibrator gives it less
// confidence than the query that answers.
func ExampleOf() {
	cand := func(sql string) score.Candidate {
		return score.Candidate{SQL: sql, Votes: 1, Tables: []string{"public.customers"}, Columns: []string{"public.customers.name", "public.customers.revenue"},
			Agreement: -1, OrderedAgreement: -1, ResultRows: -1, ResultGroup: -1}
	}
	in := &score.Input{
		Question:      "Top 5 customers by revenue",
		ContextTables: []string{"public.customers"},
		Candidates:    []score.Candidate{cand("SELECT count(*) FROM customers"), cand("SELECT name FROM customers ORDER BY revenue DESC LIMIT 5")},
	}
	scores := score.Default{}.Score(context.Background(), in)
	count, top := confidence.Of(in, scores, 0), confidence.Of(in, scores, 1)
	fmt.Println(count.Reasons()[0])
	fmt.Println(confidence.Default().Confidence(&count) < confidence.Default().Confidence(&top))
	// Output:
	// the question asks for 5 rows; the query returns one count
	// true
}
