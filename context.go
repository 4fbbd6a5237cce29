package nl2sql

import (
	"context"
	"slices"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// SchemaContext is what the model is shown for a question.
type SchemaContext struct {
	Question   string
	Evidence   string
	SearchPath []string
	// Scoped is true when the request is restricted to SearchPath's schemas.
	Scoped bool
	Tables []retrieve.TableHit
	// Match grades how well the question meets the schema (none: no table
	// is about it; the context is empty); Known is the share of its words
	// the schema knows.
	Match retrieve.Match
	Known float64
	Links *link.Result
	// Semantic are the measures, filters, dimensions and metrics of the
	// semantic model (WithSemantic) the question names; their
	// definitions are in the prompt.
	Semantic   []semantic.Link
	Joins      []plan.JoinEdge
	Skeleton   string
	Examples   []generate.Example
	Difficulty generate.Difficulty
	Prompt     generate.Prompt
	Timings    Timings
}

// SchemaContext builds the schema context and prompt of a question without
// calling the model (the CLI's --dry-run and retrieve commands).
func (e *Engine) SchemaContext(ctx context.Context, question string, opts ...AskOption) (*SchemaContext, error) {
	ctx, traced := e.startRequest(ctx, OperationSchemaContext, question, opts)
	c, err := e.schemaContext(ctx, question, opts)
	if traced {
		e.tracers.requestEnd(ctx, nil, err)
	}
	return c, err
}

// schemaContext is SchemaContext, its request not yet told to the
// RequestTracers.
func (e *Engine) schemaContext(ctx context.Context, question string, opts []AskOption) (_ *SchemaContext, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, func(ac askConfig) error { return e.checkRequest(question, ac) })
	if err != nil {
		return nil, err
	}
	return e.context(ctx, rq, rq.read(question))
}

// context builds the schema context of the request's question, as read
// (request.read): retrieval, then buildContext.
func (e *Engine) context(ctx context.Context, rq *request, r *reading) (*SchemaContext, error) {
	st, sc, ac := rq.st, rq.scope, rq.ac
	var err error
	if rq.view, err = sc.view(ctx); err != nil {
		return nil, err
	}
	sp := rq.tracers.begin(ctx, StageRetrieve)
	var qopts []retrieve.QueryOption
	if sc.scoped {
		qopts = append(qopts, retrieve.Scope(sc.path[0]))
	}
	rr, err := st.retriever.TablesAnalysis(sp.ctx, r.question, r.evidence, qopts...)
	retrieved := Timings{}
	sp.end(retrieved, err)
	if err != nil {
		return nil, &Error{Class: ClassRetrievalMiss, Message: "retrieval failed", Err: err}
	}
	sc.withHistory(rr, ac.history)
	c := e.buildContext(ctx, rq, r, rr.Tables)
	c.Match, c.Known = rr.Match, rr.Known
	c.Timings[string(StageRetrieve)] = retrieved[string(StageRetrieve)]
	return c, nil
}

// buildContext builds the context of the request's question (its
// reading r) shown the given tables, in their order and all of them (the retrieval's;
// after them, in Ask, those backward recall added, with reason
// "backward"): links, join plan, few-shot examples and prompt. Its timings
// are "link", "plan" and "prompt".
func (e *Engine) buildContext(ctx context.Context, rq *request, r *reading, tables []retrieve.TableHit) *SchemaContext {
	st, sc, ac := rq.st, rq.scope, rq.ac
	question := r.question.Text
	// The context's own copy of the path: a caller may change what
	// SchemaContext returns, never the scope's cached validator.
	c := &SchemaContext{Question: question, Evidence: ac.evidence, SearchPath: slices.Clone(sc.path), Scoped: sc.scoped, Timings: Timings{}}
	// Only what the request's role may read, in its scope: retrieval and
	// backward recall work on the whole catalog.
	v := rq.view
	c.Tables = v.tables(tables)
	names := (&retrieve.Result{Tables: c.Tables}).Names()

	sp := rq.tracers.begin(ctx, StageLink)
	c.Links = st.linker.LinkAnalysis(sp.ctx, r.question, r.evidence, names)
	v.links(c.Links)
	sp.end(c.Timings, nil)

	sp = rq.tracers.begin(ctx, StagePlan)
	jp, err := st.graph.PlanQuestion(plan.Question{Text: question, Needed: neededTables(c.Tables), Tables: names,
		Columns: c.Links.Columns, SearchPath: c.SearchPath, Scoped: c.Scoped})
	if err != nil {
		e.cfg.logger.DebugContext(sp.ctx, "nl2sql: no join plan", "err", err)
	}
	c.Joins, c.Skeleton = jp.Joins, jp.Skeleton
	if !v.joins(c.Joins) {
		c.Joins, c.Skeleton = nil, "" // a key column the role may not read
	}
	sp.end(c.Timings, nil)

	sp = rq.tracers.begin(ctx, StagePrompt)
	docs := e.docsFor(rq, names, r.question)
	c.Semantic = st.semantic.Links(r.question, st.cat, names)
	var exErr error
	if e.examples.Len() > 0 {
		// Examples taught for every tenant and identity are one store: a
		// request keeps those it may be shown (offered), from a wider draw.
		c.Examples, exErr = e.examples.Similar(sp.ctx, question, "", 3*maxScopedDraw)
		c.Examples = e.offeredExamples(rq, c.Examples, 3)
	}
	data := generate.PromptData{
		Question: question, Evidence: ac.evidence, Examples: c.Examples, History: promptHistory(ac.history),
		Schema: schema.MSchema(v.cat.Subset(names).Tables, schema.WithExamples(v.examples), schema.WithUnqualified(c.SearchPath...)),
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
	data.Warnings = append(data.Warnings, jp.Warnings...)
	data.Docs = docs
	for _, l := range c.Semantic {
		data.Definitions = append(data.Definitions, l.Line())
	}
	c.Difficulty = generate.ClassifyAnalysis(r.question, len(jp.Core))
	c.Prompt = generate.Build(data)
	sp.end(c.Timings, exErr)
	return c
}

// neededReasons are the retrieval reasons that say the question needs a
// table: it names it, or the table joins or completes ones it names.
var neededReasons = []string{"name", "thesaurus", "glossary", "bridge", "header", "lines", "child", "backward", reasonHistory}

// neededTables are the tables of a context the question needs, in its
// order: those its join plan joins (plan.Question.Needed).
func neededTables(tables []retrieve.TableHit) []string {
	var out []string
	for _, t := range tables {
		if slices.ContainsFunc(t.Reasons, func(r string) bool { return slices.Contains(neededReasons, r) }) {
			out = append(out, t.Name)
		}
	}
	return out
}
