package validate

import (
	"log/slog"
	"strings"
)

// Table is a relation queries may read. Name and Schema are catalog names
// (case-sensitive, as stored: unquoted identifiers are lower case). Columns
// is optional; when given, lint can find ambiguous or unknown columns and
// SELECT * on wide tables.
//
// The keys are optional too (column names as in Columns); when given, lint
// finds joins that repeat a table's rows under an aggregate (L010, the fan
// trap). With no key data the lint says nothing about the table.
type Table struct {
	Schema  string
	Name    string
	Columns []string
	// PrimaryKey lists the primary key's columns.
	PrimaryKey []string
	// Unique lists the column sets of the other unique constraints and
	// unique indexes (without expressions or predicates).
	Unique [][]string
	// ForeignKeys lists the table's foreign keys.
	ForeignKeys []ForeignKey
}

// ForeignKey is a foreign key of a Table: Columns reference RefColumns of
// RefSchema.RefTable, pairwise (an empty RefSchema means the table's own).
// The referenced columns are unique in the referenced table, as PostgreSQL
// requires, so a key declared here also tells lint about that table.
type ForeignKey struct {
	Columns    []string
	RefSchema  string
	RefTable   string
	RefColumns []string
}

// Option configures a Validator.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Defaults.
const (
	DefaultMaxGenerated = 100_000 // rows from generate_series, characters from repeat/lpad/rpad
	DefaultMaxCrossJoin = 3       // unconnected FROM groups allowed before V023
	DefaultWideTable    = 12      // columns above which SELECT * is linted
)

type config struct {
	tables        map[string]map[string]*Table // schema -> name -> table; nil: any user table
	schemas       map[string]bool              // relations and types only in these schemas; nil: any
	types         map[string]map[string]bool   // schema ("" for any) -> configured type names
	searchPath    []string
	allowFuncs    map[string]bool
	denyFuncs     map[string]bool
	allowCatalogs bool
	// settings are the custom settings queries and policies may read
	// (WithSettings), lower case.
	settings map[string]bool
	// allowSystemColumns lets queries read xmin, xmax, cmin, cmax and
	// tableoid.
	allowSystemColumns bool
	maxLimit           int64
	lint               bool
	maxGenerated       int64
	maxCrossJoin       int
	wideTable          int
	budget             PlanBudget
	logger             *slog.Logger
}

func defaultConfig() *config {
	return &config{
		searchPath:   []string{"public"},
		allowFuncs:   map[string]bool{},
		denyFuncs:    map[string]bool{},
		lint:         true,
		maxGenerated: DefaultMaxGenerated,
		maxCrossJoin: DefaultMaxCrossJoin,
		wideTable:    DefaultWideTable,
		budget:       DefaultPlanBudget(),
		logger:       slog.New(slog.DiscardHandler),
	}
}

// WithTables restricts the relations a query may read to tables (repeatable:
// the sets add up). Without it any relation outside the system catalogs is
// allowed.
func WithTables(tables ...Table) Option {
	return optionFunc(func(c *config) {
		if c.tables == nil {
			c.tables = map[string]map[string]*Table{}
		}
		for i := range tables {
			t := tables[i]
			if t.Schema == "" {
				t.Schema = "public"
			}
			if c.tables[t.Schema] == nil {
				c.tables[t.Schema] = map[string]*Table{}
			}
			c.tables[t.Schema][t.Name] = &t
		}
	})
}

// WithSchemas restricts the relations (and the types) a query may name to
// those of schemas, whether or not WithTables lists the tables: a scoped
// request cannot reach another tenant's schema by qualifying a name
// (repeatable: the sets add up). System schemas follow WithSystemCatalogs.
func WithSchemas(schemas ...string) Option {
	return optionFunc(func(c *config) {
		if c.schemas == nil {
			c.schemas = map[string]bool{}
		}
		for _, s := range schemas {
			c.schemas[s] = true
		}
	})
}

