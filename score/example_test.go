package score_test

import (
	"context"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/score"
)

// Two samples wrote a list, one a count: for "how many", Default prefers
// the count although fewer samples wrote it, because the question asks for
// one and the list's run returned no rows.
func ExampleDefault() {
	in := &score.Input{
		Question: "How many orders were shipped?",
		Candidates: []score.Candidate{
			{SQL: "SELECT id FROM orders WHERE shipped", Votes: 2, Tables: []string{"public.orders"},
				Agreement: -1, OrderedAgreement: -1, ResultRows: 0, ResultGroup: -1},
			{SQL: "SELECT count(*) FROM orders WHERE shipped", Votes: 1, Tables: []string{"public.orders"},
				Agreement: -1, OrderedAgreement: -1, ResultRows: 1, ResultGroup: -1},
		},
	}
	scores := score.Default{}.Score(context.Background(), in)
	best := 0
	for i := range scores {
		if scores[i] > scores[best] {
			best = i
		}
	}
	fmt.Println(in.Candidates[best].SQL)
	// Output: SELECT count(*) FROM orders WHERE shipped
}
