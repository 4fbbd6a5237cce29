package validate

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// funcCall checks a function call against the deny- and allow-lists and the
// resource guards.
func (c *checker) funcCall(f *pg.FuncCall) {
	qn := splitName(f.Funcname)
	if qn.name == "" {
		c.violation(CodeUnsupported, "function call without a name")
		return
	}
	name, display := qn.name, qn.display
	if qn.schema == "" {
		c.uses.calls[name] = true
	}
	c.uses.own[name] = true
	lower := strings.ToLower(name)
	if c.catalogLookup(name) {
		// regclass('pg_authid') is a cast written as a call.
		c.violation(CodeSystemCatalog, "%s looks up the system catalogs and is not allowed; remove it", display)
		return
	}
	if lower == "current_setting" && (qn.schema == "" || qn.schema == "pg_catalog") && c.readsSetting(f) {
		c.funcs["current_setting"] = true
		return // a custom setting the configuration lets queries read (WithSettings)
	}
	if funcDenied(lower) {
		c.violation(CodeFuncDenied, "function %s is not allowed (side effects, system access or SQL from a string); remove it", display)
		return
	}
	schema := qn.schema
	if schema == "" && len(f.Args) == 1 && c.systemColumn(name) {
		// xmin(t) is t.xmin: a one-argument call that finds no function
		// is read as a field selection on a row.
		c.refuseSystemColumn(display+"(...)", name, c.loc)
		return
	}
	if qn.catalog {
		c.violation(CodeFuncNotAllowed, "function %s is not allowed; remove it or use a built-in function", display)
		return
	}
	key := name
	allowed := false
	switch schema {
	case "", "pg_catalog":
		allowed = (defaultFunctions[name] || c.cfg.allowFuncs[name]) && !c.cfg.denyFuncs[name]
	default:
		key = schema + "." + name
		allowed = c.cfg.allowFuncs[key] && !c.cfg.denyFuncs[key]
	}
	if !allowed {
		c.violation(CodeFuncNotAllowed, "function %s is not in the list of allowed functions; remove it or use a standard SQL function", display)
		return
	}
	c.funcs[key] = true
	c.textArgs(f, schema, name)
	if c.lookupResult(schema, name) {
		c.lookupCall(f, display)
	}
	if c.plan {
		// The guards judge the query as written; in a plan, bounds are
		// folded or parameters.
		return
	}
	switch name {
	case "generate_series":
		c.checkSeries(f)
	default:
		c.checkStringSize(f, name)
		c.checkOperands(name, name+"()", f.Args, nil)
	}
}

// operator checks an operator name (A_Expr, ANY/ALL sublinks, ORDER BY
// USING): a symbol PostgreSQL or a common extension defines, unqualified or
// qualified with pg_catalog.
func (c *checker) operator(names []*pg.Node) {
	if len(names) == 0 {
		return
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, n.GetString_().GetSval())
	}
	op := parts[len(parts)-1]
	if len(parts) == 1 {
		c.uses.ops[op] = true
	}
	c.uses.own[op] = true
	switch {
	case len(parts) > 2 || (len(parts) == 2 && parts[0] != "pg_catalog"):
		c.violation(CodeFuncNotAllowed, "operator %s is a user-defined operator and is not allowed; use a built-in operator", strings.Join(parts, "."))
	case !operators[op]:
		c.violation(CodeFuncNotAllowed, "operator %s is not a built-in operator and is not allowed; use a built-in operator", op)
	}
}

// valueFunction checks an SQL value function (CURRENT_DATE, CURRENT_USER, ...).
func (c *checker) valueFunction(f *pg.SQLValueFunction) {
	name, revealing := revealingValueFunctions[f.Op]
	if revealing && !c.cfg.allowFuncs[strings.ToLower(name)] {
		c.violation(CodeFuncNotAllowed, "%s reveals the database or the role running the query and is not allowed; remove it", name)
	}
}

// qualifiedName is a possibly qualified name of the parse tree (a function
// or type): name, schema ("" when unqualified), and catalog set when it has
// more parts than schema.name.
type qualifiedName struct {
	name, schema, display string
	catalog               bool
}

func splitName(nodes []*pg.Node) qualifiedName {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = n.GetString_().GetSval()
	}
	q := qualifiedName{display: strings.Join(parts, ".")}
	if len(parts) == 0 {
		return q
	}
	q.name = parts[len(parts)-1]
	switch len(parts) {
	case 1:
	case 2:
		q.schema = parts[0]
	default:
		q.catalog = true
	}
	return q
}
