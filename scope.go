package nl2sql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/generate"
	"github.com/nl2sqlgo/nl2sql/link"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// requestScope returns the search path of a request and whether it is
// restricted to it, refusing a scope that names no schema of the catalog:
// a typo ("div_3") would otherwise be answered from the shared schemas
// alone, as if the tenant had no tables.
func (e *Engine) requestScope(st *state, scope string) ([]string, bool, error) {
	if err := st.knownScope(scope); err != nil {
		return nil, false, err
	}
	return e.cfg.searchPath(scope), e.cfg.scoped(scope), nil
}

// knownScope reports an *Error (ErrConfig) when scope is set and no table
// of the catalog lives in that schema.
func (st *state) knownScope(scope string) error {
	if scope == "" || slices.ContainsFunc(st.cat.Tables, func(t *schema.Table) bool { return t.Schema == scope }) {
		return nil
	}
	return &Error{Class: ClassConfig, Message: fmt.Sprintf("unknown scope %q: no table of the database is in a schema of that name", scope)}
}

// ScopeCatalog returns the part of the catalog a request with opts may
// see: with a scope (a Scope option, else WithScope), the tables of its
// schema and of the shared schemas, and only those (their schemas, enum
// types and foreign-key neighbours); without one, the whole catalog. It
// is the one filter every listing of a scoped server goes through (the
// console's schema pages, the MCP server's tables and describe_schema),
// the same schemas the scope's queries may read. A scope that names no
// schema of the database is an *Error of class ClassConfig.
func (e *Engine) ScopeCatalog(ctx context.Context, opts ...AskOption) (_ *schema.Catalog, err error) {
	defer finish(ctx, &err)
	st, path, scoped, err := e.scopeState(ctx, opts)
	if err != nil {
		return nil, err
	}
	if !scoped {
		return st.cat, nil
	}
	key := strings.Join(path, "\x00")
	if c, ok := st.scoped.Load(key); ok {
		return c.(*schema.Catalog), nil
	}
	c, _ := st.scoped.LoadOrStore(key, st.cat.InSchemas(path...))
	return c.(*schema.Catalog), nil
}

// ScopeKnowledge is Knowledge as a request with opts may see it: with a
// scope, a doc of a table, a term with a target, or an example whose SQL
// reads a table outside the scope is left out (the example is judged by
// the scope's validator, on what its names resolve to, not on how they
// are spelt). Free-standing docs name no table and are listed for every
// scope.
func (e *Engine) ScopeKnowledge(ctx context.Context, opts ...AskOption) (_ []Knowledge, err error) {
	defer finish(ctx, &err)
	st, path, scoped, err := e.scopeState(ctx, opts)
	if err != nil {
		return nil, err
	}
	all, err := e.Knowledge(ctx)
	if err != nil || !scoped {
		return all, err
	}
	out := all[:0:0]
	for _, k := range all {
		if st.visible(k, path) {
			out = append(out, k)
		}
	}
	return out, nil
}

// scopeState is the engine's state and the search path of a request
// with opts, and whether it is restricted to it.
func (e *Engine) scopeState(ctx context.Context, opts []AskOption) (*state, []string, bool, error) {
	if err := e.usable(ctx); err != nil {
		return nil, nil, false, err
	}
	st, err := e.state(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	path, scoped, err := e.requestScope(st, e.askConfig(opts).scope)
	return st, path, scoped, err
}

// visible reports whether every table k names is in path's schemas.
func (st *state) visible(k Knowledge, path []string) bool {
	switch k.Kind {
	case KnowledgeDoc:
		return k.Table == "" || st.lookupTable(k.Table, path, true) != ""
	case KnowledgeTerm:
		for _, tg := range k.Targets {
			if _, ok := st.lookupTarget(tg, path, true); !ok {
				return false
			}
		}
		return true
	case KnowledgeExample:
		return st.readsInScope(k.SQL, path)
	}
	return false
}

// maxScopedDraw is how many times more similar examples a scoped request
// draws before keeping its scope's (see scopeExamples).
const maxScopedDraw = 4

// scopeExamples keeps up to k of exs whose SQL the scope's validator
// accepts: an example reading another tenant's table is not shown to a
// model writing this tenant's query.
func (st *state) scopeExamples(exs []generate.Example, path []string, k int) []generate.Example {
	out := exs[:0]
	for _, ex := range exs {
		if len(out) == k {
			break
		}
		if st.readsInScope(ex.SQL, path) {
			out = append(out, ex)
		}
	}
	return out
}

// readsInScope reports whether the scope's validator accepts sql: an
// example is judged on what its names resolve to, not on their spelling.
func (st *state) readsInScope(sql string, path []string) bool {
	_, err := st.validator(path, true).Validate(sql)
	return err == nil
}

// scopeLinks drops from r what lies outside path's schemas: the linker
// works on the whole catalog, and a glossary term or a foreign key may
// lead it to another tenant's table.
func scopeLinks(r *link.Result, path []string) {
	in := func(table string) bool {
		s, _, _ := strings.Cut(table, ".")
		return slices.Contains(path, s)
	}
	r.Tables = slices.DeleteFunc(r.Tables, func(l link.TableLink) bool { return !in(l.Table) })
	r.Columns = slices.DeleteFunc(r.Columns, func(l link.ColumnLink) bool { return !in(l.Table) })
	r.Values = slices.DeleteFunc(r.Values, func(l link.ValueHint) bool { return !in(l.Table) })
	r.Warnings = slices.DeleteFunc(r.Warnings, func(w link.Warning) bool {
		return slices.ContainsFunc(w.Tables, func(t string) bool { return !in(t) })
	})
}
