package nl2sql

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/nl2sqlgo/nl2sql/confidence"
	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/score"
	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
	"github.com/nl2sqlgo/nl2sql/workload"
)

// Option configures an Engine.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	limits           inputLimits // see WithInputLimits
	llm              LLM
	embedder         Embedder
	store            SchemaStore
	scorer           score.Scorer
	k                [3]int
	attempts         int
	maxRows          int
	maxTables        int
	planBudget       validate.PlanBudget
	statementTimeout time.Duration
	generateBudget   time.Duration
	timeout          time.Duration
	modelTimeout     time.Duration
	scope            string
	shared           []string
	role             string
	settings         []string // custom settings queries and policies may read (WithSettings)
	glossary         map[string][]string
	modules          map[string][]string
	values           bool
	abstain          float64               // WithMinConfidence
	uncertain        float64               // WithUncertainBelow
	calibrator       confidence.Calibrator // WithCalibrator
	minMatch         retrieve.Match
	introspect       []schema.IntrospectOption
	catalog          *schema.Catalog
	valueIndex       *link.ValueIndex
	workload         *workload.Knowledge // see WithWorkload
	semantic         *semantic.Model     // see WithSemantic
	indexFile        string              // see LoadIndexFile
	refreshEvery     time.Duration       // see WithRefreshEvery
	progress         func(Progress)
	tracer           Tracer
	logger           *slog.Logger
}

// Default time bounds of Ask (see WithTimeout and WithModelTimeout).
const (
	DefaultTimeout      = 60 * time.Second
	DefaultModelTimeout = 30 * time.Second
)

func defaultConfig() config {
	return config{
		k: [3]int{1, 3, 5}, attempts: 2, maxRows: 1000, maxTables: 12, minMatch: retrieve.MatchWeak,
		statementTimeout: 30 * time.Second, timeout: DefaultTimeout, modelTimeout: DefaultModelTimeout, shared: []string{"public"}, values: true,
		scorer: score.Default{}, calibrator: confidence.Default(), uncertain: DefaultUncertainBelow, logger: slog.New(slog.DiscardHandler),
	}
}

// searchPath is the search path of a request scoped to scope ("" = the
// engine's default scope; no scope at all = the shared schemas).
func (c *config) searchPath(scope string) []string {
	if scope == "" {
		scope = c.scope
	}
	if scope == "" {
		return append([]string(nil), c.shared...)
	}
	out := []string{scope}
	for _, s := range c.shared {
		if s != scope {
			out = append(out, s)
		}
	}
	return out
}

// scoped reports whether a request with this scope is restricted to its
// search path's schemas.
func (c *config) scoped(scope string) bool { return scope != "" || c.scope != "" }

// WithLLM sets the chat model that writes candidate SQL (required by Ask).
func WithLLM(m LLM) Option { return optionFunc(func(c *config) { c.llm = m }) }

// WithEmbedder sets the retrieval embedder (default: the built-in
// retrieve.HashEmbedder, no model needed).
func WithEmbedder(e Embedder) Option { return optionFunc(func(c *config) { c.embedder = e }) }

// WithStore sets the schema index store (default: in memory).
func WithStore(s SchemaStore) Option { return optionFunc(func(c *config) { c.store = s }) }

// WithScorer replaces the candidate scorer (default score.Default; nil
// keeps it). A score that is not a finite number counts as the lowest
// (NaN, -Inf) or the highest (+Inf) there is, so results stay JSON.
func WithScorer(s score.Scorer) Option {
	return optionFunc(func(c *config) {
		if s != nil {
			c.scorer = finiteScorer{s}
		}
	})
}

// WithK sets how many candidates to sample for easy, medium and hard
// questions (default 1, 3, 5; each from 1 to 100, New refuses others).
func WithK(easy, medium, hard int) Option {
	return optionFunc(func(c *config) { c.k = [3]int{easy, medium, hard} })
}

// WithRepairAttempts bounds the LLM repair turns after deterministic repair
// failed (default 2; 0 disables them).
func WithRepairAttempts(n int) Option { return optionFunc(func(c *config) { c.attempts = n }) }

// WithMaxRows caps the rows a result holds (default 1000); the SQL also
// gets a LIMIT.
func WithMaxRows(n int) Option { return optionFunc(func(c *config) { c.maxRows = n }) }

// WithMaxTables caps the tables shown to the model (default 12; at least
// 1, New refuses less).
func WithMaxTables(n int) Option { return optionFunc(func(c *config) { c.maxTables = n }) }

// WithPlanBudget bounds the planner's estimates of every query the Engine
// checks or runs (default validate.DefaultPlanBudget; a zero field keeps its
// default, a negative one removes that bound): a plan over it is refused
// with V027 (see validate.PlanBudget).
func WithPlanBudget(b validate.PlanBudget) Option {
	return optionFunc(func(c *config) { c.planBudget = b })
}

// WithStatementTimeout bounds each query's run time (default 30s).
func WithStatementTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) { c.statementTimeout = d })
}

