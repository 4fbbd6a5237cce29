package nl2sql

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
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
	// Columns are the columns the question's phrases link to strongly
	// ("schema.table.column").
	Columns []string
	// Joins are the join edges the planner proposed for the context's core
	// tables ("schema.table.col" pairs).
	Joins []plan.JoinEdge
	// Measures are the measures of the semantic model (WithSemantic) the
	// question names ("revenue"); each candidate's Deviations say which
	// of them it computes otherwise than defined.
	Measures []string

	read *reading // the Engine's reading of Question and Evidence
}

// reading returns the reading of the input's question and evidence: the
// Engine's when it built the input, a new one when a program did.
func (in *ScoreInput) reading() *reading {
	if in.read.of(in.Question, in.Evidence) {
		return in.read
	}
	return read(in.Question, in.Evidence)
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
	// Deviations are the measures the question names (ScoreInput.Measures)
	// that the candidate computes otherwise than the semantic model
	// defines them: without the measure's filter, or with another
	// aggregation, expression or table (semantic.Model.Deviations).
	Deviations []semantic.Deviation

	// computes are the question's phrases naming measures it computes as
	// defined: words of the question it uses.
	computes []string
}

// DefaultScorer combines agreement between samples (same SQL, and same rows
// when results were compared, in any column order, the same order counting
// a little more), lint, repairs, schema adherence (tables inside the
// retrieved context), join-skeleton agreement (the candidate's joins follow
// the planned join edges), the expected result shape ("how many" -> COUNT,
// "top N" -> ORDER BY + LIMIT, "by/per/each" -> GROUP BY, "different" or
// "unique" -> DISTINCT or GROUP BY), a measure the question names computed
// otherwise than the semantic model defines it, values the
// question names appearing in the SQL, the question's words among the names
// and constants it uses, what its run returned (no rows, repeated rows of a
// query that does not group, constants no row holds) and planner cost.
type DefaultScorer struct{}

