package nl2sql

import "github.com/nl2sqlgo/nl2sql/gloss"

// reading is a request's question and evidence, each read once by
// gloss.Analyze: retrieval, linking, the prompt's docs and difficulty,
// scoring and the confidence signals (score.Input's analyses) all read
// them from here instead of splitting and stemming the text again.
type reading struct {
	question, evidence *gloss.Analysis
}

func read(question, evidence string) *reading {
	return &reading{question: gloss.Analyze(question), evidence: gloss.Analyze(evidence)}
}

// of reports whether r is the reading of question and evidence.
func (r *reading) of(question, evidence string) bool {
	return r != nil && r.question.Text == question && r.evidence.Text == evidence
}
