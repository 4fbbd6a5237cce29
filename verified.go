package nl2sql

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// template is a verified question the engine answers without the model.
type template struct {
	q      *semantic.VerifiedQuestion
	source string
}

// fit is a question read as a template with one binding.
type fit struct {
	t      template
	values map[string]string
}

// templates are the verified questions of the semantic model, then the
// learnt examples with parameters the request is offered, in a fixed
// order. The model's are the operator's; a learnt one is offered by
// offer.go's rule for what an identity taught (rq.offers): the operator's
// to every request, one learnt under an identity (role, settings, scope)
// to that identity only, as its SQL and question may hold that
// identity's values whatever tables it reads. A template fits only
// where the request's validator accepts its SQL besides (fits).
func (e *Engine) templates(rq *request) []template {
	var out []template
	if sem := rq.st.semantic; sem != nil {
		for _, q := range sem.VerifiedQuestions {
			out = append(out, template{q: q, source: fmt.Sprintf("%s:%d", sem.File, q.Line)})
		}
	}
	e.know.mu.RLock()
	var learnt []template
	for _, k := range e.know.items {
		if k.Kind == KnowledgeExample && len(k.Parameters) > 0 && rq.offers(k) {
			learnt = append(learnt, template{q: k.Template(), source: k.ID})
		}
	}
	e.know.mu.RUnlock()
	slices.SortFunc(learnt, func(a, b template) int { return strings.Compare(a.source, b.source) })
	return append(out, learnt...)
}

// fits returns every reading of question as a template the request is
// offered and whose SQL it may run (a template learnt by another identity
// is none of this one's, nor one reading another scope's tables): one is
// an answer, several an ambiguity the engine does not guess through.
func (e *Engine) fits(ctx context.Context, rq *request, question string) []fit {
	sc := rq.scope
	values := sc.storedValues(ctx)
	var out []fit
	for _, t := range e.templates(rq) {
		for _, b := range t.q.Match(question, values) {
			if sql, err := t.q.Inline(b); err == nil && sc.reads(sql) {
				out = append(out, fit{t: t, values: b})
			}
		}
	}
	return out
}

// storedValues recognises a stored value of a parameter's column in the
// request's scope: the column's values in the value index, compared
// without case and extra spaces; a text two stored values fit is none. A
// table under row-level security is asked as the request's identity
// instead (rowSecureValue): the index leaves it out. Answers are kept for
// the request: Match asks again for the same words under every template
// with a slot on the column, and each such ask of a row-secured table is a
// query.
func (sc *scope) storedValues(ctx context.Context) semantic.Values {
	type answer struct {
		value string
		ok    bool
	}
	known := map[[2]string]answer{}
	return func(column, text string) (string, bool) {
		k := [2]string{column, text}
		if a, ok := known[k]; ok {
			return a.value, a.ok
		}
		v, ok := sc.storedValue(ctx, column, text)
		known[k] = answer{v, ok}
		return v, ok
	}
}

// storedValue is one answer of storedValues.
func (sc *scope) storedValue(ctx context.Context, column, text string) (string, bool) {
	i := strings.LastIndex(column, ".")
	if i < 0 {
		return "", false
	}
	table, col := column[:i], column[i+1:]
	s, n := splitQualified(table)
	qualified := sc.resolve(s, n)
	if t := sc.st.cat.Lookup(splitQualified(qualified)); t != nil && t.RowSecurity {
		return sc.rowSecureValue(ctx, t, col, text)
	}
	if sc.st.values == nil {
		return "", false
	}
	found := ""
	for _, c := range sc.st.values.Columns {
		if c.Table != qualified || c.Column != col {
			continue
		}
		for _, v := range c.Values {
			if strings.EqualFold(strings.Join(strings.Fields(v), " "), text) {
				if found != "" && found != v {
					return "", false
				}
				found = v
			}
		}
	}
	return found, found != ""
}

// rowSecureValue recognises text as a stored value of t.col, t a table
// under row-level security, by asking the database as the request's
// identity (its role and settings, through the executor: validated,
// pinned, text as a parameter): a slot matches only a value the caller's
// own rows hold, never one of another tenant's. Two values that differ
// only in case are none.
func (sc *scope) rowSecureValue(ctx context.Context, t *schema.Table, col, text string) (string, bool) {
	if t.Column(col) == nil {
		return "", false
	}
	c := pgx.Identifier{col}.Sanitize()
	sql := "SELECT DISTINCT " + c + "::text AS v FROM " + pgx.Identifier{t.Schema, t.Name}.Sanitize() +
		" WHERE lower(btrim(" + c + "::text)) = lower($1) ORDER BY 1 LIMIT 2"
	er, err := sc.query(ctx, sql, 2, execute.Args(text))
	if err != nil || len(er.Rows) != 1 || len(er.Rows[0]) != 1 {
		return "", false
	}
	v, _ := er.Rows[0][0].(string)
	return v, v != ""
}

