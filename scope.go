package nl2sql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/execute"
	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// scope is a request's reach: its search path, whether it is restricted to
// the path's schemas, the role its queries run as, and what its key owns
// (the validator, executor and repairer every entry point checks and runs
// its SQL with). newScope makes it once per request.
type scope struct {
	key    scopeKey
	path   []string
	scoped bool
	role   string // SET LOCAL ROLE of its queries, "" for none
	// sets are the custom settings of its reads (Setting), SET LOCAL.
	sets [][2]string
	e    *Engine
	st   *state
}

// scopeKey is a scope's identity in the state's caches: comparable, and
// one key per search path and restriction (no schema name holds a NUL).
type scopeKey struct {
	path   string // the search path's schemas, NUL-separated
	scoped bool
}

// newScope resolves the scope of a request with ac, refusing a scope that
// names no schema of the catalog: a typo ("div_3") would otherwise be
// answered from the shared schemas alone, as if the tenant had no tables.
func (e *Engine) newScope(st *state, ac askConfig) (*scope, error) {
	if err := st.knownScope(ac.scope); err != nil {
		return nil, err
	}
	sc := &scope{path: e.cfg.searchPath(ac.scope), scoped: e.cfg.scoped(ac.scope), role: ac.role, sets: ac.settings, e: e, st: st}
	sc.key = scopeKey{path: strings.Join(sc.path, "\x00"), scoped: sc.scoped}
	return sc, nil
}

// tables returns the tables the scope may read: with a restriction, those
// of the search path's schemas only, so a scoped request cannot reach
// another tenant's schema even by qualifying names; without one, every
// table.
func (sc *scope) tables() []validate.Table {
	if !sc.scoped {
		return sc.st.tables
	}
	var out []validate.Table
	for _, t := range sc.st.tables {
		if slices.Contains(sc.path, t.Schema) {
			out = append(out, t)
		}
	}
	return out
}

// policy is the one validator configuration of every entry point (Ask,
// Run, Check, Repair, Pick, Learn and the executor's own check): the tables
// a request may read, its search path, the catalog's types, the plan
// budget and, when scoped, only the search path's schemas, whatever the
// query qualifies.
func (sc *scope) policy() []validate.Option {
	opts := []validate.Option{validate.WithTables(sc.tables()...), validate.WithSearchPath(sc.path...),
		validate.WithTypes(sc.st.types...), validate.WithPlanBudget(sc.st.budget), validate.WithSettings(sc.e.cfg.settings...)}
	if sc.scoped {
		opts = append(opts, validate.WithSchemas(sc.path...))
	}
	return opts
}

// validator returns the scope's validator (cached). It adds no LIMIT: the
// SQL the Engine shows is the query as written plus its fixes, and the row
// cap is applied by the executor when the query runs (it adds LIMIT cap+1
// to what it sends, so that a cut result is reported as truncated instead
// of silently ending at the cap).
func (sc *scope) validator() *validate.Validator {
	if v, ok := sc.st.validators.Load(sc.key); ok {
		return v.(*validate.Validator)
	}
	actual, _ := sc.st.validators.LoadOrStore(sc.key, validate.New(sc.policy()...))
	return actual.(*validate.Validator)
}

// executor returns the scope's executor (cached): its own validator has
// the same policy, as a second line of defence.
func (sc *scope) executor() *execute.Executor {
	if x, ok := sc.st.executors.Load(sc.key); ok {
		return x.(*execute.Executor)
	}
	cfg := &sc.e.cfg
	x := execute.New(sc.e.db,
		execute.WithValidateOptions(sc.policy()...),
		execute.WithStatementTimeout(cfg.statementTimeout),
		execute.MaxRows(cfg.maxRows),
		execute.WithLogger(cfg.logger))
	actual, _ := sc.st.executors.LoadOrStore(sc.key, x)
	return actual.(*execute.Executor)
}