// WithTypes allows user-defined types (enums, domains, composite types) in
// casts and typed literals: "schema.name", or a bare name for that name in
// any schema (repeatable). Built-in types, common extension types and the
// row types of allowed relations need no configuration; with WithTables, a
// type that is none of these is rejected (V016).
func WithTypes(names ...string) Option {
	return optionFunc(func(c *config) {
		if c.types == nil {
			c.types = map[string]map[string]bool{}
		}
		for _, n := range names {
			schema, name, ok := strings.Cut(n, ".")
			if !ok {
				schema, name = "", n
			}
			if c.types[schema] == nil {
				c.types[schema] = map[string]bool{}
			}
			c.types[schema][name] = true
		}
	})
}

// WithSearchPath sets the schemas unqualified relation names resolve in, in
// order (default "public"). It must match the search_path of the session that
// runs the query, and that search_path must not list pg_catalog after other
// schemas: the function checks rely on PostgreSQL searching pg_catalog first
// (its default), so that count() cannot resolve to a user function.
func WithSearchPath(schemas ...string) Option {
	return optionFunc(func(c *config) { c.searchPath = append([]string(nil), schemas...) })
}

// WithFunctions allows functions beyond the default allow-list. A bare name
// ("similarity") allows calls unqualified or qualified with pg_catalog; a
// qualified name ("util.fiscal_year") allows exactly that schema. Functions
// on the always-denied list (side effects, SQL from strings) stay denied.
func WithFunctions(names ...string) Option {
	return optionFunc(func(c *config) {
		for _, n := range names {
			c.allowFuncs[strings.ToLower(n)] = true
		}
	})
}

// WithoutFunctions denies functions the default allow-list would accept.
func WithoutFunctions(names ...string) Option {
	return optionFunc(func(c *config) {
		for _, n := range names {
			c.denyFuncs[strings.ToLower(n)] = true
		}
	})
}

// WithSystemCatalogs allows reading pg_catalog, information_schema and the
// statistics views (off by default). Secret-bearing relations (pg_authid,
// pg_shadow, pg_user_mapping, ...) stay denied.
func WithSystemCatalogs(allow bool) Option {
	return optionFunc(func(c *config) { c.allowCatalogs = allow })
}

// WithSystemColumns allows the system columns xmin, xmax, cmin, cmax and
// tableoid (off by default: xmin and xmax tell how many transactions the
// cluster ran, tableoid is a catalog key). ctid is always allowed.
func WithSystemColumns(allow bool) Option {
	return optionFunc(func(c *config) { c.allowSystemColumns = allow })
}

// WithMaxRows makes the result SQL return at most n rows: a LIMIT n is added
// to the outermost query when it has none and a larger one is lowered to n.
// Zero (the default) leaves LIMIT alone.
func WithMaxRows(n int) Option {
	return optionFunc(func(c *config) { c.maxLimit = max(int64(n), 0) })
}

// WithLint turns the lint checks on (default) or off. The resource guards and
// safety checks always run.
func WithLint(on bool) Option {
	return optionFunc(func(c *config) { c.lint = on })
}

// WithMaxGenerated sets the most rows a generate_series call and the most
// characters a repeat/lpad/rpad call may produce (default DefaultMaxGenerated).
func WithMaxGenerated(n int64) Option {
	return optionFunc(func(c *config) {
		if n > 0 {
			c.maxGenerated = n
		}
	})
}

// WithMaxCrossJoin sets how many FROM items with no join condition between
// them one query level may combine before V023 rejects it (default
// DefaultMaxCrossJoin). Single-row items such as aggregate subqueries do
// not count.
func WithMaxCrossJoin(n int) Option {
	return optionFunc(func(c *config) {
		if n > 1 {
			c.maxCrossJoin = n
		}
	})
}

// WithLogger sets the logger (silent by default). Rejections are logged at
// debug level.
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}