var (
	reTopN    = regexp.MustCompile(`(?i)\b(top|highest|lowest|most|least|largest|smallest|best|worst|biggest)\b`)
	reCount   = regexp.MustCompile(`(?i)\b(how many|number of|count)\b`)
	reGroupBy = regexp.MustCompile(`(?i)\b(per|by|each|for every)\b`)
	// "different", "unique": the answer lists each value once.
	reDistinct = regexp.MustCompile(`(?i)\b(different|distinct|unique)\b`)
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
	terms := in.reading().terms()
	named := namedTables(terms, in.ContextTables)
	presumesRows := !reExistence.MatchString(q)
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
				defect = defect || defects[is.Code]
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
		if reDistinct.MatchString(q) {
			s += bonus(strings.Contains(upper, "DISTINCT") || c.Grouped)
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
			s += weightAgreement * c.Agreement
		}
		if c.OrderedAgreement >= 0 {
			s += weightOrderedAgreement * c.OrderedAgreement
		}
		if len(named) > 0 {
			// A penalty, not a bonus: reading what the question names is
			// expected, and should not raise confidence on its own.
			s -= weightNamed * (1 - coverage(c.Tables, named))
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
			s -= weightLinkedColumns * (1 - coverage(c.Columns, in.Columns))
		}
		s += weightQuestionTerms * termCoverage(qTerms, c)
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
// measure the question names otherwise than the business defined it.
const (
	weightAgreement        = 0.8
	weightOrderedAgreement = 0.2
	weightNamed            = 0.3
	weightEmpty            = 0.3
	weightUnknownValue     = 0.8
	weightDuplicates       = 0.2
	weightLinkedColumns    = 0.3
	weightQuestionTerms    = 0.3
	weightDefect           = 0.8
	weightDeviation        = 0.8
)

// defects are the lint warnings that say the query answers something else
// than it seems to (rows counted twice, a condition never true), not how it
// is written; with FanOut they cost weightDefect, as much as most of the
// other candidates agreeing.
var defects = map[string]bool{validate.CodeFanTrap: true, validate.CodeContradiction: true}

// linkedColumnScore is the link score from which a linked column is
// expected in the answer.
const linkedColumnScore = 0.8

// reExistence matches questions that may rightly have no rows ("is there",
// "whether", "any ... ?").
var reExistence = regexp.MustCompile(`(?i)\b(is there|are there|whether|exists?|if any)\b`)

// namedTables returns the tables (of tables) the question names: every term
// of the table's name (stemmed, stopwords dropped) is one of the
// question's terms ("car makers" names car_makers, "pets" names has_pet).
func namedTables(question []string, tables []string) []string {
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

// uniqueTerms returns the distinct retrieval terms (stemmed, stopwords
// dropped) of text.
func uniqueTerms(text string) []string {
	ts := gloss.Terms(text)
	slices.Sort(ts)
	return slices.Compact(ts)
}

// reStringLiteral matches a SQL string constant ('it”s' included).
var reStringLiteral = regexp.MustCompile(`'(?:[^']|'')*'`)

// termCoverage is the share of the question's terms found in the names of
// the columns and tables c reads and in its string constants: of two
// candidates, the one that uses what the question talks about ("official
// language" -> countrylanguage.isofficial) is more likely to answer it.
func termCoverage(question []string, c ScoreCandidate) float64 {
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
	for _, lit := range reStringLiteral.FindAllString(c.SQL, -1) {
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

// coverage is the share of want found in have.
func coverage(have, want []string) float64 {
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

func bonus(ok bool) float64 {
	if ok {
		return 0.1
	}
	return -0.1
}

// cheapCost is the planner cost below which candidates are run to compare
// their results (execution-result voting).
const cheapCost = 1e5

// compareRows is the row cap of the runs that compare results.
const compareRows = 2000

// runOutcome is what running a candidate to compare results gave.
type runOutcome struct {
	digest     string // "" when not run or failed
	unordered  string // digest ignoring the order of the columns
	group      int    // ScoreCandidate.ResultGroup
	result     *execute.Result
	rows       int  // rows returned (at most compareRows+1); -1 when not run
	duplicates bool // some row is returned more than once
	// agreement is the share of the other compared candidates' votes that
	// went to the same rows, whatever their column order (-1: not
	// compared); ordered counts only those with the same column order.
	agreement, ordered float64
}

// agreement runs cheap candidates with a row cap and returns, per
// candidate, what the run gave and how far the others agree with it. A
// result cut at the cap is not compared: which rows came first is the
// server's choice (a parallel or synchronized scan sends others on the
// next run).
func (e *Engine) agreement(ctx context.Context, sc *scope, cands []*candidate) []runOutcome {
	runs := make([]runOutcome, len(cands))
	for i := range runs {
		runs[i].rows, runs[i].agreement, runs[i].ordered, runs[i].group = -1, -1, -1, -1
	}
	if len(cands) < 2 {
		return runs
	}
	for i, cd := range cands {
		if cd.cost > cheapCost {
			continue
		}
		r, err := sc.query(ctx, cd.validated.SQL, compareRows)
		if err != nil {
			continue
		}
		if r.Truncated {
			runs[i].rows = len(r.Rows) // not empty, but not comparable
			continue
		}
		runs[i].digest, runs[i].unordered, runs[i].duplicates = resultDigest(r)
		runs[i].rows, runs[i].result = len(r.Rows), r
	}
	groups := map[string]int{}
	for i := range runs {
		if runs[i].digest == "" {
			continue
		}
		g, ok := groups[runs[i].unordered]
		if !ok {
			g = len(groups)
			groups[runs[i].unordered] = g
		}
		runs[i].group = g
	}
	for i := range cands {
		if runs[i].digest == "" {
			continue
		}
		// Weighted by votes: a query several samples proposed counts as
		// several answers.
		same, ordered, compared := 0, 0, 0
		for j := range cands {
			if i == j || runs[j].digest == "" {
				continue
			}
			compared += cands[j].Votes
			if runs[i].unordered == runs[j].unordered {
				same += cands[j].Votes
			}
			if runs[i].digest == runs[j].digest {
				ordered += cands[j].Votes
			}
		}
		if compared > 0 {
			runs[i].agreement = float64(same) / float64(compared)
			runs[i].ordered = float64(ordered) / float64(compared)
		}
	}
	return runs
}

// resultDigest identifies a result by its values, ignoring column names and
// row order (two queries answering alike may name and sort differently),
// and reports whether a row repeats. unordered also ignores the order of
// the columns: "count, name" and "name, count" give the same answer.
func resultDigest(r *execute.Result) (digest, unordered string, dup bool) {
	rows := make([]string, len(r.Rows))
	cells := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		b, _ := json.Marshal(row)
		rows[i] = string(b)
		vals := make([]string, len(row))
		for j, v := range row {
			b, _ := json.Marshal(v)
			vals[j] = string(b)
		}
		sort.Strings(vals)
		cells[i] = strings.Join(vals, "\x1f")
	}
	sort.Strings(rows)
	sort.Strings(cells)
	for i := 1; i < len(rows) && !dup; i++ {
		dup = rows[i] == rows[i-1]
	}
	return fmt.Sprint(len(r.Columns), r.Truncated, rows), fmt.Sprint(len(r.Columns), cells), dup
}

// scoring is what scoring the validated candidates gave: the Scorer's
// input and scores, the best candidate and what running them to compare
// results returned.
type scoring struct {
	in     *ScoreInput
	scores []float64 // one per candidate; missing ones count as 0
	best   int       // ties go to the earlier candidate
	runs   []runOutcome
}

// score scores validated candidates with the engine's Scorer.
func (e *Engine) score(ctx context.Context, rq *request, c *SchemaContext, ok []*candidate, contextTables []string) *scoring {
	st, ac := rq.st, rq.ac
	in := &ScoreInput{Question: c.Question, Evidence: ac.evidence, ContextTables: contextTables, Joins: c.Joins, Measures: semantic.Measures(c.Semantic), read: rq.reading}
	for _, v := range c.Links.Values {
		in.Values = append(in.Values, v.Value)
	}
	for _, cl := range c.Links.Columns {
		if cl.Score >= linkedColumnScore {
			in.Columns = append(in.Columns, cl.Table+"."+cl.Column)
		}
	}
	runs := e.agreement(ctx, rq.scope, ok)
	repeats := e.repeatedKeys(ctx, rq.scope)
	for i, cd := range ok {
		sc := ScoreCandidate{SQL: cd.validated.SQL, Votes: cd.Votes, Issues: cd.validated.Issues,
			Tables: cd.validated.Tables, Cost: cd.cost, Rows: cd.rows, Repaired: repairedToPlan(cd.Repairs),
			Agreement: runs[i].agreement, OrderedAgreement: runs[i].ordered, ResultRows: runs[i].rows, DuplicateRows: runs[i].duplicates,
			ResultGroup:   runs[i].group,
			UnknownValues: st.valueSets.UnknownValues(cd.validated.SQL, cd.validated.Tables),
			Grouped:       grouped(cd.validated.SQL),
			FanOut:        sqlrefs.FanOut(cd.validated.SQL, st.cat, c.SearchPath, repeats)}
		if len(in.Measures) > 0 {
			sc.Deviations = st.semantic.Deviations(cd.validated.SQL, in.Measures, st.cat, c.SearchPath)
			sc.computes = computedPhrases(c.Semantic, sc.Deviations)
		}
		if refs, err := sqlrefs.Extract(cd.validated.SQL, st.cat, c.SearchPath); err == nil {
			sc.Columns = refs.Columns
			for _, j := range refs.Joins {
				sc.Joins = append(sc.Joins, plan.JoinEdge{From: j.From, To: j.To})
			}
		}
		in.Candidates = append(in.Candidates, sc)
	}
	raw := e.cfg.scorer.Score(ctx, in)
	scores := make([]float64, len(ok))
	copy(scores, raw)
	best := 0
	for i := range ok {
		ok[i].Score = scores[i]
		if scores[i] > scores[best] {
			best = i
		}
	}
	return &scoring{in: in, scores: scores, best: best, runs: runs}
}

// maxRepeatScan is the largest table (planner estimate) whose rows are
// read to learn whether join columns repeat when it declares no key.
const maxRepeatScan = 1e6

// repeatedKeys returns the check sqlrefs.FanOut asks about a table that
// declares no key: does the data hold two rows with the same values in
// cols? It runs under the request's policy, bounded by verifyTimeout, and
// remembers its answers for the request; a table too large, a failure or a
// timeout answers no (the candidate is not marked).
func (e *Engine) repeatedKeys(ctx context.Context, sc *scope) func(*schema.Table, []string) bool {
	seen := map[string]bool{}
	return func(t *schema.Table, cols []string) bool {
		key := t.QualifiedName() + "\x00" + strings.Join(cols, "\x00")
		if v, ok := seen[key]; ok {
			return v
		}
		if t.EstimatedRows > maxRepeatScan {
			return false
		}
		quoted := make([]string, len(cols))
		for i, col := range cols {
			quoted[i] = schema.QuoteIdent(col)
		}
		q := "SELECT 1 FROM " + t.QuoteQualified() + " GROUP BY " + strings.Join(quoted, ", ") + " HAVING count(*) > 1"
		vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
		r, err := sc.query(vctx, q, 1)
		cancel()
		seen[key] = err == nil && len(r.Rows) > 0
		return seen[key]
	}
}

// repairedToPlan reports whether a candidate needed a repair to validate or
// plan: writing a literal as the stored value does not count (the query
// ran before it, just on a value no row holds), nor does breaking ties.
func repairedToPlan(rules []string) bool {
	for _, r := range rules {
		if r != RuleStoredValue && r != RuleTieOrder {
			return true
		}
	}
	return false
}
