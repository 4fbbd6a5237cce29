package nl2sql

import (
	"fmt"
	"slices"

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
