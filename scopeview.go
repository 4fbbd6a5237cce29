package nl2sql

import (
	"context"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// ScopeCatalog returns the part of the catalog a request with opts may
// see: with a scope (a Scope option, else WithScope), the tables of its
// schema and of the shared schemas, and only those (their schemas, enum
// types and foreign-key neighbours); without one, the whole catalog. It
// is the one filter every listing of a scoped server goes through (the
// console's schema pages, the MCP server's tables and describe_schema),
// the same schemas the scope's queries may read. It is cut, as the
// request's prompts are, to the tables and columns the request's role
// (AsRole, else the pool's) may SELECT. A scope that names no schema of
// the database is an *Error of class ClassConfig; an unknown role one of
// class ClassConfig too.
func (e *Engine) ScopeCatalog(ctx context.Context, opts ...AskOption) (_ *schema.Catalog, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, nil)
	if err != nil {
		return nil, err
	}
	v, err := rq.scope.view(ctx)
	if err != nil {
		return nil, err
	}
	return v.cat, nil
}

// ScopeKnowledge is Knowledge as a request with opts may see it: with a
// scope, a doc of a table, a term with a target, or an example whose SQL
// reads a table outside the scope is left out (the example is judged by
// the scope's validator, on what its names resolve to, not on how they
// are spelt). Free-standing docs name no table and are listed for every
// scope. Knowledge learnt under an identity (a role, settings or a scope
// given to Learn) is listed only to a request of the same identity; what
// was learnt under none (the operator's) to every request. A server lists
// and forgets a caller's knowledge through this.
func (e *Engine) ScopeKnowledge(ctx context.Context, opts ...AskOption) (_ []Knowledge, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, nil)
	if err != nil {
		return nil, err
	}
	all, err := e.Knowledge(ctx)
	if err != nil {
		return nil, err
	}
	out := all[:0:0]
	for _, k := range all {
		// What another identity taught is its own (its questions and
		// constants are its tenant's): listed only to that identity.
		if rq.offers(k) && (!rq.scope.scoped || rq.scope.visible(k)) {
			out = append(out, k)
		}
	}
	return out, nil
}

// visible reports whether every table k names is in the scope's schemas.
func (sc *scope) visible(k Knowledge) bool {
	switch k.Kind {
	case KnowledgeDoc:
		return k.Table == "" || sc.lookupTable(k.Table) != ""
	case KnowledgeTerm:
		for _, tg := range k.Targets {
			if _, ok := sc.lookupTarget(tg); !ok {
				return false
			}
		}
		return true
	case KnowledgeExample:
		return sc.reads(k.SQL)
	}
	return false
}
