package nl2sql

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/internal/cues"
	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/score"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// linkedColumnScore is the link score from which a linked column is
// expected in the answer.
const linkedColumnScore = 0.8

// cheapCost is the planner cost below which candidates are run to compare
// their results (execution-result voting).
const cheapCost = 1e5

// runOutcome is what running a candidate to compare results gave.
type runOutcome struct {
	digest     string // "" when not run or failed
	unordered  string // digest ignoring the order of the columns
	set        string // digest ignoring that order and how often a row repeats
	group      int    // score.Candidate.ResultGroup
	result     *execute.Result
	rows       int  // rows returned (at most cues.CompareRows+1); -1 when not run
	duplicates bool // some row is returned more than once
	// agreement is the share of the other compared candidates' votes that
	// went to the same rows, whatever their column order (-1: not
	// compared); ordered counts only those with the same column order.
	agreement, ordered float64
	// recounted is true when another compared candidate returned the
	// same distinct rows, some of them a different number of times.
	recounted bool
}

// reusedRun is the chosen candidate's run to compare results, when it is
// the answer: it read every row (no cap cut it) and fewer than maxRows, so
// running the same SQL in the same scope again, with the answer's cap,
// would return the same rows. Nil when the query must run again. The
// Result gets its own slice of the rows (the alternatives show the run's).
func (sc *scoring) reusedRun(maxRows int) *execute.Result {
	if sc.best < 0 || sc.best >= len(sc.runs) {
		return nil
	}
	r := sc.runs[sc.best].result
	if r == nil || r.Truncated || len(r.Rows) >= maxRows {
		return nil
	}
	cp := *r
	cp.Rows = slices.Clone(r.Rows)
	return &cp
}

