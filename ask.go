package nl2sql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/internal/sqlrefs"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// Result is the answer to a question and the trace of how it was found.
type Result struct {
	Question  string   `json:"question"`
	SQL       string   `json:"sql"`
	Columns   []Column `json:"columns"`
	Rows      [][]any  `json:"rows"`
	Truncated bool     `json:"truncated"`
	// TruncatedBy says which cap cut the result: "row_cap" (RowCap rows
	// were read and there were more) or "byte_cap" (the values reached the
	// executor's byte cap first; fewer than RowCap rows were read).
	TruncatedBy execute.Cap `json:"truncated_by,omitempty"`
	// RowCap is the row cap the query ran with: at most RowCap rows are
	// returned, and Truncated says the result had more. SQL never carries
	// it: it is the query as written plus its fixes.
	RowCap int `json:"row_cap"`
	// Notes say what the engine changed about the request or the result in
	// words: a MaxRows over the engine's cap, the cap that cut the rows.
	Notes      []string    `json:"notes,omitempty"`
	Confidence float64     `json:"confidence"`
	Attempts   int         `json:"attempts"` // model calls: samples (backward recall's too) plus repair turns
	Tables     []string    `json:"tables"`   // relations the final SQL reads
	Context    []string    `json:"context"`  // tables shown to the model
	Candidates []Candidate `json:"candidates"`
	Timings    Timings     `json:"timings"`
	Error      *ErrorInfo  `json:"error,omitempty"`
}

// Column is a result column.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"` // pg_type.typname
}

// Candidate is one query considered for the answer.
type Candidate struct {
	SQL     string   `json:"sql"`
	Origin  string   `json:"origin"` // "sample", "backward" (sampled again after backward recall) or "repair_prompt"
	Votes   int      `json:"votes"`
	Status  string   `json:"status"` // "ok", "rejected", "failed"
	Score   float64  `json:"score"`
	Code    string   `json:"code,omitempty"` // SQLSTATE or validator code of its failure
	Error   string   `json:"error,omitempty"`
	Repairs []string `json:"repairs,omitempty"` // rules applied, in order
	Chosen  bool     `json:"chosen,omitempty"`
}

// ErrorInfo is the JSON shape of a failure.
type ErrorInfo struct {
	Code    string `json:"code,omitempty"`
	Class   Class  `json:"class"`
	Message string `json:"message"`
}

// Timings are per-stage wall times; JSON renders them in milliseconds.
type Timings map[string]time.Duration

// MarshalJSON renders durations as milliseconds.
func (t Timings) MarshalJSON() ([]byte, error) {
	m := make(map[string]float64, len(t))
	for k, d := range t {
		m[k] = float64(d.Microseconds()) / 1000
	}
	return json.Marshal(m)
}

// Context is what the model is shown for a question.
type Context struct {
	Question   string
	Evidence   string
	SearchPath []string
	// Scoped is true when the request is restricted to SearchPath's schemas.
	Scoped bool
	Tables []retrieve.TableHit
	// Match grades how well the question meets the schema (none: no table
	// is about it; the context is empty); Known is the share of its words
	// the schema knows.
	Match      retrieve.Match
	Known      float64
	Links      *link.Result
	Joins      []plan.JoinEdge
	Skeleton   string
	Examples   []generate.Example
	Difficulty generate.Difficulty
	Prompt     generate.Prompt
	Timings    Timings
}

// Context builds the schema context and prompt of a question without
// calling the model (the CLI's --dry-run and retrieve commands).
func (e *Engine) Context(ctx context.Context, question string, opts ...AskOption) (_ *Context, err error) {
	defer coded(&err)
	ac := e.askConfig(opts)
	if err := e.checkText(question, ac.evidence); err != nil {
		return nil, err
	}
	st, err := e.state(ctx)
	if err != nil {
		return nil, err
	}
	return e.context(ctx, st, question, ac)
}

func (e *Engine) askConfig(opts []AskOption) askConfig {
	ac := askConfig{maxRows: e.cfg.maxRows, abstain: e.cfg.abstain, role: e.cfg.role, minMatch: e.cfg.minMatch, timeout: e.cfg.timeout}
	for _, o := range opts {
		o.applyAsk(&ac)
	}
	if ac.maxRows > e.cfg.maxRows {
		ac.askedRows = ac.maxRows
	}
	if ac.maxRows <= 0 || ac.maxRows > e.cfg.maxRows {
		ac.maxRows = e.cfg.maxRows
	}
	return ac
}

