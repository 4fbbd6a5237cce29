package validate

import (
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// builtinTypes are the pg_catalog types a query may name (casts, typed
// literals, column definition lists, RETURNING clauses): values with
// input functions that only parse their text. The SQL spellings (int,
// double precision, timestamp with time zone, ...) reach the tree as these
// names. Left out on purpose: the types whose input looks names up in the
// catalogs (denied outright, see catalogLookupTypes), pseudo-types, and
// internal types (pg_node_tree, pg_ndistinct, tid, xid, ...) no question
// needs. TestBuiltinTypesOnServer checks the list against pg_type.
var builtinTypes = setOf(
	"bit", "bool", "box", "bpchar", "bytea", "char", "cidr", "circle", "date", "datemultirange", "daterange",
	"float4", "float8", "inet", "int2", "int4", "int4multirange", "int4range", "int8", "int8multirange",
	"int8range", "interval", "json", "jsonb", "jsonpath", "line", "lseg", "macaddr", "macaddr8", "money", "name",
	"numeric", "nummultirange", "numrange", "oid", "path", "pg_lsn", "point", "polygon", "record", "text", "time",
	"timestamp", "timestamptz", "timetz", "tsmultirange", "tsquery", "tsrange", "tstzmultirange", "tstzrange",
	"tsvector", "uuid", "varbit", "varchar",
	// Text search configurations and dictionaries: to_tsvector('english', ...)
	// resolves its first argument to regconfig; they name nothing sensitive.
	"regconfig", "regdictionary",
)

// catalogLookupTypes turn numbers into names of relations, functions,
// operators, types, roles, schemas and collations (and names into numbers,
// testing their existence), or hold privileges: refused in every spelling
// unless WithSystemCatalogs(true).
var catalogLookupTypes = setOf("regclass", "regproc", "regprocedure", "regoper", "regoperator", "regtype",
	"regrole", "regnamespace", "regcollation", "aclitem")

// catalogLookup reports whether a type name, or its array form (_name),
// is a catalog-lookup type the configuration refuses; also where it is
// written as a function (regclass('x')) or a field ((x).regclass).
func (c *checker) catalogLookup(name string) bool {
	return catalogLookupTypes[strings.TrimPrefix(name, "_")] && !c.cfg.allowCatalogs
}

// extensionTypes are types of common extensions (pgvector, citext, hstore,
// ltree, cube, earthdistance) allowed by name wherever the search path finds
// them.
var extensionTypes = setOf("vector", "halfvec", "sparsevec", "citext", "hstore", "ltree", "lquery", "ltxtquery",
	"cube", "earth")

// typeName checks a type named in the query. The element type of an array
// (int[] or its internal spelling _int4) is checked like the type itself.
func (c *checker) typeName(t *pg.TypeName) {
	if len(t.Names) == 0 {
		return
	}
	if t.Setof || t.PctType {
		c.violation(CodeUnsupported, "SETOF and %%TYPE are not supported in queries; name the type")
		return
	}
	qn := splitName(t.Names)
	name, schema, display := qn.name, qn.schema, qn.display
	elem := strings.TrimPrefix(name, "_") // _int4 is int4[]
	c.uses.types[[2]string{schema, name}] = true
	c.uses.types[[2]string{schema, elem}] = true
	if qn.catalog {
		c.violation(CodeTableNotAllowed, "type %s names another database; use the types of the current database", display)
		return
	}
	if c.catalogLookup(name) {
		c.violation(CodeSystemCatalog, "type %s looks up the system catalogs and is not allowed; remove the cast", display)
		return
	}
	switch {
	case schema == "pg_catalog" || (schema == "" && (builtinTypes[elem] || catalogLookupTypes[elem])):
		// pg_catalog is searched first: an unqualified built-in name is the
		// built-in type.
		if !builtinTypes[elem] && !catalogLookupTypes[elem] && !c.cfg.allowCatalogs {
			// A catalog's row type (pg_catalog.pg_authid) or an internal type.
			c.violation(CodeSystemCatalog, "type %s is a system catalog's row type or an internal type and is not allowed", display)
		}
		return
	case schema != "" && systemSchema(schema):
		if !c.cfg.allowCatalogs || secretRelations[elem] {
			c.violation(CodeSystemCatalog, "type %s belongs to a system schema and is not allowed", display)
		}
		return
	case schema == "" && strings.HasPrefix(elem, "pg_"):
		// Not a built-in we allow, so a catalog relation's row type or an
		// internal type; pg_catalog is searched before the search path.
		if !c.cfg.allowCatalogs || secretRelations[elem] {
			c.violation(CodeSystemCatalog, "type %s is a system catalog's row type or an internal type and is not allowed", display)
		}
		return
	}
	if c.plan {
		// The server writes the casts it resolved itself ('Open'::deal_stage
		// for a comparison with an enum column); the types the query names
		// were judged on its own tree.
		return
	}
	c.uses.typeSites = append(c.uses.typeSites, typeSite{loc: int(t.Location), schema: schema, name: name})
	c.userType(schema, name, elem, display)
}

// userType checks a type outside pg_catalog: a configured type (enums,
// domains), a common extension type, or the row type of an allowed relation.
func (c *checker) userType(schema, name, elem, display string) {
	if schema == "" && extensionTypes[elem] {
		return
	}
	for _, n := range []string{name, elem} {
		if c.typeKnown(schema, n) {
			return
		}
	}
	if c.cfg.tables == nil && c.cfg.schemas == nil {
		// No allowed set: any non-system relation may be read, so its row
		// type may be named too; types cannot be told from relations here.
		return
	}
	if c.cfg.tables == nil {
		// Only the schemas are known: the type must live in one of them.
		s := schema
		if s == "" {
			if out := c.pathOutsideSchemas(); out != "" {
				c.violation(CodeTableNotAllowed, "type %s must be qualified with its schema: the search path also lists schema %s, outside the allowed schemas", display, out)
			}
			return // resolved along the search path, whose schemas are allowed
		}
		if !c.cfg.schemas[s] {
			c.violation(CodeTableNotAllowed, "type %s belongs to schema %s, outside the allowed schemas", display, s)
		}
		return
	}
	if schema != "" && !c.schemaInScope(schema) {
		c.violation(CodeTableNotAllowed, "type %s belongs to schema %s, outside the schemas of the allowed tables; use the tables of the schema you were given", display, schema)
		return
	}
	c.violation(CodeType, "type %s is not a known type (built-in, configured with WithTypes, or the row type of an allowed relation); cast to a built-in type", display)
}

// typeKnown reports whether schema.name (schema empty: along the search
// path) is a configured type or an allowed relation's row type.
func (c *checker) typeKnown(schema, name string) bool {
	look := func(s string) bool {
		if c.cfg.types[s][name] || c.cfg.types[""][name] {
			return true
		}
		if c.cfg.tables != nil && c.cfg.tables[s][name] != nil {
			return c.schemaAllowed(s)
		}
		return false
	}
	if schema != "" {
		return look(schema)
	}
	for _, s := range c.cfg.searchPath {
		if look(s) {
			return true
		}
	}
	return false
}

// schemaInScope reports whether a schema is one the request may use: on
// the search path, or holding an allowed table, and allowed by WithSchemas.
func (c *checker) schemaInScope(schema string) bool {
	if !c.schemaAllowed(schema) {
		return false
	}
	return slices.Contains(c.cfg.searchPath, schema) || len(c.cfg.tables[schema]) > 0
}
