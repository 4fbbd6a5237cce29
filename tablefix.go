package nl2sql

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql/repair"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// unknownRelation reports whether a rejection is only about relations that
// exist nowhere in the catalog, named unqualified or in a schema of the
// request (V012 for a misspelt "custmers"), and returns the failure the
// server would have given for the first (its position in sql): such a name is a slip the 42P01
// correction may fix, then the fixed query is validated again. A relation
// of another schema (another tenant's table) stays refused.
func (sc *scope) unknownRelation(ve *validate.Error, sql string) (repair.Failure, bool) {
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
		if schemaName != "" && !slices.Contains(sc.path, schemaName) {
			return repair.Failure{}, false
		}
		for _, t := range sc.st.cat.Tables {
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

// rejection is the error for caller-written SQL the validator refused,
// with the first violation's code: unsafe when it breaks the policy
// (validate.Unsafe, or a table of another scope named by its schema),
// invalid otherwise (a syntax error, a misspelt table).
func (st *state) rejection(msg string, err error) *Error {
	e := &Error{Class: ClassInvalid, Message: msg, Err: err}
	var ve *validate.Error
	if errors.As(err, &ve) && len(ve.Violations()) > 0 {
		e.Code = ve.Violations()[0].Code
		if validate.Unsafe(e.Code) || st.otherScope(ve) {
			e.Class = ClassUnsafe
		}
	}
	return e
}

// charPosition turns a byte offset into sql into the 1-based character
// position PostgreSQL reports; 0 when the offset is unknown.
func charPosition(sql string, offset int) int {
	if offset < 0 || offset > len(sql) {
		return 0
	}
	return utf8.RuneCountInString(sql[:offset]) + 1
}