// agreement runs cheap candidates with a row cap and returns, per
// candidate, what the run gave and how far the others agree with it. A
// result cut at the cap is not compared: which rows came first is the
// server's choice (a parallel or synchronized scan sends others on the
// next run). A lone candidate is run too, before it is judged: whether it
// returns no rows, or some twice, is evidence of its own (an Ask that drew
// one sample, Pick of one query), though there is nothing to compare it
// with.
func (e *Engine) agreement(ctx context.Context, sc *scope, cands []*candidate) []runOutcome {
	runs := make([]runOutcome, len(cands))
	for i := range runs {
		runs[i].rows, runs[i].agreement, runs[i].ordered, runs[i].group = -1, -1, -1, -1
	}
	for i, cd := range cands {
		if cd.cost > cheapCost {
			continue
		}
		r, err := sc.query(ctx, cd.validated.SQL, cues.CompareRows)
		if err != nil {
			continue
		}
		if r.Truncated {
			runs[i].rows = len(r.Rows) // not empty, but not comparable
			continue
		}
		runs[i].digest, runs[i].unordered, runs[i].set, runs[i].duplicates = resultDigest(r)
		runs[i].rows, runs[i].result = len(r.Rows), r
	}
	if len(cands) < 2 {
		return runs // its rows and repeats, no group: nothing compared
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
			if runs[i].set == runs[j].set && runs[i].unordered != runs[j].unordered {
				runs[i].recounted = true
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
// and reports whether a row repeats. set also ignores how many times a
// row comes back ("SELECT DISTINCT grade" and "SELECT grade" give the same
// set). unordered also ignores the order of
// the columns: "count, name" and "name, count" give the same answer.
func resultDigest(r *execute.Result) (digest, unordered, set string, dup bool) {
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
	return fmt.Sprint(len(r.Columns), r.Truncated, rows), fmt.Sprint(len(r.Columns), cells), fmt.Sprint(len(r.Columns), slices.Compact(slices.Clone(cells))), dup
}

// scoring is what scoring the validated candidates gave: the Scorer's
// input and scores, the best candidate and what running them to compare
// results returned.
type scoring struct {
	in     *score.Input
	scores []float64 // one per candidate; missing ones count as 0
	best   int       // ties go to the earlier candidate
	runs   []runOutcome
	// described are the candidates' descriptions (nil: not one query
	// describe reads), the ones the Engine put in in.Candidates, kept
	// apart from what a Scorer may change there.
	described []*describe.Description
}

// score scores validated candidates with the engine's Scorer.
func (e *Engine) score(ctx context.Context, rq *request, c *SchemaContext, ok []*candidate, contextTables []string) *scoring {
	st, ac := rq.st, rq.ac
	in := &score.Input{Question: c.Question, Evidence: ac.evidence, ContextTables: contextTables, Joins: c.Joins, Measures: semantic.Measures(c.Semantic)}
	if r := rq.reading; r != nil {
		in.QuestionAnalysis, in.EvidenceAnalysis = r.question, r.evidence
	}
	for _, v := range c.Links.Values {
		in.Values = append(in.Values, v.Value)
		in.ValueColumns = append(in.ValueColumns, v.Table+"."+v.Column)
	}
	for _, cl := range c.Links.Columns {
		if cl.Score >= linkedColumnScore {
			in.Columns = append(in.Columns, cl.Table+"."+cl.Column)
			in.ColumnPhrases = append(in.ColumnPhrases, cl.Phrase)
		}
	}
	runs := e.agreement(ctx, rq.scope, ok)
	repeats := e.repeatedKeys(ctx, rq.scope)
	var described []*describe.Description
	descriptions := map[string]*describe.Description{}
	for i, cd := range ok {
		sc := score.Candidate{SQL: cd.validated.SQL, Votes: cd.Votes, Issues: cd.validated.Issues,
			Tables: cd.validated.Tables, Cost: cd.cost, Rows: cd.rows, Repaired: repairedToPlan(cd.Repairs), RepairedNames: repairedNames(cd.Repairs),
			Agreement: runs[i].agreement, OrderedAgreement: runs[i].ordered, ResultRows: runs[i].rows, DuplicateRows: runs[i].duplicates,
			ResultGroup: runs[i].group, CountsDisputed: runs[i].recounted,
			UnknownValues: st.valueSets.UnknownValues(cd.validated.SQL, cd.validated.Tables),
			Grouped:       grouped(cd.validated.SQL),
			FanOut:        sqlrefs.FanOut(cd.validated.SQL, st.cat, c.SearchPath, repeats)}
		// Described once: the Scorer, the confidence signals, the
		// Result and the alternatives read this one; Pick's candidates
		// that validated to the same SQL share it.
		d, seen := descriptions[cd.validated.SQL]
		if !seen {
			d, _ = describe.SQL(cd.validated.SQL)
			descriptions[cd.validated.SQL] = d
		}
		sc.Description = d
		described = append(described, d)
		if len(in.Measures) > 0 {
			sc.Deviations = st.semantic.Deviations(cd.validated.SQL, in.Measures, st.cat, c.SearchPath)
			sc.Computes = computedPhrases(c.Semantic, sc.Deviations)
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
	in.Candidates[best].TiedAtCut = e.tiedAtCut(ctx, rq.scope, ok[best])
	return &scoring{in: in, scores: scores, best: best, runs: runs, described: described}
}

// tiedAtCut reports whether the chosen candidate keeps the first rows of a
// sort and cuts them inside a tie: the first row it leaves out sorts equal
// to the last it keeps ("the grade with the most students" when two grades
// have as many). It runs the candidate's tie probe (rewrite.NewTieProbe:
// its text before breakTies made the order total, with FETCH FIRST n ROWS
// WITH TIES) under the request's policy, reading at most n+1 rows, and only
// for a candidate cheap enough to be run to compare results: the probe
// costs what the candidate costs. A query without a plain top-level ORDER
// BY ... LIMIT, a dear one, a probe the policy refuses or a failure
// reports no tie.
func (e *Engine) tiedAtCut(ctx context.Context, sc *scope, cd *candidate) bool {
	if cd.cost > cheapCost {
		return false
	}
	sql := cd.untied
	if sql == "" {
		sql = cd.validated.SQL
	}
	p, ok := rewrite.NewTieProbe(sql)
	if !ok {
		return false
	}
	r, err := sc.query(ctx, p.SQL, p.Limit+1)
	return err == nil && p.Tied(len(r.Rows))
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

// repairedNames reports whether a repair replaced a name the candidate
// used that does not exist, or qualified an ambiguous one (a double-quoted
// string read as a column is a dialect's spelling, not a name).
func repairedNames(rules []string) bool {
	for _, r := range rules {
		if (strings.HasPrefix(r, "42703.") || strings.HasPrefix(r, "42P01.") || strings.HasPrefix(r, "42702.")) && r != repair.RuleStringValue {
			return true
		}
	}
	return false
}

// repairedToPlan reports whether a candidate needed a repair to validate or
// plan: writing a literal as the stored value does not count (the query
// ran before it, just on a value no row holds), nor does breaking ties.
func repairedToPlan(rules []string) bool {
	for _, r := range rules {
		if r != rewrite.RuleStoredValue && r != rewrite.RuleTieOrder {
			return true
		}
	}
	return false
}
