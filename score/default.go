package score

import (
	"context"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Default combines agreement between samples (same SQL, and same rows
// when results were compared, in any column order, the same order counting
// a little more), lint, repairs, schema adherence (tables inside the
// retrieved context), join-skeleton agreement (the candidate's joins follow
// the planned join edges), the expected result shape ("how many" -> COUNT,
// "top N" -> ORDER BY + LIMIT, "by/per/each" -> GROUP BY, "different" or
// "unique" -> DISTINCT or GROUP BY), a measure the question names computed
// otherwise than the semantic model defines it, values the
// question names appearing in the SQL (when it reads a column that holds
// them), the question's words among the names and constants it uses, the
// order of the columns it returns, what its run returned (no rows,
// repeated rows of a query that does not group, constants no row holds)
// and planner cost.
type Default struct{}

// Score implements Scorer. The weights are heuristics; each part is small so
// that no single signal overrides agreement between samples.
func (Default) Score(_ context.Context, in *Input) []float64 {
	total := 0
	for _, c := range in.Candidates {
		total += c.Votes
	}
	inContext := map[string]bool{}
	for _, t := range in.ContextTables {
		inContext[t] = true
	}
	q := cues.Read(in.Analyses())
	terms, words := in.Terms(), in.Words()
	named := cues.NamedTables(terms, in.ContextTables)
	presumesRows := !q.Has(cues.Existence)
	slices.Sort(terms)
	qTerms := slices.Compact(terms)
	out := make([]float64, len(in.Candidates))
	for i, c := range in.Candidates {
		s := 1.0
		if total > 0 {
			s += 0.6 * float64(c.Votes) / float64(total)
		}
		warn, defect := 0, c.FanOut
		for _, is := range c.Issues {
			if is.Severity == validate.SeverityWarning {
				warn++
				defect = defect || cues.Defect(is.Code)
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
		if q.Has(cues.Count) {
			s += bonus(strings.Contains(upper, "COUNT("))
		}
		if q.Has(cues.TopN) {
			s += bonus(strings.Contains(upper, "ORDER BY") && strings.Contains(upper, "LIMIT"))
		}
		if q.Has(cues.GroupBy) {
			s += bonus(strings.Contains(upper, "GROUP BY") || strings.Contains(upper, "OVER ("))
		}
		if q.Has(cues.Distinct) {
			s += bonus(strings.Contains(upper, "DISTINCT") || c.Grouped)
		}
		for i, v := range in.Values {
			if strings.Contains(c.SQL, "'"+strings.ReplaceAll(v, "'", "''")+"'") && readsValueColumn(in, c, i) {
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
			s += weightAgreement * c.Agreement
		}
		if c.OrderedAgreement >= 0 {
			s += weightOrderedAgreement * c.OrderedAgreement
		}
		if len(named) > 0 {
			// A penalty, not a bonus: reading what the question names is
			// expected, and should not raise confidence on its own.
			s -= weightNamed * (1 - cues.Coverage(c.Tables, named))
		}
		if c.ResultRows == 0 && presumesRows {
			s -= weightEmpty
		}
		if c.UnknownValues > 0 {
			s -= weightUnknownValue
		}
		if c.DuplicateRows && !c.Grouped {
			s -= weightDuplicates
		}
		if len(in.Columns) > 0 {
			s -= weightLinkedColumns * (1 - cues.Coverage(c.Columns, in.Columns))
		}
		s += weightQuestionTerms * termCoverage(qTerms, c)
		if d := c.Describe(); d != nil && !cues.OutOfOrder(words, d.Columns) {
			s += weightQuestionOrder
		}
		if defect {
			s -= weightDefect
		}
		if len(c.Deviations) > 0 {
			s -= weightDeviation
		}
		out[i] = s
	}
	return out
}

// Weights of the result-based signals. Agreement between the results of
// independently written queries is the strongest evidence of a right answer
// (in any column order; the same order breaks ties between orders). A
// query that reads every table the question names, and one that returns
// rows when the question presumes some, break its ties and overrule a thin
// majority. Evidence that a query is wrong whatever the others say (a
// constant no row holds, rows counted twice, a condition never true)
// outweighs most of the agreement: several models make the same slip
// (measured on spider-pools: see docs/benchmarks.md). So does computing a
// measure the question names otherwise than the business defined it. A
// defect (cues.Defect) or FanOut costs weightDefect, as much as most of the
// other candidates agreeing. Returning what the question names in the
// order it names it (cues.OutOfOrder) is worth weightQuestionOrder, half
// the smallest other part: results are compared in any column order, so
// it decides between candidates that answer alike, not against evidence.
const (
	weightAgreement        = 0.8
	weightOrderedAgreement = 0.2
	weightNamed            = 0.3
	weightEmpty            = 0.3
	weightUnknownValue     = 0.8
	weightDuplicates       = 0.2
	weightLinkedColumns    = 0.3
	weightQuestionTerms    = 0.3
	weightQuestionOrder    = 0.05
	weightDefect           = 0.8
	weightDeviation        = 0.8
)

// termCoverage is the share of the question's terms found in the names of
// the columns and tables c reads and in its string constants: of two
// candidates, the one that uses what the question talks about ("official
// language" -> countrylanguage.isofficial) is more likely to answer it.
func termCoverage(question []string, c Candidate) float64 {
	if len(question) == 0 {
		return 0
	}
	have := map[string]bool{}
	add := func(text string) {
		for _, t := range gloss.Terms(text) {
			have[t] = true
		}
	}
	for _, col := range c.Columns {
		add(col[strings.LastIndexByte(col, '.')+1:])
	}
	for _, t := range c.Tables {
		add(t[strings.LastIndexByte(t, '.')+1:])
	}
	for _, lit := range cues.StringLiteral.FindAllString(c.SQL, -1) {
		add(lit)
	}
	n := 0
	for _, t := range question {
		if have[t] {
			n++
		}
	}
	return float64(n) / float64(len(question))
}

func bonus(ok bool) float64 {
	if ok {
		return 0.1
	}
	return -0.1
}

// readsValueColumn reports whether c reads the column that stores
// in.Values[i], or whether that is unknown (no ValueColumns, or no
// Columns of c). A value written in the SQL is evidence that the query
// filters on what the question names only where it is compared with a
// column that holds it: 'American Motor Company' is a maker's full name,
// and car_names.make = 'American Motor Company' selects no car.
func readsValueColumn(in *Input, c Candidate, i int) bool {
	if len(in.ValueColumns) != len(in.Values) || len(c.Columns) == 0 {
		return true
	}
	return slices.Contains(c.Columns, in.ValueColumns[i])
}
