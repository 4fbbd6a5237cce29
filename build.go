package nl2sql

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// state is the Engine's current state, built on first use (by a request,
// Prepare or Catalog): the catalog, its indexes and the knowledge, built
// once however many requests wait for it. The first build also checks the
// Engine's role (checkPrivileges) and starts the watch (WithRefreshEvery).
func (e *Engine) state(ctx context.Context) (*state, error) {
	if st := e.st.Load(); st != nil {
		return st, nil
	}
	e.building.Lock()
	defer e.building.Unlock()
	if st := e.st.Load(); st != nil {
		return st, nil // built while this call waited
	}
	st, err := e.build(ctx, nil, false)
	if err != nil {
		return nil, err
	}
	e.st.Store(st)
	// Once per Engine: warn when the role can do more than read.
	e.checkPrivileges(ctx, st.cat)
	e.startWatching()
	return st, nil
}

// rebuild builds the next state from the current one and swaps it in; with
// knowledgeOnly, on the current catalog (see build): a term learnt or
// forgotten applies to the next question. Questions asked meanwhile use
// the current state.
func (e *Engine) rebuild(ctx context.Context, knowledgeOnly bool) error {
	e.building.Lock()
	defer e.building.Unlock()
	st, err := e.build(ctx, e.st.Load(), knowledgeOnly)
	if err != nil {
		return err
	}
	e.st.Store(st)
	return nil
}

