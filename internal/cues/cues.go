// Package cues holds what the scorer (package score) and the confidence
// signals (package confidence) both read in a question and in a query:
// the answer shapes a question asks for, the tables it names, a query's
// string constants, the lint codes that mark a defect, and the row cap of
// the runs that compare candidates' results. Each is defined once here so
// that the ranking and the confidence cannot drift apart.
//
// The question and its evidence are read once, by gloss.Analyze, and the
// cues find what they look for in that analysis (a Reading of it: its
// tokens' words, in order), never in the text again: every function here
// that reads a question takes a *Reading or a *gloss.Analysis, not a
// string, so the compiler keeps it so. Regular expressions are left for
// the SQL (StringLiteral).
package cues

import (
	"regexp"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Shapes a question asks for, read in a Reading of its analysis.
var (
	// TopN: the answer is the top or bottom rows of a sort.
	TopN = NewCue("top", "highest", "lowest", "most", "least", "largest", "smallest", "best", "worst", "biggest")
	// Count: the answer is a count.
	Count = NewCue("how many", "number of", "count")
	// GroupBy: the answer has one row per group.
	GroupBy = NewCue("per", "by", "each", "for every")
	// Distinct: "different", "unique": the answer lists each value once.
	Distinct = NewCue("different", "distinct", "unique")
	// Existence matches questions that may rightly have no rows ("is
	// there", "whether", "any ... ?").
	Existence = NewCue("is there", "are there", "whether", "exists", "exist", "if any")
)

// StringLiteral matches a SQL string constant, doubled quotes inside
// included.
var StringLiteral = regexp.MustCompile(`'(?:[^']|'')*'`)

// defects are the lint warnings that say the query answers something else
// than it seems to (rows counted twice, a condition never true), not how
// it is written.
var defects = map[string]bool{validate.CodeFanTrap: true, validate.CodeContradiction: true, validate.CodeUnusedRanking: true,
	validate.CodeGroupedKeyCount: true, validate.CodeAggregateSetOp: true, validate.CodeGroupOfOneRow: true}

// Defect reports whether the lint code says the query answers something
// else than it seems to (validate.CodeFanTrap, CodeContradiction,
// CodeUnusedRanking, CodeGroupedKeyCount, CodeAggregateSetOp,
// CodeGroupOfOneRow).
func Defect(code string) bool { return defects[code] }

// CompareRows is the row cap of the runs that compare candidates' results
// (score.Candidate.ResultRows counts at most a little more).
const CompareRows = 2000

// NamedTables returns the tables (of tables) the question names: every
// term of the table's name (stemmed, stopwords dropped) is one of the
// question's terms ("car makers" names car_makers, "pets" names has_pet).
func NamedTables(question []string, tables []string) []string {
	terms := map[string]bool{}
	for _, t := range question {
		terms[t] = true
	}
	var out []string
	for _, qn := range tables {
		name := qn[strings.LastIndexByte(qn, '.')+1:]
		ts := gloss.Terms(name)
		all := len(ts) > 0
		for _, t := range ts {
			all = all && terms[t]
		}
		if all {
			out = append(out, qn)
		}
	}
	return out
}

// Coverage is the share of want found in have (0 when want is empty).
func Coverage(have, want []string) float64 {
	if len(want) == 0 {
		return 0
	}
	n := 0
	for _, w := range want {
		if slices.Contains(have, w) {
			n++
		}
	}
	return float64(n) / float64(len(want))
}