// answerVerified answers question from the one template it fits: the
// template's SQL with the values inlined is validated by the request's
// validator, then its bound text runs with the values as parameters
// (execute.Args), under the request's scope and identity. handled is
// false when no template fits, or several do (a note says so): the caller
// goes on with the model.
func (e *Engine) answerVerified(ctx context.Context, rq *request, res *Result) (handled bool, err error) {
	fits := e.fits(ctx, rq, res.Question)
	if len(fits) == 0 {
		return false, nil
	}
	if len(fits) > 1 {
		var srcs []string
		for _, f := range fits {
			srcs = append(srcs, f.t.source)
		}
		res.Notes = append(res.Notes, fmt.Sprintf("the question fits %d verified readings (%s); not guessing between them", len(fits), strings.Join(srcs, ", ")))
		return false, nil
	}
	return true, e.runVerified(ctx, rq, res, fits[0])
}

// RunVerified answers with a verified question's SQL and values (as in
// semantic.VerifiedQuestion.Bind) the way Ask answers a question that
// fits it: validated with the values inlined, run with them as query
// parameters, under the request's scope and identity, without the model.
// The regression exam (nl2sql exam --verified) runs each verified
// question's declared examples with it. q need not be checked: its shape
// is checked here, its SQL by the request's validator.
func (e *Engine) RunVerified(ctx context.Context, q *semantic.VerifiedQuestion, values map[string]string, opts ...AskOption) (_ *Result, err error) {
	defer coded(&err)
	start := time.Now()
	res := &Result{Question: q.Question, Timings: Timings{}}
	rq, err := e.newRequest(ctx, opts, nil)
	if err == nil {
		if err = q.CheckShape(); err != nil {
			err = &Error{Class: ClassInvalid, Message: "the verified question does not check", Err: err}
		}
	}
	if err == nil {
		err = e.runVerified(ctx, rq, res, fit{t: template{q: q}, values: values})
	}
	res.Timings["total"] = time.Since(start)
	if err != nil {
		return res, res.fail(ended(ctx, err))
	}
	return res, nil
}

// runVerified fills res with f's answer (see answerVerified).
func (e *Engine) runVerified(ctx context.Context, rq *request, res *Result, f fit) error {
	start := time.Now()
	inlined, err := f.t.q.Inline(f.values)
	if err != nil {
		return &Error{Class: ClassInvalid, Message: "the verified question's values do not bind", Err: err}
	}
	vres, err := rq.scope.validator().Validate(inlined)
	res.Timings[string(StageValidate)] = time.Since(start)
	if err != nil {
		return rejection(rq.st.cat, "the verified query does not validate", err)
	}
	// An N over the row cap runs as cap + 1, which the cap cuts and reports
	// as truncated, as it would the N rows: a LIMIT the validator had to
	// lower would be a text it rewrote, which execute.Args refuses to run.
	run := f.values
	for _, p := range f.t.q.Parameters {
		if n, err := strconv.Atoi(f.values[p.Name]); p.Kind == semantic.ParamTopN && err == nil && n > rq.ac.maxRows {
			run = maps.Clone(run)
			run[p.Name] = strconv.Itoa(rq.ac.maxRows + 1)
		}
	}
	sql, args, err := f.t.q.Bind(run)
	if err != nil {
		return &Error{Class: ClassInvalid, Message: "the verified question's values do not bind", Err: err}
	}
	res.SQL, res.Tables, res.Origin = vres.SQL, vres.Tables, OriginVerified
	res.Verified = &Verified{Question: f.t.q.Question, SQL: f.t.q.SQL, Source: f.t.source}
	for _, p := range f.t.q.Parameters {
		res.Verified.Bindings = append(res.Verified.Bindings, Binding{Name: p.Name, Kind: p.Kind, Column: p.Column, Value: f.values[p.Name]})
	}
	// Exact: every word of the template and every slot matched.
	res.Confidence, res.Assessment = 1, Assessment{Verdict: VerdictAnswered}
	res.Candidates = []Candidate{{SQL: res.SQL, Origin: OriginVerified, Status: StatusOK, Score: 1, Chosen: true}}
	sp := rq.tracers.begin(ctx, StageExecute)
	er, err := rq.scope.query(sp.ctx, sql, rq.ac.maxRows, execute.Args(args...))
	sp.end(res.Timings, err)
	if err != nil {
		return executionError("the verified query failed to run", err)
	}
	res.setRows(er, nil, rq.ac.maxRows, rq.ac.askedRows)
	return nil
}

// checkTemplate checks a learnt template in the request's scope: its
// shape, its value parameters' columns (resolved along the request's
// path), and each declared example inlined, by the request's validator.
func (sc *scope) checkTemplate(q *semantic.VerifiedQuestion) error {
	invalid := func(err error) error {
		return &Error{Class: ClassInvalid, Code: "invalid_knowledge", Message: "the template does not check", Err: err}
	}
	if err := q.CheckShape(); err != nil {
		return invalid(err)
	}
	for _, p := range q.Parameters {
		if p.Kind != semantic.ParamValue {
			continue
		}
		i := strings.LastIndex(p.Column, ".")
		t := sc.resolve(splitQualified(p.Column[:i]))
		if t == "" || sc.st.cat.Lookup(splitQualified(t)).Column(p.Column[i+1:]) == nil {
			return invalid(fmt.Errorf("parameter %s: column %q is not in the request's tables", p.Name, p.Column))
		}
	}
	for _, values := range q.Examples() {
		sql, err := q.Inline(values)
		if err != nil {
			return invalid(err)
		}
		if _, err := sc.validator().Validate(sql); err != nil {
			return rejection(sc.st.cat, "the template does not validate", err)
		}
	}
	return nil
}
