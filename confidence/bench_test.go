package confidence_test

import (
	"context"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/score"
)

// benchQuestions are questions of the kinds the cues read: counts, top N,
// groups, superlatives, bounds, numbers, quoted values, names, periods.
var benchQuestions = []string{
	"How many orders does each customer have?",
	"Show the top 5 customers by total revenue in 2024.",
	"What is the average age of the students who live in 'Aberdeen'?",
	"Which airlines have at least 10 flights departing from APG?",
	"List the names of the 3 oldest singers, in descending order of age.",
	"Find the different cities of the employees hired last year.",
	"What is the phone number of the student with the highest grade?",
	"Is there any customer without an order since 2023-01-01?",
}

// benchInput is the input the Engine hands the signals: the question read
// once (analysed) or, with analysed false, left for Analyses to read.
func benchInput(q string, analysed bool) *score.Input {
	in := &score.Input{Question: q, ContextTables: []string{"public.orders", "public.customers"}, Values: []string{"Aberdeen"},
		Candidates: []score.Candidate{
			{SQL: "SELECT c.name, count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.year = 2024 GROUP BY c.name ORDER BY 2 DESC LIMIT 5",
				Votes: 2, Tables: []string{"public.orders", "public.customers"}, Columns: []string{"public.customers.name", "public.orders.year"},
				Agreement: 1, OrderedAgreement: 1, ResultRows: 5, ResultGroup: 0},
			{SQL: "SELECT name FROM customers", Votes: 1, Tables: []string{"public.customers"}, Columns: []string{"public.customers.name"},
				Agreement: 0, OrderedAgreement: 0, ResultRows: 40, ResultGroup: 1},
		}}
	if analysed {
		in.QuestionAnalysis, in.EvidenceAnalysis = gloss.Analyze(q), gloss.Analyze("")
	}
	return in
}

// BenchmarkSignals is the cost of the signals of one question's chosen
// candidate, its scores included, the question analysed beforehand as the
// Engine does (see docs/benchmarks.md, "The question read once").
func BenchmarkSignals(b *testing.B) {
	ins := make([]*score.Input, len(benchQuestions))
	for i, q := range benchQuestions {
		ins[i] = benchInput(q, true)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := ins[i%len(ins)]
		scores := score.Default{}.Score(context.Background(), in)
		_ = confidence.Of(in, scores, 0)
	}
}

// BenchmarkSignalsLinked is BenchmarkSignals with what the Engine links
// too: linked columns, each with its phrase (phrases) or not, stored
// values with their columns, and an evidence that defines one: the cost
// of telling the columns the question owes from the others.
func BenchmarkSignalsLinked(b *testing.B) {
	for _, phrases := range []bool{false, true} {
		name := "without phrases"
		if phrases {
			name = "with phrases"
		}
		b.Run(name, func(b *testing.B) {
			ins := make([]*score.Input, len(benchQuestions))
			for i, q := range benchQuestions {
				in := benchInput(q, true)
				in.Evidence = "the Aberdeen office is branch ABZ; revenue is the total of orders"
				in.EvidenceAnalysis = gloss.Analyze(in.Evidence)
				in.Columns = []string{"public.customers.name", "public.customers.city", "public.orders.total", "public.orders.status"}
				in.ValueColumns = []string{"public.customers.city"}
				if phrases {
					in.ColumnPhrases = []string{"names", "Aberdeen", "revenue", "order"}
				}
				ins[i] = in
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				in := ins[i%len(ins)]
				scores := score.Default{}.Score(context.Background(), in)
				_ = confidence.Of(in, scores, 0)
			}
		})
	}
}
