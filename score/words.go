package score

import "github.com/nl2sqlgo/nl2sql/gloss"

// Analyses returns the analyses of Question and Evidence: the ones the
// input carries when they are of its text, new ones otherwise (a program
// that built the input, or a Scorer that changed its question, gets a
// reading of the text it holds, never a stale one).
func (in *Input) Analyses() (question, evidence *gloss.Analysis) {
	if in.QuestionAnalysis != nil && in.EvidenceAnalysis != nil &&
		in.QuestionAnalysis.Text == in.Question && in.EvidenceAnalysis.Text == in.Evidence {
		return in.QuestionAnalysis, in.EvidenceAnalysis
	}
	return gloss.Analyze(in.Question), gloss.Analyze(in.Evidence)
}

// Words are the question's words, then the evidence's: the words of
// Question + " " + Evidence.
func (in *Input) Words() []gloss.Word {
	q, e := in.Analyses()
	return append(append([]gloss.Word(nil), q.Words...), e.Words...)
}

// Terms are the stems of the words that are no stopword, in order.
func (in *Input) Terms() []string {
	q, e := in.Analyses()
	return append(q.Terms(), e.Terms()...)
}