// build introspects and indexes; prev, when given, lets the retriever reuse
// its store (only changed documents are embedded again). With
// knowledgeOnly (and prev), the catalog and the value index are prev's and
// only what the knowledge feeds is rebuilt: a term learnt or forgotten.
func (e *Engine) build(ctx context.Context, prev *state, knowledgeOnly bool) (*state, error) {
	start := time.Now()
	cat := e.cfg.catalog
	var err error
	knowledgeOnly = knowledgeOnly && prev != nil
	if knowledgeOnly {
		cat = prev.cat
	} else if cat == nil || prev != nil {
		e.tracers.progress(ctx, Progress{Stage: StageIntrospect})
		if cat, err = schema.Introspect(ctx, e.db, e.cfg.introspect...); err != nil {
			if ce := connectionError("reading the catalog failed", err); ce != nil {
				return nil, ce
			}
			return nil, &Error{Class: ClassConfig, Message: "reading the catalog failed", Err: err}
		}
	}
	if prev != nil && !knowledgeOnly && prev.cat.Fingerprint() == cat.Fingerprint() {
		return prev, nil
	}
	st := &state{cat: cat, budget: e.cfg.planBudget}
	if err := st.knownScope(e.cfg.scope); err != nil {
		return nil, err // WithScope names no schema of the database
	}
	gopts, wopts := e.cfg.workloadOptions()
	st.graph = plan.NewGraph(cat, append(gopts, plan.WithInferredEdges(true), plan.WithLogger(e.cfg.logger))...)
	ropts := []retrieve.Option{
		retrieve.WithGraph(st.graph), retrieve.WithLogger(e.cfg.logger), retrieve.WithMaxTables(e.cfg.maxTables),
		retrieve.WithSharedSchemas(e.cfg.shared...),
		// Only the embedding is long, and counted against what needs it
		// (the documents stage counts every document: mixing the two made
		// the bar jump back).
		retrieve.WithProgress(func(p retrieve.Progress) {
			if p.Stage == "embed" {
				e.tracers.progress(ctx, Progress{Stage: StageIndex, Done: p.Done, Total: p.Total})
			}
		}),
	}
	ropts = append(ropts, wopts...)
	if e.cfg.embedder != nil {
		ropts = append(ropts, retrieve.WithEmbedder(e.cfg.embedder))
	}
	if e.cfg.store != nil {
		ropts = append(ropts, retrieve.WithStore(e.cfg.store))
	} else if prev != nil {
		ropts = append(ropts, retrieve.WithStore(prev.retriever.Store()))
	}
	if len(e.cfg.modules) > 0 {
		ropts = append(ropts, retrieve.WithModules(e.cfg.modules))
	}
	// What the team taught (Learn) lives in the store: read it first, so
	// the terms count in the documents this build writes.
	store := e.cfg.store
	if store == nil && prev != nil {
		store = prev.retriever.Store()
	}
	var learnt []Knowledge
	if store != nil {
		if learnt, err = storedKnowledge(ctx, store); err != nil {
			return nil, &Error{Class: ClassConfig, Message: "reading the stored knowledge failed", Err: err}
		}
	}
	if e.cfg.semantic != nil {
		// A copy per catalog: Check resolves names in place, and questions
		// in flight keep reading the state this one replaces.
		sm := e.cfg.semantic.Clone()
		if err := sm.Check(cat, validate.New(validate.WithSearchPath(e.cfg.searchPath("")...), validate.WithSettings(e.cfg.settings...))); err != nil {
			return nil, &Error{Class: ClassConfig, Message: "the semantic model does not fit the catalog", Err: err}
		}
		st.semantic = sm
	}
	// The model's words (measures, filters, synonyms) retrieve and link
	// what its definitions read, as glossary terms do.
	glossary := glossaryWith(e.cfg.glossary, learnt)
	if st.semantic != nil {
		glossary = withVocabulary(glossary, st.semantic.Vocabulary())
	}
	if len(glossary) > 0 {
		ropts = append(ropts, retrieve.WithGlossary(glossary))
	}
	lopts := []link.Option{link.WithLogger(e.cfg.logger)}
	if len(glossary) > 0 {
		lopts = append(lopts, link.WithGlossary(link.Glossary(glossary)))
	}
	if e.cfg.values {
		vi := e.cfg.valueIndex
		if knowledgeOnly {
			vi = prev.values
		}
		if vi == nil || (prev != nil && !knowledgeOnly) {
			e.tracers.progress(ctx, Progress{Stage: StageValues})
			if vi, err = link.BuildValueIndex(ctx, e.db, cat, link.WithLogger(e.cfg.logger), link.WithValueTables(link.SharedTables(cat)...)); err != nil {
				if ce := connectionError("building the value index failed", err); ce != nil {
					return nil, ce
				}
				return nil, &Error{Class: ClassConfig, Message: "building the value index failed", Err: err}
			}
		}
		vi = vi.Shared(cat)
		st.values, st.valueSets = vi, rewrite.NewValueSets(vi)
		// Once here, not per question: it walks every column of the index.
		st.examples = vi.Examples(3)
		lopts = append(lopts, link.WithValueIndex(vi))
		ropts = append(ropts, retrieve.WithExamples(vi.Examples(10)))
	}
	st.linker = link.New(cat, lopts...)
	if st.retriever, err = retrieve.New(ctx, cat, ropts...); err != nil {
		return nil, &Error{Class: ClassConfig, Message: "indexing the catalog failed", Err: err}
	}
	for _, t := range cat.Tables {
		vt := validate.Table{Schema: t.Schema, Name: t.Name, Columns: t.ColumnNames(), PrimaryKey: t.PrimaryKey, Unique: t.Unique}
		for _, fk := range t.ForeignKeys {
			vt.ForeignKeys = append(vt.ForeignKeys, validate.ForeignKey{Columns: fk.Columns, RefSchema: fk.RefSchema, RefTable: fk.RefTable, RefColumns: fk.RefColumns})
		}
		st.tables = append(st.tables, vt)
	}
	st.types = catalogTypes(cat)
	// The pool role's grants, read here: a prepared engine builds the
	// context of a request without AsRole without the database. On the
	// same catalog (a term learnt), every role's are kept.
	if knowledgeOnly {
		prev.grants.Range(func(role, g any) bool { st.grants.Store(role, g); return true })
	} else {
		g, err := readGrants(ctx, e.db, "", cat)
		if err != nil {
			return nil, err
		}
		st.grants.Store("", g)
	}
	st.repairer = repair.New(cat, repair.WithLogger(e.cfg.logger))
	e.cfg.logger.DebugContext(ctx, "nl2sql: engine prepared", "tables", len(cat.Tables), "took", time.Since(start))
	if err := e.reloadKnowledge(ctx, store, learnt); err != nil {
		return nil, &Error{Class: ClassConfig, Message: "reading the stored knowledge failed", Err: err}
	}
	e.tracers.progress(ctx, Progress{Stage: StageReady, Done: len(cat.Tables), Total: len(cat.Tables), Took: time.Since(start)})
	return st, nil
}

// catalogTypes lists the user types a query may cast to: the catalog's
// enums (qualified and bare) and the base names of its column types
// (domains, extension types).
func catalogTypes(cat *schema.Catalog) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for name := range cat.Enums {
		add(name)
		if _, bare, ok := strings.Cut(name, "."); ok {
			add(bare)
		}
	}
	for _, t := range cat.Tables {
		for _, c := range t.Columns {
			typ := strings.TrimSuffix(c.Type, "[]")
			if i := strings.IndexByte(typ, '('); i >= 0 {
				typ = typ[:i]
			}
			typ = strings.Trim(typ, `"`)
			add(typ)
			if i := strings.LastIndexByte(typ, '.'); i >= 0 {
				add(strings.Trim(typ[i+1:], `"`))
			}
		}
	}
	slices.Sort(out)
	return out
}
