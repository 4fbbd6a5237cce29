package score

import (
	"context"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Scorer ranks candidates that validated and planned. It returns one score
// per candidate (higher is better); the Engine runs the best, ties going to
// the earlier candidate.
type Scorer interface {
	Score(ctx context.Context, in *Input) []float64
}

// Input is what a Scorer sees.
type Input struct {
	Question   string
	Evidence   string
	Candidates []Candidate
	// ContextTables are the tables retrieval put in the prompt.
	ContextTables []string
	// Values are stored values the question names ("Negotiation").
	Values []string
	// ValueColumns are, one for each of Values, the column that stores
	// the value ("schema.table.column"): a query that writes the value
	// but reads no column holding it compares it with something else.
	// Nil, or of another length than Values, leaves where a value is
	// stored unknown.
	ValueColumns []string `json:",omitempty"`
	// Columns are the columns the question's phrases link to strongly
	// ("schema.table.column").
	Columns []string
	// ColumnPhrases are, one for each of Columns, the question's (or
	// the evidence's) phrase that links to the column ("JetBlue" for
	// airlines.abbreviation): a column whose phrase the query spends on
	// a value it compares, or that the evidence alone writes, is not
	// owed (package confidence). Nil, or of another length than
	// Columns, leaves the phrases unknown.
	ColumnPhrases []string `json:",omitempty"`
	// Joins are the join edges the planner proposed for the context's core
	// tables ("schema.table.col" pairs).
	Joins []plan.JoinEdge
	// Measures are the measures of the semantic model (WithSemantic) the
	// question names ("revenue"); each candidate's Deviations say which
	// of them it computes otherwise than defined.
	Measures []string

	// QuestionAnalysis and EvidenceAnalysis are gloss.Analyze of
	// Question and Evidence when the caller has read them already (the
	// Engine has): Default and confidence.Of take the words from them
	// instead of reading the text again. Nil, or the analysis of another
	// text, is read anew (see Words).
	QuestionAnalysis *gloss.Analysis `json:"-"`
	EvidenceAnalysis *gloss.Analysis `json:"-"`
}

// Candidate is one validated, planned candidate.
type Candidate struct {
	SQL      string
	Votes    int              // samples that proposed it
	Issues   []validate.Issue // lint warnings
	Tables   []string         // relations it reads
	Cost     float64          // planner total cost
	Rows     float64          // planner row estimate
	Repaired bool             // it needed a repair to plan
	// RepairedNames is true when one of those repairs replaced a column or
	// table it names that does not exist, or qualified an ambiguous one
	// (SQLSTATE 42703, 42P01, 42702): it referred to something that is not
	// there. A repair of spelling (dialect, casts, GROUP BY completed) is
	// not one.
	RepairedNames bool
	// Joins are the candidate's own join equalities ("schema.table.col").
	Joins []plan.JoinEdge
	// Columns are the columns it references ("schema.table.column").
	Columns []string
	// Agreement is the share of the other executed candidates that returned
	// the same rows, or -1 when results were not compared (too costly, or a
	// single candidate).
	Agreement float64
	// OrderedAgreement is the share of those that also returned the
	// columns in the same order (Agreement ignores their order), or -1.
	OrderedAgreement float64
	// ResultRows is the number of rows the candidate returned when it was
	// run to compare results (capped a little above the compare cap), or -1
	// when it was not run.
	ResultRows int
	// DuplicateRows is true when that run returned some row more than once.
	DuplicateRows bool
	// FanOut is true when it sums or averages a column over a join that
	// repeats the column's rows (a table joined by columns that hold no key
	// of it): the average grade of students who have friends, written as a
	// join with the friend table, counts each student once per friend.
	FanOut bool
	// Grouped is true when the top-level query has a GROUP BY: each row is
	// a group, so a repeated row is two groups that look alike (two
	// students named Cassandra), not a join that fans out.
	Grouped bool
	// UnknownValues counts the string literals the candidate compares a
	// column with that the column holds in no row (for the columns whose
	// values the value index knows completely).
	UnknownValues int
	// ResultGroup numbers the distinct results of the compared
	// candidates: two candidates with the same number returned the same
	// rows (in any column order); -1 when the candidate's result was not
	// compared.
	ResultGroup int
	// Deviations are the measures the question names (Input.Measures)
	// that the candidate computes otherwise than the semantic model
	// defines them: without the measure's filter, or with another
	// aggregation, expression or table (semantic.Model.Deviations).
	Deviations []semantic.Deviation
	// Computes are the question's phrases naming measures the candidate
	// computes as defined: words of the question it uses though no name
	// it reads says them ("revenue" for a sum of total_amount without the
	// cancelled orders).
	Computes []string `json:",omitempty"`
	// CountsDisputed is true when another compared candidate returned
	// the same distinct rows, some of them a different number of times
	// (one with DISTINCT, one without): the rows are agreed, how often
	// each belongs in the answer is not.
	CountsDisputed bool `json:",omitempty"`
	// TiedAtCut is true when the candidate keeps the first rows of a
	// sort (a top-level ORDER BY ... LIMIT) and the first row it leaves
	// out sorts equal to the last it keeps: which of the tied rows come
	// back is arbitrary. The Engine runs the probe (rewrite.NewTieProbe)
	// for the chosen candidate only, after scoring: a Scorer sees false.
	TiedAtCut bool `json:",omitempty"`
	// Description is describe.SQL of SQL (default glosser) when the
	// caller has it: the Engine describes each candidate once, and
	// Default, confidence.Of and the Result's description read that one.
	// Nil: computed when needed (Candidate.Describe). It is shared, so
	// it is read, never changed; a program that changes SQL sets it to
	// nil.
	Description *describe.Description `json:"-"`
}

// Describe returns what SQL returns in words: Description when it is
// set, describe.SQL(SQL) otherwise; nil when SQL is not one query
// describe reads.
func (c *Candidate) Describe() *describe.Description {
	if c.Description != nil {
		return c.Description
	}
	d, _ := describe.SQL(c.SQL)
	return d
}
