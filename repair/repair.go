package repair

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// Failure is what the server said about a failed statement.
type Failure struct {
	SQLState string
	Message  string
	Detail   string
	Hint     string
	// Position is the 1-based character position of the error in the
	// statement text, as PostgreSQL reports it; 0 when unknown.
	Position int
}

// Position turns a byte offset into sql into the 1-based character
// position a Failure carries (PostgreSQL's); 0 when the offset is unknown
// (negative) or outside sql.
func Position(sql string, offset int) int {
	if offset < 0 || offset > len(sql) {
		return 0
	}
	return utf8.RuneCountInString(sql[:offset]) + 1
}

// Change is one rewrite rule applied by Normalize.
type Change struct {
	Rule string // stable rule code, e.g. "dialect.ifnull"
	Note string // human-readable summary
}

// Fix is a candidate repaired statement.
type Fix struct {
	SQL  string
	Rule string // stable rule code of the main repair, e.g. "42703.fuzzy_column"
	Note string
	// Changes lists every rule applied to get SQL (Rule included).
	Changes []Change
	// Verify, when not empty, is a query to run before using the fix: the
	// fix keeps the query's meaning only if Verify returns no row (it checks
	// the data where the schema cannot tell, e.g. that a column added to
	// GROUP BY holds one value per group). A caller that cannot run it must
	// not apply the fix.
	Verify string
}

// Rule codes. Dialect rules are applied by Normalize; the others by Fix,
// keyed by the SQLSTATE they answer.
const (
	RuleBacktick        = "dialect.backtick"
	RuleLimitComma      = "dialect.limit_comma"
	RuleTop             = "dialect.top"
	RuleIntervalLiteral = "dialect.interval_literal"
	RuleCoalesce        = "dialect.ifnull"
	RuleExtract         = "dialect.extract"
	RuleDateAdd         = "dialect.date_add"
	RuleDateDiff        = "dialect.datediff"
	RuleStrftime        = "dialect.strftime"
	RuleDateFormat      = "dialect.date_format"
	RuleNow             = "dialect.now"
	RuleFunctionName    = "dialect.function_name"
	RuleIf              = "dialect.if"
	RuleCastType        = "dialect.cast_type"
	RuleGroupConcat     = "dialect.group_concat"
	RuleBoolAggregate   = "dialect.bool_aggregate"
	RuleQuotedString    = "dialect.double_quoted_string"

	RuleFuzzyColumn  = "42703.fuzzy_column"
	RuleRequalify    = "42703.requalify"
	RuleJoinNeighbor = "42703.join_neighbor"
	RuleStringValue  = "42703.quoted_string"
	RuleDropPhantom  = "42703.drop_phantom"
	RuleFuzzyTable   = "42P01.fuzzy_table"
	RuleMissingFrom  = "42P01.add_join"
	RuleFromAlias    = "42P01.requalify"
	RuleAmbiguous    = "42702.qualify"
	RuleGroupBy      = "42803.group_by_dependent"
	// RuleGroupByAdd adds columns the schema does not prove dependent on
	// the groups; its Fix carries Verify (one value per group in the data).
	RuleGroupByAdd   = "42803.group_by_add"
	RuleCastNumeric  = "42883.cast_numeric"
	RuleCastText     = "42883.cast_text"
	RuleCastTime     = "42883.cast_timestamp"
	RuleCastInt      = "42883.cast_int"
	RuleQuoteLiteral = "42883.quote_literal"
	RuleDateDiffDays = "42883.date_diff_days"
	RuleDaysInterval = "42883.days_interval"
	RuleDateArith    = "42883.date_arith"
	RuleBoolWhere    = "42804.boolean_condition"
	RuleMismatchText = "42804.cast_text"
	RuleInvalidText  = "22P02.cast_text"
)

// ErrNoFix is returned by Fix when no deterministic repair applies.
var ErrNoFix = errors.New("repair: no deterministic fix")

// ParseError reports SQL that does not parse as PostgreSQL even after the
// dialect rewrites.
type ParseError struct {
	SQL string // the text that was parsed (after textual rewrites)
	Err error
}

func (e *ParseError) Error() string { return "repair: parse: " + e.Err.Error() }
func (e *ParseError) Unwrap() error { return e.Err }

// Option configures a Repairer.
type Option interface{ apply(*config) }

