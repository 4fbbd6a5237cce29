package validate

import (
	pg "github.com/pganalyze/pg_query_go/v6"
)

// Values of catalog-lookup types. A cast is not the only way to a regtype
// or regclass: pg_typeof returns a regtype, and PostgreSQL gives a string
// literal the type of the values it is unified with (VALUES rows, UNION
// arms, CASE and COALESCE branches, ARRAY[...], GREATEST, IN lists), so in
// VALUES (pg_typeof(1)), ('div_02.bank_accounts') the literal is read by
// regtype's input function: it lists another tenant's relations and their
// OIDs, and tells which exist. EXPLAIN does not print the contents of a
// VALUES list, so the static check is the guard. The rule is on where the
// result may go, not on inferring every value's type: a function returning
// a lookup type may only be the direct operand of a cast to a text type
// (pg_typeof(x)::text) or a direct argument of format, concat or
// concat_ws, whose "any" parameters are typed one by one; anywhere else
// (and so in every unifying construct) it is refused (V013) unless
// WithSystemCatalogs(true). The functions were checked against pg_proc:
// pg_typeof is the only one of the default list returning such a type;
// acldefault (aclitem[]) is listed in case WithFunctions allows it; the
// others (to_regclass, pg_partition_root, ...) are always denied.
var lookupResults = setOf("pg_typeof", "acldefault")

// textTypes are the types a lookup value may be cast to: its name as text.
var textTypes = setOf("text", "varchar", "bpchar")

// lookupResult reports whether a function name (unqualified or in
// pg_catalog) returns a catalog-lookup type the configuration refuses.
func (c *checker) lookupResult(schema, name string) bool {
	return (schema == "" || schema == "pg_catalog") && lookupResults[name] && !c.cfg.allowCatalogs
}

// textCast lets the call a cast to text converts through.
func (c *checker) textCast(tc *pg.TypeCast) {
	f := tc.Arg.GetFuncCall()
	if f == nil || tc.TypeName == nil || len(tc.TypeName.ArrayBounds) > 0 || tc.TypeName.Setof {
		return
	}
	if qn := splitName(tc.TypeName.Names); textTypes[qn.name] && (qn.schema == "" || qn.schema == "pg_catalog") {
		c.converted(f)
	}
}

// textArgs lets the calls format, concat and concat_ws (pg_catalog's,
// whose "any" parameters unify nothing) take as direct arguments through.
func (c *checker) textArgs(f *pg.FuncCall, schema, name string) {
	if f.FuncVariadic || (schema != "" && schema != "pg_catalog") {
		return
	}
	switch name {
	case "format", "concat", "concat_ws":
		for _, a := range f.Args {
			if g := a.GetFuncCall(); g != nil {
				c.converted(g)
			}
		}
	}
}

func (c *checker) converted(f *pg.FuncCall) {
	if c.textual == nil {
		c.textual = map[*pg.FuncCall]bool{}
	}
	c.textual[f] = true
}

// lookupCall refuses a call returning a lookup type where its value could
// make other values lookups.
func (c *checker) lookupCall(f *pg.FuncCall, display string) {
	if !c.textual[f] {
		c.violation(CodeSystemCatalog, "%s returns a catalog-lookup type, which turns the strings it meets (VALUES rows, UNION arms, CASE, COALESCE, IN lists, arrays, comparisons) into catalog lookups; use %s(...)::text", display, display)
	}
}