func (e *Engine) context(ctx context.Context, st *state, question string, ac askConfig) (*Context, error) {
	if strings.TrimSpace(question) == "" {
		return nil, &Error{Class: ClassNoAnswer, Message: "empty question"}
	}
	path, scoped, err := e.requestScope(st, ac.scope)
	if err != nil {
		return nil, err
	}
	t := time.Now()
	var qopts []retrieve.QueryOption
	if scoped {
		qopts = append(qopts, retrieve.WithScope(path[0]))
	}
	rr, err := st.retriever.Tables(ctx, question, append(qopts, retrieve.WithEvidence(ac.evidence))...)
	if err != nil {
		return nil, &Error{Class: ClassRetrievalMiss, Message: "retrieval failed", Err: err}
	}
	took := time.Since(t)
	c := e.buildContext(ctx, st, question, ac, rr.Tables)
	c.Match, c.Known = rr.Match, rr.Known
	c.Timings["retrieve"] = took
	return c, nil
}

// buildContext builds the context of a question shown the given tables, in
// their order and all of them (the retrieval's; after them, in Ask, those
// backward recall added, with reason "backward"): links, join plan,
// few-shot examples and prompt. Its timings are "link", "plan" and
// "prompt".
func (e *Engine) buildContext(ctx context.Context, st *state, question string, ac askConfig, tables []retrieve.TableHit) *Context {
	c := &Context{Question: question, Evidence: ac.evidence, SearchPath: e.cfg.searchPath(ac.scope), Scoped: e.cfg.scoped(ac.scope), Timings: Timings{}}
	c.Tables = tables
	names := (&retrieve.Result{Tables: tables}).Names()

	t := time.Now()
	c.Links = st.linker.Link(ctx, question, ac.evidence, names)
	c.Timings["link"] = time.Since(t)

	t = time.Now()
	jp := e.planJoins(ctx, st, c, names)
	c.Joins, c.Skeleton = jp.joins, jp.skeleton
	c.Timings["plan"] = time.Since(t)

	t = time.Now()
	if e.examples.Len() > 0 {
		c.Examples, _ = e.examples.Similar(ctx, question, "", 3)
	}
	data := generate.PromptData{
		Question: question, Evidence: ac.evidence, Examples: c.Examples,
		Schema: schema.MSchema(st.cat.Subset(names).Tables, schema.WithExamples(st.examples), schema.OmitSchemas(c.SearchPath...)),
	}
	if len(c.SearchPath) > 1 || c.SearchPath[0] != "public" {
		data.SearchPath = c.SearchPath
	}
	if c.Skeleton != "" {
		data.Joins = []string{c.Skeleton}
	}
	for _, cl := range c.Links.Columns[:min(8, len(c.Links.Columns))] {
		line := "\"" + cl.Phrase + "\" -> " + cl.Table + "." + cl.Column
		if cl.Via != "" {
			line += " (" + cl.Via + ")" // "tenure" -> hr.employees.hire_date (thesaurus: tenure -> hire date)
		}
		data.Links = append(data.Links, line)
	}
	for _, v := range c.Links.Values {
		data.Values = append(data.Values, v.String())
	}
	for _, w := range c.Links.Warnings {
		data.Warnings = append(data.Warnings, w.Message)
	}
	data.Warnings = append(data.Warnings, jp.warnings...)
	c.Difficulty = generate.Classify(question, len(jp.core))
	c.Prompt = generate.Build(data)
	c.Timings["prompt"] = time.Since(t)
	return c
}

// candidate is the Engine's working state for one query.
type candidate struct {
	Candidate
	validated *validate.Result
	cost      float64
	rows      float64
	err       error
	sqlstate  string
	message   string
	position  int // 1-based character position in validated SQL, 0 if none
	failedSQL string
	// alternatives are what a failing name could stand for when more than
	// one fix was plausible (repair declined to guess).
	alternatives []string
}

