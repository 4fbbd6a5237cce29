package score_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestDefaultReadsTheAnalysis: Default finds the shapes a question asks
// for ("how many", "each") in its analysis, not in its text: with the
// analysis's tokens taken away the count and the groups are no longer
// asked for, so the candidate that gives neither is no longer ranked
// below the one that does; a stale analysis is replaced by the text's.
func TestDefaultReadsTheAnalysis(t *testing.T) {
	const q = "How many orders does each customer have?"
	input := func(analysis *gloss.Analysis) *score.Input {
		return &score.Input{Question: q, QuestionAnalysis: analysis, EvidenceAnalysis: gloss.Analyze(""), Candidates: []score.Candidate{
			{SQL: "SELECT customer_id, count(*) FROM orders GROUP BY customer_id", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 3, Grouped: true},
			{SQL: "SELECT customer_id FROM orders", Votes: 1, Agreement: -1, OrderedAgreement: -1, ResultRows: 3},
		}}
	}
	read := score.Default{}.Score(context.Background(), input(gloss.Analyze(q)))
	if read[0] <= read[1] {
		t.Fatalf("scores %v: want the count per customer first", read)
	}
	blank := *gloss.Analyze(q)
	blank.Tokens, blank.Words, blank.Phrases = nil, nil, nil
	if s := (score.Default{}).Score(context.Background(), input(&blank)); s[0] != s[1] {
		t.Errorf("an analysis without tokens scored %v: the text was read again", s)
	}
	if s := (score.Default{}).Score(context.Background(), input(gloss.Analyze("List the orders"))); !slices.Equal(s, read) {
		t.Errorf("a stale analysis scored %v, want %v", s, read)
	}
}
