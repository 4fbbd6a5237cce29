package nl2sql

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// LLM is a chat model (llm/openai, llm/ollama, llm/anthropic implement it).
type LLM = llm.Model

// Embedder turns texts into vectors for schema retrieval.
type Embedder = llm.Embedder

// SchemaStore holds the schema index (retrieve.MemoryStore, retrieve.PGVectorStore).
type SchemaStore = retrieve.SchemaStore

// DB is what the Engine needs of a database handle; *pgxpool.Pool
// satisfies it. Queries run through the executor's own transactions.
//
// Acquire returns the concrete *pgxpool.Conn because the executor must be
// able to destroy a connection (Hijack and close it) rather than return it
// to the pool after a query that left state it cannot reset, which only a
// pooled connection offers. Go has no covariant results, so an Acquire
// returning an interface would stop *pgxpool.Pool satisfying DB; to
// observe or wrap the database, embed the *pgxpool.Pool in a type of your
// own (or use pgx's tracer, pgxpool.Config.ConnConfig.Tracer).
type DB interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error)
	Acquire(ctx context.Context) (*pgxpool.Conn, error)
}

// Engine answers questions over one database. Build it with New; it is
// safe for concurrent use.
type Engine struct {
	db  DB
	cfg config

	// building serializes builds (the first Prepare, Refresh); st is read
	// without waiting for one, so questions are answered on the current
	// state while Refresh builds the next.
	building sync.Mutex
	st       atomic.Pointer[state] // nil until Prepare succeeds

	examples *generate.ExampleStore
	know     knowledgeBase
	file     indexFile // see LoadIndexFile
	gen      *generate.Generator
	watching watcher // WithRefreshEvery; stopped by Close
	tracers  tracers // WithTracer, then WithProgress's adapter
}

// state is everything derived from one catalog.
type state struct {
	cat        *schema.Catalog
	retriever  *retrieve.Retriever
	graph      *plan.Graph
	linker     *link.Linker
	values     *link.ValueIndex
	valueSets  rewrite.ValueSets   // the index's complete value sets, for scoring
	examples   map[string][]string // table.column -> up to 3 sample values, for prompts
	repairer   *repair.Repairer    // the whole catalog's, for repair prompts
	repairers  sync.Map            // scopeKey -> *repair.Repairer
	tables     []validate.Table
	types      []string            // enums and column types, for validate.WithTypes
	budget     validate.PlanBudget // WithPlanBudget
	validators sync.Map            // scopeKey -> *validate.Validator
	executors  sync.Map            // scopeKey -> *execute.Executor
	scoped     sync.Map            // scopeKey -> *schema.Catalog (ScopeCatalog)
	grants     sync.Map            // role ("" the pool's) -> *grants
	views      sync.Map            // viewKey -> *view
	semantic   *semantic.Model     // WithSemantic's model, checked against cat
}

// maxK bounds WithK: each sample is a model call.
const maxK = 100

// New returns an Engine over db. It does no I/O: the catalog is read and
// indexed by Prepare, or by the first call that needs it.
func New(db DB, opts ...Option) (_ *Engine, err error) {
	defer coded(&err)
	if db == nil {
		return nil, &Error{Class: ClassConfig, Message: "nil database"}
	}
	if v := reflect.ValueOf(db); v.Kind() == reflect.Pointer && v.IsNil() {
		// A nil *pgxpool.Pool is a non-nil DB that panics at first use.
		return nil, &Error{Class: ClassConfig, Message: fmt.Sprintf("nil database (a nil %T)", db)}
	}
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	if cfg.k[0] < 1 || cfg.k[1] < 1 || cfg.k[2] < 1 || cfg.attempts < 0 || cfg.maxRows < 1 || cfg.maxTables < 1 {
		return nil, &Error{Class: ClassConfig, Message: fmt.Sprintf("K (%d, %d, %d), the row cap (%d) and the table cap (%d) must be positive, repair attempts (%d) not negative",
			cfg.k[0], cfg.k[1], cfg.k[2], cfg.maxRows, cfg.maxTables, cfg.attempts)}
	}
	if max(cfg.k[0], cfg.k[1], cfg.k[2]) > maxK {
		// Each sample is a model call, and its slots are allocated up front.
		return nil, &Error{Class: ClassConfig, Message: fmt.Sprintf("K (%d, %d, %d) is over %d samples a question", cfg.k[0], cfg.k[1], cfg.k[2], maxK)}
	}
	emb := cfg.embedder
	if emb == nil {
		emb = retrieve.NewHashEmbedder(256)
	}
	e := &Engine{db: db, cfg: cfg, examples: generate.NewExampleStore(emb),
		tracers: tracers(nil).with(cfg.tracer).with(progressTracer(cfg.progress))}
	if cfg.llm != nil {
		e.gen = generate.New(traceModel(cfg.llm, e.tracers), generate.WithK(cfg.k[0], cfg.k[1], cfg.k[2]), generate.WithLogger(cfg.logger),
			generate.WithBudget(cfg.generateBudget))
	}
	return e, nil
}

// Prepare reads the catalog and builds the index (and, unless disabled, the
// value index). It runs once; later calls return at once. Call it at start-up
// to keep the first question fast, or Refresh after schema changes.
func (e *Engine) Prepare(ctx context.Context) (err error) {
	defer finish(ctx, &err)
	_, err = e.newRequest(ctx, nil, nil)
	return err
}

// Refresh re-reads the catalog and re-indexes what changed (nothing when the
// fingerprint is unchanged). Questions asked meanwhile are answered on the
// state it replaces; those asked after it returns, on the new one.
func (e *Engine) Refresh(ctx context.Context) (err error) {
	defer finish(ctx, &err)
	if err := e.usable(ctx); err != nil {
		return err
	}
	return e.rebuild(ctx, false)
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

// Catalog returns the catalog the engine works with, reading it if needed.
func (e *Engine) Catalog(ctx context.Context) (_ *schema.Catalog, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, nil, nil)
	if err != nil {
		return nil, err
	}
	return rq.st.cat, nil
}

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
			if vi, err = link.BuildValueIndex(ctx, e.db, cat, link.WithLogger(e.cfg.logger), link.WithValueTables(sharedTables(cat)...)); err != nil {
				if ce := connectionError("building the value index failed", err); ce != nil {
					return nil, ce
				}
				return nil, &Error{Class: ClassConfig, Message: "building the value index failed", Err: err}
			}
		}
		vi = sharedValues(vi, cat)
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

// knownScope reports an *Error (ErrConfig) when scope is set and no table
// of the catalog lives in that schema.
func (st *state) knownScope(scope string) error {
	if scope == "" || slices.ContainsFunc(st.cat.Tables, func(t *schema.Table) bool { return t.Schema == scope }) {
		return nil
	}
	return &Error{Class: ClassConfig, Message: fmt.Sprintf("unknown scope %q: no table of the database is in a schema of that name", scope)}
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

var errNoLLM = errors.New("nl2sql: no LLM configured (WithLLM)")