type config struct {
	searchPath    []string
	gloss         gloss.Glosser
	maxCandidates int
	logger        *slog.Logger
	tables        map[string]bool // qualified names; nil: every table
	glossers      int             // WithGlosser calls, so With knows to rebuild the matcher
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithSearchPath sets the schemas unqualified table names resolve in
// (default "public").
func WithSearchPath(schemas ...string) Option {
	return optionFunc(func(c *config) { c.searchPath = append([]string(nil), schemas...) })
}

// WithGlosser sets the word expander used when matching names: given a word
// of a name, it returns the full words it may stand for ("qty" → "quantity").
// The default is gloss.Words, which knows the ERP abbreviations; nil (or
// gloss.Split) expands nothing. Repair's own short list of column-name
// abbreviations is always used.
func WithGlosser(g gloss.Glosser) Option {
	return optionFunc(func(c *config) { c.gloss, c.glossers = g, c.glossers+1 })
}

// WithTables restricts the tables Fix may bring into a query, by a 42P01
// correction or a JOIN, to the named ones ("schema.table"; repeatable: the
// sets add up), e.g. the tables a request may read. Tables the query
// already reads are matched against whatever it reads.
func WithTables(qualified ...string) Option {
	return optionFunc(func(c *config) {
		if c.tables == nil {
			c.tables = map[string]bool{}
		}
		for _, q := range qualified {
			c.tables[q] = true
		}
	})
}

// WithMaxCandidates bounds the number of fixes Fix returns (default 3).
func WithMaxCandidates(n int) Option {
	return optionFunc(func(c *config) {
		if n > 0 {
			c.maxCandidates = n
		}
	})
}

// WithLogger sets the logger for debug messages (silent by default).
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}

// Repairer rewrites SQL for PostgreSQL. It is immutable and safe for
// concurrent use.
type Repairer struct {
	cat    *schema.Catalog
	cfg    config
	idents map[string]bool // every schema, table and column name
	cols   []string        // every column name, sorted, once
	match  matcher
}

// New returns a Repairer for the catalog.
func New(cat *schema.Catalog, opts ...Option) *Repairer {
	cfg := config{searchPath: []string{"public"}, maxCandidates: 3, logger: slog.New(slog.DiscardHandler), gloss: gloss.Words}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if len(cfg.searchPath) == 0 {
		cfg.searchPath = []string{"public"}
	}
	if cat == nil {
		cat = schema.NewCatalog(nil, nil, nil)
	}
	r := &Repairer{cat: cat, cfg: cfg, idents: map[string]bool{}}
	cols := map[string]bool{}
	for _, t := range cat.Tables {
		r.idents[t.Schema], r.idents[t.Name] = true, true
		for _, c := range t.Columns {
			r.idents[c.Name], cols[c.Name] = true, true
		}
	}
	for c := range cols {
		r.cols = append(r.cols, c)
	}
	sort.Strings(r.cols)
	all := make([]string, 0, len(r.idents))
	for n := range r.idents {
		all = append(all, n)
	}
	r.match = newMatcher(cfg.gloss, all)
	return r
}

// With returns a Repairer for the same catalog with opts applied on top of
// r's options, e.g. a request's search path and tables:
//
//	rr := r.With(repair.WithSearchPath("div_03", "public"), repair.WithTables(names...))
//
// It shares r's name index, so it is cheap unless opts set a glosser.
func (r *Repairer) With(opts ...Option) *Repairer {
	cfg := r.cfg
	cfg.searchPath = append([]string(nil), cfg.searchPath...)
	if cfg.tables != nil {
		tables := make(map[string]bool, len(cfg.tables))
		for k := range cfg.tables {
			tables[k] = true
		}
		cfg.tables = tables
	}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if len(cfg.searchPath) == 0 {
		cfg.searchPath = []string{"public"}
	}
	out := &Repairer{cat: r.cat, cfg: cfg, idents: r.idents, cols: r.cols, match: r.match}
	if cfg.glossers != r.cfg.glossers {
		out.match = newMatcher(cfg.gloss, r.match.names())
	}
	return out
}

// anyColumn reports whether some table of the catalog has a column of that
// name, or one a typo away.
func (r *Repairer) anyColumn(name string) bool {
	for _, c := range r.cols {
		if r.match.rank(name, c, nil) <= rankTypo {
			return true
		}
	}
	return false
}

// allowed reports whether Fix may bring t into a query (WithTables).
func (r *Repairer) allowed(t *schema.Table) bool {
	return r.cfg.tables == nil || r.cfg.tables[t.QualifiedName()]
}