// WithGenerateBudget bounds the wall time of one round of candidate
// generation (default: the request's context only). Which samples arrive in
// time depends on the model's speed, so with a budget the same model
// answers can give other candidates from run to run; leave it unset where
// runs must be reproducible.
func WithGenerateBudget(d time.Duration) Option {
	return optionFunc(func(c *config) { c.generateBudget = d })
}

// WithTimeout bounds the wall time of each Ask (default 60s; 0 or less:
// the caller's context only): every stage after the engine is prepared,
// model calls and their retries included (a retry does not start when its
// wait would cross the deadline). When the budget runs out while the model
// is being waited for, Ask returns ErrLLM naming the budget, with the
// partial Result. Prepare (or the first call's introspection) is not
// counted. Timeout overrides it per request.
func WithTimeout(d time.Duration) Option { return optionFunc(func(c *config) { c.timeout = d }) }

// WithModelTimeout bounds each attempt at a model call (default 30s; 0 or
// less: the client's own, 2 minutes for the built-in clients). An attempt
// that times out is retried like a network failure while the Ask's budget
// (WithTimeout) allows; when none answered, Ask returns ErrLLM saying the
// model did not answer within d. The built-in clients honour it through
// llm.WithCallTimeout; other LLM implementations may read llm.CallTimeout.
func WithModelTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) { c.modelTimeout = d })
}

// WithScope sets the default scope: one schema whose tables, plus the
// shared schemas', a request may see; it also pins search_path.
func WithScope(schemaName string) Option { return optionFunc(func(c *config) { c.scope = schemaName }) }

// WithSharedSchemas names the schemas every scope sees (default "public").
func WithSharedSchemas(s ...string) Option { return optionFunc(func(c *config) { c.shared = s }) }

// WithRole runs queries with SET LOCAL ROLE role (per-user privileges).
func WithRole(role string) Option { return optionFunc(func(c *config) { c.role = role }) }

// WithGlossary maps business terms to tables or columns ("headcount" ->
// ["hr.employees"]).
func WithGlossary(g map[string][]string) Option {
	return optionFunc(func(c *config) { c.glossary = g })
}

// WithModules configures modules for routing: module -> tables (a table
// several modules list goes to the first by name).
func WithModules(m map[string][]string) Option { return optionFunc(func(c *config) { c.modules = m }) }

// WithValueIndex turns the value index (distinct values of low-cardinality
// text columns, read at Prepare) on or off (default on).
func WithValueIndex(on bool) Option { return optionFunc(func(c *config) { c.values = on }) }

// WithAbstainBelow is WithMinConfidence's former name.
//
// Deprecated: use WithMinConfidence.
func WithAbstainBelow(min float64) Option { return optionFunc(func(c *config) { c.abstain = min }) }

// WithMinMatch makes Ask answer ErrRetrievalMiss, before calling the
// model, when the question meets the schema less well than m (see
// retrieve.Match): the default, retrieve.MatchWeak, abstains only when no
// word of the question is the schema's ("xyzzy plugh"); MatchStrong also
// abstains on weak matches; MatchNone never abstains.
func WithMinMatch(m retrieve.Match) Option { return optionFunc(func(c *config) { c.minMatch = m }) }

// WithIntrospectOptions passes options to schema.Introspect (schema filters).
func WithIntrospectOptions(opts ...schema.IntrospectOption) Option {
	return optionFunc(func(c *config) { c.introspect = append(c.introspect, opts...) })
}

// WithProgress reports long work: introspection and indexing, and each
// wait of Ask for the model (see Progress). With concurrent Asks it is
// called from several goroutines at once. It is an adapter of the tracer:
// fn hears what a ProgressTracer given to WithTracer would, after it.
func WithProgress(fn func(Progress)) Option { return optionFunc(func(c *config) { c.progress = fn }) }

// WithTracer observes every stage of every Ask (see Tracer, StageStarter
// and ProgressTracer).
func WithTracer(t Tracer) Option { return optionFunc(func(c *config) { c.tracer = t }) }

// WithLogger sets the logger (silent by default).
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}

// AskOption configures one Ask call.
type AskOption interface{ applyAsk(*askConfig) }

type askOptionFunc func(*askConfig)

func (f askOptionFunc) applyAsk(c *askConfig) { f(c) }

type askConfig struct {
	evidence  string
	scope     string
	role      string
	settings  [][2]string // Setting: custom settings of this request's reads
	maxRows   int
	askedRows int // MaxRows when it was over the engine's cap
	abstain   float64
	minMatch  retrieve.Match
	timeout   time.Duration
	progress  func(Progress)
	history   []generate.Turn
}

// Evidence adds the user's hint ("active means status = 'A'").
func Evidence(text string) AskOption { return askOptionFunc(func(c *askConfig) { c.evidence = text }) }

// Scope restricts this request to one schema plus the shared ones.
func Scope(schemaName string) AskOption {
	return askOptionFunc(func(c *askConfig) { c.scope = schemaName })
}

// AsRole runs this request's query with SET LOCAL ROLE role.
func AsRole(role string) AskOption { return askOptionFunc(func(c *askConfig) { c.role = role }) }

