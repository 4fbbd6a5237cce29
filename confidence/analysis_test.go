package confidence_test

import (
	"reflect"
	"testing"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/score"
)

// TestSignalsReadTheAnalysis: the signals read the question through its
// analysis, never its text again. An analysis of the question whose
// tokens are taken away leaves the signals no cue to find, although the
// text still says "how many" and "each"; an analysis of another text (the
// question changed after it was made) is not read, the text is analysed
// anew (score.Input.Analyses), so the signals are the new question's.
func TestSignalsReadTheAnalysis(t *testing.T) {
	const q = "How many orders does each customer have in 2024?"
	input := func(question string, analysis *gloss.Analysis) *score.Input {
		return &score.Input{Question: question, QuestionAnalysis: analysis, EvidenceAnalysis: gloss.Analyze(""),
			ContextTables: []string{"public.orders"},
			Candidates: []score.Candidate{{SQL: "SELECT customer_id FROM orders", Votes: 1, Tables: []string{"public.orders"},
				Agreement: -1, OrderedAgreement: -1, ResultRows: 3, ResultGroup: -1}}}
	}
	read := confidence.Of(input(q, gloss.Analyze(q)), []float64{1}, 0)
	if read.ShapeAsked != 2 || read.ShapeMissed != 2 || read.ValuesUsed != 0 {
		t.Fatalf("the question's analysis: %d shapes asked, %d missed, values used %v; want a count and groups missed, 2024 unused",
			read.ShapeAsked, read.ShapeMissed, read.ValuesUsed)
	}
	blank := *gloss.Analyze(q)
	blank.Tokens, blank.Words, blank.Phrases = nil, nil, nil
	if s := confidence.Of(input(q, &blank), []float64{1}, 0); s.ShapeAsked != 0 || s.ValuesUsed != 1 || s.QuestionCovered != 1 {
		t.Errorf("an analysis without tokens: %d shapes asked, values used %v, covered %v: the text was read again",
			s.ShapeAsked, s.ValuesUsed, s.QuestionCovered)
	}
	stale := confidence.Of(input(q, gloss.Analyze("List the orders")), []float64{1}, 0)
	if !reflect.DeepEqual(stale, read) {
		t.Errorf("an analysis of another text was read:\n%+v\nwant the question's\n%+v", stale, read)
	}
	if bare := confidence.Of(input(q, nil), []float64{1}, 0); !reflect.DeepEqual(bare, read) {
		t.Errorf("an input without an analysis:\n%+v\nwant the question's\n%+v", bare, read)
	}
}
