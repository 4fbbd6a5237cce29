package nl2sql

import (
	"context"
	"regexp"
	"strings"

	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Scorer ranks candidates that validated and planned. It returns one score
// per candidate (higher is better); the Engine runs the best, ties going to
// the earlier candidate.
type Scorer interface {
	Score(ctx context.Context, in *ScoreInput) []float64
}

// ScoreInput is what a Scorer sees.
type ScoreInput struct {
	Question   string
	Evidence   string
	Candidates []ScoreCandidate
	// ContextTables are the tables retrieval put in the prompt.
	ContextTables []string
	// Values are stored values the question names ("Negotiation").
	Values []string
	// Joins are the join edges the planner proposed for the context's core
	// tables ("schema.table.col" pairs).
	Joins []plan.JoinEdge
}

// ScoreCandidate is one validated, planned candidate.
type ScoreCandidate struct {
	SQL      string
	Votes    int              // samples that proposed it
	Issues   []validate.Issue // lint warnings
	Tables   []string         // relations it reads
	Cost     float64          // planner total cost
	Rows     float64          // planner row estimate
	Repaired bool             // it needed a repair to plan
	// Joins are the candidate's own join equalities ("schema.table.col").
	Joins []plan.JoinEdge
	// Agreement is the share of the other executed candidates that returned
	// the same rows, or -1 when results were not compared (too costly, or a
	// single candidate).
	Agreement float64
}

// DefaultScorer combines agreement between samples (same SQL, and same rows
// when results were compared), lint, repairs, schema adherence (tables
// inside the retrieved context), join-skeleton agreement (the candidate's
// joins follow the planned join edges), the expected result shape ("how
// many" -> COUNT, "top N" -> ORDER BY + LIMIT, "by/per/each" -> GROUP BY),
// values the question names appearing in the SQL, and planner cost.
type DefaultScorer struct{}

var (
	reTopN    = regexp.MustCompile(`(?i)\b(top|highest|lowest|most|least|largest|smallest|best|worst|biggest)\b`)
	reCount   = regexp.MustCompile(`(?i)\b(how many|number of|count)\b`)
	reGroupBy = regexp.MustCompile(`(?i)\b(per|by|each|for every)\b`)
)

// Score implements Scorer. The weights are heuristics; each part is small so
// that no single signal overrides agreement between samples.
func (DefaultScorer) Score(_ context.Context, in *ScoreInput) []float64 {
	total := 0
	for _, c := range in.Candidates {
		total += c.Votes
	}
	inContext := map[string]bool{}
	for _, t := range in.ContextTables {
		inContext[t] = true
	}
	q := in.Question + " " + in.Evidence
	out := make([]float64, len(in.Candidates))
	for i, c := range in.Candidates {
		s := 1.0
		if total > 0 {
			s += 0.6 * float64(c.Votes) / float64(total)
		}
		warn := 0
		for _, is := range c.Issues {
			if is.Severity == validate.SeverityWarning {
				warn++
			}
		}
		s -= 0.1 * float64(min(warn, 3))
		if c.Repaired {
			s -= 0.1
		}
		outside := 0
		for _, t := range c.Tables {
			if len(inContext) > 0 && !inContext[t] {
				outside++
			}
		}
		s -= 0.1 * float64(min(outside, 2))
		upper := strings.ToUpper(c.SQL)
		if reCount.MatchString(q) {
			s += bonus(strings.Contains(upper, "COUNT("))
		}
		if reTopN.MatchString(q) {
			s += bonus(strings.Contains(upper, "ORDER BY") && strings.Contains(upper, "LIMIT"))
		}
		if reGroupBy.MatchString(q) {
			s += bonus(strings.Contains(upper, "GROUP BY") || strings.Contains(upper, "OVER ("))
		}
		for _, v := range in.Values {
			if strings.Contains(c.SQL, "'"+strings.ReplaceAll(v, "'", "''")+"'") {
				s += 0.1
			}
		}
		if c.Cost > 1e7 {
			s -= 0.2
		}
		if len(c.Joins) > 0 && len(in.Joins) > 0 {
			planned := map[plan.JoinEdge]bool{}
			for _, j := range in.Joins {
				planned[j], planned[plan.JoinEdge{From: j.To, To: j.From}] = true, true
			}
			hit := 0
			for _, j := range c.Joins {
				if planned[j] {
					hit++
				}
			}
			s += 0.2*float64(hit)/float64(len(c.Joins)) - 0.1
		}
		if c.Agreement >= 0 {
			s += 0.4 * c.Agreement
		}
		out[i] = s
	}
	return out
}

func bonus(ok bool) float64 {
	if ok {
		return 0.1
	}
	return -0.1
}

// confidence maps a DefaultScorer-like score to [0, 1]: 1.0 (valid, no
// signal either way) is 0.5; agreement and matching shape raise it.
func confidence(score float64) float64 {
	c := (score - 0.5) / 1.2
	return max(0, min(1, c))
}