// Setting sets the custom setting name (a dotted name such as
// app.tenant_id) to value for every read this request makes: the EXPLAIN
// of its candidates, their runs and the answer's (SET LOCAL in each
// transaction, name and value as parameters, never from the query). It is
// the per-request identity row-level security policies read with
// current_setting('app.tenant_id'); declare the names they read with
// WithSettings. Other names fail the request's reads.
func Setting(name, value string) AskOption {
	return askOptionFunc(func(c *askConfig) { c.settings = append(c.settings, [2]string{name, value}) })
}

// WithSemantic gives the engine the business's definitions: measures,
// named filters, metrics, synonyms and verified questions (see package
// semantic). The engine keeps its own copy and checks it against the
// catalog at Prepare and at every Refresh that changes the catalog: a
// model that names what the catalog lacks, or an expression the safety
// policy refuses, fails Prepare with ErrConfig and the model's file and
// line.
func WithSemantic(m *semantic.Model) Option {
	m = m.Clone()
	return optionFunc(func(c *config) { c.semantic = m })
}

// WithSettings declares the custom settings (dotted names such as
// app.tenant_id) that queries and row-level security policies may read
// with current_setting: without it the validator refuses current_setting
// everywhere, including in the plan of a policy that reads the request's
// identity (see Setting and validate.WithSettings).
func WithSettings(names ...string) Option {
	return optionFunc(func(c *config) { c.settings = append(c.settings, names...) })
}

// MaxRows caps this request's rows (at most the engine's cap).
func MaxRows(n int) AskOption { return askOptionFunc(func(c *askConfig) { c.maxRows = n }) }

// OnProgress reports this request's waits for the model (see Progress) to
// fn, as well as to WithProgress's callback: a server answering many clients
// at once routes each request's progress to its own client. It is an
// adapter of the tracer: the request's own ProgressTracer, after the
// engine's.
func OnProgress(fn func(Progress)) AskOption {
	return askOptionFunc(func(c *askConfig) { c.progress = fn })
}

// MinMatch overrides WithMinMatch for this request.
func MinMatch(m retrieve.Match) AskOption {
	return askOptionFunc(func(c *askConfig) { c.minMatch = m })
}

// AbstainBelow is MinConfidence's former name.
//
// Deprecated: use MinConfidence.
func AbstainBelow(min float64) AskOption {
	return askOptionFunc(func(c *askConfig) { c.abstain = min })
}

// Timeout overrides WithTimeout for this request (0 or less: the caller's
// context only).
func Timeout(d time.Duration) AskOption { return askOptionFunc(func(c *askConfig) { c.timeout = d }) }

// finiteScorer makes a score.Scorer's scores finite: NaN and -Inf become the
// lowest float64, +Inf the highest (a NaN would win or lose at random, and
// no JSON encoder takes one).
type finiteScorer struct{ scorer score.Scorer }

func (f finiteScorer) Score(ctx context.Context, in *score.Input) []float64 {
	out := f.scorer.Score(ctx, in)
	for i, s := range out {
		switch {
		case math.IsNaN(s) || math.IsInf(s, -1):
			out[i] = -math.MaxFloat64
		case math.IsInf(s, 1):
			out[i] = math.MaxFloat64
		}
	}
	return out
}

// LLM is a chat model (llm/openai, llm/ollama, llm/anthropic implement it).
type LLM = llm.Model

// Embedder turns texts into vectors for schema retrieval.
type Embedder = llm.Embedder

// SchemaStore holds the schema index (retrieve.MemoryStore, retrieve.PGVectorStore).
type SchemaStore = retrieve.SchemaStore

// inputLimits are the engine's text limits, in characters.
type inputLimits struct{ question, evidence int }

// DefaultUncertainBelow is the default uncertain threshold: answers less
// likely than this to be right are VerdictUncertain. On spider-pools,
// cross-validated by database, answers at or above it are right about 9
// times in 10 (docs/benchmarks.md).
const DefaultUncertainBelow = 0.7

// WithCalibrator sets how the signals of an answer become its confidence
// (default confidence.Default(); nil keeps it).
func WithCalibrator(c confidence.Calibrator) Option {
	return optionFunc(func(cfg *config) {
		if c != nil {
			cfg.calibrator = c
		}
	})
}

// WithMinConfidence makes Ask abstain, with ErrLowConfidence and without
// running the query, when the answer's confidence is below p (default 0:
// never abstain). It is WithAbstainBelow's new name.
func WithMinConfidence(p float64) Option { return optionFunc(func(c *config) { c.abstain = p }) }

// MinConfidence overrides WithMinConfidence for this request.
func MinConfidence(p float64) AskOption {
	return askOptionFunc(func(c *askConfig) { c.abstain = p })
}

// WithUncertainBelow sets the confidence below which an answer is
// VerdictUncertain (default DefaultUncertainBelow).
func WithUncertainBelow(p float64) Option { return optionFunc(func(c *config) { c.uncertain = p }) }