// Ask answers a question: see the package documentation for the pipeline.
// On failure it returns the partial Result (trace, candidates) and an
// *Error whose Class says which stage lost.
func (e *Engine) Ask(ctx context.Context, question string, opts ...AskOption) (_ *Result, err error) {
	defer coded(&err)
	ac := e.askConfig(opts)
	start := time.Now()
	res := &Result{Question: question, Timings: Timings{}}
	fail := func(err error) (*Result, error) {
		res.Timings["total"] = time.Since(start)
		return res, res.fail(err)
	}
	if err := e.checkText(question, ac.evidence); err != nil {
		res.Question = "" // not echoed: it may be megabytes
		return fail(err)
	}
	st, err := e.state(ctx)
	if err != nil {
		return fail(err)
	}
	if ac.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, ac.timeout, &budgetError{ac.timeout})
		defer cancel()
	}
	if e.cfg.modelTimeout > 0 {
		ctx = llm.WithCallTimeout(ctx, e.cfg.modelTimeout)
	}
	if ac.progress != nil {
		ctx = context.WithValue(ctx, progressKey{}, ac.progress)
	}
	c, err := e.context(ctx, st, question, ac)
	if err != nil {
		return fail(err)
	}
	for _, k := range []string{"retrieve", "link", "plan", "prompt"} {
		res.Timings[k] = c.Timings[k]
		if e.cfg.tracer != nil {
			e.cfg.tracer.Stage(ctx, k, c.Timings[k], nil)
		}
	}
	for _, t := range c.Tables {
		res.Context = append(res.Context, t.Name)
	}
	if e.gen == nil {
		return fail(&Error{Class: ClassConfig, Message: "no model to write SQL", Err: errNoLLM})
	}
	if c.Match.Below(ac.minMatch) {
		return fail(&Error{Class: ClassRetrievalMiss, Message: fmt.Sprintf("the question does not match the schema (match %s, %.0f%% of its words known); not asking the model", c.Match, 100*c.Known)})
	}

	t := time.Now()
	k := e.gen.K(c.Difficulty)
	e.progress(ctx, Progress{Stage: "generate", Total: k})
	out, err := e.gen.Generate(ctx, c.Prompt, k)
	e.progress(ctx, Progress{Stage: "generate", Done: k, Total: k, Took: time.Since(t)})
	e.mark(ctx, res, "generate", t, err)
	if out != nil {
		res.Attempts = len(out.Samples)
	}
	if err != nil {
		var errs []error
		for _, s := range out.Samples {
			errs = append(errs, s.Err)
		}
		if te := e.timeoutError(ctx, errors.Join(errs...)); te != nil {
			return fail(te)
		}
		class := ClassNoAnswer
		for _, s := range out.Samples {
			if s.Err != nil && !errors.Is(s.Err, generate.ErrNoSQL) {
				class = ClassLLM
			}
		}
		return fail(&Error{Class: class, Message: "the model proposed no query", Err: err})
	}
	var cands []*candidate
	for _, oc := range out.Candidates {
		cands = append(cands, &candidate{Candidate: Candidate{SQL: oc.SQL, Origin: "sample", Votes: oc.Votes}})
	}
	t = time.Now()
	e.check(ctx, st, c.SearchPath, c.Scoped, ac.role, cands)
	e.mark(ctx, res, "validate", t, nil)

	// Backward recall, once: the candidates failed on tables of the scope
	// the context lacked; show them and sample again.
	if !anyOK(cands) {
		if recalled := st.recallTables(c, cands); len(recalled) > 0 {
			t = time.Now()
			nc, more, berr := e.backward(ctx, st, c, ac, recalled, res)
			c = nc
			res.Context = append(res.Context, recalled...)
			cands = append(cands, more...)
			e.mark(ctx, res, "backward", t, berr)
		}
	}

	// LLM repair turns, only when nothing deterministic worked.
	var lastWait *Error // the last repair turn cut short by a time bound
	t = time.Now()
	for i := 0; i < e.cfg.attempts && !anyOK(cands); i++ {
		worst := repairable(cands)
		if worst == nil {
			break
		}
		hint := st.repairer.Prompt(worst.failedSQL, repair.Failure{SQLState: worst.sqlstate, Message: worst.message, Position: worst.position})
		hints := []string{hint}
		if len(worst.alternatives) > 0 {
			hints = append(hints, "It may stand for one of: "+strings.Join(worst.alternatives, ", ")+"; pick the one the question means.")
		}
		e.progress(ctx, Progress{Stage: "repair", Total: 1})
		rt := time.Now()
		sql, err := e.gen.Repair(ctx, c.Prompt, generate.RepairDelta{SQL: worst.failedSQL, SQLState: worst.sqlstate, Message: worst.message, Hints: hints})
		e.progress(ctx, Progress{Stage: "repair", Done: 1, Total: 1, Took: time.Since(rt)})
		res.Attempts++
		if err != nil {
			if te := e.timeoutError(ctx, err); te != nil {
				lastWait = te
			}
		}
		if err != nil {
			e.cfg.logger.DebugContext(ctx, "nl2sql: repair turn failed", "err", err)
			continue
		}
		nc := &candidate{Candidate: Candidate{SQL: sql, Origin: "repair_prompt", Votes: 1}}
		cands = append(cands, nc)
		e.check(ctx, st, c.SearchPath, c.Scoped, ac.role, []*candidate{nc})
	}
	e.mark(ctx, res, "repair", t, nil)

	var ok []*candidate
	for _, cd := range cands {
		if cd.Status == "ok" {
			ok = append(ok, cd)
		}
	}
	defer func() {
		for _, cd := range cands {
			res.Candidates = append(res.Candidates, cd.Candidate)
		}
	}()
	if len(ok) == 0 {
		if lastWait != nil {
			return fail(lastWait)
		}
		if ctx.Err() != nil {
			return fail(e.timeoutError(ctx, ctx.Err()))
		}
		return fail(classify(cands))
	}

	t = time.Now()
	scores, best := e.score(ctx, st, c, ac, ok, res.Context)
	e.mark(ctx, res, "score", t, nil)
	chosen := ok[best]
	chosen.Chosen = true
	res.SQL = chosen.validated.SQL
	res.Tables = chosen.validated.Tables
	res.Confidence = confidence(scores[best])
	if res.Confidence < ac.abstain {
		return fail(&Error{Class: ClassNoAnswer, Message: "confidence below the abstain threshold; not running the query"})
	}

	t = time.Now()
	er, err := e.executor(st, c.SearchPath, c.Scoped).Query(ctx, res.SQL, e.queryOptions(c.SearchPath, ac.maxRows, ac.role)...)
	e.mark(ctx, res, "execute", t, err)
	if err != nil {
		return fail(executionError("the chosen query failed to run", err))
	}
	res.setRows(er, ac)
	res.Timings["total"] = time.Since(start)
	return res, nil
}

