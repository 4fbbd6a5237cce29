package nl2sql

import (
	"slices"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// maxDeviationConfidence caps the confidence of an answer that computes a
// measure the question names otherwise than the semantic model defines it:
// the business's definition is what the question means, so such an answer
// is at best a guess (VerdictUncertain at the default threshold), whatever
// else speaks for it. The calibrator cannot weigh it: no benchmark it is
// fitted on has a semantic model.
const maxDeviationConfidence = 0.5

// computedPhrases are the phrases of the measure links that deviations
// does not name: the question's words for what the query computes as
// defined ("revenue" is used by a sum of total_amount without cancelled
// orders, though no name of the query says revenue).
func computedPhrases(links []semantic.Link, deviations []semantic.Deviation) []string {
	var out []string
	for _, l := range links {
		if l.Kind == semantic.LinkMeasure && !slices.ContainsFunc(deviations, func(d semantic.Deviation) bool { return d.Measure == l.Name }) {
			out = append(out, l.Phrase)
		}
	}
	return out
}

// deviationCap is p, capped at maxDeviationConfidence when the answer
// computes a named measure otherwise than defined.
func deviationCap(p float64, s *confidence.Signals) float64 {
	if s.Deviations > 0 {
		return min(p, maxDeviationConfidence)
	}
	return p
}