// Normalize rewrites MySQL, SQLite and T-SQL idioms into PostgreSQL. Text
// that does not parse first gets token-level rewrites (backticks, LIMIT a,b,
// TOP n, INTERVAL 30 DAY); then the parse tree is rewritten and deparsed.
// SQL needing no change is returned as is, with no changes.
func (r *Repairer) Normalize(sql string) (string, []Change, error) {
	tree, text, changes, err := r.parse(sql)
	if err != nil {
		return text, changes, err
	}
	treeChanges := r.normalizeTree(tree, text)
	if len(treeChanges) == 0 && len(changes) == 0 {
		return sql, nil, nil
	}
	changes = append(changes, treeChanges...)
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return text, changes, fmt.Errorf("repair: deparse: %w", err)
	}
	return out, changes, nil
}

// parse parses sql, applying the token rewrites when it does not parse.
func (r *Repairer) parse(sql string) (*pg_query.ParseResult, string, []Change, error) {
	tree, err := pgparse.Parse(sql)
	if err == nil {
		return tree, sql, nil, nil
	}
	text, changes := rewriteTokens(sql, backtickIdent(func(s string) bool { return r.idents[s] }))
	if len(changes) == 0 && text == sql {
		return nil, sql, nil, &ParseError{SQL: sql, Err: err}
	}
	tree, err2 := pgparse.Parse(text)
	if err2 != nil {
		return nil, text, changes, &ParseError{SQL: text, Err: err2}
	}
	return tree, text, changes, nil
}

// Fix returns candidate repairs of sql for the failure the server reported
// on it, best first. Positions in f refer to sql. It returns ErrNoFix when
// nothing deterministic applies, an *AmbiguousError (errors.Is ErrNoFix)
// when a name could stand for several things or only for loosely similar
// ones, and a *ParseError when sql does not parse.
//
// A name is replaced only when exactly one target is plausible: 42703,
// 42P01 and 42702 propose at most one fix each, never a guess among
// several (see the package documentation for the rules).
func (r *Repairer) Fix(sql string, f Failure) ([]Fix, error) {
	var fixes []Fix
	// Dialect normalization first: an undefined function or a syntax error
	// is often a MySQL/SQLite idiom.
	if norm, changes, err := r.Normalize(sql); err == nil && len(changes) > 0 {
		fixes = append(fixes, Fix{SQL: norm, Rule: changes[0].Rule, Note: joinNotes(changes), Changes: changes})
	} else if err != nil && len(fixes) == 0 {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
	}
	tree, err := pgparse.Parse(sql)
	if err != nil {
		if len(fixes) > 0 {
			return fixes, nil
		}
		return nil, &ParseError{SQL: sql, Err: err}
	}
	d := &doc{r: r, sql: sql, tree: tree}
	var edits []edit
	if h := handlers[f.SQLState]; h != nil {
		edits = h(d, f)
	}
	for _, e := range edits {
		if len(fixes) >= r.cfg.maxCandidates {
			break
		}
		out, err := d.apply(e)
		if err != nil {
			r.cfg.logger.Debug("repair: candidate dropped", "rule", e.rule, "err", err)
			continue
		}
		if out == sql || containsSQL(fixes, out) {
			continue
		}
		verify, err := d.check(e)
		if err != nil {
			r.cfg.logger.Debug("repair: candidate dropped (no check query)", "rule", e.rule, "err", err)
			continue
		}
		fixes = append(fixes, Fix{SQL: out, Rule: e.rule, Note: e.note, Changes: []Change{{Rule: e.rule, Note: e.note}}, Verify: verify})
	}
	if len(fixes) == 0 {
		if amb := d.ambiguity(f.SQLState); amb != nil {
			return nil, amb
		}
		return nil, ErrNoFix
	}
	if len(fixes) > r.cfg.maxCandidates {
		fixes = fixes[:r.cfg.maxCandidates]
	}
	return fixes, nil
}

// handlers maps a SQLSTATE to the analysis proposing its repairs.
var handlers = map[string]func(*doc, Failure) []edit{
	"42703": (*doc).undefinedColumnInScope,
	"42P01": (*doc).undefinedTable,
	"42702": (*doc).ambiguousColumn,
	"42803": (*doc).grouping,
	"42883": (*doc).undefinedFunction,
	"42804": (*doc).datatypeMismatch,
	"22P02": (*doc).invalidText,
}

func containsSQL(fs []Fix, sql string) bool {
	for _, f := range fs {
		if f.SQL == sql {
			return true
		}
	}
	return false
}

func joinNotes(cs []Change) string {
	notes := make([]string, len(cs))
	for i, c := range cs {
		notes[i] = c.Note
	}
	return strings.Join(notes, "; ")
}
