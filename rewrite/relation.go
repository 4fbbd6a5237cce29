package rewrite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/schema"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// UnknownRelation reports whether a rejection is only about relations that
// exist nowhere in cat, named unqualified or in a schema of path (V012 for
// a misspelt "custmers"), and returns the failure the server would have
// given for the first (its position in sql): such a name is a slip the
// 42P01 correction (package repair) may rewrite to a relation of the
// scope, then the rewritten query is validated again. A relation of
// another schema (another tenant's table) stays refused.
func UnknownRelation(ve *validate.Error, sql string, path []string, cat *schema.Catalog) (repair.Failure, bool) {
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
		for _, t := range cat.Tables {
			if t.Name == rel {
				return repair.Failure{}, false // it exists: outside the scope
			}
		}
		if i == 0 {
			first = repair.Failure{SQLState: "42P01", Message: fmt.Sprintf("relation %q does not exist", name), Position: repair.Position(sql, is.Location)}
		}
	}
	return first, true
}

// OtherScope reports whether a rejection names a table of cat by a schema
// the request may not read (another tenant's table): a policy refusal,
// where an unknown or unqualified name is a mistake.
func OtherScope(ve *validate.Error, cat *schema.Catalog) bool {
	for _, is := range ve.Violations() {
		if _, schemaName, rel, ok := refusedRelation(is); ok && schemaName != "" && cat.Lookup(schemaName, rel) != nil {
			return true
		}
	}
	return false
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