// setRows fills the result's columns and rows from what the executor read,
// with notes on the caps.
func (r *Result) setRows(er *execute.Result, ac askConfig) {
	r.RowCap = ac.maxRows
	for _, col := range er.Columns {
		r.Columns = append(r.Columns, Column{Name: col.Name, Type: col.Type})
	}
	r.Rows, r.Truncated, r.TruncatedBy = er.Rows, er.Truncated, er.TruncatedBy
	if ac.askedRows > ac.maxRows {
		r.Notes = append(r.Notes, fmt.Sprintf("%d rows were asked for; the engine's row cap is %d, so at most %d are returned", ac.askedRows, ac.maxRows, ac.maxRows))
	}
	if er.Truncated {
		r.Notes = append(r.Notes, "truncated: "+er.TruncateReason)
	}
}

func anyOK(cs []*candidate) bool {
	for _, c := range cs {
		if c.Status == "ok" {
			return true
		}
	}
	return false
}

// repairable picks the failed candidate most worth a repair prompt: one the
// server rejected (it parsed and was safe), most votes first.
func repairable(cs []*candidate) *candidate {
	var best *candidate
	for _, c := range cs {
		if c.Status == "failed" && c.failedSQL != "" && (best == nil || c.Votes > best.Votes) {
			best = c
		}
	}
	return best
}

// maxFixRounds bounds deterministic repairs of one candidate (each round
// fixes one error and may reveal the next).
const maxFixRounds = 3

