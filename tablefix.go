package nl2sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// repairerFor returns the repairer of a request's scope (cached): it knows
// only the tables the request may read and resolves names along its search
// path, so a misspelt table is corrected to a table of this scope, never to
// another tenant's.
func (st *state) repairerFor(path []string, scoped bool) *repair.Repairer {
	key := fmt.Sprint(path, scoped)
	if r, ok := st.repairers.Load(key); ok {
		return r.(*repair.Repairer)
	}
	opts := []repair.Option{repair.WithSearchPath(path...)}
	if scoped {
		var names []string
		for _, t := range st.scopeTables(path, scoped) {
			names = append(names, t.Schema+"."+t.Name)
		}
		opts = append(opts, repair.WithTables(names...))
	}
	actual, _ := st.repairers.LoadOrStore(key, st.repairer.With(opts...))
	return actual.(*repair.Repairer)
}

// unknownRelation reports whether a rejection is only about relations that
// exist nowhere in the catalog, named unqualified or in a schema of the
// request (V012 for a misspelt "custmers"), and returns the failure the
// server would have given for the first (its position in sql): such a name is a slip the 42P01
// correction may fix, then the fixed query is validated again. A relation
// of another schema (another tenant's table) stays refused.
func (st *state) unknownRelation(ve *validate.Error, path []string, sql string) (repair.Failure, bool) {
	if ve == nil {
		return repair.Failure{}, false
	}
	vs := ve.Violations()
	if len(vs) == 0 {
		return repair.Failure{}, false
	}
	var first repair.Failure
	for i, is := range vs {
		name, schemaName, rel, ok := refusedRelation(is)
		if !ok || is.Location < 0 {
			return repair.Failure{}, false
		}
		if schemaName != "" && !slices.Contains(path, schemaName) {
			return repair.Failure{}, false
		}
		for _, t := range st.cat.Tables {
			if t.Name == rel {
				return repair.Failure{}, false // it exists: outside the scope
			}
		}
		if i == 0 {
			first = repair.Failure{SQLState: "42P01", Message: fmt.Sprintf("relation %q does not exist", name), Position: charPosition(sql, is.Location)}
		}
	}
	return first, true
}

// refusedRelation reads the relation a V012 issue names: as written, and
// split into schema ("" when unqualified) and name.
func refusedRelation(is validate.Issue) (written, schemaName, rel string, ok bool) {
	name, ok := strings.CutPrefix(is.Message, "relation ")
	if is.Code != validate.CodeTableNotAllowed || !ok {
		return "", "", "", false
	}
	if name, _, ok = strings.Cut(name, " is not in the allowed tables"); !ok {
		return "", "", "", false
	}
	schemaName, rel, qualified := strings.Cut(name, ".")
	if !qualified {
		rel, schemaName = schemaName, ""
	}
	return name, schemaName, rel, true
}

// otherScope reports whether a rejection names a table of the catalog by a
// schema the request may not read (another tenant's table): a policy
// refusal, where an unknown or unqualified name is a mistake.
func (st *state) otherScope(ve *validate.Error) bool {
	for _, is := range ve.Violations() {
		if _, schemaName, rel, ok := refusedRelation(is); ok && schemaName != "" && st.cat.Lookup(schemaName, rel) != nil {
			return true
		}
	}
	return false
}

// resolver maps a relation named in a query of the scope to its qualified
// name: a schema-qualified name as is, an unqualified one along the search
// path; "" when it is not a table the request may read (scopeTables: with a
// scope, the tables of the search path's schemas; without, every table).
func (st *state) resolver(path []string, scoped bool) func(schemaName, name string) string {
	return func(schemaName, name string) string {
		t := st.cat.Lookup(schemaName, name)
		if schemaName == "" {
			t = st.cat.Resolve(name, path)
		}
		if t == nil || (scoped && !slices.Contains(path, t.Schema)) {
			return ""
		}
		return t.QualifiedName()
	}
}