// explain validates and plans sqls with the scope's validator, as the
// scope's role: its privileges, row-level security and pinning are those
// the query will run with.
func (sc *scope) explain(ctx context.Context, sqls []string) []validate.ExplainResult {
	opts := []validate.ExplainOption{validate.AsRole(sc.role)}
	for _, kv := range sc.sets {
		opts = append(opts, validate.Setting(kv[0], kv[1]))
	}
	return sc.validator().Explain(ctx, sc.e.db, sqls, opts...)
}

// repairer returns the scope's repairer (cached): it knows only the tables
// the request may read and resolves names along its search path, so a
// misspelt table is corrected to a table of this scope, never to another
// tenant's.
func (sc *scope) repairer() *repair.Repairer {
	if r, ok := sc.st.repairers.Load(sc.key); ok {
		return r.(*repair.Repairer)
	}
	opts := []repair.Option{repair.WithSearchPath(sc.path...)}
	if sc.scoped {
		var names []string
		for _, t := range sc.tables() {
			names = append(names, t.Schema+"."+t.Name)
		}
		opts = append(opts, repair.WithTables(names...))
	}
	actual, _ := sc.st.repairers.LoadOrStore(sc.key, sc.st.repairer.With(opts...))
	return actual.(*repair.Repairer)
}

// catalog returns the part of the catalog the scope sees (cached): with a
// restriction, its schemas' tables; without, the whole catalog.
func (sc *scope) catalog() *schema.Catalog {
	if !sc.scoped {
		return sc.st.cat
	}
	if c, ok := sc.st.scoped.Load(sc.key); ok {
		return c.(*schema.Catalog)
	}
	c, _ := sc.st.scoped.LoadOrStore(sc.key, sc.st.cat.InSchemas(sc.path...))
	return c.(*schema.Catalog)
}

// settings are the per-query settings of the scope's queries: its search
// path (SET LOCAL), maxRows and its role.
func (sc *scope) settings(maxRows int) []execute.QueryOption {
	o := []execute.QueryOption{execute.Scope(sc.path...), execute.MaxRows(maxRows)}
	if sc.role != "" {
		o = append(o, execute.AsRole(sc.role))
	}
	for _, kv := range sc.sets {
		o = append(o, execute.Setting(kv[0], kv[1]))
	}
	return o
}

// query runs sql with the scope's executor and settings (and opts), at
// most maxRows rows.
func (sc *scope) query(ctx context.Context, sql string, maxRows int, opts ...execute.QueryOption) (*execute.Result, error) {
	return sc.executor().Query(ctx, sql, append(sc.settings(maxRows), opts...)...)
}

// resolve maps a relation named in a query of the scope to its qualified
// name: a schema-qualified name as is, an unqualified one along the search
// path; "" when it is not a table the request may read (tables: with a
// restriction, the tables of the search path's schemas; without, every
// table).
func (sc *scope) resolve(schemaName, name string) string {
	t := sc.st.cat.Lookup(schemaName, name)
	if schemaName == "" {
		t = sc.st.cat.Resolve(name, sc.path)
	}
	if t == nil || (sc.scoped && !slices.Contains(sc.path, t.Schema)) {
		return ""
	}
	return t.QualifiedName()
}

// maxScopedDraw is how many times more similar examples a request draws
// before keeping those it is offered (see offeredExamples).
const maxScopedDraw = 4

// reads reports whether the scope's validator accepts sql: an example is
// judged on what its names resolve to, not on their spelling.
func (sc *scope) reads(sql string) bool {
	_, err := sc.validator().Validate(sql)
	return err == nil
}

// knownScope reports an *Error (ErrConfig) when scope is set and no table
// of the catalog lives in that schema.
func (st *state) knownScope(scope string) error {
	if scope == "" || slices.ContainsFunc(st.cat.Tables, func(t *schema.Table) bool { return t.Schema == scope }) {
		return nil
	}
	return &Error{Class: ClassConfig, Message: fmt.Sprintf("unknown scope %q: no table of the database is in a schema of that name", scope)}
}

// splitQualified splits "schema.table" ("" schema when unqualified).
func splitQualified(name string) (string, string) {
	if s, n, ok := strings.Cut(name, "."); ok {
		return s, n
	}
	return "", name
}