// check normalizes dialect, validates and EXPLAINs candidates (in
// parallel), applying deterministic fixes keyed on SQLSTATE between rounds.
func (e *Engine) check(ctx context.Context, st *state, path []string, scoped bool, role string, cands []*candidate) {
	v, rp := st.validator(path, scoped), st.repairerFor(path, scoped)
	resolve := st.resolver(path, scoped)
	// fix asks repair about a failure of sql and takes its first fix that
	// holds (see firstVerified); when repair declined to guess, c keeps the
	// alternatives. It reports whether c holds a new statement to check.
	fix := func(c *candidate, sql string, f repair.Failure) bool {
		fixes, err := rp.Fix(sql, f)
		var ae *repair.AmbiguousError
		if errors.As(err, &ae) {
			c.alternatives = ae.Alternatives
		}
		fx, ok := e.firstVerified(ctx, st, path, scoped, role, fixes)
		if ok {
			c.SQL = fx.SQL
			c.Repairs = append(c.Repairs, fx.Rule)
		}
		return ok
	}
	for _, c := range cands {
		if norm, changes, err := rp.Normalize(c.SQL); err == nil && len(changes) > 0 {
			c.SQL = norm
			for _, ch := range changes {
				c.Repairs = append(c.Repairs, ch.Rule)
			}
		}
		if sql, notes := st.valueSets.storedValues(c.SQL, resolve); len(notes) > 0 {
			c.SQL = sql
			c.Repairs = append(c.Repairs, RuleStoredValue)
		}
	}
	pending := cands
	for round := 0; round <= maxFixRounds && len(pending) > 0; round++ {
		sqls := make([]string, len(pending))
		for i, c := range pending {
			sqls[i] = c.SQL
		}
		// Explain validates each candidate and plans the ones that pass.
		results := v.Explain(ctx, e.db, sqls)
		live := pending
		pending = nil
		for i, r := range results {
			c := live[i]
			if r.Validation == nil {
				c.Status, c.err = "rejected", r.Err
				var ve *validate.Error
				if errors.As(r.Err, &ve) && len(ve.Violations()) > 0 {
					c.Code, c.Error = ve.Violations()[0].Code, ve.Violations()[0].Message
				} else {
					c.Error = r.Err.Error()
				}
				if state, is, ok := missingColumn(ve); ok {
					// A misspelt qualified column: refused before the server
					// saw it (it could be a function call), and repaired like
					// the server's own 42703/42P01.
					r.SQL, r.SQLState, r.Message, r.Location = sqls[i], state, is.Message, is.Location
				} else if f, ok := st.unknownRelation(ve, path, sqls[i]); ok && round < maxFixRounds {
					// A table name that names nothing: corrected to the one
					// table of the scope it is close to, then validated
					// again; V012 stays when nothing fits.
					if fix(c, sqls[i], f) {
						pending = append(pending, c)
					}
					continue
				} else {
					continue
				}
			} else {
				c.validated = r.Validation
			}
			if r.Err == nil {
				c.Status, c.cost, c.rows, c.Code, c.Error = "ok", r.TotalCost, r.PlanRows, "", ""
				continue
			}
			c.Status, c.err, c.sqlstate, c.message, c.Code, c.Error = "failed", r.Err, r.SQLState, r.Message, r.SQLState, r.Message
			c.failedSQL, c.position = r.SQL, charPosition(r.SQL, r.Location)
			if r.SQLState == "" || round == maxFixRounds {
				continue
			}
			if fix(c, r.SQL, repair.Failure{SQLState: r.SQLState, Message: r.Message, Position: c.position}) {
				pending = append(pending, c)
			}
		}
	}
}

// charPosition turns a byte offset into sql into the 1-based character
// position PostgreSQL reports; 0 when the offset is unknown.
func charPosition(sql string, offset int) int {
	if offset < 0 || offset > len(sql) {
		return 0
	}
	return utf8.RuneCountInString(sql[:offset]) + 1
}

// missingColumn reports whether every violation of a rejection is a
// qualified reference to a column that does not exist (V014 with the
// server's wording), and returns the SQLSTATE the server would have given
// the first one.
func missingColumn(ve *validate.Error) (string, validate.Issue, bool) {
	if ve == nil {
		return "", validate.Issue{}, false
	}
	vs := ve.Violations()
	state := ""
	for i, is := range vs {
		s := ""
		switch {
		case is.Code != validate.CodeFuncNotation || is.Location < 0:
		case strings.HasPrefix(is.Message, "column "):
			s = "42703"
		case strings.HasPrefix(is.Message, "missing FROM-clause entry"):
			s = "42P01"
		}
		if s == "" {
			return "", validate.Issue{}, false
		}
		if i == 0 {
			state = s
		}
	}
	if len(vs) == 0 {
		return "", validate.Issue{}, false
	}
	return state, vs[0], true
}

// unsafeCodes are validator codes that mean the model tried something the
// policy forbids (as opposed to a syntax slip or a table outside the scope).
var unsafeCodes = map[string]bool{
	"V003": true, "V004": true, "V005": true, "V006": true, "V007": true, "V008": true, "V009": true,
	"V010": true, "V011": true, "V013": true, "V014": true, "V015": true, "V020": true, "V021": true, "V022": true,
	"V023": true, "V024": true,
}

