package retrieve

import (
	"log/slog"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/llm"
	"github.com/nl2sqlgo/nl2sql/plan"
)

// Option configures a Retriever.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	embedder       llm.Embedder
	graph          *plan.Graph
	store          SchemaStore
	gloss          gloss.Glosser
	modules        map[string][]string
	moduleSource   ModuleSource
	moduleKeywords map[string][]string
	glossary       map[string][]string
	thesaurus      *gloss.Thesaurus
	examples       map[string][]string
	sharedSchemas  []string
	hubDegree      int
	maxTables      int
	seeds          int
	fkDecay        float64
	usage          map[string]int
	usageTop       int
	batch          int
	progress       func(Progress)
	logger         *slog.Logger
}

// WithEmbedder sets the embedder (default NewHashEmbedder(384)).
func WithEmbedder(e llm.Embedder) Option { return optionFunc(func(c *config) { c.embedder = e }) }

// WithGraph supplies the join graph used for FK expansion (default: one
// built from the catalog with inferred edges, plan.WithInferredEdges). A
// graph of another catalog is ignored.
func WithGraph(g *plan.Graph) Option { return optionFunc(func(c *config) { c.graph = g }) }

// WithStore sets the document store (default a new MemoryStore).
func WithStore(s SchemaStore) Option { return optionFunc(func(c *config) { c.store = s }) }

// WithGlosser sets how identifiers become words in documents and table
// names (default gloss.Words, which expands ERP abbreviations; nil restores
// it). Documents hold the split identifier and, when it differs, the
// glosser's reading.
func WithGlosser(g gloss.Glosser) Option { return optionFunc(func(c *config) { c.gloss = g }) }

// WithModules configures modules: module name -> tables (qualified, or bare
// names matching that table in every schema). Unlisted tables go to "other";
// a table listed by several modules goes to the first by name, qualified
// listings before bare ones.
func WithModules(m map[string][]string) Option { return optionFunc(func(c *config) { c.modules = m }) }

// WithModuleSource chooses how modules are found when none are configured.
func WithModuleSource(s ModuleSource) Option {
	return optionFunc(func(c *config) { c.moduleSource = s })
}

// WithModuleKeywords adds routing keywords per module ("payroll" -> hr).
func WithModuleKeywords(m map[string][]string) Option {
	return optionFunc(func(c *config) { c.moduleKeywords = m })
}

// WithGlossary maps business terms to tables or columns ("headcount" ->
// ["hr.employees"]); a question using the term pulls those tables in, and
// the terms are added to the documents.
func WithGlossary(g map[string][]string) Option {
	return optionFunc(func(c *config) { c.glossary = g })
}

// WithThesaurus sets the thesaurus that relates the words of a question to
// the words of the schema ("staff" -> employee, "tenure" -> hire date);
// default gloss.DefaultThesaurus(), nil for none. Merge a list of your own with
// the default: gloss.MergeThesauri(mine, gloss.DefaultThesaurus()).
func WithThesaurus(t *gloss.Thesaurus) Option {
	return optionFunc(func(c *config) { c.thesaurus = t })
}

// WithExamples adds example values per column ("schema.table.column") to the
// documents, so a question naming a value finds its column.
func WithExamples(ex map[string][]string) Option {
	return optionFunc(func(c *config) { c.examples = ex })
}

// WithSharedSchemas names schemas that every scope can see (default
// "public"): a request scoped to div_01 searches div_01 plus these.
func WithSharedSchemas(s ...string) Option {
	return optionFunc(func(c *config) { c.sharedSchemas = s })
}

// WithHubDegree sets the degree above which a table is a hub (default 8): a
// hub's referencing tables are not pulled in by FK expansion (they are half
// the schema), and hubs do not bind FK communities together.
func WithHubDegree(n int) Option { return optionFunc(func(c *config) { c.hubDegree = n }) }

// WithMaxTables caps the tables a result holds (default 12).
func WithMaxTables(n int) Option { return optionFunc(func(c *config) { c.maxTables = n }) }

// WithProgress reports indexing progress.
func WithProgress(fn func(Progress)) Option { return optionFunc(func(c *config) { c.progress = fn }) }

// WithLogger sets the logger (silent by default).
//
// The same option sets the logger of NewPGVectorStore.
func WithLogger(l *slog.Logger) LoggerOption { return LoggerOption{l} }

// LoggerOption is both an Option (New) and a PGVectorOption
// (NewPGVectorStore); a nil logger keeps the default (silent).
type LoggerOption struct{ l *slog.Logger }

func (o LoggerOption) apply(c *config) {
	if o.l != nil {
		c.logger = o.l
	}
}

func (o LoggerOption) applyPG(c *pgConfig) {
	if o.l != nil {
		c.logger = o.l
	}
}

// QueryOption configures one Tables call.
type QueryOption interface{ applyQuery(*query) }

type queryOptionFunc func(*query)

func (f queryOptionFunc) applyQuery(q *query) { f(q) }

type query struct {
	evidence  string
	scope     string
	maxTables int
}

// Evidence adds the user's hint text to the question for ranking.
func Evidence(e string) QueryOption { return queryOptionFunc(func(q *query) { q.evidence = e }) }

// Scope restricts the search to one schema plus the shared schemas.
func Scope(schemaName string) QueryOption {
	return queryOptionFunc(func(q *query) { q.scope = schemaName })
}

// MaxTables overrides WithMaxTables for this call.
func MaxTables(n int) QueryOption { return queryOptionFunc(func(q *query) { q.maxTables = n }) }
