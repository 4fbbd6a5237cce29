package nl2sql

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

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

var errNoLLM = errors.New("nl2sql: no LLM configured (WithLLM)")