// classify turns the failures of every candidate into the Ask error: the
// class of the most-voted candidate's failure decides.
func classify(cs []*candidate) *Error {
	var pick *candidate
	for _, c := range cs {
		if pick == nil || c.Votes > pick.Votes {
			pick = c
		}
	}
	for _, c := range cs {
		// A candidate the server could not check says nothing about the
		// model: the database is gone.
		if ce := connectionError("checking the candidates failed", c.err); ce != nil {
			return ce
		}
	}
	e := &Error{Class: ClassNoAnswer, Code: pick.Code, Message: "no candidate query validated and planned", Err: pick.err}
	allUnsafe := true
	for _, c := range cs {
		if !(c.Status == "rejected" && unsafeCodes[c.Code]) {
			allUnsafe = false
		}
	}
	switch {
	case allUnsafe:
		e.Class, e.Message = ClassRejected, "every candidate broke the safety policy"
	case pick.Code == "42P01" && strings.Contains(pick.Error, "missing FROM-clause entry"):
		// A table used without being joined in: the join path was missed.
		e.Class = ClassJoinPathMiss
	case pick.Code == "42P01" || pick.Code == "V012":
		e.Class = ClassRetrievalMiss
	case pick.Code == "42703":
		e.Class = ClassColumnMiss
	case pick.Status == "failed":
		e.Class = ClassExecution
	}
	return e
}

// cheapCost is the planner cost below which candidates are run to compare
// their results (execution-result voting).
const cheapCost = 1e5

// compareRows is the row cap of the runs that compare results.
const compareRows = 200

// runOutcome is what running a candidate to compare results gave.
type runOutcome struct {
	digest     string // "" when not run or failed
	rows       int    // rows returned (at most compareRows+1); -1 when not run
	duplicates bool   // some row is returned more than once
}

// agreement runs cheap candidates with a small row cap and returns, per
// candidate, the share of the other compared candidates' votes that went to
// the same rows (-1: not compared) and what the run gave. A result cut at
// the cap is not compared: which rows came first is the server's choice (a
// parallel or synchronized scan sends others on the next run).
func (e *Engine) agreement(ctx context.Context, st *state, cands []*candidate, c *Context, role string) ([]float64, []runOutcome) {
	out := make([]float64, len(cands))
	runs := make([]runOutcome, len(cands))
	for i := range out {
		out[i], runs[i].rows = -1, -1
	}
	if len(cands) < 2 {
		return out, runs
	}
	for i, cd := range cands {
		if cd.cost > cheapCost {
			continue
		}
		r, err := e.executor(st, c.SearchPath, c.Scoped).Query(ctx, cd.validated.SQL, e.queryOptions(c.SearchPath, compareRows, role)...)
		if err != nil {
			continue
		}
		if r.Truncated {
			runs[i].rows = len(r.Rows) // not empty, but not comparable
			continue
		}
		digest, dup := resultDigest(r)
		runs[i] = runOutcome{digest: digest, rows: len(r.Rows), duplicates: dup}
	}
	for i := range cands {
		if runs[i].digest == "" {
			continue
		}
		// Weighted by votes: a query several samples proposed counts as
		// several answers.
		same, compared := 0, 0
		for j := range cands {
			if i == j || runs[j].digest == "" {
				continue
			}
			compared += cands[j].Votes
			if runs[i].digest == runs[j].digest {
				same += cands[j].Votes
			}
		}
		if compared > 0 {
			out[i] = float64(same) / float64(compared)
		}
	}
	return out, runs
}

// resultDigest identifies a result by its values, ignoring column names and
// row order (two queries answering alike may name and sort differently),
// and reports whether a row repeats.
func resultDigest(r *execute.Result) (string, bool) {
	rows := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		b, _ := json.Marshal(row)
		rows[i] = string(b)
	}
	sort.Strings(rows)
	dup := false
	for i := 1; i < len(rows) && !dup; i++ {
		dup = rows[i] == rows[i-1]
	}
	return fmt.Sprint(len(r.Columns), r.Truncated, rows), dup
}

// Tracer observes the stages of Ask calls, for metrics and tracing systems:
// Stage is called when a stage ends ("retrieve", "link", "plan", "prompt",
// "generate", "validate", "backward" (only when backward recall ran),
// "repair", "score", "execute"), from the calling goroutine.
type Tracer interface {
	Stage(ctx context.Context, stage string, took time.Duration, err error)
}

func (e *Engine) mark(ctx context.Context, res *Result, stage string, start time.Time, err error) {
	d := time.Since(start)
	res.Timings[stage] = d
	if e.cfg.tracer != nil {
		e.cfg.tracer.Stage(ctx, stage, d, err)
	}
}

// score scores validated candidates with the engine's Scorer and returns
// the scores (one per candidate; missing ones count as 0) and the index of
// the best, ties going to the earlier candidate.
func (e *Engine) score(ctx context.Context, st *state, c *Context, ac askConfig, ok []*candidate, contextTables []string) ([]float64, int) {
	in := &ScoreInput{Question: c.Question, Evidence: ac.evidence, ContextTables: contextTables, Joins: c.Joins}
	for _, v := range c.Links.Values {
		in.Values = append(in.Values, v.Value)
	}
	for _, cl := range c.Links.Columns {
		if cl.Score >= linkedColumnScore {
			in.Columns = append(in.Columns, cl.Table+"."+cl.Column)
		}
	}
	agreement, runs := e.agreement(ctx, st, ok, c, ac.role)
	for i, cd := range ok {
		sc := ScoreCandidate{SQL: cd.validated.SQL, Votes: cd.Votes, Issues: cd.validated.Issues,
			Tables: cd.validated.Tables, Cost: cd.cost, Rows: cd.rows, Repaired: repairedToPlan(cd.Repairs),
			Agreement: agreement[i], ResultRows: runs[i].rows, DuplicateRows: runs[i].duplicates,
			UnknownValues: st.valueSets.unknownValues(cd.validated.SQL, cd.validated.Tables)}
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
	return scores, best
}

// repairedToPlan reports whether a candidate needed a repair to validate or
// plan: writing a literal as the stored value does not count (the query
// ran before it, just on a value no row holds).
func repairedToPlan(rules []string) bool {
	for _, r := range rules {
		if r != RuleStoredValue {
			return true
		}
	}
	return false
}

// verifyTimeout bounds the query that checks a fix on the data.
const verifyTimeout = 2 * time.Second

// firstVerified returns the first fix that needs no check, or whose Verify
// query runs (read-only, under the request's policy) and finds no row: a
// fix whose check finds a counter-example, fails or times out would change
// the answer, and is not applied.
func (e *Engine) firstVerified(ctx context.Context, st *state, path []string, scoped bool, role string, fixes []repair.Fix) (repair.Fix, bool) {
	for _, f := range fixes {
		if f.Verify == "" {
			return f, true
		}
		vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
		r, err := e.executor(st, path, scoped).Query(vctx, f.Verify, e.queryOptions(path, 1, role)...)
		cancel()
		if err == nil && len(r.Rows) == 0 {
			return f, true
		}
		e.cfg.logger.DebugContext(ctx, "nl2sql: fix not applied: its check failed", "rule", f.Rule, "err", err)
	}
	return repair.Fix{}, false
}

// budgetError is the cause of an Ask's context when its budget
// (WithTimeout, Timeout) ran out.
type budgetError struct{ d time.Duration }

func (b *budgetError) Error() string {
	return fmt.Sprintf("nl2sql: the question's %s budget ran out", b.d)
}

// Unwrap makes a spent budget a deadline (errors.Is with
// context.DeadlineExceeded), as the context's own error says.
func (b *budgetError) Unwrap() error { return context.DeadlineExceeded }

// timeoutError is the Ask error for a model call err cut short by a time
// bound: the request's budget, the caller's context or the per-call model
// timeout; nil when err is not about time. ctx is the request's context.
func (e *Engine) timeoutError(ctx context.Context, err error) *Error {
	var be *budgetError
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &be):
		return &Error{Class: ClassLLM, Message: fmt.Sprintf("the question's %s budget ran out while waiting for the model", be.d), Err: errors.Join(cause, err)}
	case ctx.Err() != nil:
		return &Error{Class: ClassLLM, Message: "the request ended while waiting for the model", Err: errors.Join(cause, err)}
	case e.cfg.modelTimeout > 0 && errors.Is(err, context.DeadlineExceeded):
		return &Error{Class: ClassLLM, Message: fmt.Sprintf("the model did not answer within %s", e.cfg.modelTimeout), Err: err}
	}
	return nil
}
